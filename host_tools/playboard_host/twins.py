"""CPython twins of the rules cores' viper functions (host tools only; never on the board).

:func:`install` puts them in place of the viper functions of ``playboard.games.toguz``
and ``playboard.games.tobit`` (importing ``playboard_host`` does it), through
``playboard.compat.TWINS``: the cores never import this module.

Under CPython a viper function runs as plain Python, byte by byte. These twins do
the same work in CPython's idiom (slices, ``bytes.translate``), with the same
arguments and the same effect; the tests check each against its viper original on
thousands of random moves. Directions: 0 North, 1 East, 2 South, 3 West.
"""
from playboard.compat import TWINS

_ADD = [bytes((i + q) & 255 for i in range(256)) for q in range(10)]
_INC = _ADD[1]


def toguz_sow(p, pit):
    """CPython twin of ``toguz._sow``: same arguments, same effect on ``p``."""
    side = p[22]
    src = pit + 9 * side
    n = p[src]
    p[src] = 0
    if n == 1:
        last = src + 1 if src != 17 else 0
        p[last] += 1
    else:
        if n < 18:
            r = n
        else:
            q, r = divmod(n, 18)
            p[0:18] = p[0:18].translate(_ADD[q])
        end = src + r
        if end <= 18:
            p[src:end] = p[src:end].translate(_INC)
        else:
            p[src:18] = p[src:18].translate(_INC)
            p[0:end - 18] = p[0:end - 18].translate(_INC)
        last = (src + n - 1) % 18
    t = p[20]
    if t != 255 and p[t]:
        p[18] += p[t]
        p[t] = 0
    t = p[21]
    if t != 255 and p[t]:
        p[19] += p[t]
        p[t] = 0
    flags = 0
    if (last >= 9) != side:
        c = p[last]
        if c and not c & 1:
            p[18 + side] += c
            p[last] = 0
            flags = 1
        elif c == 3 and p[20 + side] == 255:
            ot = p[21 - side]
            num = last - 9 + 9 * side
            if num != 8 and (ot == 255 or ot - 9 * side != num):
                p[20 + side] = last
                p[18 + side] += 3
                p[last] = 0
                flags = 2
    p[23] = last
    p[24] = flags
    p[22] = 1 - side
    ks = p[18]
    kn = p[19]
    if ks >= 82 or kn >= 82 or (ks == 81 and kn == 81):
        p[25] = 1
    elif p.count(0, 9 - 9 * side, 18 - 9 * side) == 9:  # the next side has no ball
        toguz_check_end(p)
    return 0


def toguz_perft(p, depth):
    """Perft below position ``p`` by toguz_sow and snapshot restore (CPython)."""
    base = 9 * p[22]
    saved = bytes(p)
    n = 0
    for m in range(9):
        if p[base + m]:
            toguz_sow(p, m)
            if depth == 1:
                n += 1
            elif not p[25]:
                n += toguz_perft(p, depth - 1)
            p[:] = saved
    return n


def toguz_check_end(p):
    from playboard.games.toguz import _check_end

    _check_end(p)


def tobit_scan(b, geo, me, out):
    """CPython twin of ``tobit._scan`` (same arguments, same result), in CPython's idiom."""
    n1 = geo[0]
    enemy = 3 - me
    back = 2 if me == 1 else 0
    ncap = 0
    pieces = [p for p in range(1, n1) if b[p] and (b[p] & 3) == me]
    for p in pieces:
        c = b[p]
        for d in range(4):
            a = geo[4 + 4 * p + d]
            if c & 4:
                while a and not b[a]:
                    a = geo[4 + 4 * a + d]
            if a and (b[a] & 3) == enemy:
                t = geo[4 + 4 * a + d]
                if t and not b[t]:
                    out[ncap] = p
                    ncap += 1
                    break
    if ncap:
        return ncap + 256
    k = 0
    for p in pieces:
        c = b[p]
        for d in range(4):
            if c & 4:
                t = geo[4 + 4 * p + d]
                while t and not b[t]:
                    out[k] = p
                    out[k + 1] = t
                    k += 2
                    t = geo[4 + 4 * t + d]
            elif d != back:
                t = geo[4 + 4 * p + d]
                if t and not b[t]:
                    out[k] = p
                    out[k + 1] = t
                    k += 2
    return k >> 1


def tobit_push(b, m, st, u, o, geo, z):
    """CPython twin of ``tobit._push`` (same arguments, same effect), in CPython's idiom."""
    n1 = geo[0]
    mlen = st[8]
    u[o:o + n1] = b
    u[o + n1:o + n1 + 10] = st
    u[o + n1 + 10:o + n1 + 10 + mlen] = m
    xy = 4 + 4 * n1
    key = st[4] | (st[5] << 8) | (st[6] << 16) | (st[7] << 24)
    s = m[1]
    e = m[mlen - 1]
    piece = b[s]
    b[s] = 0
    key ^= z[4 * s + (piece & 3) - 1 + ((piece >> 1) & 2)]
    irreversible = m[0] == 1
    for i in range(1, mlen - 1):
        p = m[i]
        t = m[i + 1]
        if geo[xy + 2 * p] == geo[xy + 2 * t]:
            d = 0 if geo[xy + 2 * t + 1] > geo[xy + 2 * p + 1] else 2
        else:
            d = 1 if geo[xy + 2 * t] > geo[xy + 2 * p] else 3
        while p != t:
            p = geo[4 + 4 * p + d]
            c = b[p]
            if c:
                key ^= z[4 * p + (c & 3) - 1 + ((c >> 1) & 2)]
                b[p] = 0
    if not piece & 4:
        ey = geo[xy + 2 * e + 1]
        if ey != geo[xy + 2 * s + 1]:
            irreversible = True
        if piece == 1 and ey == geo[1]:
            piece = 5
        elif piece == 2 and ey == 0:
            piece = 6
    b[e] = piece
    key ^= z[4 * e + (piece & 3) - 1 + ((piece >> 1) & 2)] ^ z[0]
    st[3] ^= 1
    st[4] = key & 255
    st[5] = (key >> 8) & 255
    st[6] = (key >> 16) & 255
    st[7] = key >> 24
    clock = 0 if irreversible else min(st[1] | (st[2] << 8), 65534) + 1
    st[1] = clock & 255
    st[2] = clock >> 8
    return clock


def tobit_unmake(b, st, u, o, n1):
    """CPython twin of ``tobit._unmake``."""
    b[:] = u[o:o + n1]
    st[:] = u[o + n1:o + n1 + 10]


def install():
    """Make the rules cores run these twins under CPython (idempotent): registered in
    ``playboard.compat.TWINS``, where a core looks when it is imported (again, after a
    test unloads it), and put into the cores already imported. The viper originals
    stay as ``toguz._sow_viper``, ``tobit._push_viper`` and so on."""
    import sys
    TWINS["toguz"] = {"_sow": toguz_sow, "_perft_twin": toguz_perft}
    TWINS["tobit"] = {"_push": tobit_push, "_scan": tobit_scan, "_unmake": tobit_unmake}
    for name in ("toguz", "tobit"):
        mod = sys.modules.get("playboard.games." + name)
        if mod is not None:
            for k, f in TWINS[name].items():
                setattr(mod, k, f)
