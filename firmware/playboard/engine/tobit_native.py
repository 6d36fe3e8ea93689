"""Tobit's search in native code: the engine's negamax for Tobit (5 x 4 and 4 x 4) as
viper loops over the board's bytes, with its own move lists (RULES.md section 2).

``TobitSearch`` is what ``playboard.engine.search.Engine`` runs for Tobit at the levels
that search to their budget (7 and 8): the same search as ``Engine._run`` - the same
nodes, move order, transposition table, killers, capture extension and repetition rule -
so that it plays the same moves at the same node count, about six times faster on the
RP2040 (docs/engine.md). It copies the position, and up to ``_HMAX`` positions before it
(threefold repetition, RULES.md 2.11), at ``start``; it never touches the game.

``TobitSearch`` holds the search's buffers (about 13 KB, made at the engine's first such
search) and sets it up; ``start`` and ``step`` are ``Engine.start``'s and
``Engine.step``'s for it. The loop ``_run``, the step loop ``step`` and ``NativeSearch``
(the Python side both searches share) serve Toguz Kumalak's native search too
(``playboard.engine.toguz_native``: its branches of ``_run``, where ``s[_TG]`` is 1),
so that the negamax is written once. Native (viper) code: imported at power-up - only where the
board definition asks for it, ``"engine": {"native": true}`` - and never dropped
(docs/architecture.md).
"""
import time
from array import array

from playboard.compat import micropython, const, ptr8, ptr16, ptr32  # noqa: F401
from playboard.games.tobit_native import _push, _scan, _unmake
from playboard.games.toguz_native import _sow
from playboard.engine.evaluation_native import _tobit_eval, _toguz_order

_P = const(41)  # frames: the search's MAX_PLY + 1
_MAXM = const(640)  # moves held along the search path (all plies' lists)
_POOL = const(4096)  # their bytes: [length, kind, points...] each
_HMAX = const(24)  # positions before the root kept whole for the repetition rule
_B = const(32768)  # the bias of signed numbers in the u16 stack
_WIN = const(30000)
_INF = const(32000)
_WB = const(29000)

# the u16 stack: field * _P + ply
_IDX = const(0)
_AL = const(41)
_BE = const(82)
_BS = const(123)
_BM = const(164)
_DP = const(205)
_MS = const(246)
_MN = const(287)
_PT = const(328)
# then the search's own numbers
_PLY = const(369)
_PHASE = const(370)
_VAL = const(371)
_ITER = const(372)
_CAP = const(373)
_HOR = const(374)
_SCORE = const(375)
_DEPTH = const(376)
_BEST = const(377)  # pool offset of the best root move (0xFFFF: none)
_HIST = const(378)
_ROOT = const(379)  # 1 once the root's moves were ordered (Engine: _moves[0] set)
_OVER = const(380)  # move lists that did not fit (searched as leaves): 0 expected
_HK = const(381)  # how many keys of older positions there are (kk[_KH:])
_TG = const(382)  # 1: Toguz Kumalak's search (``ToguzSearch``), 0: Tobit's
_FT = const(383)  # Toguz Kumalak's search features (``ToguzEval.SEARCH``'s bits)
_OK = const(384)  # 64 order keys of the node being ordered
# Toguz Kumalak's features' numbers: how each ply's current child is searched (1 a null
# window, 2 reduced, 4 again: a re-search of the last move, its way in bits 0-1)
_MD = const(448)
_SN = const(489)
_NODES = const(41)  # in the i32 array, after the 41 keys
_KH = const(42)  # then the keys of the positions before the snapshots, newest first
_KEYS = const(216)  # ... as far back as this: the repetition rule over 240 plies
_LOOK_US = const(250)  # a look at the clock and a call of the loop, RP2040 (about 0.17 ms), and a margin

# the device's clocks (MicroPython): an engine on the device's ms clock is stepped on its us
# clock (``step``); elsewhere (CPython, CircuitPython, an injected clock) on the engine's
_US = getattr(time, "ticks_us", None)
_US_DIFF = getattr(time, "ticks_diff", None)
_DEVICE_MS = getattr(time, "ticks_ms", None)


@micropython.viper
def _can_jump(b: ptr8, geo: ptr8, p: int, back: int, enemy: int) -> int:
    """1 if a tobit on ``p`` could jump in a direction other than ``back`` (viper)."""
    d = 0
    while d < 4:
        if d != back:
            a = int(geo[4 + 4 * p + d])
            while a != 0 and int(b[a]) == 0:
                a = int(geo[4 + 4 * a + d])
            if a != 0 and (int(b[a]) & 3) == enemy:
                t = int(geo[4 + 4 * a + d])
                if t != 0 and int(b[t]) == 0:
                    return 1
        d += 1
    return 0


