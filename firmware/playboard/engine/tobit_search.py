"""The native Tobit search's buffers and set-up (``TobitSearch``): what
``playboard.engine.search.Engine`` runs for Tobit at levels 7 and 8. The search itself is
``playboard.engine.tobit_native`` (viper, loaded at power-up); this module is game code,
loaded for the first such search and dropped with the game (``state.GAME_CODE``).
"""
from array import array

from playboard.compat import const
from playboard.engine.tobit_native import _gen, _run

# tobit_native's layout (the u16 stack's fields; the i32 array's parts), as consts here
_P = const(41)
_MAXM = const(640)
_POOL = const(4096)
_HMAX = const(24)
_B = const(32768)
_INF = const(32000)
_AL = const(41)
_BE = const(82)
_BS = const(123)
_BM = const(164)
_DP = const(205)
_MN = const(287)
_PT = const(328)
_ITER = const(372)
_CAP = const(373)
_SCORE = const(375)
_DEPTH = const(376)
_BEST = const(377)
_HIST = const(378)
_ROOT = const(379)
_HK = const(381)
_SN = const(448)
_NODES = const(41)
_KH = const(42)
_KEYS = const(216)


class TobitSearch:
    """The buffers of the native Tobit search (about 13 KB, made once) and the calls
    that set it up and run it; ``Engine`` keeps one and reads its results."""

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
        self.fr = bytearray(400)

    def start(self, g, cap):
        """Set up a search of Tobit game ``g`` (read, never changed) to depth ``cap``
        at most; returns the number of root moves (as ``g.legal_moves()``, same order)."""
        s = self.s
        n1 = g.n_points + 1
        snap = n1 + 26
        h = min(g.ply, _HMAX)
        u = self.u
        for i in range(h):  # the positions before the root, oldest first
            p = g.ply - h + i
            c = g._chunks[p >> 4]
            o = (p & 15) * g._snap
            u[i * snap:(i + 1) * snap] = c[o:o + snap]
        hk = min(g.ply - h, _KEYS)
        for i in range(hk):  # and the keys of those before them, newest first
            p = g.ply - h - 1 - i
            c = g._chunks[p >> 4]
            o = (p & 15) * g._snap + n1 + 4
            self.kk[_KH + i] = c[o] | c[o + 1] << 8 | c[o + 2] << 16 | c[o + 3] << 24
        self.b[:n1] = g.board
        self.st[:] = g.st
        for i in range(_SN):
            s[i] = 0
        for i in range(32 * _P):
            self.kil[i] = 0
        self.kk[_NODES] = 0
        n = _gen(self.b, g._geo, g.st[3] + 1, self.pool, 0, self.mo, self.mk, 0, self.fr, 0)
        s[_MN] = n
        s[_PT] = self.mo[n]
        s[_HIST] = h
        s[_HK] = hk
        s[_CAP] = cap
        s[_ITER] = 1
        s[_BEST] = 0xFFFF
        s[_AL] = _B - _INF
        s[_BE] = _B + _INF
        s[_DP] = _B + 1
        self._geo = g._geo
        self._z = g._z
        return n

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
            eng.best_move = self._move(self.mo[bi])
            if eng.depth == 0:
                eng.score = s[_BS] - _B

    def _move(self, q):
        # the move whose record is at pool offset q (bytes, as legal_moves gives it)
        return bytes(self.pool[q + 1:q + 1 + self.pool[q]])
