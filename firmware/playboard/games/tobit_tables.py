"""Making Tobit's tables (``TobitBoard.tables``, which loads this module and drops
it after: its code is not in the heap while a game is played): the geometry of
the L x T board (RULES.md 2.1, 2.2) and the Zobrist keys.
"""
from array import array

_DX = (0, 1, 0, -1)
_DY = (1, 0, -1, 0)


def _xorshift_keys(n, seed):
    """n pseudo-random ints below 2**30 (fixed seed: keys are the same on every run)."""
    out = array("i", bytes(4 * n))
    x = seed & 0x3FFFFFFF
    for i in range(n):
        # (x << 13) & 0x3FFFFFFF without the bits that fall off: x stays a small int
        # (below 2**30) on a 32-bit port, never a long int on the heap (31 KB of garbage
        # on the RP2040)
        x ^= (x & 0x1FFFF) << 13
        x ^= x >> 17
        x ^= (x & 0x1FFFFFF) << 5
        out[i] = x
    return out


def make(L, T):
    """(xy, pt, nb, geo, z) of the L x T board: see ``TobitBoard.tables``."""
    n = L * T + 2 * L + 2 * T
    xy = bytearray(2 * (n + 1))
    # (a bytearray, not a dict of tuples: 42 bytes where the dict took about 2 KB
    # of heap on the unix port)
    pt = bytearray((L + 2) * (T + 2))
    p = 0
    for y in range(T + 2):
        xs = range(1, L + 1) if y in (0, T + 1) else range(0, L + 2)
        for x in xs:
            p += 1
            xy[2 * p] = x
            xy[2 * p + 1] = y
            pt[y * (L + 2) + x] = p
    nb = bytearray(4 * (n + 1))
    w = L + 2
    for p in range(1, n + 1):
        x, y = xy[2 * p], xy[2 * p + 1]
        for d in range(4):
            if (d & 1) == 0 and not (1 <= x <= L):
                continue  # not on a longitudinal line
            if (d & 1) == 1 and not (1 <= y <= T):
                continue  # not on a transverse line
            qx, qy = x + _DX[d], y + _DY[d]
            if 0 <= qx < w and 0 <= qy < T + 2:
                nb[p * 4 + d] = pt[qy * w + qx]
    geo = bytearray(4 + 6 * (n + 1))
    geo[0] = n + 1
    geo[1] = T + 1
    geo[4:4 + 4 * (n + 1)] = nb
    geo[4 + 4 * (n + 1):] = xy
    return xy, pt, nb, geo, _xorshift_keys(4 * (n + 1) + 1, 0x2545F491)
