"""Tobit's native kernels: make and unmake a move, the capture/quiet scan (RULES.md
section 2); used by ``playboard.games.tobit``.

Native (viper) code: imported at power-up and never dropped (docs/architecture.md).
"""
from playboard.compat import micropython, ptr8, ptr32  # noqa: F401


@micropython.viper
def _push(b: ptr8, m: ptr8, st: ptr8, u: ptr8, o: int, geo: ptr8, z: ptr32) -> int:
    """Make move ``m`` (length in st[ST_MLEN]) on board ``b``, saving the board,
    the state and the move at u[o:]; updates the state ``st`` (turn, key, clock).
    ``geo``: [n + 1, T + 1, 0, 0], then the neighbour table (4 per point), then
    (x, y) per point. ``z``: Zobrist keys. Returns the new clock."""
    n1 = int(geo[0])
    far = int(geo[1])
    xy = 4 + 4 * n1
    i = 0
    while i < n1:
        u[o + i] = b[i]
        i += 1
    o += n1
    i = 0
    while i < 10:
        u[o + i] = st[i]
        i += 1
    mlen = int(st[8])
    i = 0
    while i < mlen:
        u[o + 10 + i] = m[i]
        i += 1
    key = int(st[4]) | (int(st[5]) << 8) | (int(st[6]) << 16) | (int(st[7]) << 24)
    s = int(m[1])
    e = int(m[mlen - 1])
    piece = int(b[s])
    b[s] = 0
    key ^= int(z[4 * s + (piece & 3) - 1 + ((piece >> 1) & 2)])
    irreversible = 0
    if int(m[0]) == 1:
        irreversible = 1
        i = 1
        while i < mlen - 1:
            p = int(m[i])
            t = int(m[i + 1])
            sx = int(geo[xy + 2 * p])
            tx = int(geo[xy + 2 * t])
            if sx == tx:
                d = 2
                if int(geo[xy + 2 * t + 1]) > int(geo[xy + 2 * p + 1]):
                    d = 0
            else:
                d = 3
                if tx > sx:
                    d = 1
            while p != t:
                p = int(geo[4 + 4 * p + d])
                c = int(b[p])
                if c:
                    key ^= int(z[4 * p + (c & 3) - 1 + ((c >> 1) & 2)])
                    b[p] = 0
            i += 1
    if (piece & 4) == 0:
        ey = int(geo[xy + 2 * e + 1])
        if ey != int(geo[xy + 2 * s + 1]):
            irreversible = 1  # a man's forward step; a sideways one can be undone
        if piece == 1:
            if ey == far:
                piece = 5  # promotion (2.5)
        elif ey == 0:
            piece = 6
    b[e] = piece
    key ^= int(z[4 * e + (piece & 3) - 1 + ((piece >> 1) & 2)])
    key ^= int(z[0])
    st[3] = 1 - int(st[3])
    st[4] = key & 255
    st[5] = (key >> 8) & 255
    st[6] = (key >> 16) & 255
    st[7] = (key >> 24) & 255
    clock = 0
    if not irreversible:
        clock = int(st[1]) | (int(st[2]) << 8)
        if clock < 65535:
            clock += 1
    st[1] = clock & 255
    st[2] = clock >> 8
    return clock


@micropython.viper
def _scan(b: ptr8, geo: ptr8, me: int, out: ptr8) -> int:
    """Look over the board for side ``me`` (1 White, 2 Black).

    If any piece of that side can capture, write the points of the pieces that
    can into ``out`` and return their count + 256. Otherwise write the quiet
    moves as (from, to) pairs into ``out`` and return the number of pairs."""
    n1 = int(geo[0])
    enemy = 3 - me
    back = 0
    if me == 1:
        back = 2
    ncap = 0
    p = 1
    while p < n1:
        c = int(b[p])
        if c != 0 and (c & 3) == me:
            d = 0
            while d < 4:
                a = int(geo[4 + 4 * p + d])
                if c & 4:
                    while a != 0 and int(b[a]) == 0:
                        a = int(geo[4 + 4 * a + d])
                if a != 0 and (int(b[a]) & 3) == enemy:
                    t = int(geo[4 + 4 * a + d])
                    if t != 0 and int(b[t]) == 0:
                        out[ncap] = p
                        ncap += 1
                        break
                d += 1
        p += 1
    if ncap:
        return ncap + 256
    k = 0
    p = 1
    while p < n1:
        c = int(b[p])
        if c != 0 and (c & 3) == me:
            d = 0
            while d < 4:
                if c & 4:
                    t = int(geo[4 + 4 * p + d])
                    while t != 0 and int(b[t]) == 0:
                        out[k] = p
                        out[k + 1] = t
                        k += 2
                        t = int(geo[4 + 4 * t + d])
                elif d != back:
                    t = int(geo[4 + 4 * p + d])
                    if t != 0 and int(b[t]) == 0:
                        out[k] = p
                        out[k + 1] = t
                        k += 2
                d += 1
        p += 1
    return k >> 1


@micropython.viper
def _unmake(b: ptr8, st: ptr8, u: ptr8, o: int, n1: int):
    """Restore the board and state saved at u[o:] by _push."""
    i = 0
    while i < n1:
        b[i] = u[o + i]
        i += 1
    o += n1
    i = 0
    while i < 10:
        st[i] = u[o + i]
        i += 1
