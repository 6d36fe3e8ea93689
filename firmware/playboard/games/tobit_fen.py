"""Setting up a Tobit position from its text (RULES.md 2.13): ``TobitBoard.set_fen``,
which loads this module at its first call (a new game is set up without it: its
code is not in the heap while a game from the start position is played; the app
drops it with the game's code, ``state.GAME_CODE``).
"""
from playboard.compat import const
from playboard.games.common import GameError

# playboard.games.tobit's, as private consts (inlined: no globals)
_WHITE_MAN = const(1)
_BLACK_MAN = const(2)
_TOBIT = const(4)
_ST_TURN = const(3)
_ST_SIZE = const(10)


def set_fen(g, text):
    """Set Tobit game ``g`` to the position of ``text``: see ``TobitBoard.set_fen``."""
    if not isinstance(text, str):
        raise GameError("position text must be a string")
    fields = text.strip().split(":")
    if len(fields) != 3 or fields[0] not in ("W", "B"):
        raise GameError("position text: expected 'W|B:W<points>:B<points>', got %r" % text)
    board = bytearray(g.n_points + 1)
    seen = {}  # type: dict
    for field, colour in ((fields[1], "W"), (fields[2], "B")):
        if not field.startswith(colour):
            raise GameError("position text: field %r should start with %s (White first, then Black)" % (field, colour))
        body = field[1:]
        if not body:
            continue
        items = body.split(",")
        for item in items:
            item = item.strip()
            king = item[:1] == "K"
            num = item[1:] if king else item
            if not num or any(c not in "0123456789" for c in num):
                raise GameError("position text: bad point %r in %r" % (item, text))
            p = int(num)
            if not 1 <= p <= g.n_points:
                raise GameError("position text: point %d is off the %s board (1..%d)" % (p, g.name, g.n_points))
            if p in seen:
                raise GameError("position text: point %d is named twice" % p)
            seen[p] = 1
            if not king and g._xy[2 * p + 1] == (g.T + 1 if colour == "W" else 0):
                raise GameError("position text: a %s man can't stand on point %d, its far end "
                                "(it would be a tobit: RULES.md 2.5); write K%d" % (
                                    "White" if colour == "W" else "Black", p, p))
            board[p] = (_WHITE_MAN if colour == "W" else _BLACK_MAN) | (_TOBIT if king else 0)
        # (after the items are read: a stray comma is named as such, not counted a piece)
        if len(items) > 2 * g.L + 2:  # the rules core's buffers hold no more (a capture
            # path, the scan's moves): RULES.md 2.3, 2L + 2 men a side at the start
            raise GameError("position text: %d %s pieces, more than the %d a side starts with "
                            "(RULES.md 2.3)" % (len(items), "White" if colour == "W" else "Black",
                                                2 * g.L + 2))
    g.board[:] = board
    st = g.st
    for i in range(_ST_SIZE):
        st[i] = 0
    st[_ST_TURN] = 0 if fields[0] == "W" else 1
    g.ply = 0
    g._set_key(g._full_key())
    g.root_fen = g.fen()