@micropython.viper
def _gen(b: ptr8, geo: ptr8, me: int, pool: ptr8, po: int, mo: ptr16, mk: ptr16, mi: int,
         fr: ptr8) -> int:
    """The legal moves of side ``me`` (1 White, 2 Black) in ``Tobit.legal_moves()``'s
    order, as records [length, kind, points...] at ``pool[po:]``; move i's offset at
    ``mo[mi + i]``, its order key (``TobitEval.order``) at ``mk[mi + i]``; the end of
    the records at ``mo[mi + n]``. Returns n, or -1 if they do not fit. ``fr``: 624
    bytes of scratch (the rules core's ``_scan`` answer, then the capture paths)."""
    r = int(_scan(b, geo, me, fr))
    n = 0
    o = po
    if r < 256:  # no capture: the quiet moves, (from, to) pairs at fr[0:]
        if mi + r >= _MAXM or o + 4 * r > _POOL:
            return -1
        n1 = int(geo[0])
        top = int(geo[1])
        xy = 4 + 4 * n1
        while n < r:
            p = int(fr[2 * n])
            t = int(fr[2 * n + 1])
            mo[mi + n] = o
            pool[o] = 3
            pool[o + 1] = 0
            pool[o + 2] = p
            pool[o + 3] = t
            o += 4
            c = int(b[p])
            k = 0
            if (c & 4) == 0:
                y = int(geo[xy + 2 * t + 1])
                if c == 1:
                    k = y
                    if y == top:
                        k = 500
                else:
                    k = top - y
                    if y == 0:
                        k = 500
            mk[mi + n] = k
            n += 1
        mo[mi + n] = o
        return n
    ncap = r - 256  # the capturing pieces' points at fr[0:ncap]
    enemy = 3 - me
    # captures: each capturing piece's jump sequences, depth first (Tobit._jumps);
    # frame f = 264 + 24 * k: point, last direction (4: none), next direction, the point
    # jumped (0: none), its piece, the landing point, found, landings filtered, path
    # length, path (points where the direction changes)
    ci = 0
    while ci < ncap:
        sp = int(fr[ci])
        sc = int(b[sp])
        tob = sc & 4
        b[sp] = 0  # the starting point counts as free once left (2.8)
        fr[264] = sp
        fr[265] = 4
        fr[266] = 0
        fr[267] = 0
        fr[270] = 0
        fr[272] = 1
        fr[273] = sp
        k = 0
        while k >= 0:
            f = 264 + 24 * k
            a = int(fr[f + 3])
            if a != 0:
                d = int(fr[f + 2])
                t = int(fr[f + 5])
                if t == 0:
                    t = int(geo[4 + 4 * a + d])
                elif tob:
                    t = int(geo[4 + 4 * t + d])
                else:
                    t = 0
                if tob:
                    if t != 0 and int(b[t]) != 0:
                        t = 0
                    if int(fr[f + 7]):
                        while t != 0 and int(_can_jump(b, geo, t, (d + 2) & 3, enemy)) == 0:
                            t = int(geo[4 + 4 * t + d])
                            if t != 0 and int(b[t]) != 0:
                                t = 0
                if t != 0 and k < 13:  # (13 jumps: past any legal position's 12 pieces)
                    fr[f + 5] = t
                    g = f + 24
                    fr[g] = t
                    fr[g + 1] = d
                    fr[g + 2] = 0
                    fr[g + 3] = 0
                    fr[g + 6] = 0
                    pl = int(fr[f + 8])
                    j = 0
                    while j < pl:
                        fr[g + 9 + j] = fr[f + 9 + j]
                        j += 1
                    if d == int(fr[f + 1]):
                        fr[g + 8 + pl] = t
                    else:
                        fr[g + 9 + pl] = t
                        pl += 1
                    fr[g + 8] = pl
                    k += 1
                    continue
                b[a] = fr[f + 4]  # every landing tried: the jumped piece back
                fr[f + 3] = 0
                fr[f + 2] = d + 1
                continue
            p = int(fr[f])
            bk = 4
            if int(fr[f + 1]) < 4:
                bk = (int(fr[f + 1]) + 2) & 3
            d = int(fr[f + 2])
            a = 0
            while d < 4:
                if d != bk:
                    a = int(geo[4 + 4 * p + d])
                    if tob:
                        while a != 0 and int(b[a]) == 0:
                            a = int(geo[4 + 4 * a + d])
                    if a != 0 and (int(b[a]) & 3) == enemy:
                        t = int(geo[4 + 4 * a + d])
                        if t != 0 and int(b[t]) == 0:
                            break
                    a = 0
                d += 1
            if a != 0:
                fr[f + 2] = d
                fr[f + 3] = a
                fr[f + 4] = b[a]
                fr[f + 5] = 0
                fr[f + 6] = 1
                b[a] = 0  # a jumped piece leaves the board at once (2.8)
                filt = 0
                if tob:  # landings from which the capture goes on, if there are any
                    t = int(geo[4 + 4 * a + d])
                    while t != 0 and int(b[t]) == 0:
                        if int(_can_jump(b, geo, t, (d + 2) & 3, enemy)):
                            filt = 1
                            break
                        t = int(geo[4 + 4 * t + d])
                fr[f + 7] = filt
                continue
            if k > 0 and int(fr[f + 6]) == 0:
                # a complete sequence: its record, unless the same notation is there
                pl = int(fr[f + 8])
                i = 0
                while i < n:
                    q = int(mo[mi + i])
                    if int(pool[q]) == pl + 1:
                        j = 0
                        while j < pl and int(pool[q + 2 + j]) == int(fr[f + 9 + j]):
                            j += 1
                        if j == pl:
                            break
                    i += 1
                if i == n:
                    if mi + n + 1 >= _MAXM or o + pl + 2 > _POOL:
                        b[sp] = sc
                        return -1
                    mo[mi + n] = o
                    pool[o] = pl + 1
                    pool[o + 1] = 1
                    j = 0
                    while j < pl:
                        pool[o + 2 + j] = fr[f + 9 + j]
                        j += 1
                    o += pl + 2
                    v = 1000
                    j = 0
                    while j < k:
                        if int(fr[268 + 24 * j]) & 4:
                            v += 300
                        else:
                            v += 100
                        j += 1
                    mk[mi + n] = v
                    n += 1
            k -= 1
        b[sp] = sc
        ci += 1
    mo[mi + n] = o
    return n


