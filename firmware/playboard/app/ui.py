"""The board's menu, game-over display, attract mode and start-up: the parts of the
app (``playboard.app.loop``) that are not needed while a game is played.

``playboard.app.loop.App`` loads this module when it shows the menu or a result, and
drops it when a game starts, so that its code does not share the heap with the
game's rules core, tracker and engine (on the RP2040 the code is frozen in flash
and this costs nothing). Every function takes the ``App`` as its first argument.
"""
from playboard.app.state import (GAMES, MODES, S_MENU, S_OVER, S_ATTRACT, MENU_GAME, MENU_MODE,
                                 MENU_LEVEL, MENU_START, MASK, OVER_DELAY_MS, STAFF_CORNERS,
                                 clamp)

STAFF_IDLE_MS = 60000  # the staff menu closes by itself after this long untouched
from playboard.board.lights import LEGAL, LAST, ENGINE, USER, ON, ACCENT, BLINK


def start(app, now_ms):
    """First frame's work: light the board, then resume the unfinished game found by
    the store (lighting what the pieces must be) or open the menu."""
    app.now = now_ms
    app.lights.mark(USER, 0, ON)
    app.lights.frame(now_ms)  # a lit board at once
    app.emit("boot", {"games": len(app.store.index), "problems": len(app.store.report)})
    r = app.store.resume()
    if r is not None and app.settings.get("resume", "always") == "never":
        app.store.finish("*", "abandoned")  # a museum board starts afresh
        r = None
    fit_choice(app)
    if r is not None and r.name in GAMES:
        resume(app, r, now_ms)  # the first frame replays it
        return
    elif r is not None:
        app.store.finish("*", "abandoned")
    app.open_menu(now_ms)


def resume(app, r, now_ms):
    tags = r.tags
    mode = tags.get("Mode", "two")
    level = tags.get("Level", "3")
    app.game_name = r.name
    app.mode = mode if mode in MODES else "two"
    app.level = clamp(int(level) if level.isdigit() else 3, 1, 8)
    app.new_game(now_ms, resumed=r)


def offered(app):
    """(games, modes, max level) the menu offers: every one, or in locked (museum)
    mode the settings ``games``, ``modes`` and ``max_level``."""
    s = app.settings
    if not s.get("locked"):
        return GAMES, MODES, 8
    return s.get("games", GAMES), s.get("modes", MODES), s.get("max_level", 8)


def fit_choice(app):
    """Make the menu's choice one that is offered (locked mode narrows it)."""
    games, modes, top = offered(app)
    if app.game_name not in games:
        app.game_name = games[0]
    if app.mode not in modes:
        app.mode = modes[0]
    if app.level > top:
        app.level = top


def paint_menu(app):
    li = app.lights
    li.clear()
    lay = app.menu_lay
    games, modes, top = offered(app)
    for i in range(4):
        if GAMES[i] in games:
            li.mark(LEGAL, lay.led_of(MENU_GAME[i]), ACCENT if GAMES[i] == app.game_name else ON)
        if MODES[i] in modes:
            li.mark(LEGAL, lay.led_of(MENU_MODE[i]), ACCENT if MODES[i] == app.mode else ON)
    if app.mode != "two":
        for i in range(top):
            li.mark(LAST, lay.led_of(MENU_LEVEL[i]), ACCENT if i + 1 == app.level else
                    (ON if i + 1 < app.level else 0))
    li.mark(ENGINE, lay.led_of(MENU_START), BLINK)
    app._menu_dirty = False


def menu_press(app, cell, now_ms):
    """A deliberate press of menu pit ``cell``: a choice the menu offers, or START."""
    games, modes, top = offered(app)
    if cell in MENU_GAME and GAMES[MENU_GAME.index(cell)] in games:
        app.game_name = GAMES[MENU_GAME.index(cell)]
    elif cell in MENU_MODE and MODES[MENU_MODE.index(cell)] in modes:
        app.mode = MODES[MENU_MODE.index(cell)]
    elif cell in MENU_LEVEL and app.mode != "two" and MENU_LEVEL.index(cell) < top:
        app.level = MENU_LEVEL.index(cell) + 1
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
    from playboard.app.request import check_choice
    check_choice(game, mode, level)
    if game is not None:
        app.game_name = game
    if mode is not None:
        app.mode = mode
    if level is not None:
        app.level = level
    app._menu_dirty = True


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


def buttons(cfg, n_sensors):
    """The board definition's optional ``buttons`` (name -> sensor index), checked."""
    b = cfg.get("buttons")
    if not b:
        return None
    if not isinstance(b, dict):
        raise ValueError("board %s: buttons: expected an object" % cfg.get("name"))
    for k in b:
        if k not in ("menu", "draw", "resign", "draw_black", "resign_black", "takeback"):
            raise ValueError("board %s: buttons.%s: unknown button" % (cfg.get("name"), k))
        v = b[k]
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n_sensors:
            raise ValueError("board %s: buttons.%s: sensor %r not in 0..%d"
                             % (cfg.get("name"), k, v, n_sensors - 1))
    return b


def abandon(app, now_ms):
    """A game left alone for ``idle_s`` seconds (museum: the visitor went away): it
    is recorded as abandoned and the board goes back to its attract loop."""
    ply = app.game.ply if app.game is not None else 0
    if app.store.current is not None and not app.store.finish("*", "abandoned"):
        app.pending.append(("E", "*", "abandoned"))
        app.emit("record-error", {"msg": app.store.error})
    app.emit("abandoned", {"ply": ply})
    app.open_menu(now_ms)
    app._enter(S_ATTRACT, now_ms)
    app.emit("attract", None)


def press(app, s, st, now_ms):
    """A deliberate press of Toguz pit sensor ``s`` in the menu, the result or the
    staff menu (state ``st``): a choice, back to the menu, a staff function."""
    c = app.menu_sensors[s]
    if st == S_MENU:
        menu_press(app, c, now_ms)
    elif st == S_OVER:
        if ((now_ms - app._t_state) & MASK) >= OVER_DELAY_MS:
            app.open_menu(now_ms)
    else:
        from playboard.app import staff
        staff.staff_press(app, c, now_ms)


def staff_change(app, s, now_ms):
    """Toguz pit sensor ``s`` changed in the menu or the result: the staff gesture's
    watch, from the first change of a corner pit."""
    if app.staff is not None or app.menu_sensors[s] in STAFF_CORNERS:
        from playboard.app import staff
        staff.staff_change(app, s, now_ms)


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
    app._paint_hold(now_ms)
