"""Perft for Tobit (RULES.md 2.14), apart from tobit.py so that the board, which never
counts, does not hold its code.

Every ply is pushed with the game's own ``push`` (no bulk counting of the last
ply). Quiet moves are pushed from one reusable buffer instead of a new ``bytes``
each (``push`` copies the move into its undo record), so counting allocates only
for captures and one scan buffer per depth.
"""
from playboard.games.tobit import QUIET, ST_TURN, ST_TERM, _scan


def perft(g, depth):
    """Number of legal move sequences of exactly ``depth`` plies from ``g`` (a Tobit)."""
    if depth <= 0:
        return 1
    if g.st[ST_TERM]:
        return 0
    bufs = [bytearray(len(g._scanbuf)) for _ in range(depth)]
    return _perft(g, depth, bufs, bytearray((QUIET, 0, 0)))


def _perft(g, depth, bufs, mv):
    buf = bufs[depth - 1]
    n = _scan(g.board, g._geo, g.st[ST_TURN] + 1, buf)
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
        elif not st[ST_TERM]:
            count += _perft(g, depth - 1, bufs, mv)
        unmake()
    return count
