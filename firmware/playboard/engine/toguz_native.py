"""Toguz Kumalak's search in native code: the engine's negamax for Toguz Kumalak as one
viper loop over the position's 26 bytes (RULES.md section 1).

``ToguzSearch`` is what ``playboard.engine.search.Engine`` runs for Toguz Kumalak at the
levels that search to their budget (no depth cap, no noise) on a board whose search is
native: the same search as ``Engine._run`` - the same nodes, move order, transposition
table and killers - so that it plays the same moves at the same node count, about seven
times faster on the RP2040 (docs/engine.md). It copies the position at ``start`` and
never touches the game; make and unmake are the rules core's sowing (``_sow``) and a
copy of the 26 bytes back, the evaluation and the move order the evaluation's kernels.

``start`` and ``step`` are ``Engine.start``'s and ``Engine.step``'s for it (the step
loop is Tobit's, ``playboard.engine.tobit_native.step``). Native (viper) code: imported
at power-up where the search is native, and never dropped (docs/architecture.md).
Under CPython the viper code runs as plain Python: the same answers, slower than the
engine's own search (the host tools' matches play that at the same nodes).
"""
from array import array

from playboard.compat import micropython, const, ptr8, ptr16, ptr32  # noqa: F401
from playboard.games.toguz_native import _sow, _key
from playboard.engine.evaluation_native import _toguz_eval, _toguz_order

_P = const(41)  # frames: the search's MAX_PLY + 1
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
_MN = const(246)
# then the search's own numbers
_PLY = const(287)
_PHASE = const(288)
_VAL = const(289)
_ITER = const(290)
_CAP = const(291)
_HOR = const(292)
_SCORE = const(293)
_DEPTH = const(294)
_BEST = const(295)  # the best root move's pit (255: none)
_ROOT = const(296)  # 1 once the root's moves were ordered (Engine: _moves[0] set)
_OK = const(297)  # 9 order keys of the node being ordered
_SN = const(306)
_NODES = const(41)  # in the i32 array, after the 41 keys


@micropython.viper
def _run(s: ptr16, kk: ptr32, mv: ptr8, kil: ptr8, p: ptr8, u: ptr8, tk: ptr32, ts: ptr16,
         ti: ptr8, tm: ptr8, tsz: int, limit: int) -> int:
    """``Engine._run`` for Toguz Kumalak: search until ``limit`` nodes were visited (0)
    or the search is over (1). Its state: ``s`` and ``kk`` (``ToguzSearch``), the
    moves of each ply at ``mv[9 * ply:]``, the killers at ``kil[2 * ply:]`` (255
    none), the position ``p`` and the positions along the path at ``u[26 * ply:]``."""
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
            n = 0
            if ply == 0:
                n = int(s[_MN])
            elif int(p[25]) != 0:  # the game is over (1.6)
                value = 0
                ks = int(p[18])
                kn = int(p[19])
                if ks > 81 or kn > 81:
                    w = 1
                    if ks > 81:
                        w = 0
                    value = ply - _WIN
                    if w == int(p[22]):
                        value = _WIN - ply
                phase = 2
                continue
            elif d <= 0 or ply >= _P - 2:
                s[_HOR] = 1
                value = int(_toguz_eval(p, int(p[22])))
                phase = 2
                continue
            else:
                o = 9 * ply
                b = 9 * int(p[22])
                i = 0
                while i < 9:
                    if int(p[b + i]) != 0:
                        mv[o + n] = i
                        n += 1
                    i += 1
                s[_MN + ply] = n
            ttm = 255
            if tsz and ply > 0:
                key = int(_key(p))
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
            # killers, then the evaluation's hint, by insertion
            prev = 255
            if ply == 0:
                prev = int(s[_BEST])
                s[_ROOT] = 1
            k1 = int(kil[2 * ply])
            k2 = int(kil[2 * ply + 1])
            turn = int(p[22])
            o = 9 * ply
            i = 0
            while i < n:
                m = int(mv[o + i])
                if m == prev or m == ttm:
                    v = 32000
                elif m == k1:
                    v = 31000
                elif m == k2:
                    v = 30999
                else:
                    v = int(_toguz_order(p, turn, m))
                j = i
                while j > 0 and int(s[_OK + j - 1]) < v:
                    s[_OK + j] = s[_OK + j - 1]
                    mv[o + j] = mv[o + j - 1]
                    j -= 1
                s[_OK + j] = v
                mv[o + j] = m
                i += 1
            s[_IDX + ply] = 0
            s[_BS + ply] = _B - _INF
            s[_BM + ply] = 255
            phase = 1
        elif phase == 1:  # the next move, or the node's value
            i = int(s[_IDX + ply])
            al = int(s[_AL + ply])
            be = int(s[_BE + ply])
            if i < int(s[_MN + ply]) and al < be:
                s[_IDX + ply] = i + 1
                o = 26 * ply
                j = 0
                while j < 26:
                    u[o + j] = p[j]
                    j += 1
                _sow(p, int(mv[9 * ply + i]))
                ply += 1
                s[_AL + ply] = 2 * _B - be
                s[_BE + ply] = 2 * _B - al
                s[_DP + ply] = int(s[_DP + ply - 1]) - 1
                phase = 0
            else:
                value = int(s[_BS + ply]) - _B
                if tsz and ply > 0:
                    if value <= _B - int(s[_BE + ply - 1]):
                        bd = 2
                    elif value >= be - _B:
                        bd = 1
                    else:
                        bd = 0
                    bi = int(s[_BM + ply])
                    m = 255
                    if bi != 255:
                        m = int(mv[9 * ply + bi])
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
                        tm[i] = m
                phase = 2
        else:  # return the value to the parent
            if ply == 0:
                bi = int(s[_BM])
                if bi != 255:
                    s[_BEST] = mv[bi]
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
            o = 26 * ply
            j = 0
            while j < 26:
                p[j] = u[o + j]
                j += 1
            v = 0 - value
            i = int(s[_IDX + ply]) - 1
            if v > int(s[_BS + ply]) - _B:
                s[_BS + ply] = v + _B
                s[_BM + ply] = i
                if v > int(s[_AL + ply]) - _B:
                    s[_AL + ply] = v + _B
                    if v >= int(s[_BE + ply]) - _B:
                        m = int(mv[9 * ply + i])
                        if m != int(kil[2 * ply]):  # not the first killer already: it becomes it
                            kil[2 * ply + 1] = kil[2 * ply]
                            kil[2 * ply] = m
            phase = 1
    kk[_NODES] = nodes
    s[_PLY] = ply
    s[_PHASE] = phase
    s[_VAL] = value + _B
    return 0


