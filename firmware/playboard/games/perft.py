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
    # the module's scan, looked up once: the viper code, or its twin on CPython
    return _perft(game, depth, bufs, bytearray((tobit.QUIET, 0, 0)), tobit._scan,
                  tobit.ST_TURN, tobit.ST_TERM)


def _perft(g, depth, bufs, mv, scan, turn_at, term_at):
    buf = bufs[depth - 1]
    st = g.st
    n = scan(g.board, g._geo, st[turn_at] + 1, buf)
    caps = g._captures(buf, n - 256) if n >= 256 else None
    push = g.push
    unmake = g.undo
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
        elif not st[term_at]:
            count += _perft(g, depth - 1, bufs, mv, scan, turn_at, term_at)
        unmake()
    return count
