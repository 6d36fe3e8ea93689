"""The board's menu, game-over display, attract mode and start-up: the parts of the
app (``playboard.app.loop``) that are not needed while a game is played.

``playboard.app.loop.App`` loads this module when it shows the menu or a result, and
drops it when a game starts, so that its code does not share the heap with the
game's rules core, tracker and engine (on the RP2040 the code is frozen in flash
and this costs nothing). Every function takes the ``App`` as its first argument.
"""
from playboard.app.state import (GAMES, MODES, S_MENU, S_OVER, S_ATTRACT, MENU_GAME, MENU_MODE,
                                 MENU_LEVEL, MENU_START, MENU_FLASH, MASK, OVER_DELAY_MS, STAFF_CORNERS, HOLD_MS, top_level)

STAFF_IDLE_MS = 60000  # the staff menu closes by itself after this long untouched
from playboard.board.lights import LEGAL, LAST, ENGINE, ERROR, USER, ON, ACCENT, BLINK, ACCENT_BLINK


def offered(app):
    """(games, modes, max level) the menu offers: every one, or in locked (museum)
    mode the settings ``games``, ``modes`` and ``max_level``. The max level is the
    chosen game's top (``state.top_level``) or ``max_level``, the lower."""
    s = app.settings
    top = top_level(app.game_name, app.cfg)
    if not s.get("locked"):
        return GAMES, MODES, top
    return s.get("games", GAMES), s.get("modes", MODES), min(top, s.get("max_level", top))


def fit_choice(app):
    """Make the menu's choice one that is offered (locked mode narrows it; the level
    is at most the game's top)."""
    games, modes, top = offered(app)
    if app.game_name not in games:
        app.game_name = games[0]
        top = offered(app)[2]
    if app.mode not in modes:
        app.mode = modes[0]
    if app.level > top:
        app.level = top


def pairing_side(lay, c):
    """0 if cell ``c`` of layout ``lay`` is on White's / South's half, 1 if on Black's /
    North's (as :func:`side_of`, from the layout alone: the menu has no game; a kazan
    or counter is its owner's)."""
    if lay.kind(c) == "point":  # Tobit: points 1..n, White's the first half
        return 0 if 2 * c <= len(lay.cells) else 1
    n = (len(lay.cells) - 2) >> 1  # the pits of a side (beside them the two kazans / counters)
    return (0 if c < n else 1) if c < 2 * n else c - 2 * n


def paint_pairing(app):
    """The menu while the board keeps a tournament's pairing (``app.pairing``, sent by
    the host for the next game): whose side is where, and who is ready. White's half
    lights white, Black's blue (the USER layer's colours): every cell of the pairing's
    game by its side (``pairing_side``) and the Toguz Kumalak pits by their row (South
    White's, North Black's: where each side confirms, ``ready_press``). A side not
    ready yet blinks; ready, it is steady. The game and mode pads are not shown: the
    host chose them (menu_press ignores them)."""
    li = app.lights
    li.set_colour(USER, 255, 255, 255)  # (the attract loop changes the layer's colours)
    li.set_colour(USER, 0, 0, 255, True)
    ready = getattr(app, "ready", 0)
    marks = (ON if ready & 1 else BLINK, ACCENT if ready & 2 else ACCENT_BLINK)
    lay = app.load_layout(app.game_name)
    for c in lay.cells:
        li.mark(USER, lay.led_of(c), marks[pairing_side(lay, c)])  # (no LED: -1, ignored)
    menu = app.menu_lay
    for c in range(18):
        li.mark(USER, menu.led_of(c), marks[0 if c < 9 else 1])