@micropython.viper
def _run(s: ptr16, kk: ptr32, pool: ptr8, mo: ptr16, mk: ptr16, kil: ptr8, b: ptr8,
         st: ptr8, mb: ptr8, u: ptr8, geo: ptr8, z: ptr32, tk: ptr32, ts: ptr16, ti: ptr8,
         tm: ptr8, fr: ptr8, tsz: int, limit: int) -> int:
    """``Engine._run`` for Tobit, and for Toguz Kumalak where ``s[_TG]`` is 1: search
    until ``limit`` nodes were visited (0) or the search is over (1). All its state is in
    ``s`` and ``kk`` (``TobitSearch``, ``ToguzSearch``). Toguz Kumalak's: the moves of
    each ply at ``pool[9 * ply:]`` (pits), the killers at ``kil[2 * ply:]`` (255 none),
    the position ``b`` (26 bytes) and the positions along the path at ``u[26 * ply:]``;
    ``mo``, ``mk``, ``st``, ``mb``, ``geo``, ``z``, ``fr`` are not read but ``geo[0]``;
    its features (``s[_FT]``: ``search.SEARCH_*``, as the engine's own search has them)
    keep how each ply's move is searched at ``s[_MD + ply]``."""
    tg = int(s[_TG])
    n1 = int(geo[0])
    snap = n1 + 26
    hist = int(s[_HIST])
    ply = int(s[_PLY])
    phase = int(s[_PHASE])
    value = int(s[_VAL]) - _B
    nodes = int(kk[_NODES])
    while True:
        if phase == 0:  # enter a node
            if nodes >= limit:
                break
            nodes += 1
            d = int(s[_DP + ply]) - _B
            if ply == 0:
                n = int(s[_MN])
                ms = 0
            elif tg:  # Toguz Kumalak: the game's end (1.6), the horizon, the mover's pits
                if int(b[25]) != 0:
                    value = 0
                    ks = int(b[18])
                    kn = int(b[19])
                    if ks > 81 or kn > 81:
                        w = 1
                        if ks > 81:
                            w = 0
                        value = ply - _WIN
                        if w == int(b[22]):
                            value = _WIN - ply
                    phase = 2
                    continue
                if d <= 0 or ply >= _P - 2:  # the evaluation's _toguz_eval, written in
                    s[_HOR] = 1
                    turn = int(b[22])
                    value = (int(b[18]) - int(b[19])) * 16
                    if int(b[20]) != 255:
                        value += 160
                    if int(b[21]) != 255:
                        value -= 160
                    balls = 0  # South's row: balls, movable pits, largest even capture (into 9-17)
                    sth = 0
                    sp = 0
                    org = 0
                    while org < 9:
                        c = int(b[org])
                        if c:
                            balls += c
                            sp += 1
                            if c == 1:  # the next pit: the opponent's only from pit 9
                                if org == 8:
                                    c = int(b[9]) + 1
                                    if (c & 1) == 0 and c > sth:
                                        sth = c
                            else:
                                r = c - 1
                                c = 1
                                while r >= 18:  # (n - 1) // 18 + 1 balls into the last pit
                                    r -= 18
                                    c += 1
                                land = org + r
                                if land >= 18:
                                    land -= 18
                                if land >= 9:  # (a last pit of one's own is never a capture)
                                    c += int(b[land])
                                    if (c & 1) == 0 and c > sth:
                                        sth = c
                        org += 1
                    value += 2 * balls
                    balls = 0  # North's row (captures into 0-8)
                    nth = 0
                    np_ = 0
                    while org < 18:
                        c = int(b[org])
                        if c:
                            balls += c
                            np_ += 1
                            if c == 1:
                                if org == 17:
                                    c = int(b[0]) + 1
                                    if (c & 1) == 0 and c > nth:
                                        nth = c
                            else:
                                r = c - 1
                                c = 1
                                while r >= 18:
                                    r -= 18
                                    c += 1
                                land = org + r
                                if land >= 18:
                                    land -= 18
                                if land < 9:
                                    c += int(b[land])
                                    if (c & 1) == 0 and c > nth:
                                        nth = c
                        org += 1
                    value -= 2 * balls
                    if turn:  # the mover's terms
                        value = (nth * 12 - sth * 6 + (np_ - sp) * 16) - value
                    else:
                        value += sth * 12 - nth * 6 + (sp - np_) * 16
                    phase = 2
                    continue
                ms = 9 * ply
                o = 9 * int(b[22])
                n = 0
                i = 0
                while i < 9:
                    if int(b[o + i]) != 0:
                        pool[ms + n] = i
                        n += 1
                    i += 1
                s[_MS + ply] = ms
                s[_MN + ply] = n
            else:
                ms = int(s[_MS + ply - 1]) + int(s[_MN + ply - 1])
                po = int(s[_PT + ply - 1])
                n = 0
                if int(st[0]) == 0:  # not ended by repetition
                    if d <= 0 or ply >= _P - 2:
                        v = int(_tobit_eval(b, geo, st, 1))
                        if v < 32766 or v == 32767 and ply >= _P - 2:
                            s[_HOR] = 1  # quiet (or the stack's end): the evaluation
                            value = v
                            if v == 32767:
                                value = int(_tobit_eval(b, geo, st, 0))
                            phase = 2
                            continue
                        if v == 32767:
                            n = int(_gen(b, geo, int(st[3]) + 1, pool, po, mo, mk, ms, fr))
                            s[_HOR] = 1  # a capture to make: extended
                            d = 0
                            s[_DP + ply] = _B
                    else:
                        n = int(_gen(b, geo, int(st[3]) + 1, pool, po, mo, mk, ms, fr))
                if n == 0:
                    value = 0  # a repetition is a draw; no move is a loss
                    if int(st[0]) == 0:
                        value = ply - _WIN
                    phase = 2
                    continue
                if n < 0:  # the lists did not fit: judged as they stand
                    s[_OVER] = int(s[_OVER]) + 1
                    s[_HOR] = 1
                    value = int(_tobit_eval(b, geo, st, 0))
                    phase = 2
                    continue
                s[_MS + ply] = ms
                s[_MN + ply] = n
                s[_PT + ply] = mo[ms + n]
            ttm = 255
            if tsz and ply > 0:
                if tg:  # the rules core's _key, written in, unrolled (RP2040: 5 us; as a loop 10)
                    key = int(b[22])
                    key = ((key & 0x1FFFFFF) * 33 + int(b[0])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[1])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[2])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[3])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[4])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[5])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[6])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[7])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[8])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[9])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[10])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[11])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[12])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[13])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[14])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[15])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[16])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[17])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[18])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[19])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[20])) ^ (key >> 25)
                    key = ((key & 0x1FFFFFF) * 33 + int(b[21])) ^ (key >> 25)
                    key = key & 0x3FFFFFFF
                else:
                    key = int(st[4]) | (int(st[5]) << 8) | (int(st[6]) << 16) | (int(st[7]) << 24)
                kk[ply] = key
                i = key & (tsz - 1)
                if int(tk[i]) == key:
                    ttm = int(tm[i])
                    info = int(ti[i])
                    if (info >> 2) >= d:
                        v = int(ts[i])
                        if v >= 32768:
                            v -= 65536
                        if v > _WB:
                            v -= ply
                        elif v < 0 - _WB:
                            v += ply
                        bd = info & 3
                        if (bd == 0 or (bd == 1 and v >= int(s[_BE + ply]) - _B)
                                or (bd == 2 and v <= int(s[_AL + ply]) - _B)):
                            s[_HOR] = 1  # a stored result may hide a horizon
                            value = v
                            phase = 2
                            continue
            # order: the table's move (at the root the last iteration's best), the
            # killers, then the evaluation's hint; the first 64 by insertion
            prev = 0xFFFF
            if ply == 0:
                prev = int(s[_BEST])
                s[_ROOT] = 1
            if tg:  # Toguz Kumalak's pits: the table's, the killers, the evaluation's hint
                k1 = int(kil[2 * ply])
                k2 = int(kil[2 * ply + 1])
                turn = int(b[22])
                o9 = 9 * turn
                mt = int(b[20 + turn])  # the mover's tuzdyk (255: none yet)
                ot = int(b[21 - turn])  # the opponent's, as its number minus one (255: none)
                if ot != 255 and ot >= 9:
                    ot -= 9
                i = 0
                while i < n:
                    m = int(pool[ms + i])
                    if m == prev or m == ttm:
                        v = 32000
                    elif m == k1:
                        v = 31000
                    elif m == k2:
                        v = 30999
                    else:  # the evaluation's _toguz_order, written in
                        v = 0
                        org = m + o9
                        c = int(b[org])
                        if c == 1:
                            land = org + 1
                            if land == 18:
                                land = 0
                            c = int(b[land]) + 1
                        else:
                            r = c - 1
                            c = 1
                            while r >= 18:  # (n - 1) // 18 + 1 balls into the last pit
                                r -= 18
                                c += 1
                            land = org + r
                            if land >= 18:
                                land -= 18
                            if land != org:
                                c += int(b[land])
                        lm = land - 9 + o9  # the landing pit's number minus one, if the opponent's
                        if lm >= 0 and lm < 9:
                            if (c & 1) == 0:
                                v = c * 16
                            elif c == 3 and mt == 255 and lm != 8 and ot != lm:
                                v = 200  # a tuzdyk
                    j = i
                    while j > 0 and int(s[_OK + j - 1]) < v:
                        s[_OK + j] = s[_OK + j - 1]
                        pool[ms + j] = pool[ms + j - 1]
                        j -= 1
                    s[_OK + j] = v
                    pool[ms + j] = m
                    i += 1
            else:  # Tobit's move records: their order keys made with them, the killers
                w1 = 32 * ply
                w2 = w1 + 16
                if n > 64:
                    m = 64
                else:
                    m = n
                i = 0
                while i < m:
                    q = int(mo[ms + i])
                    kq = int(mk[ms + i])
                    if q == prev:
                        v = 32000
                    elif ttm != 255 and (int(pool[q + 1]) * 97 + int(pool[q]) * 53 + int(pool[q + 2]) * 41
                                         + int(pool[q + int(pool[q])])) % 255 == ttm:
                        v = 32000
                    else:
                        v = kq
                        ln = int(pool[q])
                        w = w1
                        while w <= w2:  # the killers: [length, the move's bytes] each
                            if int(kil[w]) == ln:
                                j = 1
                                while j <= ln and int(kil[w + j]) == int(pool[q + j]):
                                    j += 1
                                if j > ln:
                                    v = 31000 - (w - w1) // 16
                                    break
                            w += 16
                    j = i
                    while j > 0 and int(s[_OK + j - 1]) < v:
                        s[_OK + j] = s[_OK + j - 1]
                        mo[ms + j] = mo[ms + j - 1]
                        mk[ms + j] = mk[ms + j - 1]
                        j -= 1
                    s[_OK + j] = v
                    mo[ms + j] = q
                    mk[ms + j] = kq
                    i += 1
            s[_IDX + ply] = 0
            s[_BS + ply] = _B - _INF
            s[_BM + ply] = 255
            phase = 1
        elif phase == 1:  # the next move, or the node's value
            i = int(s[_IDX + ply])
            al = int(s[_AL + ply])
            be = int(s[_BE + ply])
            ms = int(s[_MS + ply])
            md = 0
            ft = int(s[_FT])
            if ft:  # Toguz Kumalak's features: how this move is searched (_MD)
                md = int(s[_MD + ply])
                if md & 4:  # the last move again (a fail-high of a narrower search)
                    i -= 1
                    md &= 3
                else:
                    md = 0
                    if (ft & 1) and i > 0 and be - al > 1:
                        md = 1  # PVS: after the first move, a null window
                    if ((ft & 2) and i >= 3 and i < int(s[_MN + ply]) and int(s[_DP + ply]) - _B >= 3
                            and int(_toguz_order(b, int(b[22]), int(pool[ms + i]))) == 0):
                        md |= 2  # a late quiet move (not the table's, no killer): a ply less
                s[_MD + ply] = md
            if i < int(s[_MN + ply]) and al < be:
                s[_IDX + ply] = i + 1
                if tg:  # Toguz Kumalak: the position kept, then sown
                    o = 26 * ply
                    j = 0
                    while j < 26:
                        u[o + j] = b[j]
                        j += 1
                    _sow(b, int(pool[ms + i]))
                    ply += 1
                else:  # Tobit: the game's make, and the repetition rule
                    q = int(mo[ms + i])
                    ln = int(pool[q])
                    j = 0
                    while j < ln:
                        mb[j] = pool[q + 1 + j]
                        j += 1
                    st[8] = ln
                    clock = int(_push(b, mb, st, u, (hist + ply) * snap, geo, z))
                    ply += 1
                    if clock >= 8:  # threefold repetition (2.11), as Tobit.push
                        key = int(st[4]) | (int(st[5]) << 8) | (int(st[6]) << 16) | (int(st[7]) << 24)
                        cur = hist + ply
                        seen = 0
                        j = cur - 4
                        while j >= cur - clock and j >= 0 - int(s[_HK]):
                            x = 0
                            if j < 0:  # older than the snapshots: its key alone
                                if int(kk[_KH - 1 - j]) == key:
                                    x = n1
                            else:
                                o = j * snap
                                if (int(u[o + n1 + 4]) | (int(u[o + n1 + 5]) << 8) | (int(u[o + n1 + 6]) << 16)
                                        | (int(u[o + n1 + 7]) << 24)) == key:
                                    while x < n1 and int(u[o + x]) == int(b[x]):
                                        x += 1
                            if x == n1:
                                seen += 1
                                if seen == 2:
                                    st[0] = 1
                                    break
                            j -= 2
                s[_AL + ply] = 2 * _B - be
                s[_BE + ply] = 2 * _B - al
                s[_DP + ply] = int(s[_DP + ply - 1]) - 1
                if md & 1:
                    s[_AL + ply] = 2 * _B - al - 1
                if md & 2:
                    s[_DP + ply] = int(s[_DP + ply - 1]) - 2
                phase = 0
            else:
                value = int(s[_BS + ply]) - _B
                if tsz and ply > 0:
                    lo = _B - int(s[_BE + ply - 1])  # alpha as the frame began
                    if int(s[_MD + ply - 1]) & 1:  # (a null window)
                        lo = int(s[_BE + ply]) - _B - 1
                    if value <= lo:
                        bd = 2
                    elif value >= be - _B:
                        bd = 1
                    else:
                        bd = 0
                    bi = int(s[_BM + ply])
                    mv = 255
                    if bi != 255:
                        if tg:
                            mv = int(pool[ms + bi])  # the pit
                        else:
                            q = int(mo[ms + bi])
                            mv = (int(pool[q + 1]) * 97 + int(pool[q]) * 53 + int(pool[q + 2]) * 41
                                  + int(pool[q + int(pool[q])])) % 255
                    key = int(kk[ply])
                    i = key & (tsz - 1)
                    dp = int(s[_DP + ply]) - _B
                    if not (int(tk[i]) == key and (int(ti[i]) >> 2) > dp):
                        v = value
                        if v > _WB:
                            v += ply
                        elif v < 0 - _WB:
                            v -= ply
                        if dp > 63:
                            dp = 63
                        tk[i] = key
                        ts[i] = v
                        ti[i] = (dp << 2) | bd
                        tm[i] = mv
                phase = 2
        else:  # return the value to the parent
            if ply == 0:
                bi = int(s[_BM])
                if bi != 255:
                    if tg:
                        s[_BEST] = pool[bi]
                    else:
                        s[_BEST] = mo[bi]
                s[_SCORE] = value + _B
                it = int(s[_ITER])
                s[_DEPTH] = it
                if value > _WB or value < 0 - _WB or int(s[_HOR]) == 0 or it >= int(s[_CAP]):
                    kk[_NODES] = nodes
                    s[_PLY] = 0
                    return 1  # a forced result, the whole tree seen, or the depth cap
                s[_ITER] = it + 1
                s[_HOR] = 0
                s[_AL] = _B - _INF
                s[_BE] = _B + _INF
                s[_DP] = _B + it + 1
                phase = 0
                continue
            ply -= 1
            if tg:
                o = 26 * ply
                j = 0
                while j < 26:
                    b[j] = u[o + j]
                    j += 1
            else:
                _unmake(b, st, u, (hist + ply) * snap, n1)
            v = 0 - value
            i = int(s[_IDX + ply]) - 1
            md = int(s[_MD + ply])
            if md and v > int(s[_AL + ply]) - _B and ((md & 2) or v < int(s[_BE + ply]) - _B):
                if ply == 0 and md == 1:  # a root move's null window failed high: the
                    s[_BM] = i  # best so far (a budget's end keeps it)
                r = 4  # beat alpha: searched again, at full depth (the same window), or whole
                if md & 2:
                    r = 4 | (md & 1)
                s[_MD + ply] = r
                phase = 1
                continue
            if v > int(s[_BS + ply]) - _B:
                s[_BS + ply] = v + _B
                s[_BM + ply] = i
                if v > int(s[_AL + ply]) - _B:
                    s[_AL + ply] = v + _B
                    if v >= int(s[_BE + ply]) - _B:
                        if tg:
                            m = int(pool[int(s[_MS + ply]) + i])
                            if m != int(kil[2 * ply]):  # not the first killer already: it becomes it
                                kil[2 * ply + 1] = kil[2 * ply]
                                kil[2 * ply] = m
                        else:
                            q = int(mo[int(s[_MS + ply]) + i])
                            w1 = 32 * ply
                            ln = int(pool[q])
                            j = 0
                            while j <= ln and int(kil[w1 + j]) == int(pool[q + j]):
                                j += 1
                            if j <= ln:  # not the first killer already: it becomes it
                                j = 0
                                while j < 16:
                                    kil[w1 + 16 + j] = kil[w1 + j]
                                    j += 1
                                j = 0
                                while j <= ln:
                                    kil[w1 + j] = pool[q + j]
                                    j += 1
            phase = 1
    kk[_NODES] = nodes
    s[_PLY] = ply
    s[_PHASE] = phase
    s[_VAL] = value + _B
    return 0


