"""Tobit move tracking: settled occupancy snapshots of the points -> legal moves.

See ``playboard.board.tracker`` for the interface shared with the mancala
tracker and docs/tracker.md for the behaviour. Per position, every legal move's
resulting occupancy, the points it may empty (start, captured) and the points
its piece may touch (its path) are kept as masks: two ints below 2**30 per
mask (points 1..29 in the low int, 30..58 in the high one), in one ``array``.
A frame with a changed snapshot is one viper pass over those records.
"""
from array import array

from playboard.compat import const
from playboard.board.tracker import (
    EventOutbox, LightsRequest, check_ms, _fill, _differs, _take,
    EV_LIFTED, EV_PLACED, EV_COMMITTED, EV_TAKEBACK, EV_CORRECTION, EV_RESOLVED,
    EV_AMBIGUOUS, EV_SETUP_DONE,
    R_TARGET, R_SELECTED, R_PATH, R_REMOVE, R_CANDIDATE, R_MISSING, R_EXTRA,
    R_WRONG_COLOUR, R_ENGINE_FROM, R_ENGINE_TO, R_LAST_FROM, R_LAST_TO,
    M_IDLE, M_MOVE, M_CORRECTION, M_SETUP, M_ENGINE, M_HINT, M_AMBIGUOUS, M_OVER,
)
from playboard.board.tobit_tracker_native import (  # noqa: F401 (native: loaded once)
    _masks, _match, _paint_bits, _guide, _popcount)

_MASK = const(0x3FFFFFFF)
# tracker.R_MISSING_BLACK, as a private const: inlined, no global (an imported name
# grew this module's dict by 192 bytes of heap); the set-up tests check they agree
_R_MISSING_BLACK = const(19)
_EV_MAX = const(48)


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


def _has(lo, hi, p):
    if p < 30:
        return (lo >> (p - 1)) & 1
    return (hi >> (p - 30)) & 1


_S_MATCH = const(0)  # board == game
_S_PENDING = const(1)  # board == the occupancy after a legal move (or the takeback): settle, then commit
_S_PARTIAL = const(2)  # on the way to some legal move
_S_UNEXPLAINED = const(3)  # nothing explains the board
_S_AMBIGUOUS = const(4)  # settled on an occupancy two moves give: waiting to be shown