def ready_press(app, cell, now_ms):
    """A deliberate press of menu pit ``cell`` while the board keeps a pairing: the side
    of its row is ready (South pits 1-9, cells 0-8: White; North, cells 9-17, START
    among them: Black), said by a ``ready`` event {"side", "ready"} (``app.ready``: bit
    0 White, bit 1 Black); when both are, the game begins. A side pressing again changes
    nothing."""
    bit = 1 if cell < 9 else 2
    r = getattr(app, "ready", 0)
    if r & bit:
        return
    app.ready = r = r | bit
    app._menu_dirty = True
    app.emit("ready", {"side": bit >> 1, "ready": r})
    if r == 3:
        app.new_game(now_ms)


def paint_choices(app):
    """The menu's pads: the games and modes offered, the level (against the engine), START."""
    li = app.lights
    lay = app.menu_lay
    games, modes, top = offered(app)
    if app.level > top:  # a resumed game's, from a board with more levels: its top
        app.level = top
    for i in range(4):
        if GAMES[i] in games:
            li.mark(LEGAL, lay.led_of(MENU_GAME[i]), ACCENT if GAMES[i] == app.game_name else ON)
        if MODES[i] in modes:
            li.mark(LEGAL, lay.led_of(MENU_MODE[i]), ACCENT if MODES[i] == app.mode else ON)
    if app.mode != "two":
        lv = app.level
        for i in range(min(top, 8)):
            # 1-8: lavender below the level, the level white; above 8 (9, Tobit's 9-13,
            # native Toguz Kumalak's 9-10) pad 8 blinks white and the pads up to
            # level - 8 are white: 10 = pads 1, 2
            li.mark(LAST, lay.led_of(MENU_LEVEL[i]), ACCENT if i + 1 == lv or i < lv - 8 else
                    (ACCENT_BLINK if lv > 8 and i == 7 else (ON if i + 1 < lv else 0)))
    li.mark(ENGINE, lay.led_of(MENU_START), BLINK)


def paint_menu(app):
    li = app.lights
    li.clear()
    if getattr(app, "pairing", None) is not None:
        paint_pairing(app)
    else:
        paint_choices(app)
    # the menu's rest is the board as it stands (App._enter): a result's "not yet at
    # rest" (_settled, for its last sowing) ends with it, or REST_MS would take the
    # staff gesture's four corners for the rest (docs/museum.md)
    app._settled = True
    if app.store.low:  # the flash is nearly full: the games want syncing
        li.mark(ERROR, app.menu_lay.led_of(MENU_FLASH), BLINK)
    app._menu_dirty = False
    if app.memory_errors != getattr(app, "mem_counted", 0):
        # after the menu is painted: a MemoryError loading this code (the heap, the
        # names' pool) leaves a lit menu, tried again at its next change, not each frame
        from playboard.app import museum  # (cold: dropped when a game begins)
        museum.count_memory_errors(app)


def menu_press(app, cell, now_ms):
    """A deliberate press of menu pit ``cell``: a choice the menu offers, or START; while
    the board keeps a tournament's pairing (the host chose the game) a side's "ready"
    (``ready_press``)."""
    if getattr(app, "pairing", None) is not None:
        ready_press(app, cell, now_ms)
        return
    games, modes, top = offered(app)
    if cell in MENU_GAME and GAMES[MENU_GAME.index(cell)] in games:
        app.game_name = GAMES[MENU_GAME.index(cell)]
        fit_choice(app)  # a level above the game's top comes down to it
    elif cell in MENU_MODE and MODES[MENU_MODE.index(cell)] in modes:
        app.mode = MODES[MENU_MODE.index(cell)]
    elif cell in MENU_LEVEL and app.mode != "two" and MENU_LEVEL.index(cell) < top:
        lv = MENU_LEVEL.index(cell) + 1
        if lv == 8 and app.level >= 8 and top > 8:  # 8, 9, ... the game's top, then 8
            lv = app.level + 1 if app.level < top else 8
        app.level = lv
    elif cell == MENU_START:
        app.new_game(now_ms)
        return
    else:
        return
    app._menu_dirty = True
    app.emit("menu", {"game": app.game_name, "mode": app.mode, "level": app.level})


