"""The Tobit tracker's view of a position (``playboard.board.tobit_tracker``, whose
base class this is): every legal move's record, made once per position, and the
lights painted from those records and the snapshot.

Per position, every legal move's resulting occupancy, the points it may empty
(start, captured) and the points its piece may touch (its path) are kept as masks:
two ints below 2**30 per mask (points 1..29 in the low int, 30..58 in the high one),
in one ``array``. Kept apart from the tracker's frames so that neither module's
import takes a whole frame on the RP2040 (docs/pico.md).
"""
from array import array

from playboard.compat import const
from playboard.board.tracker import (
    EventOutbox,
    R_TARGET, R_SELECTED, R_PATH, R_REMOVE, R_CANDIDATE, R_MISSING, R_EXTRA,
    R_WRONG_COLOUR, R_ENGINE_FROM, R_ENGINE_TO, R_LAST_FROM, R_LAST_TO,
    M_IDLE, M_MOVE, M_CORRECTION, M_ENGINE, M_HINT, M_AMBIGUOUS, M_OVER,
)
from playboard.board.tobit_tracker_native import (  # noqa: F401 (native: loaded once)
    _masks, _paint_bits, _guide, _popcount)

_MASK = const(0x3FFFFFFF)
# tracker.R_MISSING_BLACK, as a private const: inlined, no global (an imported name
# grew this module's dict by 192 bytes of heap); the set-up tests check they agree
_R_MISSING_BLACK = const(19)
_S_MATCH = const(0)  # board == game (tobit_tracker's state)

# Per-move record in TobitTracker._rec (array 'i', _S ints each):
_S = const(12)
# 0,1 occupancy after the move (lo, hi); 2,3 White after it; 4,5 may be missing
# (from + captured); 6,7 may be extra (points the piece passes or lands on);
# 8,9 captured; 10,11 turning points of the notation path.


def _bit(p):
    """(lo, hi) mask of point p."""
    if p < 30:
        return 1 << (p - 1), 0
    return 0, 1 << (p - 30)


def _mask_of(points):
    lo = 0
    hi = 0
    for p in points:
        if p < 30:
            lo |= 1 << (p - 1)
        else:
            hi |= 1 << (p - 30)
    return lo, hi



