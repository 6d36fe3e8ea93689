"""Toguz Kumalak's search in native code: the engine's negamax for Toguz Kumalak as one
viper loop over the position's 26 bytes (RULES.md section 1).

``ToguzSearch`` is what ``playboard.engine.search.Engine`` runs for Toguz Kumalak at the
levels that search to their budget (no depth cap, no noise) on a board whose search is
native: the same search as ``Engine._run`` - the same nodes, move order, transposition
table and killers - so that it plays the same moves at the same node count, about nine
times faster on the RP2040 (docs/engine.md). It copies the position at ``start`` and
never touches the game; make and unmake are the rules core's sowing (``_sow``) and a
copy of the 26 bytes back, the evaluation and the move order the evaluation's kernels.

The search loop is the one both native searches share, ``playboard.engine.tobit_native``'s
``_run`` (its Toguz Kumalak branches), and so is the step loop (``tobit_native.step``);
this module holds the search's buffers and set-up. ``start`` is ``Engine.start``'s for
it. Native (viper) code: imported
at power-up where the search is native, and never dropped (docs/architecture.md).
Under CPython the viper code runs as plain Python: the same answers, slower than the
engine's own search (the host tools' matches play that at the same nodes).
"""
from array import array

from playboard.compat import const
from playboard.engine.tobit_native import NativeSearch

_P = const(41)  # frames: the search's MAX_PLY + 1
# the u16 stack's places that this module sets (tobit_native's layout)
_MN = const(287)
_FT = const(383)
_SN = const(489)
_NODES = const(41)  # in the i32 array, after the 41 keys


class ToguzSearch(NativeSearch):
    """The buffers of the native Toguz Kumalak search (about 2.7 KB, made once) and its
    set-up; ``Engine`` keeps one and reads its results. The loop is
    ``tobit_native._run``'s (``s[_TG]`` 1): the moves of each ply at ``pool[9 * ply:]``,
    the killers at ``kil[2 * ply:]``, the position ``b`` and the path's at ``u``; the
    buffers it does not read are these same ones."""

    def __init__(self):
        self.s = array("H", bytes(2 * _SN))
        self.kk = array("i", bytes(4 * (_NODES + 1)))
        self.pool = bytearray(9 * _P)
        self.kil = bytearray(2 * _P)
        self.b = bytearray(26)
        self.u = bytearray(26 * _P)
        self.mo = self.mk = self.s  # (not read)
        self.st = self.mb = self.fr = self._geo = self.b
        self._z = self.kk

    def start(self, g, cap):
        """Set up a search of Toguz Kumalak game ``g`` (read, never changed) to depth
        ``cap`` at most; returns the number of root moves (``g.legal_moves()``'s, in
        its order)."""
        self._begin(cap, 255, 1)
        for i in range(2 * _P):
            self.kil[i] = 255
        self.b[:] = g.pos
        n = 0
        for m in g.legal_moves():
            self.pool[n] = m
            n += 1
        self.s[_MN] = n
        return n

    def _move(self, m):
        return m  # (the pit)

    def _root(self, i):
        return self.pool[i]


def start(eng, game):
    """Begin ``Engine.start``'s search of Toguz Kumalak ``game`` (read, never changed)
    natively, with the engine's ``ToguzSearch`` (``eng._ts``, made at its first such
    search; an engine's Tobit search is kept apart, ``eng._tgs``)."""
    ts = getattr(eng, "_tgs", None)
    if ts is None:
        ts = eng._tgs = ToguzSearch()
    ts.start(game, eng._cap)
    ts.s[_FT] = eng._features  # (ToguzEval.SEARCH, or the engine's own choice)
    eng._native_search = ts
