"""The Tobit tracker's native kernels: occupancy masks, matching the board against the
known positions, painting and guidance; used by ``playboard.board.tobit_tracker``.

Native (viper) code: imported at power-up and never dropped (docs/architecture.md).
"""
from playboard.compat import micropython, ptr8, ptr32  # noqa: F401


@micropython.viper
def _masks(occ: ptr8, n: int, out: ptr32):
    """out[0..3] = presence lo, hi, White lo, hi of points 1..n of occ."""
    lo = 0
    hi = 0
    wlo = 0
    whi = 0
    p = 1
    while p <= n:
        v = occ[p]
        if v:
            w = (v & 3) == 1
            if p < 30:
                b = 1 << (p - 1)
                lo |= b
                if w:
                    wlo |= b
            else:
                b = 1 << (p - 30)
                hi |= b
                if w:
                    whi |= b
        p += 1
    out[0] = lo
    out[1] = hi
    out[2] = wlo
    out[3] = whi


@micropython.viper
def _match(rec: ptr32, nrec: int, cur: ptr32, flags: ptr8, colour: int) -> int:
    """Classify the snapshot cur[0..3] against the base cur[4..7] for records 0..nrec-1.

    colour: 0 presence only; 1 / 2: colours are checked and the mover is White /
    Black (a piece put down must be the mover's). flags[i] bit 0x80 (disallowed)
    is kept; bit 1: consistent (a state on the way to the record's occupancy),
    bit 2: exact match. Returns n_exact | n_consistent << 8 | (first exact + 1) << 16,
    counting records 0..nrec-2 only (the last is the takeback record: read its flags)."""
    clo = cur[0]
    chi = cur[1]
    blo = cur[4]
    bhi = cur[5]
    mlo = blo & (clo ^ 0x3FFFFFFF)  # missing
    mhi = bhi & (chi ^ 0x3FFFFFFF)
    xlo = clo & (blo ^ 0x3FFFFFFF)  # extra
    xhi = chi & (bhi ^ 0x3FFFFFFF)
    okc = 1
    if colour == 1:  # every piece put down is White
        if (xlo & (int(cur[2]) ^ 0x3FFFFFFF)) or (xhi & (int(cur[3]) ^ 0x3FFFFFFF)):
            okc = 0
    elif colour == 2:
        if (xlo & int(cur[2])) or (xhi & int(cur[3])):
            okc = 0
    nexact = 0
    ncons = 0
    first = 0
    i = 0
    while i < nrec:
        f = int(flags[i]) & 0x80
        if f == 0:
            o = i * 12
            if int(rec[o]) == clo and int(rec[o + 1]) == chi and (
                    colour == 0 or (int(rec[o + 2]) == int(cur[2]) and int(rec[o + 3]) == int(cur[3]))):
                f = 3
            elif okc and (mlo & (int(rec[o + 4]) ^ 0x3FFFFFFF)) == 0 \
                    and (mhi & (int(rec[o + 5]) ^ 0x3FFFFFFF)) == 0 \
                    and (xlo & (int(rec[o + 6]) ^ 0x3FFFFFFF)) == 0 \
                    and (xhi & (int(rec[o + 7]) ^ 0x3FFFFFFF)) == 0:
                f = 1
            if i < nrec - 1:
                if f & 2:
                    nexact += 1
                    if first == 0:
                        first = i + 1
                if f & 1:
                    ncons += 1
        flags[i] = f
        i += 1
    return nexact | (ncons << 8) | (first << 16)


@micropython.viper
def _paint_bits(roles: ptr8, lo: int, hi: int, n: int, role: int):
    """roles[p] = role for every point p (1..n) whose bit is set in lo / hi."""
    p = 1
    while p <= n:
        if p < 30:
            b = (lo >> (p - 1)) & 1
        else:
            b = (hi >> (p - 30)) & 1
        if b:
            roles[p] = role
        p += 1


@micropython.viper
def _guide(roles: ptr8, rec: ptr32, flags: ptr8, ends: ptr8, froms: ptr8, prm: ptr32):
    """Paint the guidance of every consistent record (flags bit 1): prm = [n_moves,
    n_points, snapshot lo, hi, start role, target role]. Turning points R_PATH
    (3), targets, captured pieces still standing R_REMOVE (4), starts (where free)."""
    nm = int(prm[0])
    n = int(prm[1])
    clo = int(prm[2])
    chi = int(prm[3])
    from_role = int(prm[4])
    to_role = int(prm[5])
    tlo = 0
    thi = 0
    rlo = 0
    rhi = 0
    i = 0
    while i < nm:
        if int(flags[i]) & 1:
            o = i * 12
            tlo |= int(rec[o + 10])
            thi |= int(rec[o + 11])
            rlo |= int(rec[o + 8]) & clo
            rhi |= int(rec[o + 9]) & chi
        i += 1
    p = 1
    while p <= n:
        if p < 30:
            t = (tlo >> (p - 1)) & 1
            r = (rlo >> (p - 1)) & 1
        else:
            t = (thi >> (p - 30)) & 1
            r = (rhi >> (p - 30)) & 1
        if r:
            roles[p] = 4
        elif t:
            roles[p] = 3
        p += 1
    i = 0
    while i < nm:
        if int(flags[i]) & 1:
            e = int(ends[i])
            if int(roles[e]) != 4:
                roles[e] = to_role
        i += 1
    i = 0
    while i < nm:
        if int(flags[i]) & 1:
            f = int(froms[i])
            if int(roles[f]) == 0:
                roles[f] = from_role
        i += 1


@micropython.viper
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n
