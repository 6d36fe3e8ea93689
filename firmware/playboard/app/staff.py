"""The staff menu (docs/museum.md), opened by the staff gesture (``ui.watch_change``),
shown on the Toguz Kumalak pits, each pit pressed deliberately like the menu's.
``playboard.app.loop.App`` loads this module only then and drops it when the menu
opens again. Functions take the ``App`` as their first argument.
"""
from playboard.app.state import S_STAFF
from playboard.board.lights import LEGAL, LAST, SOWING, ENGINE, ERROR, USER, ON, ACCENT, BLINK

# the staff menu's pits (Toguz cells): North pits 1-8 brightness steps, South pit 1
# self-test, South pit 2 unlock / lock the link, South pit 3 flash and faults, South
# pit 4 calibration (hall boards), South pit 5 clear the synced games (pressed twice
# within CLEAR_MS), North pit 9 back to the menu
STAFF_BRIGHT = (9, 10, 11, 12, 13, 14, 15, 16)
BRIGHT_STEPS = (8, 16, 32, 48, 64, 96, 160, 255)
STAFF_TEST = 0
STAFF_UNLOCK = 1
STAFF_FLASH = 2
STAFF_CALIBRATE = 3
STAFF_CLEAR = 4
STAFF_EXIT = 17
CLEAR_MS = 3000  # the second press of STAFF_CLEAR must come within this
# the flash view on; when STAFF_CLEAR was pressed once (-1: not armed)
_ST = [False, -1]


def staff_open(app, now_ms):
    """The staff gesture was made: open the staff menu."""
    app.sw_phase = app.sw_away = 0
    rest = bytes(app.rest)
    app._enter(S_STAFF, now_ms)
    app.rest[:] = rest  # the corners are still held: letting them go is back to rest
    _ST[0] = False
    _ST[1] = -1
    app._menu_dirty = True
    app.emit("staff", {"open": True})


def staff_press(app, cell, now_ms):
    """A deliberate press of Toguz pit ``cell`` in the staff menu."""
    s = app.settings
    if cell in STAFF_BRIGHT:
        v = BRIGHT_STEPS[STAFF_BRIGHT.index(cell)]
        changed = dict(s)
        changed["brightness"] = v
        if app.store.save_settings(changed):
            s["brightness"] = v
            app.apply_brightness()  # (under max_brightness)
        app.emit("staff", {"brightness": s["brightness"]})
    elif cell == STAFF_UNLOCK:
        app.unlocked = not app.unlocked
        app.emit("staff", {"unlocked": app.unlocked})
    elif cell == STAFF_TEST:
        start_check(app, "selftest", now_ms)
        return
    elif cell == STAFF_FLASH:
        _ST[0] = not _ST[0]
        app.emit("staff", {"games": app.store.count, "problems": len(app.store.report),
                           "pending": len(app.pending), "memory_errors": app.memory_errors})
    elif cell == STAFF_CALIBRATE:
        start_check(app, "calibrate", now_ms)
        return
    elif cell == STAFF_CLEAR:
        if _ST[1] >= 0 and ((now_ms - _ST[1]) & 0x3FFFFFFF) < CLEAR_MS:
            _ST[1] = -1
            clear_synced(app)
        else:
            _ST[1] = now_ms
            app.emit("staff", {"clear": "armed"})
    elif cell == STAFF_EXIT:
        app.emit("staff", {"open": False})
        app.open_menu(now_ms)
        return
    app._menu_dirty = True


def start_check(app, kind, now_ms):
    """The self-test (``kind`` "selftest") or the guided calibration of a hall board
    ("calibrate"), judged by ``playboard.app.check.start``, which runs it in place of
    play, shows its verdict on the LEDs, sends it as a ``check`` event, counts faulty
    sensors in the health counters and opens the menu when done. Refused (a board
    whose sensors need no calibration: reed switches): a ``staff`` event with the
    reason, nothing else."""
    from playboard.app import check
    try:
        check.start(app, kind, now_ms)
    except ValueError as e:
        app.emit("staff", {kind: str(e)})
        app._menu_dirty = True
        return
    app.emit("staff", {kind: True})


def clear_synced(app):
    """Remove every synced game (``s<id>.rec``: the host's library has it) from the
    flash; the games not yet synced stay. Emits ``staff`` ``{"cleared": n}``."""
    from playboard.record import folder
    n = app.store._cold(folder.clear_synced)
    app.emit("staff", {"cleared": n, "synced": app.store.synced, "games": app.store.count})


def paint_staff(app, now_ms):
    """The staff menu: brightness steps amber up to the current one (blue), self-test
    white, the link pit green when unlocked (red when locked), flash pit cyan, exit
    purple; with the flash view on, North's row shows stored games (one pit each, up to
    9) in cyan and South's the problems found on flash in red."""
    if not app._menu_dirty:
        return
    li = app.lights
    li.clear()
    lay = app.menu_lay
    if _ST[0]:
        for i in range(min(9, app.store.count)):
            li.mark(SOWING, lay.led_of(9 + i), ON)
        for i in range(min(9, len(app.store.report) + len(app.pending) + app.memory_errors)):
            li.mark(ERROR, lay.led_of(i), ON)
        li.mark(SOWING, lay.led_of(STAFF_FLASH), ACCENT)
    else:
        b = app.settings.get("brightness", 48)
        for i in range(8):
            v = BRIGHT_STEPS[i]
            li.mark(LAST, lay.led_of(STAFF_BRIGHT[i]), ACCENT if v == b else (ON if v < b else 0))
        li.mark(USER, lay.led_of(STAFF_TEST), ON)
        li.mark(LEGAL if app.unlocked else ERROR, lay.led_of(STAFF_UNLOCK), ON)
        li.mark(SOWING, lay.led_of(STAFF_FLASH), ON)
        if hasattr(app.hw, "set_zero"):  # (a hall board: it can be calibrated)
            li.mark(LAST, lay.led_of(STAFF_CALIBRATE), ON)
        if app.store.synced:
            li.mark(ERROR, lay.led_of(STAFF_CLEAR), BLINK if _ST[1] >= 0 else ON)
    li.mark(ENGINE, lay.led_of(STAFF_EXIT), BLINK)
    app._menu_dirty = False
