"""The board's menu, game-over display, attract mode and start-up: the parts of the
app (``playboard.app.loop``) that are not needed while a game is played.

``playboard.app.loop.App`` loads this module when it shows the menu or a result, and
drops it when a game starts, so that its code does not share the heap with the
game's rules core, tracker and engine (on the RP2040 the code is frozen in flash
and this costs nothing). Every function takes the ``App`` as its first argument.
"""
from playboard.app.state import (GAMES, MODES, S_SETUP, S_PLAY, MENU_GAME, MENU_MODE,
                                 MENU_LEVEL, MENU_START, clamp)
from playboard.board.lights import LEGAL, LAST, ENGINE, USER, ON, ACCENT, BLINK


def start(app, now_ms):
    """First frame's work: light the board, then resume the unfinished game found by
    the store (lighting what the pieces must be) or open the menu."""
    app.now = now_ms
    app.lights.mark(USER, 0, ON)
    app.lights.frame(now_ms)  # a lit board at once
    app.emit("boot", {"games": len(app.store.index), "problems": len(app.store.report)})
    r = app.store.resume()
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


def paint_menu(app):
    li = app.lights
    li.clear()
    lay = app.menu_lay
    for i in range(4):
        li.mark(LEGAL, lay.led_of(MENU_GAME[i]), ACCENT if GAMES[i] == app.game_name else ON)
        li.mark(LEGAL, lay.led_of(MENU_MODE[i]), ACCENT if MODES[i] == app.mode else ON)
    if app.mode != "two":
        for i in range(8):
            li.mark(LAST, lay.led_of(MENU_LEVEL[i]), ACCENT if i + 1 == app.level else
                    (ON if i + 1 < app.level else 0))
    li.mark(ENGINE, lay.led_of(MENU_START), BLINK)
    app._menu_dirty = False


def menu_press(app, cell, now_ms):
    if cell in MENU_GAME:
        app.game_name = GAMES[MENU_GAME.index(cell)]
    elif cell in MENU_MODE:
        app.mode = MODES[MENU_MODE.index(cell)]
    elif cell in MENU_LEVEL and app.mode != "two":
        app.level = MENU_LEVEL.index(cell) + 1
    elif cell == MENU_START:
        app.new_game(now_ms)
        return
    else:
        return
    app._menu_dirty = True
    app.emit("menu", {"game": app.game_name, "mode": app.mode, "level": app.level})


def choose(app, game=None, mode=None, level=None):
    """Set the next game's name, mode and level (as the menu does). ValueError if bad."""
    if game is not None:
        if game not in GAMES:
            raise ValueError("unknown game %r (one of %s)" % (game, ", ".join(GAMES)))
        app.game_name = game
    if mode is not None:
        if mode not in MODES:
            raise ValueError("unknown mode %r (one of %s)" % (mode, ", ".join(MODES)))
        app.mode = mode
    if level is not None:
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 8:
            raise ValueError("level must be 1..8, got %r" % (level,))
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


def link_set_game(app, req):
    """The link's ``G`` request: ``{"game", "mode", "level", "start": true,
    "force": false, "resign": 0|1, "draw": true, "menu": true}``. Starting a game
    while one with moves is being played needs ``force``. ValueError to refuse."""
    now = app.now
    if "check" in req:  # the self-test or calibration (docs/protocol.md)
        from playboard.app import check
        return check.link(app, req)
    if "resign" in req:
        side = req["resign"]
        if side not in (0, 1):
            raise ValueError("resign takes side 0 or 1")
        if app.state not in (S_SETUP, S_PLAY):
            raise ValueError("no game is being played")
        app.resign(side, now)
        return app.link_status()
    if req.get("draw"):
        if app.state not in (S_SETUP, S_PLAY):
            raise ValueError("no game is being played")
        app.agree_draw(now)
        return app.link_status()
    level = req.get("level")
    app.choose(req.get("game"), req.get("mode"), level)
    if level is not None:
        app.settings["level"] = level
    if req.get("start", True):
        playing = app.state in (S_SETUP, S_PLAY) and app.game is not None and app.game.ply > 0
        if playing and not req.get("force"):
            raise ValueError("a game is being played (give force to abandon it)")
        app.new_game(now)
    elif req.get("menu"):
        app.open_menu(now)
    return app.link_status()


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
