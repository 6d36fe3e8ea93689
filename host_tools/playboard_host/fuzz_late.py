"""The whole-board fuzz's late hands (``playboard_host.fuzz``): a mancala game against the
engine played on the pits as real players played it on lift-selection boards, with the
two things they did late that the firmware once misread (docs/tracker.md, the corpus):

- the engine's move carried out late: its pit lifted 1-2 s after the board showed it,
  the first ball back 0.5-1.2 s later, and so, for the engine's last move, into the
  game's result (corpus toguz black 101000402: read as a press of a menu pit, which
  opened the menu over the result);
- a capture's balls taken off the board only after the next move is shown (corpus
  tihbat black 102001049: the player's captured pit emptied after the engine's answer
  was shown was read as the player's reply, a move nobody made).

:func:`engine_game` plays one such game to its end (Tihbat or Toguz Kumalak, the
engine at level 1-2, either side) on the fuzz's board, each move sown on the pits ball
by ball (a pit turns on when its first ball lands; captured balls taken off after the
last, or, half the time, late), drawn from the fuzz's ``late_rng`` (its own generator:
the fuzz's other steps are drawn as before). Each move made is one of the fuzz's steps,
its invariants checked after it (``Fuzz.check``); checked too, at each turn: the
board's position is the game the hands played (no move lost, none made up); after the
engine's last move carried out into the result, the board still shows the result.
``FuzzFailure`` (``Fuzz.fail``) if not. Counted on the fuzz:
``late_results`` (engine's last moves carried out into the result),
``late_captures`` (captures taken off after the next move was shown) and
``late_wrong`` (misreads: the failures above).
"""
from playboard.board.layout import load_layout
from playboard.board.mancala_tracker import LIFT_MS
from playboard.games.registry import new_game

MAX_PLIES = {"tihbat": 100, "toguz": 400}  # (a game's end comes long before)
ENGINE_MS = 15000  # the longest the engine may take to show its move (level 1-2)
LATE_MS = (1000, 2000)  # the engine's move carried out this late after it is shown


class _Pits:
    """The pits of a mancala game on the fuzz's board: ``shown[c]`` what cell ``c``'s
    sensor reads (1: balls on it), as the hands left it."""

    def __init__(self, f, game):
        self.f = f
        self.lay = load_layout(game, f.layout)
        self.shown = []

    def put(self, c, v):
        """Cell ``c``'s sensor to ``v`` (with the fuzz's contact bounce)."""
        self.f._flip(self.lay.sensor_of(c), v)
        self.shown[c] = v

    def lay_out(self, g):
        """Every pit as ``g``'s position has it, at once (the balls on the board)."""
        self.shown = [0] * (2 * g.n_pits)
        for c in range(2 * g.n_pits):
            self.f.b.set_sensor(self.lay.sensor_of(c), 1 if g.pos[c] else 0)
            self.shown[c] = 1 if g.pos[c] else 0


def engine_game(f):
    """One game against the engine played on ``f``'s board (a ``Fuzz`` on a lift-selection
    board) as described in the module; returns early where the board refuses the game
    (a check running) or is no longer playing it."""
    r = f.late_rng
    game = "tihbat" if r.random() < 0.6 else "toguz"
    mode = r.choice(("white", "black"))
    player = 0 if mode == "white" else 1
    for s in range(f.b.n_sensors):  # the hands off everything first (the sim's rest: 0)
        f.b.set_sensor(s, 0)
    f.adv(r.randint(300, 1500))
    if not f._new_game(game, mode, r.randint(1, 2)):
        return
    f.log.append(("late game", game, mode))
    g = new_game(game)
    pits = _Pits(f, game)
    f.adv(r.randint(200, 600))
    pits.lay_out(g)
    f.adv(r.randint(300, 1000))
    late = []  # the last move's captured pits, still on the board, to take off late
    while g.ply < MAX_PLIES[game] and not g.is_game_over():
        st = f.b.status()
        if st.get("state") != "play" or st.get("game") != game:
            return  # (the fuzz's board left the game: nothing more to play here)
        legal = g.legal_moves()
        if legal == [2] and g.n_pits == 2:  # Tihbat: the board passes by itself
            g.push(2)
            if _wait_ply(f, g.ply) is None:
                _wrong(f, "Tihbat's forced pass not made by the board (ply %d): %s" % (g.ply, f.b.status()))
            continue
        if g.turn == player:
            m = r.choice(legal)
            text = g.move_text(m)
            f.log.append(("late move", text))
            late = _sow(f, pits, g, m, late, r.randint(0, 1500))
            _same(f, g, "the player's move %s sown" % text)
            _step(f)
            continue
        st = _wait_ply(f, g.ply + 1)
        if st is None:
            _wrong(f, "the engine showed no move in %d ms (ply %d)" % (ENGINE_MS, g.ply))
        m = _shown_move(f, g, st)
        text = g.move_text(m)
        f.log.append(("late engine", text))
        over = st.get("state") == "over"
        delay = r.randint(*LATE_MS)
        if late:  # the player's captures taken off after the engine's move is shown
            f.adv(r.randint(0, delay - 300))
            delay = 0
            for c in late:
                pits.put(c, 0)
                f.adv(r.randint(100, 300))
            f.late_captures += 1
            late = []
        f.adv(delay)
        late = _sow(f, pits, g, m, late, 0, engine=True)
        if over:  # the engine's last move carried out into the result
            f.late_results += 1
            for c in late:  # (its captures off: no next move)
                f.adv(r.randint(150, 400))
                pits.put(c, 0)
            f.adv(r.randint(500, 2000))
            st = f.b.status()
            if st.get("state") != "over" or "result" not in st:
                _wrong(f, "the engine's last move carried out into the result left it: %s" % st)
            _step(f)
            return
        _same(f, g, "the engine's move %s carried out" % text)
        _step(f)
    if late:
        for c in late:  # (the game's end, or the hand's: the captures off)
            pits.put(c, 0)