class ToguzSearch:
    """The buffers of the native Toguz Kumalak search (about 2.3 KB, made once) and the
    calls that set it up and run it; ``Engine`` keeps one and reads its results."""

    def __init__(self):
        self.s = array("H", bytes(2 * _SN))
        self.kk = array("i", bytes(4 * (_NODES + 1)))
        self.mv = bytearray(9 * _P)
        self.kil = bytearray(2 * _P)
        self.p = bytearray(26)
        self.u = bytearray(26 * _P)

    def start(self, g, cap):
        """Set up a search of Toguz Kumalak game ``g`` (read, never changed) to depth
        ``cap`` at most; returns the number of root moves (``g.legal_moves()``'s, in
        its order)."""
        s = self.s
        for i in range(_SN):
            s[i] = 0
        for i in range(2 * _P):
            self.kil[i] = 255
        self.kk[_NODES] = 0
        self.p[:] = g.pos
        n = 0
        for m in g.legal_moves():
            self.mv[n] = m
            n += 1
        s[_MN] = n
        s[_CAP] = cap
        s[_ITER] = 1
        s[_BEST] = 255
        s[_AL] = _B - _INF
        s[_BE] = _B + _INF
        s[_DP] = _B + 1
        return n

    def run(self, eng, limit):
        """Search on until ``limit`` nodes in all (False) or the end (True), for
        ``eng`` (an ``Engine``: its table is shared; its ``nodes``, and at each
        iteration's end its ``depth``, ``best_move`` and ``score``, are set)."""
        s = self.s
        if eng.tt_size:
            r = _run(s, self.kk, self.mv, self.kil, self.p, self.u, eng._tt_key, eng._tt_score,
                     eng._tt_info, eng._tt_move, eng.tt_size, limit)
        else:
            r = _run(s, self.kk, self.mv, self.kil, self.p, self.u, self.kk, self.s,
                     self.u, self.u, 0, limit)
        eng.nodes = self.kk[_NODES]
        if s[_DEPTH] != eng.depth:  # an iteration ended: its move and score
            eng.depth = s[_DEPTH]
            eng.best_move = s[_BEST]
            eng.score = s[_SCORE] - _B
        return r == 1

    def partial(self, eng):
        """The budget ran out mid-iteration (``Engine._budget_end``): the partial
        iteration's best root move, if it has one, becomes ``eng.best_move``."""
        s = self.s
        bi = s[_BM]
        if s[_ROOT] and bi != 255:
            eng.best_move = self.mv[bi]
            if eng.depth == 0:
                eng.score = s[_BS] - _B


def start(eng, game):
    """Begin ``Engine.start``'s search of Toguz Kumalak ``game`` (read, never changed)
    natively, with the engine's ``ToguzSearch`` (``eng._ts``, made at its first such
    search; an engine's Tobit search is kept apart, ``eng._tgs``)."""
    ts = getattr(eng, "_tgs", None)
    if ts is None:
        ts = eng._tgs = ToguzSearch()
    ts.start(game, eng._cap)
    eng._native_search = ts
