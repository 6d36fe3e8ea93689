"""Issue 10's corpus: whole games played on the real firmware with human timing, every ply
checked against what the simulated people did.

What runs: the whole app (``playboard.app.loop.App``: scan -> debounce -> tracker ->
rules -> record on a fake flash) on the simulated board, in this process, with a virtual
clock (tests/firmware/apprig.py's ``Rig``). Why in process under CPython and not
``SimBoard`` (the firmware under MicroPython behind a pipe): the same firmware code
runs, but measured here 6,000 frames of a Toguz Kumalak game take 0.43 s through
SimBoard and 0.25 s in process; in process the driver can also read the tracker's
timers to skip the frames where nothing happens (below), which SimBoard's commands do
not show; and under MicroPython the in-process Tobit rig does not fit 192 KB beside a
harness. The heap, the one thing MicroPython adds, is bench/mp_memory.py's and
bench/py_soak.py's (the whole firmware at 192 KB through SimBoard).
Frames are run every 10 ms (the board's 100 Hz scan) while the engine thinks, while a
game is being begun or a tracker event is being handled; otherwise the clock jumps to the
next sensor action (each raw change is read at a frame of its own), the moment a raw
change read becomes stable (the frame ``stable_ms`` after the one that read it: the
debouncer adds up the time between frames), the tracker's next timer (Tobit's settle,
the sowing view's confirmation, an error flash) or 200 ms on, whichever is first.
Nothing in the firmware counts frames (every timer is a clock difference; the engine,
sliced per frame, gets every frame), so skipped frames change nothing but the time spent
(but for the phase of the debouncer's 1 s chatter window: 2 of 80 games with a
chattering sensor came out a few ms of latency apart when the frames while a change
settles were skipped too); a sensor action falls on the 10 ms grid. ``host_speed``
makes the CPython process cheaper for the firmware (see it). Speed, one process on the
shared 2-CPU machine, 60 games each: Tobit 7.9, Tobit 4 x 4 7.1, Toguz Kumalak 4.8,
Tihbat 17.6 games/s (before these frames were skipped and ``host_speed``: 4.6, 4.6, 3.6,
10.0); 2,000 games of each type take about 18 min in one process, 9-10 in two. Half the
time left is the debouncer's per-sensor loop (``_step``, viper on the board, plain
Python here), run at every frame.

Who plays: ``humanlib`` (the reply delay 0-3 s: its distribution is there; contact
bounce on every sensor change; bumps of 100-300 ms; a chattering sensor in 10 % of
games; a stray touch in 10 %). Tobit moves are made as hands make them
(tests/firmware/tracelib.py ``tobit_move_changes``: captured pieces taken before,
between or after the hops, slow slides over the points on the way, 3 % of moves put on
a wrong point first and moved again; a piece just put down touched by the next ply
no sooner than ``humanlib.HAND_OFF_MS`` after it stood: the mover's hand is on it). Toguz Kumalak and Tihbat: the balls of a pit
lifted (lift selection, the simulated board's ``pit_select``), sown one by one (80-200 ms
a ball: a pit's sensor turns on when its first ball lands), captured balls taken to the
kazan. Against the engine the engine's moves are carried out by the same people after
a human delay. A player who sees a sensor's red light (an isolated sensor) waits until
it goes out before moving; nobody else waits for the board.

The ground truth: every ply the people completed must be committed once, in order, by
the firmware (``move`` events): *lost* is a ply not committed within 10 s of its last
action, or committed more than 4 s after it was made (then by some later action; a
chattering sensor's remaining time added to both), *phantom* a committed move that
was not made (or not in that order, or taken back). A game ends at its first failure
(the rest would not be the game the people play); each failure is kept with its game's
seed and classified: ``view`` (a mancala reply made during the previous move's sowing
view), ``engine-view`` (the engine's mancala move carried out 2.5 s or more after it
was shown: its view had confirmed by itself), ``together`` (a Tobit ply begun before the previous one was committed: two plies
arriving together), ``chatter`` (a chattering sensor at work), ``other``. *Stuck*: after
the game (over by the rules, or resigned by its two pads after a failure or 300
plies) the board is not in its result state within 4 s, or a menu pad pressed
deliberately does not open the menu.

Latency: the commit's time minus the time of the ply's last physical action (Tobit) or
of the lift that selects the pit (mancala). Targets: Tobit mean <= 0.6 s (settle
300 ms + debounce 40 ms + a slide's 1 s in some moves), worst <= 1.5 s in games with no
chattering sensor and no stray touch (slide 1000 ms + debounce + bounce + frame; a touch
just after a move restarts its settle time); mancala mean and worst <= 0.5 s (a lift
selects once it has held ``lift_ms``: debounce 40 ms + 400 ms + a frame; one put back
sooner is no move, docs/tracker.md "Withdrawn lifts"). The worst is
also given for the plies whose next ply began after their commit: a Tobit ply whose
board the next ply changed before it stood (plies together) is known only from the
boards after it, and is committed only then (docs/tracker.md "Timing": the corpus's
cases, and why no board can tell them sooner); how many of those took over 1.5 s.

``CORPUS_GAMES`` (default 2000) games per game type, half two-player and half
against the engine (level 1, 400 nodes a move: the corpus tests the board, not the
engine); ``CORPUS_SEED``; ``CORPUS_TYPES`` (comma list); ``CORPUS_JOBS`` (default 2
processes). tests/host/test_play_corpus.py plays a few games of each type.
"""
import heapq
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in ("firmware", "host_tools", "bench", "tests/firmware"):
    _q = os.path.join(ROOT, _p)
    if _q not in sys.path:
        sys.path.insert(0, _q)