class NativeSearch:
    """What the native searches share (``TobitSearch``, ``toguz_native.ToguzSearch``):
    their buffers under the same names, as ``_run`` takes them (those a game does not
    read stand in for each other), the stack's set-up, and the results given to the
    engine. A subclass makes the buffers and ``start``; ``_move(x)`` is the move whose
    ``s[_BEST]`` value is ``x``, ``_root(i)`` that value for the root's ``i``-th move.
    ``_upn``: the us a node on the device's clock (``step``; 0 until measured)."""

    _upn = 0

    def _begin(self, cap, none, toguz):
        # the stack zeroed, the first iteration's window; the search's own numbers
        s = self.s
        for i in range(_SN):
            s[i] = 0
        self.kk[_NODES] = 0
        s[_TG] = toguz
        s[_CAP] = cap
        s[_ITER] = 1
        s[_BEST] = none
        s[_AL] = _B - _INF
        s[_BE] = _B + _INF
        s[_DP] = _B + 1

    def run(self, eng, limit):
        """Search on until ``limit`` nodes in all (False) or the end (True), for
        ``eng`` (an ``Engine``: its table is shared; its ``nodes``, and at each
        iteration's end its ``depth``, ``best_move`` and ``score``, are set)."""
        s = self.s
        if eng.tt_size:
            r = _run(s, self.kk, self.pool, self.mo, self.mk, self.kil, self.b, self.st,
                     self.mb, self.u, self._geo, self._z, eng._tt_key, eng._tt_score,
                     eng._tt_info, eng._tt_move, self.fr, eng.tt_size, limit)
        else:
            r = _run(s, self.kk, self.pool, self.mo, self.mk, self.kil, self.b, self.st,
                     self.mb, self.u, self._geo, self._z, self.kk, self.mo, self.fr,
                     self.fr, self.fr, 0, limit)
        eng.nodes = self.kk[_NODES]
        if s[_DEPTH] != eng.depth:  # an iteration ended: its move and score
            eng.depth = s[_DEPTH]
            eng.best_move = self._move(s[_BEST])
            eng.score = s[_SCORE] - _B
        return r == 1

    def partial(self, eng):
        """The budget ran out mid-iteration (``Engine._budget_end``): the partial
        iteration's best root move, if it has one, becomes ``eng.best_move``."""
        s = self.s
        bi = s[_BM]
        if s[_ROOT] and bi != 255:
            eng.best_move = self._move(self._root(bi))
            if eng.depth == 0:
                eng.score = s[_BS] - _B


