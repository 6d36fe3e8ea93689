"""Perft drivers (RULES.md 1.9, 2.14, 3.6): ``perft(game, depth)`` for every game.

Toguz Kumalak and Tihbat count with their core's own ``perft`` method (Toguz
Kumalak's viper walk). Tobit counts here, apart from tobit.py so that the board,
which never counts, does not hold this code: every ply is pushed with the game's
own ``push`` (no bulk counting of the last ply); quiet moves are pushed from one
reusable buffer instead of a new ``bytes`` each (``push`` copies the move into its
undo record), so counting allocates only for captures and one scan buffer per depth.
This module imports the cores, never the reverse.
"""
from playboard.games import tobit


def perft(game, depth):
    """Number of legal move sequences of exactly ``depth`` plies from ``game``'s
    position (an int >= 0; 1 at depth 0). A game that ends earlier contributes nothing
    (RULES.md, common terms). ``game`` is left unchanged."""
    if not isinstance(game, tobit.Tobit):
        return game.perft(depth)
    if depth <= 0:
        return 1
    if game.st[tobit.ST_TERM]:
        return 0
    bufs = [bytearray(len(game._scanbuf)) for _ in range(depth)]
    return _perft(game, depth, bufs, bytearray((tobit.QUIET, 0, 0)))


def _perft(g, depth, bufs, mv):
    buf = bufs[depth - 1]
    n = tobit._scan(g.board, g._geo, g.st[tobit.ST_TURN] + 1, buf)  # the module's: a twin on CPython
    caps = g._captures(buf, n - 256) if n >= 256 else None
    push = g.push
    unmake = g._unmake
    st = g.st
    count = 0
    for i in range(len(caps) if caps is not None else n):
        if caps is not None:
            m = caps[i]
        else:
            mv[1] = buf[2 * i]
            mv[2] = buf[2 * i + 1]
            m = mv
        push(m)
        if depth == 1:
            count += 1
        elif not st[tobit.ST_TERM]:
            count += _perft(g, depth - 1, bufs, mv)
        unmake()
    return count