import humanlib as H  # noqa: E402
from apprig import Rig  # noqa: E402
from playboard.app.state import MENU_GAME, PADS_ON_TOBIT, PADS_ON_TOGUZ, HOLD_MS, OVER_DELAY_MS  # noqa: E402
from playboard.board import tracker_names as TN  # noqa: E402
from playboard.board.mancala_tracker import LIFT_MS  # noqa: E402
from playboard.games.registry import new_game  # noqa: E402
from tracelib import tobit_move_changes  # noqa: E402

TYPES = ("toguz", "tobit", "tobit4", "tihbat")
S_MENU, S_SETUP, S_PLAY, S_OVER = 0, 1, 2, 3
FRAME_MS = 10
COARSE_MS = 200
LOST_MS = 10000
LATE_MS = 4000  # a commit later than this after the ply was made is the ply lost
ENGINE_WAIT_MS = 60000
MAX_PLIES = 300
PASS_TEXT = "pass"
LEVEL = 1
THINK_NODES = 400
WRONG_PERCENT = 3
SLOW_PERCENT = 50
BUMP_PER_PLY = 0.05
GAMES_PER_RIG = 40  # a fresh fake flash now and then (nobody syncs these games)


class _Rng:
    """tracelib's generator interface (below, between, chance, choice) over random.Random."""

    def __init__(self, r):
        self.r = r

    def below(self, n):
        return self.r.randrange(n)

    def between(self, lo, hi):
        return self.r.randint(lo, hi)

    def chance(self, percent):
        return self.r.random() * 100 < percent

    def choice(self, seq):
        return self.r.choice(seq)


class Failure(Exception):
    """A ply lost, a phantom move, or a stuck board: ``kind`` (lost, phantom, stuck),
    ``why`` (view, together, chatter, other) and a text."""

    def __init__(self, kind, why, text):
        Exception.__init__(self, "%s (%s): %s" % (kind, why, text))
        self.kind = kind
        self.why = why
        self.text = text