class TobitSearch(NativeSearch):
    """The buffers of the native Tobit search (about 13 KB, made once) and its set-up;
    ``Engine`` keeps one and reads its results."""

    def __init__(self):
        self.s = array("H", bytes(2 * _SN))
        self.kk = array("i", bytes(4 * (_KH + _KEYS)))
        self.pool = bytearray(_POOL)
        self.mo = array("H", bytes(2 * _MAXM))
        self.mk = array("H", bytes(2 * _MAXM))
        self.kil = bytearray(32 * _P)
        self.b = bytearray(40)
        self.st = bytearray(10)
        self.mb = bytearray(16)
        self.u = bytearray(65 * (_HMAX + _P))
        self.fr = bytearray(624)

    def start(self, g, cap):
        """Set up a search of Tobit game ``g`` (read, never changed) to depth ``cap``
        at most; returns the number of root moves (as ``g.legal_moves()``, same order)."""
        n1 = g.n_points + 1
        snap = n1 + 26
        h = min(g.ply, _HMAX)
        u = self.u
        for i in range(h):  # the positions before the root, oldest first
            p = g.ply - h + i
            c = g._chunks[p >> 4]
            o = (p & 15) * g._snap
            u[i * snap:(i + 1) * snap] = c[o:o + snap]
        self._begin(cap, 0xFFFF, 0)
        hk = min(g.ply - h, _KEYS)
        for i in range(hk):  # and the keys of those before them, newest first
            p = g.ply - h - 1 - i
            c = g._chunks[p >> 4]
            o = (p & 15) * g._snap + n1 + 4
            self.kk[_KH + i] = c[o] | c[o + 1] << 8 | c[o + 2] << 16 | c[o + 3] << 24
        self.b[:n1] = g.board
        self.st[:] = g.st
        for i in range(32 * _P):
            self.kil[i] = 0
        n = _gen(self.b, g._geo, g.st[3] + 1, self.pool, 0, self.mo, self.mk, 0, self.fr)
        s = self.s
        s[_MN] = n
        s[_PT] = self.mo[n]
        s[_HIST] = h
        s[_HK] = hk
        self._geo = g._geo
        self._z = g._z
        return n

    def _move(self, q):
        # the move whose record is at pool offset q (bytes, as legal_moves gives it)
        return bytes(self.pool[q + 1:q + 1 + self.pool[q]])

    def _root(self, i):
        return self.mo[i]


