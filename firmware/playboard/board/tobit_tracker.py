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
    LightsRequest, check_ms, _differs, _take,
    EV_LIFTED, EV_PLACED, EV_COMMITTED, EV_TAKEBACK, EV_CORRECTION, EV_RESOLVED,
    EV_AMBIGUOUS, EV_SETUP_DONE, M_SETUP,
)
from playboard.board.tobit_tracker_native import (  # noqa: F401 (native: loaded once)
    _masks, _match)
from playboard.board.tobit_position import TobitPosition

_MASK = const(0x3FFFFFFF)
_EV_MAX = const(48)
_HIST = const(16)  # boards nothing explained kept for three plies together (tobit_chain)


def _has(lo, hi, p):
    if p < 30:
        return (lo >> (p - 1)) & 1
    return (hi >> (p - 30)) & 1


_S_MATCH = const(0)  # board == game
_S_PENDING = const(1)  # board == the occupancy after a legal move (or the takeback): settle, then commit
_S_PARTIAL = const(2)  # on the way to some legal move
_S_UNEXPLAINED = const(3)  # nothing explains the board
_S_AMBIGUOUS = const(4)  # settled on an occupancy two moves give: waiting to be shown


class TobitTracker(TobitPosition):
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
        self._hist = None  # see playboard.board.tobit_chain (made when first needed)
        self._nh = 0
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
        self._redo = -1  # an update cut short: -2, or the game's ply to go back to (update)
        self.new_position()

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
        r = self._redo
        if r != -1:
            # the last update was cut short by a MemoryError (the app's frame survives
            # it): after the game changed (r, its ply then), the game back at that ply
            # (a trial of plies together undone) and the position read again; the
            # board read again in any case; that update's events (a commit among them)
            # given now with this one's
            if r >= 0:
                g = self.game
                while g.ply > r:
                    g.pop()
                self.new_position()
            self._on_change(occ, now_ms)
            self._redo = -1
            return self.n_events
        self.n_events = 0
        self._redo = -2  # (an update under way: see above)
        self._update(occ, now_ms)
        self._redo = -1
        return self.n_events

    def _update(self, occ, now_ms):
        if not self._started:
            if len(occ) < self._n1:
                raise ValueError("tracker: occupancy needs %d cells (points 1..%d), got %d"
                                 % (self._n1, self.n_points, len(occ)))
            self._started = True
            self._t_change = now_ms
            _take(occ, self.occ, self._n1, self._chg, 0)
            self._snap()
            self._classify(now_ms)
            return
        if _differs(occ, self.occ, self._n1):
            self._on_change(occ, now_ms)
        elif self._wait and ((now_ms - self._t_change) & _MASK) >= self._wait:
            self._wait = 0
            self._on_settled(now_ms)

    def busy(self):
        """True while a timer runs (a settle, a correction timeout): only then can a
        frame with an unchanged snapshot produce an event."""
        return self._wait != 0 or not self._started or self._redo != -1

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
        stood = (now_ms - self._t_change) & _MASK
        self._t_change = now_ms
        self._classify(now_ms)
        st = self.state
        if st == _S_UNEXPLAINED or (self._nh and st == _S_PARTIAL):
            # kept from the first board nothing explains on: a ply and the next one's
            # first lift may be in it (plies together, tobit_chain)
            h = self._hist
            if h is None:
                h = self._hist = array("i", bytes(16 * _HIST))
            o = (self._nh % _HIST) * 4
            cur = self._cur
            for j in range(4):
                h[o + j] = cur[j]
            self._nh += 1
            i = self._seen
            if self._nh == 1 and (self._expect >= 0 or (i >= 0 and (
                    stood >= self.settle_ms or not self._prefix[i]))):
                # the move shown (a slide's stop: for settle_ms), then the next ply's
                # first lift: tried at once (tobit_chain)
                self._wait = 1
            elif i >= 0 and st == _S_UNEXPLAINED and self._expect < 0:
                o = i * 12
                rec = self._rec
                if (cur[0] & (rec[o] ^ _MASK)) | (cur[1] & (rec[o + 1] ^ _MASK)):
                    # a piece down off the move shown's result, nothing explains the
                    # board here: the next ply landed? tried at once (tobit_chain.proven)
                    self._wait = 1

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
            self._nh = 0
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
                        if nexact == 1 and not tb & 2 and (self._seen < 0 or not self._nh):
                            # (not after boards nothing explained were kept since the
                            # move shown: plies together may look like another move)
                            self._seen = i  # (see tobit_chain.both)
                            self._nh = 0
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
                # pieces only lifted: the player is thinking (no timer), unless boards
                # nothing explained were kept (tobit_chain)
                if self.correcting:
                    self.correcting = False
                    self._nh = 0  # (put right: a wrong point's boards, kept, would
                    # hide the plies after; corpus tobit4 two 101001285)
                    self._emit(EV_RESOLVED, 0)
                self._wait = self.settle_ms if self._nh else 0
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
                if self._seen >= 0 and self._nh and self._chained(now_ms):
                    return  # (plies together that look like a takeback: a move back and forth)
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
            if (st == _S_UNEXPLAINED or self._nh) and (self._expect >= 0 or self._seen >= 0 or self._nh) \
                    and self._chained(now_ms):
                return
            if not self.correcting:
                self.correcting = True
                self._emit(EV_CORRECTION, 0)
            self._paint_correction()

    def _chained(self, now_ms):
        """A move and its reply together? (cold: ``playboard.board.tobit_chain.settled``)"""
        r = self._redo
        self._redo = self.game.ply  # (the trial pushes the move: undone if cut short)
        from playboard.board import tobit_chain
        from playboard.compat import unload
        done = tobit_chain.settled(self, now_ms)
        self._redo = r
        unload("playboard.board.tobit_chain")
        return done

    def _pick(self, cands):
        """The candidate whose path the player showed, or -1: the first point placed
        off the position, then the newest of the last ones (shown after EV_AMBIGUOUS),
        that is a first landing point of exactly one candidate. (Not the newest first:
        a loop's last turning point touched is the other direction's first landing,
        corpus tobit4 two 101001111.)"""
        k = self._n_placed
        shown = [self._first_place] + [self._placed[(k - 1 - j) & 3] for j in range(min(k, 4))]
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
        self._nh = 0  # (the kept boards were read in the last position)
        self._emit(EV_COMMITTED, self.game.ply & 0xFF)
        if self.correcting:
            self.correcting = False
            self._emit(EV_RESOLVED, 0)
        r = self._redo
        self._redo = self.game.ply  # new_position allocates: see update
        self.new_position()
        self._redo = r

    def _takeback(self, now_ms):
        m = self.game.pop()
        self.move = m
        self._nh = 0
        self._emit(EV_TAKEBACK, self.game.ply & 0xFF)
        if self.correcting:
            self.correcting = False
            self._emit(EV_RESOLVED, 0)
        r = self._redo
        self._redo = self.game.ply
        self.new_position()
        self._redo = r