def choose(app, game=None, mode=None, level=None):
    """Set the next game's name, mode and level (as the menu does). ValueError if any
    is bad, and then nothing is changed."""
    from playboard.app.request import check_choice, set_choice
    set_choice(app, game, mode, level, check_choice(game, mode, level, app))


def paint_over(app):
    li = app.lights
    li.clear()
    g = app.game
    lay = app.lay
    res = app.result
    winner = 0 if res == "1-0" else (1 if res == "0-1" else -1)
    for c in lay.cells:
        led = lay.led_of(c)
        if led < 0:
            continue
        side = side_of(app, c)
        if winner < 0:
            li.mark(LAST, led, ON)
        elif side == winner:
            li.mark(LEGAL, led, BLINK)
    app._over_painted = True
    if not app.sw_phase:
        # the result shows: the board as it stands is the rest. The last sowing goes on
        # into the result (OVER_DELAY_MS): a pit filled then (a corner among them, which
        # holds off REST_MS's snapshot as long as it stays off its rest) is at rest from
        # here, so that lifting a menu pad's balls presses it. A press under way keeps
        # its sensor's rest.
        h = app._hold
        v = app.rest[h] if h >= 0 else 0
        app.rest[:] = app.scanner.deb.stable
        if h >= 0:
            app.rest[h] = v
        app.sw_away = app.sw_phase = 0  # (corners filled by the sowing: at rest now)
        app._rested = h < 0
        # settled from here, as the menu (paint_menu): REST_MS then holds off for the
        # staff gesture's four corners held, which a result's staff may make too
        app._settled = True
    return g


def side_of(app, c):
    """0 if cell c is on White's / South's half of the game, 1 if on Black's / North's."""
    g = app.game
    if hasattr(g, "n_points"):
        return 0 if 2 * c <= g.n_points else 1
    n = g.n_pits
    if c < 2 * n:
        return 0 if c < n else 1
    return c - 2 * n  # kazan / counter: South's first