def start(eng, game):
    """Begin ``Engine.start``'s search of Tobit ``game`` (read, never changed) natively,
    with the engine's ``TobitSearch`` (``eng._ts``, made at its first such search)."""
    ts = getattr(eng, "_ts", None)
    if ts is None:
        ts = eng._ts = TobitSearch()
    ts.start(game, eng._cap)
    eng._native_search = ts


def step(eng, slice_end, t_slice, slice_ms):
    """``Engine._run`` for the native search: visit nodes up to the budget or the
    slice's end (``slice_end`` nodes in all, or ``slice_ms`` ms from ``t_slice``);
    True when the search is done. Timed, it reads the clock between runs of the loop
    (``NativeSearch.run``: a look and a call cost about 0.17 ms on the RP2040, 19
    arguments converted) and sizes each run to the time left, so that a slice takes
    3-4 looks and ends on time. On the device's clock (MicroPython, the engine's
    clock ``time.ticks_ms``): the nearer end (the slice's or the budget's) is read
    once in ms and then followed in us; each run takes three quarters of the time
    left less a look, at the search's us a node (``_upn``: measured over each run of
    4 nodes or more, a running mean kept by the search; 16 nodes while unknown), and
    the slice ends when less than a look and 4 nodes' time is left. On another clock (an
    injected one, CPython, CircuitPython): in ms, each run half the time left at the
    speed so far (the nodes over the ms since ``start``; 4-1,024 nodes; in the first
    4 ms 16 nodes a look, 4 in the last 2 ms). The nodes visited are the same
    whatever the runs' sizes: the loop stops at a node count. (Toguz Kumalak's
    native search, started by ``playboard.engine.toguz_native.start``, runs through
    this loop too: it is the engine's ``_native_search``.)"""
    ts = eng._native_search
    max_nodes = eng._max_nodes
    budget_ms = eng._ms
    lim = 1 << 29 if max_nodes is None else max_nodes
    if slice_end is not None and slice_end < lim:
        lim = slice_end
    if budget_ms is None and slice_ms is None:  # no clock: to the node limit at once
        if ts.run(eng, lim):
            eng._finish()
            return True
        if max_nodes is not None and eng.nodes >= max_nodes:
            ts.partial(eng)
            eng._finish()
            return True
        return False
    clock = eng._clock
    diff = eng._diff
    t0 = eng._t0
    if _US is not None and clock is _DEVICE_MS:
        return _step_us(eng, ts, lim, max_nodes, slice_end, t_slice, slice_ms)
    while True:
        now = clock()
        el = diff(now, t0)
        left = 1 << 29
        if budget_ms is not None:
            left = budget_ms - el
            if left <= 0:
                break
        if slice_ms is not None:
            x = slice_ms - diff(now, t_slice)
            if x <= 0:
                return False
            if x < left:
                left = x
        if el >= 4:  # half the time left at the speed so far
            chunk = eng.nodes * left // (2 * el)
            if chunk < 4:
                chunk = 4
            elif chunk > 1024:
                chunk = 1024
        elif left <= 2:
            chunk = 4
        else:
            chunk = 16
        n = eng.nodes + chunk
        if ts.run(eng, n if n < lim else lim):
            eng._finish()
            return True
        if max_nodes is not None and eng.nodes >= max_nodes:
            break
        if slice_end is not None and eng.nodes >= slice_end:
            return False
    ts.partial(eng)  # the budget's end: as Engine._budget_end
    eng._finish()
    return True


