"""Toguz Kumalak and Tihbat tracking: a pit sensor event selects a pit; the board
shows the sowing and keeps the true counts (pit sensors cannot count balls).

See ``playboard.board.tracker`` for the interface shared with the Tobit tracker
and docs/tracker.md for the behaviour.
"""
from array import array

from playboard.compat import const
from playboard.board.tracker import (
    EventOutbox, LightsRequest, check_ms, _differs, _take,
    EV_LIFTED, EV_PLACED, EV_COMMITTED, EV_TAKEBACK, EV_SELECTED, EV_ERROR, EV_CONFIRMED,
    R_TARGET, R_SELECTED, R_SOW, R_LAST, R_CAPTURE, R_TUZDYK, R_KAZAN, R_ERROR, R_ENGINE_FROM,
    M_CHOOSE, M_SOWING, M_OVER,
)

_MASK = const(0x3FFFFFFF)
_EV_MAX = const(48)
_PASS_DUE = const(254)  # _reply: Tihbat's forced pass at the next frame (one commit an update)

# why an event selected nothing: ``MancalaTracker.why`` with each EV_ERROR (these
# numbers; the link's ``error`` event sends them). The LEDs say it by what they light
# beside the flashing pit (docs/tracker.md):
_WHY_EMPTY = const(1)  # the mover's pit is empty (or a tuzdyk): the playable pits lit
_WHY_OTHER = const(2)  # not a pit of the mover (the opponent's, a kazan): the same
_WHY_TWO = const(3)  # two pits at once: both flash, nothing is played (a selection is undone)
_WHY_PENDING = const(4)  # another pit of the mover during its sowing view: the sown pit lit blue
_WHY_ENGINE = const(5)  # not the engine's pit during its sowing view: the engine's pit lit
_WHY_OVER = const(6)  # the game is over

# lift mode: a withdrawal (balls put back) is read only from the empty pits the sowing
# reaches within its first _NEAR balls after the pit's own: a hand drops a ball every
# 0.1-0.35 s, so the first of them turns on well within confirm_ms of the ball back in
# the pit; farther ones may come after a silent stretch of full pits longer than it
_NEAR = const(5)
# lift mode: a lift put back sooner than this is no move (a child stirring the balls, a
# hand brushing a cup); a lift selects once it has held this long. The line: a hand
# that takes a pit's balls to sow lifts them clear of the pit before the first ball
# drops back into it, 0.4 s and more after the pit's sensor went off (docs/tracker.md
# "Withdrawn lifts")
LIFT_MS = const(400)
_MS_CHOOSE = const(0)
_MS_SOWING = const(1)
_MS_OVER = const(2)