class Table:
    """The physical board (``truth``: each sensor's real value) with the real firmware
    running on it, and the virtual clock ``t`` (ms)."""

    def __init__(self):
        self.rig = Rig()
        self.app = self.rig.app
        self.app.sink = self.sink
        self.app.settings["think_nodes"] = THINK_NODES
        self.hw = self.rig.hw
        self.t = self.rig.t
        self.truth = bytearray(self.hw.sensors)
        self.acts = []  # heap of (t, seq, sensor, value)
        self.seq = 0
        self.chatter = None
        self.flips = []  # (t0, t1, sensor): the sensor reads the opposite of its truth (bumps)
        self.t_raw = -100000
        self.settling = []  # when the raw changes read so far become stable (ms, ascending)
        self.raw = bytearray(self.hw.sensors)
        self.events = []  # (t, kind, fields) since the game began
        self.frames = 0
        self.menu_retries = 0  # menu pad presses in the result that did nothing
        self.lays = {}

    def sink(self, kind, fields):
        if kind in ("lift", "place"):
            return
        self.events.append((self.t, kind, fields))

    def lay(self, game):
        if game not in self.lays:
            self.lays[game] = self.app.load_layout(game)
        return self.lays[game]

    def at(self, actions):
        for (t, s, v) in actions:
            heapq.heappush(self.acts, (t, self.seq, s, v))
            self.seq += 1

    def bump(self, spans, sensor):
        """Lay bump ``spans`` (humanlib.bump_spans) over ``sensor``."""
        for (t0, t1) in spans:
            self.flips.append((t0, t1, sensor))
        self.flips.sort()

    def set_now(self, s, v):
        """A sensor's true value changed now (the physical board reset between games)."""
        self.at([(self.t, s, v)])

    def _deadline(self):
        tr = self.app.tracker
        if tr is None:
            return None
        if hasattr(tr, "_t_change"):  # Tobit (its timer's read-out is tracker_names')
            x = TN.deadline(tr)
            # (one already due, a tracker that commits a ply a frame: the next frame)
            return None if x < 0 else max(x, self.t + 1)
        due = []
        if getattr(tr, "state", 0) == 1 and tr.confirm_ms:
            due.append(tr._t_event + tr.confirm_ms)
        if tr._reply != 255:  # a reply played a frame after the pass it commits
            due.append(self.t + FRAME_MS)
        if tr._lifts:  # a lift selects once it has held lift_ms (the view's own pit: rearm_ms)
            for c in range(tr.n_cells):
                if (tr._lifts >> c) & 1:
                    due.append(tr._since[c] + tr.rearm_ms)
        if tr._err_cell != 255:
            due.append(tr._t_err + tr.error_ms)
        # (a timer due now is read at the next frame: it must not hide the later ones)
        return min(max(x, self.t + 1) for x in due) if due else None

    def run_to(self, t_end):
        """Run the firmware's frames until the clock reaches ``t_end``."""
        app = self.app
        sensors = self.hw.sensors
        while self.t < t_end:
            t = self.t
            acts = self.acts
            while acts and acts[0][0] <= t:
                _, _, s, v = heapq.heappop(acts)
                self.truth[s] = v
            raw = self.raw
            raw[:] = self.truth
            ch = self.chatter
            if ch is not None and ch.flipped(t):
                raw[ch.sensor] = 1 - raw[ch.sensor]
            fl = self.flips
            if fl:
                while fl and fl[0][1] <= t:
                    del fl[0]  # (sorted by start: a span that ended behind one still on stays a while)
                for (t0, t1, s) in fl:
                    if t0 > t:
                        break
                    if t < t1:
                        raw[s] = 1 - raw[s]
            if raw != sensors:
                sensors[:] = raw
                self.t_raw = t
                self.settling.append(t + app.scanner.deb.stable_ms)
            self.rig.t = t
            app.frame(t)
            self.frames += 1
            if app.thinking or app._pending is not None or app._turn_check or app._ev_i < app._ev_n:
                self.t = t + FRAME_MS
                continue
            nxt = min(t + COARSE_MS, t_end)
            st = self.settling
            if st:
                # raw changes being debounced: each one's stable value comes at the
                # frame stable_ms after the frame that read it (the debouncer adds up
                # the time between frames, and every raw change is read at a frame of
                # its own), so the frames between are skipped too
                while st and st[0] <= t:
                    del st[0]
                if st and st[0] < nxt:
                    nxt = st[0]
            if acts and acts[0][0] < nxt:
                nxt = acts[0][0]
            d = self._deadline()
            if d is not None and t < d < nxt:
                nxt = d
            if ch is not None:
                e = ch.next_edge(t)
                if e is not None and e < nxt:
                    nxt = e
            for (t0, t1, s) in fl:
                e = t0 if t0 > t else t1
                if t < e < nxt:
                    nxt = e
            nxt = -(-nxt // FRAME_MS) * FRAME_MS
            self.t = max(nxt, t + FRAME_MS)

    def run_for(self, ms):
        self.run_to(self.t + ms)

    def run_until(self, cond, limit_ms):
        """Run until ``cond()`` is true (checked every 10-200 ms); True if it became true."""
        end = self.t + limit_ms
        while not cond():
            if self.t >= end:
                return False
            self.run_to(min(self.t + 50, end))
        return True

    def press(self, sensor):
        """A deliberate press (docs/app.md): off its value HOLD_MS + 200 ms, then back."""
        v = self.truth[sensor]
        self.run_for(400)  # QUIET_MS of nothing else first
        self.at([(self.t, sensor, 1 - v), (self.t + HOLD_MS + 200, sensor, v)])
        self.run_for(HOLD_MS + 500)


# ---- the physical positions -----------------------------------------------------------

def set_position(table, name, g):
    """Put the pieces / balls of ``g`` on ``table`` at once (between games)."""
    lay = table.lay(name)
    if hasattr(g, "n_points"):
        for p in range(1, g.n_points + 1):
            table.set_now(lay.sensor_of(p), 1 if g.board[p] else 0)
    else:
        for c in range(2 * g.n_pits):
            table.set_now(lay.sensor_of(c), 1 if g.pos[c] else 0)


def mancala_actions(table, name, g, m, rng, t):
    """The sensor actions of mancala move ``m`` (before it is pushed into ``g``) from
    ``t``: the pit's balls lifted, sown one by one, captures taken off. Returns
    (actions, t of the selecting lift, t at the end); pushes ``m``."""
    lay = table.lay(name)
    n = g.n_pits
    np = 2 * n
    c = m + g.turn * n
    before = bytearray(g.pos)
    g.push(m)
    after = g.pos
    shown = [1 if before[i] else 0 for i in range(np)]
    out = []
    a, t = H.bounced(rng, t, lay.sensor_of(c), 0)
    out += a
    t_sel = t
    shown[c] = 0
    balls = before[c]
    t += rng.randint(LIFT_MS + 50, 800)  # the first ball back: past the line (LIFT_MS)
    for k in range(balls):
        i = (c + k) % np if balls > 1 else (c + 1) % np
        if not shown[i] and after[i]:  # (a tuzdyk's ball goes on to its kazan)
            a, t = H.bounced(rng, t, lay.sensor_of(i), 1)
            out += a
            shown[i] = 1
        t += rng.randint(80, 200)
    t += rng.randint(300, 900)
    for i in range(np):  # captures: balls taken off to the kazan
        want = 1 if after[i] else 0
        if shown[i] != want:
            a, t = H.bounced(rng, t, lay.sensor_of(i), want)
            out += a
            shown[i] = want
            t += rng.randint(150, 400)
    return out, t_sel, t


def tobit_actions(table, name, g, m, rng, t, stood=None):
    """The sensor actions of Tobit move ``m`` from ``t`` (hands, slides, bounce), none on
    the point the last ply's piece was put down on (``stood``: (point, t it stood) or
    None) before the mover's hand can have left it (``humanlib.handed_off``); returns
    (actions, t at the end, (end point, t it stood)); pushes ``m``."""
    lay = table.lay(name)
    ch, _ = tobit_move_changes(g, m, _Rng(rng), t, wrong=WRONG_PERCENT, slow=SLOW_PERCENT)
    if stood is not None:
        ch = H.handed_off(ch, stood[0], stood[1])
    out = []
    t_end = t
    e = m[-1]
    t_stood = t
    for (tt, p, v) in ch:
        a, te = H.bounced(rng, tt, lay.sensor_of(p), v)
        out += a
        t_end = max(t_end, te)
        if p == e and v:
            t_stood = te
    g.push(m)
    return out, t_end, (e, t_stood)


# ---- one game -------------------------------------------------------------------------

class Game:
    """One game of ``name`` in ``mode`` ("two", "white", "black") on ``table``, seeded."""

    def __init__(self, table, name, mode, seed, patient=False, shares=(H.CHATTER_SHARE, H.STRAY_SHARE)):
        self.patient = patient
        self.shares = shares  # of games with a chattering sensor, with a stray touch
        self.tb = table
        self.name = name
        self.mode = mode
        self.seed = seed
        self.rng = random.Random(seed)
        self.tobit = name.startswith("tobit")
        self.plies = []  # per ply: dict(text, t_done, t_ref, t_start, engine, auto, t_commit)
        self.n_seen = 0  # the firmware's move events checked so far
        self.failure = None
        self.lat = []
        self.chattered = False
        self.strays = 0
        self.bumps = 0
        self.g = None
        self.engine_q = None

    def engine_side(self, side):
        return (self.mode == "white" and side == 1) or (self.mode == "black" and side == 0)

    # -- the board's side

    def begin(self):
        tb = self.tb
        g = new_game(self.name)
        set_position(tb, self.name, g)
        tb.run_for(500)
        tb.events = []
        tb.app.link_set_game({"game": self.name, "mode": self.mode, "level": LEVEL, "force": True})
        if not tb.run_until(lambda: tb.app.state == S_PLAY, 5000):
            raise Failure("stuck", "other", "the game did not begin (state %d)" % tb.app.state)

    def check_events(self):
        """Compare the firmware's move events with the plies made; Failure on a phantom."""
        tb = self.tb
        evs = tb.events
        while self.n_seen < len(evs):
            t, kind, f = evs[self.n_seen]
            self.n_seen += 1
            if kind == "engine":
                g = self.g
                ms = [m for m in g.legal_moves() if g.move_text(m) == f["move"]]
                if not ms or self.engine_q is not None or not self.engine_side(g.turn):
                    raise Failure("phantom", "other", "the engine played %r at t=%d" % (f["move"], t))
                self.engine_q = (ms[0], t)
                if not self.tobit:  # committed by the board at once (its move event next)
                    self.add_ply(f["move"], t, None, t + LOST_MS, engine=True)
                continue
            if kind == "undo":
                raise Failure("phantom", self.why_at(len(self.committed()) - 1),
                              "a move taken back (ply %d) at t=%d" % (f["ply"], t))
            if kind != "move":
                continue
            k = f["ply"] - 1
            if k >= len(self.plies) or self.plies[k]["text"] != f["move"] or \
                    self.plies[k]["t_commit"] is not None:
                made = self.plies[k]["text"] if k < len(self.plies) else None
                ch = tb.chatter
                why = "chatter" if ch is not None and ch.t0 <= t <= ch.t1 + 3000 else \
                    self.why_at(min(k, len(self.plies) - 1))
                raise Failure("phantom", why, "ply %d committed %r, made %r at t=%d" % (
                    k + 1, f["move"], made, t))
            p = self.plies[k]
            p["t_commit"] = t
            if p["t_ref"] is not None and t - p["t_ref"] > LATE_MS + self.chatter_left(p["t_ref"]):
                # committed, but long after it was made: by a later action (the same pit
                # lifted again, a piece moved on), not by the ply itself
                raise Failure("lost", self.why_at(k), "ply %d %r made by t=%d committed only at t=%d" % (
                    k + 1, p["text"], p["t_done"], t))
            if p["t_ref"] is not None and not p["engine"]:
                # (flagged when a chattering sensor or a stray touch has been at work: a
                # touch just after a move restarts its settle time)
                # (and whether the next ply had begun: plies together, docs/tracker.md
                # "Timing": then the ply is known only from the boards after it)
                nx = self.plies[k + 1] if k + 1 < len(self.plies) else None
                self.lat.append((t - p["t_ref"], self.chattered or self.strays > 0,
                                 nx is not None and nx["t_start"] < t))

    def committed(self):
        return [p for p in self.plies if p["t_commit"] is not None]

    def why_at(self, k):
        """Why ply ``k`` (0-based) went wrong, from the timeline."""
        ch = self.tb.chatter
        if k < 0 or k >= len(self.plies):
            return "other"
        p = self.plies[k]
        if ch is not None and ch.t0 - 2000 <= p["t_start"] <= ch.t1 + 3000:
            return "chatter"
        if not self.tobit:
            for j in range(max(0, k - 2), k + 1):
                q = self.plies[j]
                if q["engine"] and q.get("t_exec", 0) - q["t_start"] >= 2400:
                    return "engine-view"  # its view confirmed before the player carried it out
        if self.tobit:
            if k + 1 < len(self.plies) and self.plies[k + 1]["t_start"] < (p["t_commit"] or 1 << 60):
                return "together"  # the next ply begun before this one was committed
        if k >= 1:
            q = self.plies[k - 1]
            if self.tobit:
                if q["t_commit"] is None or q["t_commit"] > p["t_start"]:
                    return "together"
            elif p["t_ref"] is not None and q["t_done"] + 2500 > p["t_ref"]:
                return "view"
        return "other"

    def chatter_left(self, t):
        """How long after ``t`` a chattering sensor may still hold a commit up (ms)."""
        ch = self.tb.chatter
        return ch.t1 + 3000 - t if ch is not None and t < ch.t1 + 3000 else 0

    def check_lost(self):
        tb = self.tb
        extra = self.chatter_left(tb.t)
        for k, p in enumerate(self.plies):
            if p["t_commit"] is None and tb.t - p["t_done"] > LOST_MS + extra:
                raise Failure("lost", self.why_at(k), "ply %d %r made by t=%d never committed" % (
                    k + 1, p["text"], p["t_done"]))

    def advance(self, t):
        """Run the board to ``t``, checking as it goes."""
        tb = self.tb
        while tb.t < t:
            tb.run_to(min(t, tb.t + 1000))
            self.check_events()
        self.check_lost()

    def wait_committed(self, limit_ms=LOST_MS + 12000):
        tb = self.tb
        end = tb.t + limit_ms
        while any(p["t_commit"] is None for p in self.plies):
            if tb.t >= end:
                self.check_lost()
                k = [p["t_commit"] for p in self.plies].index(None)
                raise Failure("lost", self.why_at(k), "ply %d %r never committed" % (k + 1, self.plies[k]["text"]))
            self.advance(tb.t + 200)

    def wait_accepted(self):
        """A patient player: every ply committed and (mancala) the sowing view confirmed."""
        tb = self.tb
        self.wait_committed()
        end = tb.t + LOST_MS
        while getattr(tb.app.tracker, "state", 0) == 1 and tb.t < end:
            self.advance(tb.t + 100)

    def wait_red(self):
        """A player who sees a red (isolated) sensor waits until it goes out."""
        tb = self.tb
        while tb.app._n_faulty > 0:
            self.advance(tb.t + 200)

    # -- the people's side

    def add_ply(self, text, t_start, t_ref, t_done, engine=False, auto=False):
        self.plies.append(dict(text=text, t_start=t_start, t_ref=t_ref, t_done=t_done, engine=engine,
                               auto=auto, t_commit=None))

    def engine_move(self, g):
        """Wait for the engine's move (its ``engine`` event); returns (move, t)."""
        tb = self.tb
        end = tb.t + ENGINE_WAIT_MS
        while self.engine_q is None:
            if tb.t >= end:
                raise Failure("stuck", "other", "the engine did not move within %d s" % (ENGINE_WAIT_MS // 1000))
            self.advance(tb.t + 100)
        m, t = self.engine_q
        self.engine_q = None
        return m, t

    def faults_plan(self, g):
        rng = self.rng
        tb = self.tb
        lay = tb.lay(self.name)
        if self.tobit:
            cells = list(range(1, g.n_points + 1))
        else:
            cells = list(range(2 * g.n_pits))
        within = 12 if self.name == "tihbat" else 40  # (a Tihbat game is 10-40 plies)
        self.chat_ply = rng.randrange(within) if rng.random() < self.shares[0] else -1
        self.chat_sensor = lay.sensor_of(rng.choice(cells))
        self.stray_ply = rng.randrange(within) if rng.random() < self.shares[1] else -1

    def spare_chatter(self, g, m, t0):
        """Mancala: a pit's balls lifted while its sensor chatters, before the board has
        isolated it (red: the player then waits), cannot be seen by any board (the lift is
        one more flip; the first ball dropped back turns it on again), and the board then
        reads the rest of the sowing against a position without the move. Not what the
        corpus measures (the board's tolerance of a faulty sensor elsewhere, the players'
        wait while it shows red): a chatter that would begin within 1 s (its detection)
        before the mover's pit ``m`` is lifted at ``t0``, or while it is sown (4 s), begins
        just after instead; one begun already, not yet red at ``t0``: the player lifts the
        pit 1 s after it began (then waits while it is red). Returns the lift's time."""
        ch = self.tb.chatter
        if ch is None:
            return t0
        s = self.tb.lay(self.name).sensor_of(m + g.turn * g.n_pits)
        if ch.sensor != s or not t0 - 1000 <= ch.t0 <= t0 + 4000:
            return t0
        if ch.t0 > self.tb.t:
            d = ch.t1 - ch.t0
            ch.t0 = t0 + 4000
            ch.t1 = ch.t0 + d
            return t0
        return max(t0, ch.t0 + 1000)

    def stray(self, g, t, after=None, m=None):
        """Someone else brushes a cell (or a pad) for 100-300 ms at ``t`` (mancala: during
        the sowing view of the mover's pit ``m``, ``after`` the position once it is
        played)."""
        tb = self.tb
        rng = self.rng
        lay = tb.lay(self.name)
        if self.tobit:
            pads = [tb.lay("toguz").sensor_of(c) for c in PADS_ON_TOGUZ]
            cells = [lay.sensor_of(p) for p in range(1, g.n_points + 1) if not g.board[p]]
        else:
            pads = [tb.lay("tobit").sensor_of(c) for c in PADS_ON_TOBIT]
            # lift selection: a brush on a pit the next player could select is lifting
            # its balls, a selection by design (a 100-300 ms lift reads as a lift and
            # the sowing's first ball dropped back in). The brush comes after the
            # mover's selecting lift, in its sowing view, where the next player's reply
            # is played: none of the next player's pits with balls before or after the
            # move, nor the pit being sown (something put in it is its balls put back:
            # the selection withdrawn by design)
            n = g.n_pits
            o = m + g.turn * n
            cells = [lay.sensor_of(c) for c in range(2 * n)
                     if c != o and (c // n == g.turn or not (g.pos[c] or after[c]))]
        s = rng.choice(cells + pads)
        tb.bump(H.bump_spans(rng, t)[0], s)
        self.strays += 1

    def bump(self, g, m, t):
        """The player's hand knocks a cell the move does not use (100-300 ms)."""
        tb = self.tb
        rng = self.rng
        lay = tb.lay(self.name)
        if self.tobit:
            used = set([m[1], m[-1]] + list(g.captured_points(m)))
            if m[0] == 1:
                used.update(m[2:])
            cells = [p for p in range(1, g.n_points + 1) if p not in used]
        else:
            c = m + g.turn * g.n_pits
            cells = [i for i in range(2 * g.n_pits) if i != c and (not g.pos[i] or i // g.n_pits != g.turn)]
        if not cells:
            return
        s = lay.sensor_of(rng.choice(cells))
        tb.bump(H.bump_spans(rng, t)[0], s)
        self.bumps += 1

    def play(self):
        tb = self.tb
        rng = self.rng
        self.begin()
        g = self.g = new_game(self.name)
        self.faults_plan(g)
        self.engine_q = None
        t_free = tb.t  # when the last ply's physical actions ended
        stood = None  # Tobit: where the last ply's piece was put down, and when it stood
        while not g.is_game_over() and g.ply < MAX_PLIES:
            k = g.ply
            if k == self.chat_ply and tb.chatter is None:
                tb.chatter = H.Chatter(rng, tb.t + rng.randint(0, 3000), self.chat_sensor)
                self.chattered = True
            legal = g.legal_moves()
            if not self.tobit and legal == [2] and g.n_pits == 2:  # Tihbat: the board passes
                g.push(2)
                self.add_ply(PASS_TEXT, t_free, None, t_free, auto=True)
                continue
            if self.engine_side(g.turn):
                m, t_eng = self.engine_move(g)
                text = g.move_text(m)
                t0 = max(tb.t, t_eng) + H.reply_ms(rng)
                if self.tobit:  # made on the board by the player
                    a, t_done, stood = tobit_actions(tb, self.name, g, m, rng, t0, stood)
                    self.add_ply(text, t0, t_done, t_done, engine=True)
                else:  # committed by the board; its sowing carried out by the player
                    t0 = self.spare_chatter(g, m, t0)
                    a, _, t_done = mancala_actions(tb, self.name, g, m, rng, t0)
                    self.plies[-1]["t_done"] = t_done
                    self.plies[-1]["t_exec"] = t0
                tb.at(a)
                t_free = t_done
                self.advance(t_done)
                continue
            m = rng.choice(legal)
            if self.patient:  # the reply counted from the board's acceptance
                self.wait_accepted()
                t_free = max(t_free, tb.t)
            t0 = max(tb.t, t_free + H.reply_ms(rng))
            if not self.tobit:
                t0 = self.spare_chatter(g, m, t0)
            self.advance(t0)
            if tb.app._n_faulty:
                self.wait_red()
                t0 = tb.t + H.reply_ms(rng)
            if rng.random() < BUMP_PER_PLY and t0 - 1200 > t_free:
                # the hand knocks something while reaching, done before the move
                # begins (a mancala pit's edge within 250 ms of the selecting lift is
                # two pits at once by design: an error shown, nothing played)
                self.bump(g, m, t0 - rng.randint(700, 1200))
            if k == self.stray_ply:
                if self.tobit:
                    self.stray(g, t0 + rng.randint(-500, 1500))
                else:  # (not within 250 ms of the lift: see above)
                    g.push(m)
                    after = bytes(g.pos)
                    g.pop()
                    self.stray(g, t0 + rng.randint(400, 1500), after, m)
            text = g.move_text(m)
            if self.tobit:
                a, t_done, stood = tobit_actions(tb, self.name, g, m, rng, t0, stood)
                self.add_ply(text, t0, t_done, t_done)
            else:
                a, t_sel, t_done = mancala_actions(tb, self.name, g, m, rng, t0)
                self.add_ply(text, t0, t_sel, t_done)
            tb.at(a)
            t_free = t_done
            self.advance(t_done)
        self.advance(t_free + 200)
        self.wait_committed()
        over = g.is_game_over()
        return over, g

    def finish(self, over, g):
        """After the game: the result shown (resigned by the pads if not over), then a menu
        pad opens the menu. Failure("stuck") if not."""
        tb = self.tb
        if over:
            ok = tb.run_until(lambda: tb.app.state == S_OVER, OVER_DELAY_MS + 4000)
            if not ok:
                raise Failure("stuck", "other", "the game is over by the rules, the board in state %d" % tb.app.state)
        else:
            self.resign(g.turn)
        to_menu(tb)


    def resign(self, side):
        tb = self.tb
        k = 1 if side == 0 else 3
        if self.tobit:
            s = tb.lay("toguz").sensor_of(PADS_ON_TOGUZ[k])
        else:
            s = tb.lay("tobit").sensor_of(PADS_ON_TOBIT[k])
        for attempt in range(2):  # (a second pair if a stray touch spoiled the first)
            tb.press(s)
            tb.press(s)
            if tb.run_until(lambda: tb.app.state == S_OVER, 2000):
                return
            tb.run_for(4000)  # the arming forgotten
        raise Failure("stuck", "other", "resigned twice by the pad, twice, the board in state %d" % tb.app.state)


def to_menu(tb):
    """The players look at the result (OVER_DELAY_MS and a second), then press a menu pad
    deliberately: the menu must open. Failure("stuck") if not."""
    tb.run_for(OVER_DELAY_MS + 1000)
    for k in range(2):  # a second press if the first did nothing (counted: tb.menu_retries)
        tb.press(tb.lay("toguz").sensor_of(MENU_GAME[0]))
        if tb.run_until(lambda: tb.app.state == S_MENU, 2000):
            return
        tb.menu_retries += 1
    raise Failure("stuck", "other", "a menu pad pressed twice in the result did not open the menu (state %d)" % tb.app.state)


def run_game(table, name, mode, seed, patient=False, shares=(H.CHATTER_SHARE, H.STRAY_SHARE)):
    """Play one game; returns its figures (dict). ``patient``: each player waits for the
    board to accept the last ply (commit; a sowing view confirmed) before the reply
    delay begins, which leaves out the fast replies (issue 10's human timing model)."""
    gm = Game(table, name, mode, seed, patient, shares)
    retries = table.menu_retries
    out = dict(game=name, mode=mode, seed=seed, plies=0, human=0, failure=None, why=None, text=None,
               over=False, lat=[], chattered=False, strays=0, bumps=0)
    try:
        over, g = gm.play()
        out["over"] = over
        gm.finish(over, g)
    except Failure as f:
        out["failure"], out["why"], out["text"] = f.kind, f.why, f.text
        if f.kind != "stuck":
            try:
                # (the board may catch up and end the game by the rules meanwhile: a pad
                # pressed to resign then opens the menu, and the resignation never comes;
                # tobit4 two 101001285 was counted stuck so)
                table.run_for(1000)
                if table.app.state != S_OVER:
                    gm.resign(len(gm.plies) % 2)
                to_menu(table)
            except Failure:
                out["stuck_after"] = True
    finally:
        table.chatter = None
        table.flips = []
    out["plies"] = len(gm.committed())
    out["human"] = sum(1 for p in gm.plies if not p["engine"] and not p["auto"])
    out["lat"] = gm.lat
    out["chattered"] = gm.chattered
    out["strays"] = gm.strays
    out["bumps"] = gm.bumps
    out["menu_retries"] = table.menu_retries - retries
    return out


def host_speed():
    """Make this CPython process cheaper for the firmware (the corpus's processes; not
    what runs: nothing in the firmware's behaviour depends on either): a module the
    firmware unloads and imports again (cold code: ``playboard.compat.unload``) is
    compiled once, not at every import (the bench runs with PYTHONDONTWRITEBYTECODE:
    no .pyc to read; 14 % of a Tobit corpus's time); the firmware's planned
    ``gc.collect()`` (for the MicroPython heap: before a search, a game's start)
    collects CPython's youngest generation only, not the whole process (3 ms each;
    14-16 %). CPython's own collections go on as usual."""
    import gc
    import importlib._bootstrap_external as boot
    if getattr(gc, "_py_play", False):
        return
    full = gc.collect
    gc.collect = lambda generation=2: full(0)
    gc._py_play = True
    compiled = boot.SourceLoader.source_to_code
    codes = {}

    def source_to_code(self, data, path, *, _optimize=-1):
        key = (path, data)
        code = codes.get(key)
        if code is None:
            code = codes[key] = compiled(self, data, path, _optimize=_optimize)
        return code

    boot.SourceLoader.source_to_code = source_to_code


def corpus(name, n, seed=10, modes=("two", "white", "black"), progress=None, patient=False):
    """Play ``n`` games of ``name`` (half two-player, half against the engine on either
    side); returns the list of per-game figures."""
    host_speed()
    out = []
    table = None
    for i in range(n):
        if table is None or i % GAMES_PER_RIG == 0 or table.app.state != S_MENU:
            table = Table()
        mode = "two" if i % 2 == 0 else ("white" if i % 4 == 1 else "black")
        if mode not in modes:
            mode = modes[i % len(modes)]
        out.append(run_game(table, name, mode, seed * 1000003 + i, patient))
        if progress:
            progress(i, out[-1])
    return out


def summary(games):
    """Totals of a list of per-game figures."""
    s = dict(games=len(games), plies=sum(g["plies"] for g in games), human=sum(g["human"] for g in games),
             lost=0, phantom=0, stuck=0, over=sum(1 for g in games if g["over"]), by_why={}, failures=[])
    # latency over the games played through (a failing game's late commits are its failure)
    lat = [x for g in games if not g["failure"] for (x, c, n) in g["lat"]]
    lat_clean = [x for g in games if not g["failure"] for (x, c, n) in g["lat"] if not c]
    lat_alone = [x for g in games if not g["failure"] for (x, c, n) in g["lat"] if not c and not n]
    for g in games:
        if g["failure"]:
            s[g["failure"]] += 1
            key = g["failure"] + "/" + g["why"]
            s["by_why"][key] = s["by_why"].get(key, 0) + 1
            s["failures"].append((g["game"], g["mode"], g["seed"], g["failure"], g["why"], g["text"]))
        if g.get("stuck_after"):
            s["stuck"] += 1
            s["failures"].append((g["game"], g["mode"], g["seed"], "stuck", "after", g["text"]))
    s["mean_ms"] = sum(lat) / len(lat) if lat else None  # (None: no game played through)
    s["worst_ms"] = max(lat) if lat else None
    s["worst_clean_ms"] = max(lat_clean) if lat_clean else 0
    s["worst_alone_ms"] = max(lat_alone) if lat_alone else 0
    s["slow_together"] = sum(1 for g in games if not g["failure"] for (x, c, n) in g["lat"]
                             if not c and n and x > 1500)
    s["chattered"] = sum(1 for g in games if g["chattered"])
    s["strays"] = sum(g["strays"] for g in games)
    s["menu_retries"] = sum(g["menu_retries"] for g in games)
    return s


TARGETS = {"toguz": (500, 500), "tihbat": (500, 500), "tobit": (600, 1500), "tobit4": (600, 1500)}


def _job(args):
    name, n, seed, patient = args
    return corpus(name, n, seed, patient=patient)


def main():
    from benchlib import report
    n = int(os.environ.get("CORPUS_GAMES", "2000"))
    seed = int(os.environ.get("CORPUS_SEED", "10"))
    types = [x for x in os.environ.get("CORPUS_TYPES", ",".join(TYPES)).split(",") if x]
    jobs = int(os.environ.get("CORPUS_JOBS", "2"))
    patient = os.environ.get("CORPUS_PATIENT", "0") not in ("", "0")
    tag = "play (patient)" if patient else "play"
    t0 = time.time()
    work = []
    for name in types:  # each type in two halves (seeds apart) so that two processes share
        half = (n + 1) // 2
        work.append((name, half, seed * 10 + 1, patient))
        work.append((name, n - half, seed * 10 + 2, patient))
    if jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_job, work, chunksize=1)
    else:
        parts = [_job(w) for w in work]
    for name in types:
        games = [g for (w, p) in zip(work, parts) if w[0] == name for g in p]
        s = summary(games)
        mean_t, worst_t = TARGETS[name]
        report("%s %s: games (over by the rules)" % (tag, name), "%d (%d)" % (s["games"], s["over"]), "games",
               ">= %d" % n, s["games"] >= n)
        report("%s %s: plies committed (made by people)" % (tag, name), "%d (%d)" % (s["plies"], s["human"]), "plies")
        report("%s %s: plies lost" % (tag, name), s["lost"], "plies", "0", s["lost"] == 0)
        report("%s %s: phantom moves" % (tag, name), s["phantom"], "moves", "0", s["phantom"] == 0)
        report("%s %s: games left stuck" % (tag, name), s["stuck"], "games", "0", s["stuck"] == 0)
        report("%s %s: menu pad presses in the result that did nothing" % (tag, name), s["menu_retries"],
               "presses", "0", s["menu_retries"] == 0)
        report("%s %s: failures by kind/why" % (tag, name), " ".join("%s:%d" % kv for kv in sorted(s["by_why"].items())) or "-", "")
        have = s["mean_ms"] is not None
        report("%s %s: commit latency, mean" % (tag, name), round(s["mean_ms"] / 1000.0, 3) if have else "-", "s",
               "<= %g s" % (mean_t / 1000.0), s["mean_ms"] <= mean_t if have else None)
        report("%s %s: commit latency, worst (no chatter, no stray)" % (tag, name),
               round(s["worst_clean_ms"] / 1000.0, 3) if have else "-", "s",
               "<= %g s" % (worst_t / 1000.0), s["worst_clean_ms"] <= worst_t if have else None)
        report("%s %s: commit latency, worst (no chatter, no stray, the next ply begun after the commit)" % (tag, name),
               round(s["worst_alone_ms"] / 1000.0, 3) if have else "-", "s",
               "<= %g s" % (worst_t / 1000.0), s["worst_alone_ms"] <= worst_t if have else None)
        report("%s %s: plies committed over 1.5 s after they were made, the next ply begun before (no chatter, no stray)"
               % (tag, name), s["slow_together"], "plies")
        report("%s %s: commit latency, worst (all)" % (tag, name), round(s["worst_ms"] / 1000.0, 3) if have else "-", "s")
        report("%s %s: games with a chattering sensor / stray touches" % (tag, name),
               "%d / %d" % (s["chattered"], s["strays"]), "")
        seen = set()
        for f in s["failures"]:  # the first of each kind, to replay (run_game(Table(), ...))
            if (f[3], f[4]) not in seen:
                seen.add((f[3], f[4]))
                report("%s %s: first %s/%s (mode, seed)" % (tag, name, f[3], f[4]), "%s %d" % (f[1], f[2]), "")
    report("%s: wall time, %d processes" % (tag, jobs), round(time.time() - t0, 1), "s")


if __name__ == "__main__":
    main()
