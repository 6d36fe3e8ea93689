"""The staff gesture and the staff menu (docs/museum.md). The gesture is watched
(``StaffWatch``) from the first change of a corner pit in the menu or the result; the
staff menu is shown on the Toguz Kumalak pits, each pit pressed deliberately like the
menu's. ``playboard.app.loop.App`` loads this module only then and drops it when the
menu opens again. Functions take the ``App`` as their first argument.
"""
from playboard.app.state import S_STAFF, STAFF_CORNERS
from playboard.board.lights import LEGAL, LAST, SOWING, ENGINE, ERROR, USER, ON, ACCENT, BLINK

# ---- the staff gesture ---------------------------------------------------------------

STAFF_HOLD_MS = 3000  # the four corners held together this long, twice
STAFF_GAP_MS = 5000  # let go of all four, and hold them again, each within this
class StaffWatch:
    """Recognises the staff gesture from the changes of the Toguz pits: the four corner
    pits (``STAFF_CORNERS``) away from rest together for ``STAFF_HOLD_MS``, all let go,
    then all four away together again for ``STAFF_HOLD_MS`` (each step within
    ``STAFF_GAP_MS``), while no other pit changes. ``change(i, away, now_ms)``: corner
    i (0..3) or another pit (i = -1) changed, away = it is off its rest value;
    ``tick(now_ms)`` each frame: True once when the gesture is complete. ``busy`` is
    True while a gesture may be under way (the board's rest is then kept)."""

    def __init__(self):
        self.away = 0  # bit i: corner i away from rest
        self.phase = 0  # 0 idle, 1 first hold, 2 letting go, 3 second hold
        self.t = 0

    @property
    def busy(self):
        return self.phase != 0 or self.away != 0

    def change(self, i, away, now_ms):
        if i < 0:
            self.phase = 0  # another pit: not the staff
            return
        if away:
            self.away |= 1 << i
        else:
            self.away &= ~(1 << i)
        ph = self.phase
        if self.away == 15:
            if ph == 0 or ph == 2:
                self.phase = ph + 1
                self.t = now_ms
        elif ph == 1 or ph == 3:
            # one let go: after a full first hold, the letting go begins; else no gesture
            if ph == 1 and ((now_ms - self.t) & 0x3FFFFFFF) >= STAFF_HOLD_MS:
                self.phase = 2
                self.t = now_ms
            else:
                self.phase = 0
        elif ph == 2 and self.away == 0:
            self.t = now_ms  # all let go: the second hold must begin within the gap

    def tick(self, now_ms):
        ph = self.phase
        dt = (now_ms - self.t) & 0x3FFFFFFF
        if ph == 3 and dt >= STAFF_HOLD_MS:
            self.phase = 0
            return True
        if ph == 2 and dt >= STAFF_GAP_MS:
            self.phase = 0
        return False


def staff_change(app, s, now_ms):
    """Feed the staff watch the change of Toguz pit sensor ``s`` (menu and result)."""
    w = app.staff
    if w is None:
        w = app.staff = StaffWatch()
    c = app.menu_sensors[s]
    i = STAFF_CORNERS.index(c) if c in STAFF_CORNERS else -1
    w.change(i, app.scanner.deb.stable[s] != app.rest[s], now_ms)


# the staff menu's pits (Toguz cells): North pits 1-8 brightness steps, South pit 1
# self-test, South pit 2 unlock / lock the link, South pit 3 flash and faults, North pit
# 9 back to the menu
STAFF_BRIGHT = (9, 10, 11, 12, 13, 14, 15, 16)
BRIGHT_STEPS = (8, 16, 32, 48, 64, 96, 160, 255)
STAFF_TEST = 0
STAFF_UNLOCK = 1
STAFF_FLASH = 2
STAFF_EXIT = 17


def staff_open(app, now_ms):
    """The staff gesture was made: open the staff menu."""
    app.staff = None
    rest = bytes(app.rest)
    app._enter(S_STAFF, now_ms)
    app.rest[:] = rest  # the corners are still held: letting them go is back to rest
    app._selftest = None
    app._menu_dirty = True
    app.emit("staff", {"open": True})


def staff_press(app, cell, now_ms):
    """A deliberate press of Toguz pit ``cell`` in the staff menu."""
    s = app.settings
    if app._selftest is not None:
        app._selftest = None  # any press ends the self-test
        app.lights.clear()
        app.lights._dirty = True
    elif cell in STAFF_BRIGHT:
        v = BRIGHT_STEPS[STAFF_BRIGHT.index(cell)]
        changed = dict(s)
        changed["brightness"] = v
        if app.store.save_settings(changed):
            s["brightness"] = v
            app.lights.set_brightness(v)
        app.emit("staff", {"brightness": s["brightness"]})
    elif cell == STAFF_UNLOCK:
        app.unlocked = not app.unlocked
        app.emit("staff", {"unlocked": app.unlocked})
    elif cell == STAFF_TEST:
        from playboard.hw.selftest import SelfTest
        sl = bytearray(b"\xff" * app.hw.n_sensors)
        for g in app.layouts:
            lay = app.layouts[g]
            for c in lay.cells:
                sn = lay.sensor_of(c)
                if sn >= 0:
                    sl[sn] = lay.led_of(c) & 255
        app._selftest = SelfTest(app.hw, sl)
        app.emit("staff", {"selftest": True})
    elif cell == STAFF_FLASH:
        app._show_flash = not app._show_flash
        app.emit("staff", {"games": len(app.store.index), "problems": len(app.store.report),
                           "pending": len(app.pending), "memory_errors": app.memory_errors})
    elif cell == STAFF_EXIT:
        app.emit("staff", {"open": False})
        app.open_menu(now_ms)
        return
    app._menu_dirty = True


def paint_staff(app, now_ms):
    """The staff menu: brightness steps amber up to the current one (blue), self-test
    white, the link pit green when unlocked (red when locked), flash pit cyan, exit
    purple; with the flash view on, North's row shows stored games (one pit each, up to
    9) in cyan and South's the problems found on flash in red."""
    st = app._selftest
    if st is not None:
        st.step(now_ms)
        return
    if not app._menu_dirty:
        return
    li = app.lights
    li.clear()
    lay = app.menu_lay
    if app._show_flash:
        for i in range(min(9, len(app.store.index))):
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
    li.mark(ENGINE, lay.led_of(STAFF_EXIT), BLINK)
    app._menu_dirty = False
