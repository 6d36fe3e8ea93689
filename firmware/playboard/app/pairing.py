"""A tournament's pairing sent over the link: the ``G`` request ``{"pairing": {"event",
"round", "white", "black"}, "game": "toguz"}`` (docs/protocol.md), loaded for that
request only (``playboard.app.request`` hands it here, as ``check`` the self-test), so
that the set-game code in the heap is as small as before.

The app keeps the tags in ``app.pairing`` until the next two-player game begins:
``playboard.app.gamestart`` writes them into that game's header and forgets them.
Meanwhile ``app.ready`` (int, bit 0 White, bit 1 Black) says which side has confirmed
it sits at the board (``playboard.app.ui.ready_press``): the game begins when both have.
"""
from playboard.app.state import GAMES, S_PLAY, S_SETUP

FIELDS = ("event", "round", "white", "black")


def check(p):
    """The pairing ``p`` checked: None (forget it: the next game is a friendly one), or
    a dict of FIELDS, each a text of 1..40 characters (``round``: "3.2", round 3
    table 2; "3.2.1", game 1 of match 2). Returns the header's tags {Event, Round,
    White, Black}, or None; ValueError (one line) otherwise."""
    if p is None:
        return None
    if not isinstance(p, dict):
        raise ValueError("pairing takes {event, round, white, black} or null")
    for k in p:
        if k not in FIELDS:
            raise ValueError("unknown pairing field %r (one of %s)" % (k, ", ".join(FIELDS)))
    tags = {}
    for k in FIELDS:
        v = p.get(k)
        if not isinstance(v, str) or not 0 < len(v) <= 40 or "\x00" in v:
            raise ValueError("pairing %s must be a text of 1..40 characters" % k)
        tags[k[0].upper() + k[1:]] = v
    return tags


def link(app, req):
    """The ``G`` request with ``pairing`` (and optionally ``game``, one of GAMES): checked
    whole (ValueError, one line, nothing changed), then kept for the next game begun;
    the board's choice becomes that game, two players. A game in play with a move made
    is left alone; one with no move made (not recorded anyway: a board that starts
    straight into a game, a game chosen and left) gives way to the menu, which shows
    the pairing's sides (``ui.paint_pairing``). A pairing other than the one kept
    clears who is ready (``app.ready``). A ``pairing`` event {"kept": bool, "ready"}
    says it (the tags are in the status: an event stays short). Returns the app's
    status."""
    for k in req:
        if k not in ("pairing", "game"):
            raise ValueError("a pairing takes only game beside it, not %r" % k)
    game = req.get("game")
    if game is not None and game not in GAMES:
        raise ValueError("unknown game %r (one of %s)" % (game, ", ".join(GAMES)))
    tags = check(req["pairing"])
    if tags is None or tags != getattr(app, "pairing", None):
        # a new pairing (or none): nobody is ready for it yet; the same one sent again
        # (the hall sends it at each connection) keeps who is ready
        app.ready = 0
    app.pairing = tags
    if tags is not None:
        if game is not None:
            app.game_name = game
        app.mode = "two"
    app._menu_dirty = True  # the menu shows whose side is where (ui.paint_pairing), or no more
    g = app.game
    # (while the engine thinks the game holds its search's moves: its ply is in _fen)
    if tags is not None and app.state in (S_SETUP, S_PLAY) and g is not None and app.check is None \
            and (app._fen[1] if app.thinking else g.ply) == 0:
        app._ui().abandon(app, app.now, True)  # recorded abandoned (kept: none), the menu: the pairing
    app.emit("pairing", {"kept": tags is not None, "ready": app.ready})
    return app.link_status()