def _step_us(eng, ts, lim, max_nodes, slice_end, t_slice, slice_ms):
    # step's timed loop on the device's us clock (MicroPython): the nearer end read once
    now = eng._clock()
    budget_ms = eng._ms
    left = 1 << 20
    at_slice = False  # the nearer end is the slice's
    if budget_ms is not None:
        left = budget_ms - eng._diff(now, eng._t0)
        if left <= 0:
            ts.partial(eng)
            eng._finish()
            return True
    if slice_ms is not None:
        x = slice_ms - eng._diff(now, t_slice)
        if x <= 0:
            return False
        if x <= left:
            left = x
            at_slice = True
    us = _US
    udiff = _US_DIFF
    t_end = us()
    left *= 1000  # us from t_end
    upn = ts._upn
    while True:
        t = us()
        rem = left - udiff(t, t_end)
        if upn:
            chunk = (rem - _LOOK_US) * 3 // (4 * upn)
            if chunk < 4:  # the end: less than a look and 4 nodes' time left
                if at_slice:
                    return False
                break
            if chunk > 1024:
                chunk = 1024
        elif rem <= 0:
            if at_slice:
                return False
            break
        else:
            chunk = 16
        n0 = eng.nodes
        n = n0 + chunk
        if ts.run(eng, n if n < lim else lim):
            eng._finish()
            return True
        dn = eng.nodes - n0
        if dn >= 4:  # the us a node: a running mean (1 at least: a fast port's nodes)
            x = udiff(us(), t) // dn
            upn = x if upn == 0 else (3 * upn + x) >> 2
            if upn < 1:
                upn = 1
            ts._upn = upn
        if max_nodes is not None and eng.nodes >= max_nodes:
            break
        if slice_end is not None and eng.nodes >= slice_end:
            return False
    ts.partial(eng)  # the budget's end: as Engine._budget_end
    eng._finish()
    return True
