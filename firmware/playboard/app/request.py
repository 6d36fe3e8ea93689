"""The link's set-game request (``G``), checked whole before anything changes: loaded
by ``playboard.app.loop.App`` for that request only and dropped when a game begins or
the menu opens, so that a request does not bring the menu's code (``ui``) into the
heap. Functions take the ``App`` as their first argument.
"""
from playboard.app.state import GAMES, MODES, S_SETUP, S_PLAY, RESIGNED, AGREED, top_level


def check_choice(game, mode, level, app):
    """ValueError (one line) unless ``game`` (one of GAMES), ``mode`` (one of MODES) and
    ``level`` (int 1..``state.top_level`` of ``game``, or else of the game chosen now,
    on ``app``'s board) are each None or valid, and within the board's settings: in
    locked (museum) mode ``game`` in ``games`` and ``mode`` in ``modes`` (as the menu,
    ``ui.offered``), and always ``level`` at most ``max_level`` (the level is saved in
    the settings, whose ``level`` is never above it). Changes nothing; returns the
    highest level allowed (that top or ``max_level``, the lower)."""
    if game is not None and game not in GAMES:
        raise ValueError("unknown game %r (one of %s)" % (game, ", ".join(GAMES)))
    if mode is not None and mode not in MODES:
        raise ValueError("unknown mode %r (one of %s)" % (mode, ", ".join(MODES)))
    s = app.settings
    if s.get("locked"):  # the museum's limits (docs/museum.md)
        for name, v in (("games", game), ("modes", mode)):
            if v is not None and v not in s.get(name, GAMES if name == "games" else MODES):
                raise ValueError("%s %s is not offered on this board (settings %s: %s)"
                                 % (name[:-1], v, name, ",".join(s[name])))
    top = top_level(game or app.game_name, app.cfg)
    cap = min(top, s.get("max_level", top))  # (no max_level: the engine's top, as ui.offered)
    if level is not None and (not isinstance(level, int) or isinstance(level, bool)
                              or not 1 <= level <= top):
        raise ValueError("level must be 1..%d, got %r" % (top, level))
    if level is not None and level > cap:
        raise ValueError("level %d is above max_level %d (settings)" % (level, cap))
    return cap


_G_FIELDS = ("game", "mode", "level", "start", "force", "resign", "draw", "menu")


def set_choice(app, game, mode, level, cap):
    """Set the next game's name, mode and level where not None (checked before by
    :func:`check_choice`, which gave the game's top, ``cap``), the level at most that
    top; the menu is repainted."""
    if game is not None:
        app.game_name = game
    if mode is not None:
        app.mode = mode
    if level is not None:
        app.level = level
    app.level = min(app.level, cap)  # (a game with fewer levels)
    app._menu_dirty = True


def _end_verdict(app):
    """A check's verdict on show (``app.check`` finished): cut short, the menu open
    (playboard.app.check.finish). Called only once a request is accepted."""
    if app.check is not None:
        from playboard.app import check
        check.finish(app, app.now)


def link_set_game(app, req):
    """The link's ``G`` request: ``{"game", "mode", "level", "start": true,
    "force": false, "resign": 0|1, "draw": true, "menu": true}``. Starting a game
    while one with moves is being played needs ``force``. The request is checked
    whole before anything changes: ValueError (one line) to refuse, and then the
    board's choice, level, settings and game are as they were."""
    st = app.settings
    if st.get("locked") and st.get("lock_link", True) and not app.unlocked:
        # as playboard.settings.link_locked (not loaded here: a request must not cut up
        # the heap just before a game begins)
        raise ValueError("the board is locked (museum mode): unlock the link with the "
                         "staff gesture")
    if "check" in req:  # the self-test or calibration (docs/protocol.md)
        from playboard.app import check
        return check.link(app, req)
    if "pairing" in req:  # a tournament's pairing for the next game (docs/protocol.md)
        from playboard.app import pairing
        return pairing.link(app, req)
    for k in req:
        if k not in _G_FIELDS:
            raise ValueError("unknown field %r (one of %s)" % (k, ", ".join(_G_FIELDS)))
    if app.check is not None:  # the board shows a check, not a game: it ends by itself
        if app.check[2] < 0:
            raise ValueError("a %s is running: it ends by itself (playboard %s shows it)"
                             % (app.check[0], "calibrate" if app.check[0] == "calibrate" else "selftest"))
        # its verdict on show: cut short (_end_verdict) only once the request is accepted
    for k in ("start", "force", "draw", "menu"):
        if k in req and not isinstance(req[k], bool):
            raise ValueError("%s takes true or false" % k)
    now = app.now
    in_game = app.state in (S_SETUP, S_PLAY)
    if "resign" in req or req.get("draw"):
        if len(req) != 1:
            raise ValueError("resign and draw take no other field")
        if not in_game:
            raise ValueError("no game is being played")
        if "resign" in req:
            side = req["resign"]
            if side not in (0, 1) or isinstance(side, bool):
                raise ValueError("resign takes side 0 or 1")
            _end_verdict(app)
            app._game_over("0-1" if side == 0 else "1-0", RESIGNED, now)
        else:
            _end_verdict(app)
            app._game_over("1/2-1/2", AGREED, now)
        return app.link_status()
    game, mode, level = req.get("game"), req.get("mode"), req.get("level")
    top = check_choice(game, mode, level, app)
    start = req.get("start", True)
    if start and in_game and app.game is not None and app.game.ply > 0 and not req.get("force"):
        raise ValueError("a game is being played (give force to abandon it)")
    # everything checked: now change
    _end_verdict(app)
    set_choice(app, game, mode, level, top)
    if level is not None:
        app.settings["level"] = level
    if start:
        app.new_game(now)
    elif req.get("menu"):
        app.open_menu(now)
    return app.link_status()