def attract_step(app):
    li = app.lights
    n = li.n
    if n == 0:
        return
    i = app._attract_i
    li.clear(USER)
    li.mark(USER, i % n, ON)
    li.mark(USER, (i + n // 3) % n, ACCENT)
    li.mark(USER, (i + 2 * n // 3) % n, ON)
    k = (i // n) % 3
    li.set_colour(USER, (255, 0, 60)[k], (60, 255, 0)[k], (0, 60, 255)[k])
    app._attract_i = i + 1


def abandon(app, now_ms, menu=False):
    """A game left alone for ``idle_s`` seconds (museum: the visitor went away): it
    is recorded as abandoned and the board goes back to its attract loop. ``menu``:
    START pressed in a Tobit set-up nobody has begun (``App._pad_press``): recorded
    abandoned the same way, and the menu opens (docs/app.md)."""
    ply = 0 if menu else app.last_ply  # (App._paint: its game may be gone already)
    if app.store.current is not None and not app.store.finish("*", "abandoned"):
        app.pending.append(("E", "*", "abandoned"))
        app.emit("record-error", {"msg": app.store.error})
    app.emit("abandoned", {"ply": ply})
    app.open_menu(now_ms)
    if menu:
        return
    app._enter(S_ATTRACT, now_ms)
    app.emit("attract", None)


def press(app, s, st, now_ms):
    """A deliberate press of Toguz pit sensor ``s`` in the menu, the result or the
    staff menu (state ``st``): a choice, back to the menu (with a pairing kept, its
    side ready too), a staff function."""
    c = app.menu_sensors[s]
    if st == S_MENU:
        menu_press(app, c, now_ms)
    elif st == S_OVER:
        if ((now_ms - app._t_state) & MASK) >= OVER_DELAY_MS:
            app.open_menu(now_ms)
            if getattr(app, "pairing", None) is not None:  # the next game's pairing: one
                ready_press(app, c, now_ms)  # press leaves the result and says "ready"
    else:
        from playboard.app import staff
        staff.staff_press(app, c, now_ms)


STAFF_HOLD_MS = 3000  # the four corners held together this long, twice
STAFF_GAP_MS = 5000  # let go of all four, and hold them again, each within this


def watch_change(w, i, away, now_ms):
    """The staff gesture's watch: corner pit ``i`` (0..3 of STAFF_CORNERS) or another
    Toguz pit (i = -1) changed; ``away``: it is off its rest value. The gesture: the
    four corners away together for STAFF_HOLD_MS, all let go, then all four away
    together again for STAFF_HOLD_MS (each step within STAFF_GAP_MS), no other pit
    changing. ``w`` holds ints ``sw_away`` (bit i: corner i away), ``sw_phase`` (0 idle,
    1 first hold, 2 letting go, 3 second hold) and ``sw_t`` (the App: nothing is
    allocated while the menu shows)."""
    if i < 0:
        w.sw_phase = 0  # another pit: not the staff
        return
    if away:
        w.sw_away |= 1 << i
    else:
        w.sw_away &= ~(1 << i)
    ph = w.sw_phase
    if w.sw_away == 15:
        if ph == 0 or ph == 2:
            w.sw_phase = ph + 1
            w.sw_t = now_ms
    elif ph == 1 or ph == 3:
        # one let go: after a full first hold the letting go begins; else no gesture
        if ph == 1 and ((now_ms - w.sw_t) & MASK) >= STAFF_HOLD_MS:
            w.sw_phase = 2
            w.sw_t = now_ms
        else:
            w.sw_phase = 0
    elif ph == 2 and w.sw_away == 0:
        w.sw_t = now_ms  # all let go: the second hold must begin within the gap


def watch_tick(w, now_ms):
    """Each frame while ``w.sw_phase`` is set: True once when the gesture is complete."""
    ph = w.sw_phase
    dt = (now_ms - w.sw_t) & MASK
    if ph == 3 and dt >= STAFF_HOLD_MS:
        w.sw_phase = 0
        return True
    if ph == 2 and dt >= STAFF_GAP_MS:
        w.sw_phase = 0
    return False


def staff_change(app, s, now_ms):
    """Sensor ``s`` changed in the menu or the result: a Toguz pit feeds the staff
    watch; another sensor may have completed the Tobit start position
    (``playboard.app.museum.set_position``)."""
    c = app.menu_sensors[s]
    if c == 255:
        from playboard.app import museum  # (cold: dropped when a game begins)
        museum.set_position(app, now_ms)
        return
    i = STAFF_CORNERS.index(c) if c in STAFF_CORNERS else -1
    if i >= 0 or app.sw_phase:
        watch_change(app, i, app.scanner.deb.stable[s] != app.rest[s], now_ms)


def staff_open(app, now_ms):
    from playboard.app import staff
    staff.staff_open(app, now_ms)


def paint_staff(app, now_ms):
    """A frame of the staff menu; it closes by itself after STAFF_IDLE_MS untouched."""
    if ((now_ms - app._t_idle) & MASK) >= STAFF_IDLE_MS:
        app.open_menu(now_ms)
        return
    from playboard.app import staff
    staff.paint_staff(app, now_ms)
    if app._hold >= 0:
        paint_hold(app, now_ms)


def paint_hold(app, now_ms):
    """The fill of a deliberate press of a Toguz pit (the menu, the result, the staff
    menu): its row lights pit by pit (white) and turns blue when held long enough (let
    go now)."""
    h = app._hold
    c = app.menu_sensors[h]
    if c == 255:
        return
    li = app.lights
    dt = (now_ms - app._t_hold) & MASK
    k = 9 if dt >= HOLD_MS else 1 + 8 * dt // HOLD_MS
    mark = ACCENT if dt >= HOLD_MS else ON
    row = c - c % 9
    for i in range(9):
        li.mark(USER, app.menu_lay.led_of(row + i), mark if i < k else 0)