class TobitPosition(EventOutbox):
    """The records of a position's legal moves and the painting of the request:
    the base of ``TobitTracker`` (see it for the attributes), not used alone."""

    # --- set-up of a position ---------------------------------------------------------
    def _grow(self, cap):
        self._rec = array("i", bytes(4 * _S * cap))
        self._flags = bytearray(cap)
        self._from = bytearray(cap)
        self._end = bytearray(cap)
        self._prefix = bytearray(cap)
        self._cap = cap  # last: a MemoryError above leaves the old capacity (grown again)

    def new_position(self):
        """Re-read the game (after the app set a position, a new game or a resumed
        one): precompute every legal move's occupancy. Cancels an expected engine
        move and a hint. Allocates (not for every frame)."""
        g = self.game
        cur = self._cur
        tmp = self._tmp
        _masks(g.board, self.n_points, tmp)
        blo, bhi, bwlo, bwhi = tmp[0], tmp[1], tmp[2], tmp[3]
        cur[4], cur[5], cur[6], cur[7] = blo, bhi, bwlo, bwhi
        self._base = (blo, bhi)
        self._expect = -1
        self._hint = -1
        self._seen = -1  # the one legal move whose occupancy the board showed here
        self.held = False  # expect(None): no move accepted (the engine's turn)
        self._last_from = 0
        self._last_to = 0
        self._turn = g.turn  # (the frames read no game: it holds a search's moves then)
        moves = g.legal_moves()
        nm = len(moves)
        if nm + 1 > self._cap:
            self._grow(nm + 8)
        self._moves = moves
        self._nm = nm
        rec = self._rec
        white = g.turn == 0
        for i in range(nm):
            self._store(i, moves[i], blo, bhi, bwlo, bwhi, white)
        # the takeback record (slot nm): the previous position
        t = nm
        flags = self._flags
        flags[t] = 0x80
        if g.ply > 0:
            m = g.pop()
            try:  # (a MemoryError here must not leave the game a ply back)
                pm = tmp
                _masks(g.board, self.n_points, pm)
                plo, phi = pm[0], pm[1]
                caps = g.captured_points(m)
                path_lo, path_hi = self._path(m, caps)
            finally:
                g.push(m)  # (into the undo slot just freed: no allocation)
            self._last_from = m[1]
            self._last_to = m[len(m) - 1]
            o = t * _S
            rec[o], rec[o + 1], rec[o + 2], rec[o + 3] = plo, phi, pm[2], pm[3]
            rec[o + 4] = blo & (plo ^ _MASK)
            rec[o + 5] = bhi & (phi ^ _MASK)
            rec[o + 6] = (plo & (blo ^ _MASK)) | path_lo
            rec[o + 7] = (phi & (bhi ^ _MASK)) | path_hi
            for k in range(8, 12):
                rec[o + k] = 0
            self._from[t] = self._last_to
            self._end[t] = self._last_from
            self._prefix[t] = 0
            if self.takeback_enabled:
                flags[t] = 0
        self.state = _S_MATCH
        self._first_place = 0
        self._n_placed = 0
        if self._started:
            if self._iso:
                self._snap()  # the isolated points read as the new base
            self._classify(self._t_change)

    def _path(self, m, caps):
        """(lo, hi) of the points move m's piece passes or may land on (not captured ones)."""
        g = self.game
        pts = []
        for i in range(1, len(m) - 1):
            s, e = m[i], m[i + 1]
            sx, sy = g.xy(s)
            ex, ey = g.xy(e)
            if sx == ex:
                d = 0 if ey > sy else 2
            else:
                d = 1 if ex > sx else 3
            p = s
            guard = 0
            while p != e and guard < 64:
                p = g.neighbour(p, d)
                guard += 1
                if p == 0:
                    raise ValueError("move %r leaves the board" % (m,))
                if p not in caps:
                    pts.append(p)
        return _mask_of(pts)

    def _store(self, i, m, blo, bhi, bwlo, bwhi, white):
        g = self.game
        caps = g.captured_points(m)
        s = m[1]
        e = m[len(m) - 1]
        clo, chi = _mask_of(caps)
        slo, shi = _bit(s)
        elo, ehi = _bit(e)
        fclo = clo | slo
        fchi = chi | shi
        plo, phi = self._path(m, caps)
        rec = self._rec
        o = i * _S
        rec[o] = (blo & (fclo ^ _MASK)) | elo
        rec[o + 1] = (bhi & (fchi ^ _MASK)) | ehi
        rec[o + 2] = (bwlo & (fclo ^ _MASK)) | (elo if white else 0)
        rec[o + 3] = (bwhi & (fchi ^ _MASK)) | (ehi if white else 0)
        rec[o + 4] = fclo
        rec[o + 5] = fchi
        rec[o + 6] = plo
        rec[o + 7] = phi
        rec[o + 8] = clo
        rec[o + 9] = chi
        tlo, thi = _mask_of(m[2:len(m) - 1]) if m[0] == 1 else (0, 0)
        rec[o + 10] = tlo
        rec[o + 11] = thi
        self._from[i] = s
        self._end[i] = e
        self._flags[i] = 0
        # a stop on the way of a longer legal move: a tobit that could go on along its line
        pre = 0
        if g.board[s] & 4:
            if len(m) >= 3:
                a = m[len(m) - 2]
                ax, ay = g.xy(a)
                ex, ey = g.xy(e)
                if ax == ex:
                    d = 0 if ey > ay else 2
                else:
                    d = 1 if ex > ax else 3
                q = g.neighbour(e, d)
                if q and (q == s or g.board[q] == 0) and q not in caps:
                    pre = 1
        self._prefix[i] = pre


    def _first_landing(self, i):
        """The points where move i's piece may first touch down (after its first
        jump, on the first segment of its path): a new list."""
        m = self._moves[i]
        if m[0] != 1:
            return [m[2]]
        g = self.game
        caps = g.captured_points(m)
        a = m[1]
        b = m[2]
        ax, ay = g.xy(a)
        bx, by = g.xy(b)
        if ax == bx:
            d = 0 if by > ay else 2
        else:
            d = 1 if bx > ax else 3
        out = []
        jumped = False
        p = a
        while p != b:
            p = g.neighbour(p, d)
            if p in caps:
                jumped = True
            elif jumped:
                out.append(p)
        return out

    # --- painting the request ---------------------------------------------------------
    def _paint_idle(self):
        req = self.request
        if self._expect >= 0 or self._hint >= 0:
            i = self._expect if self._expect >= 0 else self._hint
            req.clear(M_ENGINE if self._expect >= 0 else M_HINT)
            self._paint_move(i, R_ENGINE_FROM, R_ENGINE_TO)
            return
        req.clear(M_OVER if self._nm == 0 else M_IDLE)
        if self._last_from:
            req.roles[self._last_from] = R_LAST_FROM
            req.roles[self._last_to] = R_LAST_TO

    def _paint_move(self, i, from_role, to_role):
        rec = self._rec
        o = i * _S
        roles = self.request.roles
        n = self.n_points
        _paint_bits(roles, rec[o + 10], rec[o + 11], n, R_PATH)
        roles[self._end[i]] = to_role
        cur = self._cur
        _paint_bits(roles, rec[o + 8] & cur[0], rec[o + 9] & cur[1], n, R_REMOVE)
        s = self._from[i]
        if roles[s] == 0:
            roles[s] = from_role

    def _paint_guidance(self):
        """Light every consistent move: turning points, targets, pieces to remove, starts."""
        req = self.request
        engine = self._expect >= 0
        req.clear(M_ENGINE if engine else M_MOVE)
        prm = self._prm
        cur = self._cur
        prm[0] = self._nm
        prm[1] = self.n_points
        prm[2] = cur[0]
        prm[3] = cur[1]
        prm[4] = R_ENGINE_FROM if engine else R_SELECTED
        prm[5] = R_ENGINE_TO if engine else R_TARGET
        _guide(req.roles, self._rec, self._flags, self._end, self._from, prm)

    def _paint_candidates(self, cands):
        """Light each candidate's first landing points (those not shared) and the end."""
        req = self.request
        req.clear(M_AMBIGUOUS)
        lands = [self._first_landing(i) for i in cands]
        for j in range(len(cands)):
            for p in lands[j]:
                shared = 0
                for other in lands:
                    if p in other:
                        shared += 1
                if shared == 1:
                    req.roles[p] = R_CANDIDATE
            req.roles[self._end[cands[j]]] = R_TARGET

    def _nearest(self):
        """(lo, hi, wlo, whi) of the known position nearest the board: the game's,
        a legal (allowed) move's result, or the takeback's."""
        cur = self._cur
        clo, chi = cur[0], cur[1]
        best = (cur[4], cur[5], cur[6], cur[7])
        bd = _popcount(clo ^ cur[4]) + _popcount(chi ^ cur[5])
        rec = self._rec
        flags = self._flags
        cons = False
        for i in range(self._nm + 1):
            f = flags[i]
            if f & 0x80:
                continue
            o = i * _S
            d = _popcount(clo ^ rec[o]) + _popcount(chi ^ rec[o + 1])
            # nearer wins; at equal distance a move the board is on the way to wins
            if d < bd or (d == bd and (f & 1) and not cons):
                bd = d
                cons = (f & 1) != 0
                best = (rec[o], rec[o + 1], rec[o + 2], rec[o + 3])
        return best

    def _paint_correction(self):
        t = self._nearest()
        self._paint_target(M_CORRECTION, t[0], t[1], t[2], t[3])

    def _paint_target(self, mode, tlo, thi, twlo, twhi):
        """Light the differences between the board and the target occupancy."""
        req = self.request
        req.clear(mode)
        cur = self._cur
        roles = req.roles
        n = self.n_points
        mlo = tlo & (cur[0] ^ _MASK)
        mhi = thi & (cur[1] ^ _MASK)
        xlo = cur[0] & (tlo ^ _MASK)
        xhi = cur[1] & (thi ^ _MASK)
        _paint_bits(roles, mlo, mhi, n, _R_MISSING_BLACK)  # then White's over it
        _paint_bits(roles, mlo & twlo, mhi & twhi, n, R_MISSING)
        _paint_bits(roles, xlo, xhi, n, R_EXTRA)
        if self.colour:
            both_lo = tlo & cur[0]
            both_hi = thi & cur[1]
            _paint_bits(roles, both_lo & (twlo ^ cur[2]), both_hi & (twhi ^ cur[3]), n, R_WRONG_COLOUR)
        if (mlo or mhi) and (xlo or xhi):
            self._pair()

    def _pair(self):
        """Pair each extra point with the nearest unpaired missing one (city-block)."""
        g = self.game
        roles = self.request.roles
        pair = self.request.pair
        n = self.n_points
        missing = [p for p in range(1, n + 1) if roles[p] == R_MISSING or roles[p] == _R_MISSING_BLACK]
        for p in range(1, n + 1):
            if roles[p] != R_EXTRA or not missing:
                continue
            px, py = g.xy(p)
            best = 0
            bd = 1000
            for q in missing:
                qx, qy = g.xy(q)
                d = abs(qx - px) + abs(qy - py)
                if d < bd:
                    bd = d
                    best = q
            missing.remove(best)
            pair[p] = best
            pair[best] = p