class TobitTracker(EventOutbox):
    """Track a game of Tobit (``playboard.games.tobit``) on a board with a sensor per point.

    game: a ``Tobit`` / ``Tobit4`` game (the tracker pushes and pops its moves).
    settle_ms: a snapshot must stand unchanged this long before a move is committed
    (default 300). slide_ms: the same for an occupancy that is also a stop on the
    way of a longer legal move (a tobit's slide or landing choice), so that a
    half-finished slide is not committed (default 1000). correction_ms: how long a
    half-made move with a piece put down may stand before correction mode (default
    3000). takeback: restoring the previous position's occupancy takes the last move
    back (False: museum play). colour: occupancy values are 1 White / 2 Black and
    colours are checked (hall sensors); False: any non-zero value is a piece.
    setup: start in set-up mode (light the start position's points to fill / empty).
    ValueError for out-of-range settings; TypeError for a game that is not Tobit.

    Read (do not write): ``request`` (a LightsRequest over cells 0..N), ``ev_kind`` /
    ``ev_arg`` / ``n_events`` (the last frame's events), ``move`` (of the last
    commit / takeback), ``correcting`` and ``setting_up`` (modes), ``occ`` (the last
    snapshot, by point).
    """

    def __init__(self, game, settle_ms=300, slide_ms=1000, correction_ms=3000, takeback=True,
                 colour=False, setup=True):
        if not hasattr(game, "n_points") or not hasattr(game, "captured_points"):
            raise TypeError("TobitTracker needs a Tobit game, got %r" % (game,))
        check_ms("settle_ms", settle_ms, 1)
        check_ms("slide_ms", slide_ms, 1)
        check_ms("correction_ms", correction_ms, 1)
        if game.n_points > 58:
            raise ValueError("tracker: at most 58 points")
        self.game = game
        self.settle_ms = settle_ms
        self.slide_ms = slide_ms if slide_ms > settle_ms else settle_ms
        self.correction_ms = correction_ms
        self.takeback_enabled = bool(takeback)
        self.colour = 1 if colour else 0
        n = game.n_points
        self.n_points = n
        self._n1 = n + 1
        self.request = LightsRequest(n + 1)
        self.occ = bytearray(n + 1)
        self._cur = array("i", bytes(32))  # snapshot lo, hi, wlo, whi; base lo, hi, wlo, whi
        self._iso = None  # isolated points (playboard.board.isolate): (lo, hi) or None
        self._tmp = array("i", bytes(16))
        self._prm = array("i", bytes(24))  # parameters of _guide
        self._placed = bytearray(4)  # the last points placed off the base position (a ring)
        self._n_placed = 0
        self._chg = bytearray(_EV_MAX)
        self._init_events()
        self.move = None
        self.correcting = False
        self.setting_up = bool(setup)
        self.state = _S_MATCH
        self._wait = 0
        self._t_change = 0
        self._first_place = 0
        self._expect = -1
        self._hint = -1
        self._cap = 0
        self._rec = None
        self._flags = None
        self._grow(24)  # grows with the legal moves: small blocks, which a broken-up heap still has
        self._started = False
        self.new_position()

    # --- set-up of a position ---------------------------------------------------------
    def _grow(self, cap):
        self._cap = cap
        self._rec = array("i", bytes(4 * _S * cap))
        self._flags = bytearray(cap)
        self._from = bytearray(cap)
        self._end = bytearray(cap)
        self._prefix = bytearray(cap)

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
            pm = tmp
            _masks(g.board, self.n_points, pm)
            plo, phi = pm[0], pm[1]
            caps = g.captured_points(m)
            path_lo, path_hi = self._path(m, caps)
            g.push(m)
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

    # --- modes the app sets -----------------------------------------------------------
    def start_setup(self, now_ms=0):
        """Set-up mode: light the points to fill / empty until the game's position
        stands (colours checked with ``colour``); then EV_SETUP_DONE."""
        self.setting_up = True
        self.correcting = False
        self._classify(now_ms)

    def expect(self, move, now_ms=0):
        """Show the engine's ``move`` (one of the legal moves) and accept only it:
        committed when the board shows it; anything else is shown as in correction.
        ``None``: the engine is thinking: no move is accepted (the takeback still is),
        a board changed meanwhile is shown as in correction towards the position.
        ValueError if it is not legal here."""
        i = -1 if move is None else self._index(move)
        self._expect = i
        self._seen = -1
        self.held = i < 0
        flags = self._flags
        for k in range(self._nm):
            flags[k] = 0 if k == i else 0x80
        if i >= 0:
            flags[self._nm] = 0x80
        self._classify(now_ms)

    def hint(self, move, now_ms=0):
        """Show ``move`` (legal here) as a hint on the idle board; any legal move is
        still accepted. ``None`` clears the hint."""
        self._hint = -1 if move is None else self._index(move)
        self._classify(now_ms)

    def _index(self, move):
        for i in range(self._nm):
            if self._moves[i] == move:
                return i
        raise ValueError("move %r is not legal in %s" % (move, self.game.fen()))

    # --- the frame ----------------------------------------------------------------------
    def update(self, occ, now_ms):
        """Take one settled occupancy snapshot (indexed by point, see the module)
        read at ``now_ms``; return the number of events (``ev_kind``/``ev_arg``).
        No allocation unless the snapshot changed."""
        self.n_events = 0
        if not self._started:
            if len(occ) < self._n1:
                raise ValueError("tracker: occupancy needs %d cells (points 1..%d), got %d"
                                 % (self._n1, self.n_points, len(occ)))
            self._started = True
            self._t_change = now_ms
            _take(occ, self.occ, self._n1, self._chg, 0)
            self._snap()
            self._classify(now_ms)
            return self.n_events
        if _differs(occ, self.occ, self._n1):
            self._on_change(occ, now_ms)
        elif self._wait and ((now_ms - self._t_change) & _MASK) >= self._wait:
            self._wait = 0
            self._on_settled(now_ms)
        return self.n_events

    def busy(self):
        """True while a timer runs (a settle, a correction timeout): only then can a
        frame with an unchanged snapshot produce an event."""
        return self._wait != 0 or not self._started

    def _on_change(self, occ, now_ms):
        occ_now = self.occ
        k = _take(occ, occ_now, self._n1, self._chg, _EV_MAX)
        base = self._base
        for j in range(k):
            p = self._chg[j]
            if p == 0:
                continue
            if occ_now[p]:
                self._emit(EV_PLACED, p)
                if not _has(base[0], base[1], p):
                    if self._first_place == 0:
                        self._first_place = p
                    self._placed[self._n_placed & 3] = p
                    self._n_placed += 1
            else:
                self._emit(EV_LIFTED, p)
        self._snap()
        self._t_change = now_ms
        self._classify(now_ms)

    def _snap(self):
        """The snapshot masks from ``occ``; an isolated point reads as in the base
        (as the game says): see ``playboard.board.isolate``."""
        cur = self._cur
        _masks(self.occ, self.n_points, cur)
        iso = self._iso
        if iso:
            for k in range(4):
                i = iso[k & 1]
                cur[k] = (cur[k] & (i ^ _MASK)) | (cur[4 + k] & i)

    def _classify(self, now_ms):
        """Decide the state from the current snapshot masks; paint the request."""
        cur = self._cur
        nm = self._nm
        is_base = cur[0] == cur[4] and cur[1] == cur[5] and (
            not self.colour or (cur[2] == cur[6] and cur[3] == cur[7]))
        if self.setting_up:
            self.state = _S_MATCH
            self._wait = self.settle_ms if is_base else 0
            self._paint_target(M_SETUP, cur[4], cur[5], cur[6], cur[7])
            return
        r = _match(self._rec, nm + 1, cur, self._flags, self.colour + self.colour * self._turn)
        nexact = r & 0xFF
        ncons = (r >> 8) & 0xFF
        if self.colour and ((cur[0] & cur[4] & (cur[2] ^ cur[6])) or (cur[1] & cur[5] & (cur[3] ^ cur[7]))):
            nexact = ncons = 0  # a standing piece changed colour: nothing explains that
            self._flags[nm] = self._flags[nm] & 0x80
        tb = self._flags[nm] & 3
        if is_base:
            self.state = _S_MATCH
            self._wait = 0
            self._first_place = 0
            self._n_placed = 0
            if self.correcting:
                self.correcting = False
                self._emit(EV_RESOLVED, 0)
            self._paint_idle()
            return
        if nexact or tb & 2:
            self.state = _S_PENDING
            wait = self.settle_ms
            if nexact:
                flags = self._flags
                for i in range(nm):
                    if flags[i] & 2:
                        if nexact == 1 and not tb & 2:
                            self._seen = i  # (see _both)
                        if self._prefix[i]:
                            wait = self.slide_ms
            self._wait = wait
            if self.correcting:
                self._paint_correction()
            else:
                self._paint_guidance()
            return
        extra = (cur[0] & (cur[4] ^ _MASK)) | (cur[1] & (cur[5] ^ _MASK))
        if ncons or tb & 1:
            self.state = _S_PARTIAL
            if extra == 0:
                self._wait = 0  # pieces only lifted: the player is thinking
                if self.correcting:
                    self.correcting = False
                    self._emit(EV_RESOLVED, 0)
            else:
                self._wait = self.correction_ms
            if self.correcting:
                self._paint_correction()
            else:
                self._paint_guidance()
            return
        self.state = _S_UNEXPLAINED
        self._wait = self.settle_ms
        if self.correcting:
            self._paint_correction()

    def _on_settled(self, now_ms):
        st = self.state
        if self.setting_up:
            self.setting_up = False
            self._emit(EV_SETUP_DONE, 0)
            self._classify(now_ms)
            return
        if st == _S_PENDING:
            nm = self._nm
            flags = self._flags
            if flags[nm] & 2:
                self._takeback(now_ms)
                return
            cands = [i for i in range(nm) if flags[i] & 2]
            if len(cands) == 1:
                self._commit(cands[0], now_ms)
                return
            pick = self._pick(cands)
            if pick >= 0:
                self._commit(pick, now_ms)
                return
            self.state = _S_AMBIGUOUS
            self._emit(EV_AMBIGUOUS, len(cands))
            self._paint_candidates(cands)
            return
        if st == _S_PARTIAL or st == _S_UNEXPLAINED:
            if st == _S_UNEXPLAINED and (self._expect >= 0 or self._seen >= 0) \
                    and self._both(now_ms):
                return
            if not self.correcting:
                self.correcting = True
                self._emit(EV_CORRECTION, 0)
            self._paint_correction()

    def _both(self, now_ms):
        """A board nothing explains has stood ``settle_ms``: is it a move and the reply
        arriving together (the reply begun before the move stood ``settle_ms``, or, for
        the engine's move, made with it)? The move is the engine's (expected), else
        the one legal move whose occupancy the board showed in this position. Then it
        is committed and the board read against the position after it: True. Else all
        is as it was: False (correction follows)."""
        e = self._expect
        h = self._hint
        i = e if e >= 0 else self._seen
        m = self._moves[i]
        g = self.game
        was = self.correcting
        self.correcting = False  # (the trial emits nothing)
        g.push(m)
        self.new_position()  # classifies the board against the position after m
        if self.state != _S_UNEXPLAINED:
            self.move = m
            self._emit(EV_COMMITTED, g.ply & 0xFF)
            if was:
                self._emit(EV_RESOLVED, 0)
            return True
        g.pop()
        self.new_position()
        if e >= 0:
            self.expect(m, now_ms)
        else:
            self._hint = h
            self._seen = i  # (the move list is made again in the same order)
            self._classify(now_ms)
        self._wait = 0  # (the correction that follows is the settled state's)
        self.correcting = was
        return False

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

    def _pick(self, cands):
        """The candidate whose path the player showed, or -1: the newest of the last
        points placed off the position (then the first one placed) that is a first
        landing point of exactly one candidate."""
        k = self._n_placed
        shown = [self._placed[(k - 1 - j) & 3] for j in range(min(k, 4))]
        shown.append(self._first_place)
        lands = [self._first_landing(i) for i in cands]
        for p in shown:
            if not p:
                continue
            found = -1
            n = 0
            for j in range(len(cands)):
                if p in lands[j]:
                    found = cands[j]
                    n += 1
            if n == 1:
                return found
        return -1

    def _commit(self, i, now_ms):
        m = self._moves[i]
        self.game.push(m)
        self.move = m
        self._emit(EV_COMMITTED, self.game.ply & 0xFF)
        if self.correcting:
            self.correcting = False
            self._emit(EV_RESOLVED, 0)
        self.new_position()

    def _takeback(self, now_ms):
        m = self.game.pop()
        self.move = m
        self._emit(EV_TAKEBACK, self.game.ply & 0xFF)
        if self.correcting:
            self.correcting = False
            self._emit(EV_RESOLVED, 0)
        self.new_position()

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