def _wrong(f, what):
    """A misread of the late hands: counted (``late_wrong``), then ``Fuzz.fail``."""
    f.late_wrong += 1
    f.fail(what)


def _step(f):
    """A move made on the board is one of the fuzz's steps (as its ``sow``), the fuzz's
    invariants checked after it (``Fuzz.check``)."""
    f.steps += 1
    f.check()


def _sow(f, pits, g, m, late, wait_ms, engine=False):
    """Move ``m`` of ``g``'s mover made on the pits (pushed into ``g``), ``wait_ms`` first:
    its pit's balls lifted (the engine's move: the board showed it), the first back
    past ``LIFT_MS`` (the engine's: 0.5-1.2 s), the rest sown one by one (80-200 ms a ball, a pit turning on when
    its first lands); ``late`` (the move before's captures, still on) taken off once
    this move is shown (its first ball back). This move's captures taken off 0.3-0.9 s
    after its last ball, or (half of them) left on: returned, to take off after the
    next move is shown."""
    r = f.late_rng
    n = g.n_pits
    np = 2 * n
    c = m + g.turn * n
    before = bytearray(g.pos)
    balls = before[c]
    g.push(m)
    after = g.pos
    f.adv(wait_ms)
    if not engine and late:
        # the engine's captures: a pit this move sows into cleared before it begins (a
        # hand clearing it 0-0.4 s before a ball lands in it, once read as a stir, is
        # tests/host/test_capture_cleared_e2e.py's: kept out here, so that the fixed
        # seeds replay as they were chosen)
        early = [x for x in late if after[x]]
        late = [x for x in late if not after[x]]
        if early:
            for x in early:
                pits.put(x, 0)
                f.adv(r.randint(100, 300))
            f.adv(r.randint(300, 800))  # (not with the selecting lift: two pits at once)
    pits.put(c, 0)
    # the first ball back past the line; the engine's move (carried out late) as the
    # corpus's hands: 0.5-1.2 s, which held past HOLD_MS is a press's gesture
    f.adv(r.randint(500, 1200) if engine else r.randint(LIFT_MS + 50, 1000))
    for k in range(balls):
        i = (c + k) % np if balls > 1 else (c + 1) % np
        if not pits.shown[i] and (after[i] or i == c):  # (its own pit: the first ball back,
            pits.put(i, 1)  # captured or not; a tuzdyk's ball goes on to its kazan)
        f.adv(r.randint(80, 200))
        if k == 0 and late:  # the move before's captures: taken off now, this move shown
            for x in late:
                pits.put(x, 0)
                f.adv(r.randint(100, 300))
            f.late_captures += 1
            late = []
    taken = [i for i in range(np) if pits.shown[i] and not after[i]]
    for i in range(np):  # (a pit the sowing reached that the position has not: none)
        if after[i] and not pits.shown[i]:
            pits.put(i, 1)
    if taken and r.random() < 0.5:
        f.log.append(("late captures", taken))
        return taken
    f.adv(r.randint(300, 900))
    for i in taken:
        pits.put(i, 0)
        f.adv(r.randint(150, 400))
    return []


def _wait_ply(f, ply, ms=ENGINE_MS):
    """Frames (100 ms at a time) until the board's status is at ``ply`` or later, the
    engine not thinking; that status, or None after ``ms``."""
    waited = 0
    while waited <= ms:
        st = f.b.status()
        if not st.get("thinking") and st.get("ply", -1) >= ply and st.get("fen"):
            return st
        f.adv(100)
        waited += 100
    return None


def _shown_move(f, g, st):
    """The engine's move the board shows (status ``st``, one ply on from ``g``): the legal
    move of ``g`` that gives its position; FuzzFailure if none does."""
    for m in g.legal_moves():
        g.push(m)
        fen = g.fen()
        g.pop()
        if fen == st["fen"] and st["ply"] == g.ply + 1:
            return m
    _wrong(f, "the board's position %s (ply %s) is no legal move of the game the hands played "
           "(%s, ply %d): a move lost or made up" % (st["fen"], st.get("ply"), g.fen(), g.ply))


def _same(f, g, what):
    """The board's position is ``g``'s (the game the hands played), its last move
    ``what``, or ``g``'s with the engine's answer already shown; FuzzFailure if not."""
    st = f.b.status()
    if st.get("state") not in ("play", "over") or st.get("thinking"):
        return
    if st.get("ply") == g.ply and st.get("fen") == g.fen():
        return
    if st.get("ply") == g.ply + 1 and st.get("state") == "play":
        return  # (the engine answered already: read at its turn)
    if st.get("state") == "over" and g.is_game_over():
        return
    _wrong(f, "after %s the board's position is %s (ply %s), the game the hands played %s "
           "(ply %d): a move lost or made up" % (what, st.get("fen"), st.get("ply"), g.fen(), g.ply))