class MancalaTracker(EventOutbox):
    """Track Toguz Kumalak or Tihbat: a sensor event on a pit selects it; the board
    then shows the sowing and keeps the true counts.

    game: a ``Toguz`` or ``Tihbat`` game (the tracker pushes its moves).
    select: the board definition's ``pit_select``: ``"stylus"`` (or ``"tap"``: a
    magnetic stylus, a sensor turning on selects) or ``"lift"`` (lifting the pit's
    token or balls: a sensor turning off selects).
    confirm_ms: the sowing view is confirmed automatically this long after the last
    sensor event (0: only by a tap on the last pit, tap mode). rearm_ms: a sensor must
    have held its previous value this long for an edge to count (a bouncing contact
    selects once). holdoff_ms: edges this soon after an accepted one are ignored.
    lift_ms: lift mode, a lift selects (or replies, or errs) only once it has held
    this long (>= rearm_ms): put back sooner it is no move (``LIFT_MS``).
    error_ms: how long an error flash lasts. count_ms: how long a count display lasts.
    ``why``: the reason of the last EV_ERROR: 1 an empty pit (or a tuzdyk) of the
    mover, 2 not the mover's pit (the opponent's, a kazan), 3 two pits at once, 4
    another pit of the mover during its sowing view, 5 not the engine's pit during
    its sowing view, 6 the game is over.
    ValueError for bad settings; TypeError for a game that is not a mancala game.
    """

    lift_ms = LIFT_MS  # (an instance's own only when another is given)

    def __init__(self, game, select="tap", confirm_ms=2500, rearm_ms=120, holdoff_ms=250,
                 error_ms=800, count_ms=8000, lift_ms=LIFT_MS):
        if not hasattr(game, "pos") or not hasattr(game, "n_pits"):
            raise TypeError("MancalaTracker needs a Toguz or Tihbat game, got %r" % (game,))
        if select not in ("tap", "stylus", "lift"):
            raise ValueError("tracker: select must be 'stylus' (or 'tap') or 'lift', got %r" % (select,))
        check_ms("confirm_ms", confirm_ms, 0)
        check_ms("rearm_ms", rearm_ms, 0)
        check_ms("holdoff_ms", holdoff_ms, 0)
        check_ms("error_ms", error_ms, 1)
        check_ms("count_ms", count_ms, 1)
        check_ms("lift_ms", lift_ms, 0)
        if select == "lift" and confirm_ms == 0:
            raise ValueError("tracker: lift selection needs confirm_ms > 0 "
                             "(tokens or balls put back in sowing are sensor events)")
        self.game = game
        self.tap = select != "lift"
        self.confirm_ms = confirm_ms
        self.rearm_ms = rearm_ms
        self.holdoff_ms = holdoff_ms
        if lift_ms != LIFT_MS or rearm_ms > LIFT_MS:  # (else the class's: no entry more
            self.lift_ms = lift_ms if lift_ms > rearm_ms else rearm_ms  # in the instance's table)
        self.error_ms = error_ms
        self.count_ms = count_ms
        self.n_pits = game.n_pits
        self.n_pit_cells = 2 * game.n_pits
        nc = self.n_pit_cells + 2  # pits, then the two kazans / capture counters
        self.n_cells = nc
        self.kazan = self.n_pit_cells
        self.toguz = game.n_pits == 9
        self.request = LightsRequest(nc)
        self.occ = bytearray(nc)
        self._since = array("i", bytes(4 * nc))  # when each cell's sensor last changed
        self._chg = bytearray(nc)
        self._saved = bytearray(nc)  # the sowing view's roles (under an error flash)
        self._init_events()
        self.move = None
        self.state = _MS_CHOOSE
        self._started = False
        self._t_accept = 0
        self._accepted = False
        self._t_event = 0
        self._err_cell = 255
        self._err2 = 255  # the other pit of two at once
        self._t_err = 0
        self.why = 0  # the reason of the last EV_ERROR (WHY_*)
        self._acc = 255  # the cell of the last accepted edge,
        self._acc_sel = False  # which selected a pit (not a confirmation)
        self._origin = 255  # the sowing view's pit,
        self._engine = False  # played by the engine (press(..., engine=True))
        self._fill = 0  # the view's pits the sowing turns from empty to not, near (_NEAR),
        self._filled = 0  # those of them seen turning on (bit per cell),
        self._back = False  # lift mode: the view's pit turned on again (balls back, or sown)
        self._o_up = True  # the view's pit lifted since it was shown (the engine's: see _select)
        self._reply = 255  # a pit played at the next frame (one commit an update: _edge)
        self._lifts = 0  # lift mode: the cells lifted, not yet off for rearm_ms (bit per cell)
        self.engines = 0  # the sides the engine plays (bit 0 South, bit 1 North): set by the app
        self.new_position()

    def new_position(self):
        """Re-read the game (new game, resumed, after the app changed it): show the
        mover's legal pits (a forced Tihbat pass is committed at the next frame)."""
        self.state = _MS_OVER if self.game.is_game_over() else _MS_CHOOSE
        self._lifts = 0
        self._paint_choose()

    # --- frame --------------------------------------------------------------------------
    def update(self, occ, now_ms):
        """Take one debounced snapshot of the pit sensors (indexed by cell) at ``now_ms``;
        return the number of events. No allocation when nothing changed and no timer ran out."""
        self.n_events = 0
        if not self._started:
            if len(occ) < self.n_cells:
                raise ValueError("tracker: occupancy needs %d cells, got %d" % (self.n_cells, len(occ)))
            self._started = True
            _take(occ, self.occ, self.n_cells, self._chg, 0)
            since = self._since
            for i in range(self.n_cells):
                since[i] = now_ms - 100000
            self._t_event = now_ms
            self._pass(now_ms)
            return self.n_events
        if self.state == _MS_SOWING and self.request.fault[self._origin]:
            # the view's pit isolated (a chattering sensor): its lift, the move carried
            # out, may be hidden; counted as made, as the confirmation by time counts it
            # (corpus tihbat white 101000800: the engine's pit lifted while isolated, a
            # ball sown back into it, the reply then refused for ever)
            self._o_up = True
        c = self._reply
        if c != 255:  # (see _edge: played a frame after the pass)
            self._reply = 255
            if c == _PASS_DUE:
                self._pass(now_ms)
            elif self.state == _MS_CHOOSE:
                self._accept(c, now_ms, True)
                self._select(c, now_ms)
        if _differs(occ, self.occ, self.n_cells):
            k = _take(occ, self.occ, self.n_cells, self._chg, self.n_cells)
            for j in range(k):
                c = self._chg[j]
                on = self.occ[c]
                held = (now_ms - self._since[c]) & _MASK
                self._since[c] = now_ms
                if self.request.fault[c]:
                    # an isolated sensor selects nothing, delays nothing; its change is its
                    # recovered value, held recover_ms already (a lift 70 ms after it
                    # counted nothing, corpus tihbat white 101000488)
                    self._since[c] = (now_ms - self.rearm_ms) & _MASK
                    continue
                self._emit(EV_PLACED if on else EV_LIFTED, c)
                if (self._lifts >> c) & 1:
                    self._lifts ^= 1 << c  # back within lift_ms: no lift (a stir, a chattering sensor)
                    if not (on and self.state == _MS_SOWING and (self._fill >> c) & 1
                            and self._reached(c)):
                        continue
                    # (a pit the sowing fills, emptied of captured balls just before the
                    # sowing reached it: the ball sown, read below; docs/tracker.md)
                if self.state == _MS_SOWING:
                    self._t_event = now_ms  # hands still busy: the auto confirm waits
                    if on:
                        if (self._fill >> c) & 1:
                            self._filled |= 1 << c  # the sowing is being done
                        elif c == self._origin and not self.tap and not self._engine:
                            self._lifts |= 1 << c  # balls put back once on for rearm_ms (_lifted)
                            continue
                if (on != 0) == self.tap and held >= self.rearm_ms:
                    if self.tap:
                        self._edge(c, now_ms, True)
                    else:
                        self._lifts |= 1 << c  # a lift once it has held rearm_ms (_lifted)
            if self._lifts:
                self._lifted(now_ms)
            return self.n_events
        if self._lifts:
            self._lifted(now_ms)
        o = self._origin
        if self.state == _MS_SOWING and self.confirm_ms and \
                ((now_ms - self._t_event) & _MASK) >= self.confirm_ms and \
                (self._o_up or self.tap or not self.occ[o] or self.request.fault[o]
                 or self.engines == 3):
            # (lift mode, the engine's view: not before its pit is lifted, the move
            # carried out: the next move would be played on a board that has not it;
            # a demo has nobody to carry it out)
            if self._back and self._fill and not self._filled:
                self._withdraw(now_ms)  # balls back in the pit, none sown where the view said
            else:
                self._confirm(now_ms)
        elif self._err_cell != 255 and ((now_ms - self._t_err) & _MASK) >= self.error_ms:
            self._err_cell = self._err2 = 255
            self._repaint()
        elif self.request.count_cell != 255 and \
                ((now_ms - self.request.count_since) & _MASK) >= self.count_ms:
            self.request.count_cell = 255
            self.request.version = (self.request.version + 1) & _MASK
        return self.n_events

    def _lifted(self, now_ms):
        """Lift mode: the lifts that have held lift_ms are edges (a sensor flipping back
        sooner, a weak magnet chattering at 5 Hz, a child stirring the balls, lifted
        nothing: its first flip would select the pit, played before the sensor is
        isolated); the sowing view's own pit counts once it held rearm_ms: lifted
        (the move being made) or turned on again (its balls put back: a withdrawal,
        ``_put_back``)."""
        since = self._since
        o = self._origin if self.state == _MS_SOWING else 255
        for c in range(self.n_pit_cells + 2):
            if (self._lifts >> c) & 1 and ((now_ms - since[c]) & _MASK) >= (
                    self.rearm_ms if c == o else self.lift_ms):
                self._lifts ^= 1 << c
                if self.request.fault[c]:
                    continue
                if c == self._origin:
                    if self.occ[c]:  # its balls put back (a 5 Hz flip is not: corpus toguz 101001208)
                        if self.state == _MS_SOWING:
                            self._put_back(now_ms)
                        continue
                    self._o_up = True  # (its own pit lifted: the move being made)
                self._edge(c, now_ms, False)
                if self._reply != 255:
                    return  # a reply deferred (one commit an update): the other lifts after it

    def _reached(self, c):
        """Lift mode, the sowing view: True if the hands have visibly sown up to pit ``c``
        (a cell of ``_fill``, within ``_NEAR`` of the view's pit): the move carried out
        (``_o_up``), and every pit before ``c`` in the sowing's order that receives a ball
        and keeps it reads on (the view's pit first, when its first ball goes back into
        it; isolated pits and pits the capture empties not asked). Then ``c``'s sensor
        turning on again soon after it went off is a ball landing in it, not the pit's
        balls put back: it held balls the game does not count (a capture not yet taken
        off), which nobody lifts to play and puts back, and were just taken off. Loops
        at most ``_NEAR`` + 1 pits; allocates nothing."""
        if not self._o_up:
            return False
        o = self._origin
        np = self.n_pit_cells
        occ = self.occ
        sow = self.request.sow
        after = self.game.pos
        fault = self.request.fault
        i = o
        while i != c:
            if sow[i] and (after[i] or i == o) and not occ[i] and not fault[i]:
                return False
            i += 1
            if i == np:
                i = 0
        return True

    def engine_lift(self, cell):
        """Lift selection, the sowing view of the engine's move still showing: True if
        ``cell`` (a cell index; anything else, -1 for none, is no match) is that move's
        pit, not lifted since the move was shown, and marks it lifted (the player
        carrying the move out: a later lift of it is a lift again). False, unchanged,
        in tap mode, without such a view, for another cell or a pit already lifted.
        The app asks it of a lift in the game's result (``App._carried_out``)."""
        if self._o_up or self.state != _MS_SOWING or self.tap or cell != self._origin:
            return False
        self._o_up = True
        return True

    def busy(self):
        """True while a timer runs (auto confirm, a lift held, an error flash, a count display)."""
        return (not self._started or self._reply != 255 or self._lifts or (self.state == _MS_SOWING and self.confirm_ms != 0)
                or self._err_cell != 255 or self.request.count_cell != 255)

    def press(self, cell, now_ms, engine=False):
        """An explicit selection event on ``cell`` (a button, the simulator); returns
        the number of events like ``update``. ``engine``: the engine's move (a legal
        pit of the mover), played at once and shown with the pit lit ``R_ENGINE_FROM``:
        in its sowing view another pit of its side is an error (why 5). IndexError
        for a cell off the board."""
        if not 0 <= cell < self.n_cells:
            raise IndexError("cell %r out of range 0..%d" % (cell, self.n_cells - 1))
        self.n_events = 0
        if engine:
            self._select(cell, now_ms, True)
        else:
            self._edge(cell, now_ms, True)
        return self.n_events

    def _edge(self, c, now_ms, tap):
        """An accepted sensor edge (or press) on cell c; ``tap``: it may confirm / error
        during the sowing view (a lift-mode edge then is a ball dropped: ignored)."""
        g = self.game
        n = self.n_pits
        if self._accepted and ((now_ms - self._t_accept) & _MASK) < self.holdoff_ms \
                and c // n == self._acc // n:
            # (a hand or a stylus spans two pits of a row, never the two rows: a pit
            # of the other row is the other player's, a reply)
            if c != self._acc:
                self._two(c, now_ms)  # (the same pit again: its bounce)
            return
        if self.state == _MS_SOWING:
            o = self._origin
            why = _WHY_ENGINE if self._engine else _WHY_PENDING
            side = g.turn  # the next player
            if tap and c == self.request.last:
                self._accept(c, now_ms, False)
                self._confirm(now_ms)
                return
            if tap and c == o and not self._engine:
                self._accept(c, now_ms, False)  # (its bounce: nothing more)
                self._withdraw(now_ms)  # the same pit touched again: withdrawn
                return
            if c < self.n_pit_cells and c // n == side and not (self.engines >> side) & 1 \
                    and g.is_legal(c - side * n):
                if not (tap or self._o_up) or (not tap and (self._fill >> c) & 1
                                               and not (self._filled >> c) & 1):
                    # lift mode, the engine's view: its pit not lifted yet (a pit lifted
                    # while it thought, or instead of its move); any view: a pit the
                    # sowing fills, empty before it, lifted before the board saw the
                    # sowing's balls land in it: its sensor was on without balls to
                    # play (a capture's balls taken off late: corpus tihbat black
                    # 102001049, North 1 taken by North's move, emptied by hand after
                    # the engine's answer, which sows into it, was played as North's)
                    self._error(c, now_ms, why)
                    return
                # the next player's reply made while the view shows: it confirms the
                # view and is played (replies come 0.1-2.5 s after the last ball); at
                # the next frame if this update committed already (the view's move and
                # its reply lifted in one scan, or a pass: one commit an update)
                self._confirm(now_ms)
                if self._committed():
                    self._defer(c, now_ms)
                    return
            elif not self.toguz and c < self.n_pit_cells and g.pos[c] \
                    and g.is_legal(2) and not (self.engines >> (1 - side)) & 1:
                # Tihbat: the next player has no balls and passes (3.4): a pit of the
                # mover with balls (its own sown pit too) is the mover's reply. The pass is committed with the
                # view, the reply at the next frame (one commit an update: the app
                # records each by the game's last move)
                self._confirm(now_ms)
                self._defer(c, now_ms)
                return
            elif tap:
                if c != o:
                    self._error(c, now_ms, why)
                return
            else:
                if c != o and c < self.n_pit_cells and c // n != side and self._saved[c] != R_CAPTURE:
                    # lift mode: balls lifted from another pit of the mover (a capture's
                    # balls taken off are not): another pit than the one being sown
                    self._error(c, now_ms, why)
                return
        if self.state == _MS_OVER:
            self._error(c, now_ms, _WHY_OVER)
            return
        side = g.turn
        if c < self.n_pit_cells and c // n == side:
            if g.is_legal(c - side * n):
                if self._committed():
                    # one commit an update: a selection and the view's confirmation
                    # touched in the same scan as this pit (a stylus hand over three
                    # pits: the fuzz's seed 118 on sim-stylus recorded one move twice)
                    self._defer(c, now_ms)
                    return
                self._accept(c, now_ms, True)
                self._select(c, now_ms)
            else:
                self._error(c, now_ms, _WHY_EMPTY)
        else:
            self._error(c, now_ms, _WHY_OTHER)

    def _committed(self):
        """True if this update committed a move already (the app reads one commit an
        update: its record takes the game's last move)."""
        k = self.ev_kind
        for i in range(self.n_events):
            if k[i] == EV_COMMITTED:
                return True
        return False

    def _defer(self, c, now_ms):
        """Pit ``c`` played at the next frame (one commit an update); accepted now, so
        that another pit of its row in the same scan is two pits at once (``_two``
        drops it)."""
        if self._reply == _PASS_DUE:  # the pass first: this pit is touched again after it
            self._error(c, now_ms, _WHY_TWO)
            return
        self._accept(c, now_ms, False)
        self._reply = c

    def _put_back(self, now_ms):
        """Lift mode: the view's pit turned on again. A single ball never goes back
        into its pit: withdrawn at once. Otherwise the sowing's first ball goes there
        too: decided at the confirmation (withdrawn if the sowing fills empty pits and
        none of them turned on)."""
        if self.request.sow[self._origin]:
            self._back = True
        else:
            self._withdraw(now_ms)

    def _withdraw(self, now_ms):
        """The pending selection withdrawn (its pit touched again, its balls put back):
        the move is taken back (EV_TAKEBACK, an undo on record; made in this very
        update, its events go instead: ``_unselect``); the mover chooses again."""
        if self._unselect():
            return
        self._acc_sel = False
        self.move = self.game.pop()
        self._emit(EV_TAKEBACK, self.game.ply & 0xFF)
        self.request.sow[:] = bytes(self.n_cells)
        self.request.last = 255
        self.state = _MS_CHOOSE
        self._paint_choose()

    def _unselect(self):
        """The selection made in this very update (its EV_SELECTED and EV_COMMITTED among
        this update's events, not yet read by the app, other events after them kept)
        taken back whole: its two events go, the move is popped, nothing is on record
        (two pits lifted in one scan: the app read a commit and a takeback of it
        together and popped a move that was gone, issue 31; three touched in one scan
        by a stylus, the second's EV_PLACED after the commit: the fuzz's seed 6 on
        sim-stylus). False if the app has it already (then ``_withdraw``)."""
        n = self.n_events
        k = self.ev_kind
        i = n - 1
        while i > 0 and k[i] != EV_COMMITTED:
            i -= 1
        if i < 1 or k[i] != EV_COMMITTED or k[i - 1] != EV_SELECTED:
            return False  # (a pass's commit has no selection before it)
        a = self.ev_arg
        for j in range(i + 1, n):
            k[j - 2] = k[j]
            a[j - 2] = a[j]
        self.n_events = n - 2
        self._acc_sel = False
        self.move = self.game.pop()
        self.request.sow[:] = bytes(self.n_cells)
        self.request.last = 255
        self.state = _MS_CHOOSE
        self._paint_choose()
        return True

    def _accept(self, c, now_ms, sel):
        self._accepted = True
        self._t_accept = now_ms
        self._acc = c
        self._acc_sel = sel

    def _two(self, c, now_ms):
        """Another pit within ``holdoff_ms`` of an accepted one: two pits at once. A
        selection just made is taken back (EV_TAKEBACK); both pits flash."""
        a = self._acc
        if self._reply == a:  # a pit deferred to the next frame: dropped, nothing played
            self._reply = 255
            self._emit(EV_ERROR, a)
            self._err2 = a
        elif self._acc_sel and self.state == _MS_SOWING:
            self._withdraw(now_ms)
            self._emit(EV_ERROR, a)
            self._err2 = a
        self._error(c, now_ms, _WHY_TWO)

    def _error(self, c, now_ms, why):
        """An event that selects nothing: flash it (``why``: WHY_*); the game is unchanged."""
        self.why = why
        self._emit(EV_ERROR, c)
        self._err_cell = c
        self._t_err = now_ms
        self._repaint()

    def _select(self, c, now_ms, engine=False):
        g = self.game
        self._origin = c
        self._engine = engine
        pit = c - g.turn * self.n_pits
        before = bytearray(g.pos)
        self._emit(EV_SELECTED, c)
        g.push(pit)
        self.move = pit
        self._emit(EV_COMMITTED, g.ply & 0xFF)
        self._show_sowing(c, before, engine)
        self.state = _MS_SOWING
        self._filled = 0
        self._back = False
        self._o_up = not engine  # lift mode: the engine's pit lifted (its move made)
        f = 0
        after = g.pos
        np = self.n_pit_cells
        fault = self.request.fault  # (an isolated pit tells nothing: isolate.py drops it too)
        for i in range(np):
            if i != c and before[i] == 0 and after[i] and (i - c) % np <= _NEAR and not fault[i]:
                f |= 1 << i
        self._fill = f
        self._t_event = now_ms

    def sowing(self, cell, before):
        """(sow, last): the balls each cell receives when the pit at ``cell`` is played
        in position ``before`` (a copy of ``game.pos``) and the last pit's cell,
        counter-clockwise from the pit itself (RULES.md 1.2, 3.2). ``sow`` is a new
        bytearray(n_cells); balls into a tuzdyk count as received there (1.5)."""
        sow = bytearray(self.n_cells)
        np = self.n_pit_cells
        n = before[cell]
        if n == 1:
            last = (cell + 1) % np
            sow[last] = 1
            return sow, last
        q, r = divmod(n, np)
        for i in range(np):
            sow[i] = q
        for k in range(r):
            sow[(cell + k) % np] += 1
        return sow, (cell + n - 1) % np

    def _show_sowing(self, c, before, engine=False):
        g = self.game
        req = self.request
        sow, last = self.sowing(c, before)
        req.clear(M_SOWING)
        req.sow[:] = sow
        req.last = last
        roles = req.roles
        np = self.n_pit_cells
        after = g.pos
        for i in range(np):
            if sow[i]:
                roles[i] = R_SOW
        roles[last] = R_LAST
        side = 1 - g.turn  # the mover
        if self.toguz:
            flags = g.last_flags()
            if flags & 1:
                roles[last] = R_CAPTURE
            elif flags & 2:
                roles[last] = R_TUZDYK
        else:
            # Tihbat: the mover's own pits emptied by the capture chain (3.3)
            for i in range(side * 2, side * 2 + 2):
                if after[i] == 0 and (before[i] + sow[i] - (before[i] if i == c else 0)) > 0:
                    roles[i] = R_CAPTURE
        for k in range(2):
            if after[np + k] != before[np + k]:
                roles[self.kazan + k] = R_KAZAN
        if engine:
            roles[c] = R_ENGINE_FROM  # the pit to play for the engine
        self._saved[:] = roles

    def _confirm(self, now_ms):
        self._emit(EV_CONFIRMED, self.request.last)
        self.state = _MS_OVER if self.game.is_game_over() else _MS_CHOOSE
        self.request.sow[:] = bytes(self.n_cells)
        self.request.last = 255
        self._paint_choose()
        self._pass(now_ms)

    def _pass(self, now_ms):
        """Tihbat 3.4: a mover with both pits empty passes at once."""
        g = self.game
        if self.state != _MS_CHOOSE or self.toguz:
            return
        from playboard.games.tihbat import PASS
        if g.legal_moves() == [PASS]:
            if self._committed():  # one commit an update: the pass at the next frame
                self._reply = _PASS_DUE
                return
            g.push(PASS)
            self.move = PASS
            self._emit(EV_COMMITTED, g.ply & 0xFF)
            self.state = _MS_OVER if g.is_game_over() else _MS_CHOOSE
            self._paint_choose()

    def takeback(self, now_ms=0):
        """Take the last move back (a button: pits cannot show a takeback); returns
        the number of events (EV_TAKEBACK, two where the last move was a Tihbat forced
        pass: the move before it goes too). IndexError if no move was played."""
        self.n_events = 0
        g = self.game
        m = g.pop()
        self._emit(EV_TAKEBACK, g.ply & 0xFF)
        if not self.toguz and g.ply > 0:
            from playboard.games.tihbat import PASS
            if m == PASS:
                # a forced pass (Tihbat 3.4) is no choice: taken back alone it would be
                # made again at once, so the move before it goes too
                m = g.pop()
                self._emit(EV_TAKEBACK, g.ply & 0xFF)
        self.move = m
        self.request.sow[:] = bytes(self.n_cells)
        self.request.last = 255
        self.new_position()
        return self.n_events

    def show_count(self, cell, now_ms):
        """Ask the lights to show the true count of ``cell`` (a pit or a kazan) for
        ``count_ms``: ``request.count_cell`` / ``count_value`` (see count_blink)."""
        if not 0 <= cell < self.n_cells:
            raise IndexError("cell %r out of range 0..%d" % (cell, self.n_cells - 1))
        req = self.request
        req.count_cell = cell
        req.count_value = self.game.pos[cell]
        req.count_since = now_ms
        req.version = (req.version + 1) & _MASK

    def _paint_choose(self):
        g = self.game
        req = self.request
        req.clear(M_OVER if self.state == _MS_OVER else M_CHOOSE)
        roles = req.roles
        if self.state == _MS_CHOOSE:
            base = g.turn * self.n_pits
            for m in g.legal_moves():
                if 0 <= m < self.n_pits:
                    roles[base + m] = R_TARGET
        if self.toguz:
            for side in range(2):
                t = g.tuzdyk_of(side)
                if t is not None:
                    roles[t] = R_TUZDYK
        self._flash()

    def _repaint(self):
        if self.state == _MS_SOWING:
            # keep the sowing view; only the flash changes
            req = self.request
            req.roles[:] = self._saved
            req.version = (req.version + 1) & _MASK
            self._flash()
        else:
            self._paint_choose()

    def _flash(self):
        e = self._err_cell
        if e != 255:
            roles = self.request.roles
            if self.why == _WHY_PENDING:
                roles[self._origin] = R_SELECTED  # the pit being sown
            roles[e] = R_ERROR
            if self._err2 != 255:
                roles[self._err2] = R_ERROR
            self.request.version = (self.request.version + 1) & _MASK
