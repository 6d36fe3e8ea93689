"""Sensor traces for the tracker tests: a replay bench, a trace file reader and a
generator that plays moves the way people do (runs under CPython and MicroPython).

A trace is a list of timestamped sensor changes ``(t_ms, cell, value)``: for Tobit
the cell is the point (1..N), for the mancala games the ``game.pos`` index. The
:class:`Bench` feeds them through the simulated board (``playboard.sim.hw``) and
the debouncer (``playboard.board.debounce``) into a tracker, one scan frame every
``step`` ms, and logs the tracker's events.

Trace files (tests/data/tracker/*.trace)::

    game tobit                  # tobit, tobit4, toguz, tihbat
    fen W:W...:B...             # optional start position
    set settle_ms=300           # optional tracker settings (ints, or tap/lift)
    100 -7                      # at t=100 ms point 7 reads empty
    420 +14 -15                 # at t=420 ms point 14 on, point 15 off
    expect 7-14                 # what happened since the last expect (checked when
                                # the clock reaches the next timed line): moves in
                                # notation, or takeback, correction, resolved, error,
                                # ambiguous, none
    end 5000                    # run until t=5000 ms (default: last event + 3 s)
"""
from playboard.board import tracker as T
from playboard.board import tracker_names as TN
from playboard.board.trackers import tracker_for
from playboard.board.debounce import Debouncer
from playboard.sim.hw import SimBoard
from playboard.games.registry import game_class
from tlib import Rng  # noqa: F401 (the traces' generator, kept here for its users)


def small_game(name, fen=None):
    """A game with a short undo stack (it grows if needed): the tests run in the chip's heap."""
    g = game_class(name)(capacity=32)
    if fen:
        g.set_fen(fen)
    return g


def occ_of(g):
    """A Tobit game's occupancy: bytearray(n_points + 1), 1 where a piece stands."""
    o = bytearray(g.n_points + 1)
    for p in range(1, g.n_points + 1):
        o[p] = 1 if g.board[p] else 0
    return o


def somewhere(name, rng, most):
    """Two games of ``name`` (the tracker's, the reference) at one random position,
    2..``most`` random plies in (fewer if the game ends)."""
    g = small_game(name)
    ref = small_game(name)
    for _ in range(rng.between(2, most)):
        legal = ref.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        ref.push(m)
        g.push(m)
    return g, ref


def tobit_text(m):
    """A Tobit move in notation (position-free)."""
    if m[0] == 0:
        return "%d-%d" % (m[1], m[2])
    return ":".join([str(p) for p in m[1:]])


def move_text(game, m):
    if hasattr(game, "n_points"):
        return tobit_text(m)
    if m == 2 and game.n_pits == 2:
        return "pass"
    return str(m + 1)


class Bench:
    """Replay sensor changes into ``tracker`` through the simulated board and the
    debouncer (``debounce=False``: straight into the tracker). ``step``: ms per frame."""

    def __init__(self, tracker, debounce=True, step=10, stable_ms=40, isolating=False):
        self.tr = tracker
        self.isolating = isolating  # faulty sensors isolated, as the app does (isolate.py)
        self.game = tracker.game
        if hasattr(tracker, "n_points"):
            n = tracker.n_points + 1
            self.cells = n
        else:
            n = tracker.n_cells
            self.cells = n
        self.sim = SimBoard(n, 0)
        self.raw = bytearray(n)
        self.deb = Debouncer(n, stable_ms=stable_ms) if debounce else None
        self.step = step
        self.t = 0
        self.log = []  # (t, kind, arg, move text or None)
        self.pending = []  # (t, cell, value), sorted by the caller
        self.frames = 0
        self.prev_raw = bytearray(n)
        self.t_raw = 0
        self.stable_ms = stable_ms
        # sensor faults laid over the true values: [t0, t1, cell, kind, held]
        # kind 0: the sensor reads inverted (noise); 1: it holds the value it had at t0 (stuck)
        self.faults = []

    def set_board(self, values):
        """Set every sensor at once (no event: before the first frame)."""
        for i in range(self.cells):
            self.sim.sensors[i] = values[i]

    def set_from_game(self, game=None, colour=False):
        """Put the pieces / balls of ``game`` (default: the tracker's) on the sensors."""
        g = game or self.game
        if hasattr(g, "n_points"):
            for p in range(1, g.n_points + 1):
                v = g.board[p]
                self.sim.sensors[p] = (v & 3 if colour else 1) if v else 0
        else:
            for c in range(self.cells):
                self.sim.sensors[c] = 1 if (c < 2 * g.n_pits and g.pos[c]) else 0

    def schedule(self, changes):
        """Add (t, cell, value) changes to apply when the clock reaches t."""
        self.pending.extend(changes)
        self.pending.sort(key=lambda c: c[0])

    def frame(self):
        t = self.t
        sim = self.sim
        pend = self.pending
        k = 0
        while k < len(pend) and pend[k][0] <= t:
            sim.sensors[pend[k][1]] = pend[k][2]
            k += 1
        if k:
            del pend[0:k]
        self.raw[:] = sim.sensors  # (what sim.read does, without its per-sensor loop)
        for f in self.faults:
            if f[0] <= t < f[1]:
                c = f[2]
                if f[3] == 0:
                    self.raw[c] = 0 if self.raw[c] else 1
                else:
                    if f[4] is None:
                        f[4] = self.prev_raw[c]
                    self.raw[c] = f[4]
        if self.raw != self.prev_raw:
            self.prev_raw[:] = self.raw
            self.t_raw = t
        if self.deb is not None:
            self.deb.update(self.raw, t)
            occ = self.deb.stable
        else:
            occ = self.raw
        tr = self.tr
        n = tr.update(occ, t)
        for i in range(n):
            kind = tr.ev_kind[i]
            txt = None
            if kind == T.EV_COMMITTED or kind == T.EV_TAKEBACK:
                txt = move_text(self.game, tr.move)
            self.log.append((t, kind, tr.ev_arg[i], txt))
        if self.isolating and self.deb is not None and self.deb.n_fault_changes:
            from playboard.board.isolate import isolate  # (after update, as the app)
            for i in range(isolate(tr, self.deb.fault, t)):
                self.log.append((t, tr.ev_kind[i], tr.ev_arg[i], None))
        self.frames += 1
        self.t = t + self.step

    def run_to(self, t_end):
        """Run frames until t_end; skip frames where nothing can happen (no sensor
        change in flight, no tracker timer running)."""
        step = self.step
        tr = self.tr
        dl = (lambda: TN.deadline(tr)) if hasattr(tr, "_t_change") else None  # Tobit
        while self.t < t_end:
            self.frame()
            if self.t - self.t_raw <= self.stable_ms + 2 * step:
                continue
            nxt = self.pending[0][0] if self.pending else t_end
            if self.tr.busy():
                d = dl() if dl else -1
                if d < 0:
                    continue
                nxt = min(nxt, d)
            for f in self.faults:
                for edge in (f[0], f[1]):
                    if self.t - step < edge < nxt:
                        nxt = edge
            if nxt > self.t:
                nxt = min(nxt, t_end)
                self.t += (nxt - self.t) // step * step

    def fault(self, t0, t1, cell, stuck=False):
        """Lay a sensor fault over cell from t0 to t1 (ms): inverted, or stuck at its value."""
        self.faults.append([t0, t1, cell, 1 if stuck else 0, None])

    def run_for(self, ms):
        self.run_to(self.t + ms)

    def press(self, cell):
        """An explicit mancala selection at the current time (logged like a frame's events)."""
        tr = self.tr
        n = tr.press(cell, self.t)
        for i in range(n):
            kind = tr.ev_kind[i]
            txt = move_text(self.game, tr.move) if kind == T.EV_COMMITTED else None
            self.log.append((self.t, kind, tr.ev_arg[i], txt))

    def commits(self, since=0):
        """Move texts committed (and 'takeback' for takebacks) in log[since:]."""
        out = []
        for e in self.log[since:]:
            if e[1] == T.EV_COMMITTED:
                out.append(e[3])
            elif e[1] == T.EV_TAKEBACK:
                out.append("takeback")
        return out

    def kinds(self, since=0):
        return [e[1] for e in self.log[since:]]


_WORDS = {"takeback": T.EV_TAKEBACK, "correction": T.EV_CORRECTION, "resolved": T.EV_RESOLVED,
          "error": T.EV_ERROR, "ambiguous": T.EV_AMBIGUOUS, "confirmed": T.EV_CONFIRMED,
          "selected": T.EV_SELECTED, "setup-done": T.EV_SETUP_DONE}


def read_trace(path):
    """Parse a trace file into a dict: game, fen, settings, steps.

    steps: list of ("at", t, [(cell, value), ...]) / ("expect", [words]) / ("press", t, cell)
    / ("end", t). ValueError naming the line for anything malformed."""
    out = {"game": None, "fen": None, "settings": {}, "steps": []}
    with open(path) as f:
        lineno = 0
        for line in f:
            lineno += 1
            i = line.find("#")
            if i >= 0:
                line = line[:i]
            parts = line.split()
            if not parts:
                continue
            head = parts[0]
            try:
                if head == "game":
                    out["game"] = parts[1]
                elif head == "fen":
                    out["fen"] = " ".join(parts[1:])
                elif head == "set":
                    for kv in parts[1:]:
                        k, v = kv.split("=")
                        out["settings"][k] = int(v) if v.isdigit() else v
                elif head == "expect":
                    out["steps"].append(("expect", parts[1:]))
                elif head == "end":
                    out["steps"].append(("end", int(parts[1])))
                elif head == "press":
                    out["steps"].append(("press", int(parts[1]), int(parts[2])))
                else:
                    t = int(head)
                    ch = []
                    for tok in parts[1:]:
                        sign = tok[0]
                        if sign not in "+-":
                            raise ValueError("change %r must start with + or -" % tok)
                        body = tok[1:]
                        v = 1 if sign == "+" else 0
                        if body.endswith("w"):
                            body, v = body[:-1], 1
                        elif body.endswith("b"):
                            body, v = body[:-1], 2
                        ch.append((int(body), v))
                    out["steps"].append(("at", t, ch))
            except (ValueError, IndexError) as e:
                raise ValueError("%s line %d: %s" % (path, lineno, e))
    if out["game"] is None:
        raise ValueError("%s: no 'game' line" % path)
    return out


def play_trace(trace, debounce=True):
    """Replay a parsed trace; return (bench, list of failed expectations as text)."""
    from playboard.games.registry import game_class

    g = game_class(trace["game"])(trace["fen"], capacity=32)
    settings = dict(trace["settings"])
    settings.setdefault("setup", 0) if hasattr(g, "n_points") else None
    tr = tracker_for(g, **settings)
    b = Bench(tr, debounce=debounce)
    if hasattr(g, "n_points"):
        b.set_from_game(colour=bool(settings.get("colour")))  # (mancala traces set theirs)
    fails = []
    mark = 0
    expect = None
    last_t = 0
    steps = trace["steps"] + [("end", -1)]
    for st in steps:
        if st[0] == "expect":
            expect = st[1]
            continue
        t = st[1]
        if st[0] == "end" and t < 0:
            t = last_t + 3000
        b.run_to(t)
        if expect is not None:
            fails.extend(_check(b, mark, expect, t))
            mark = len(b.log)
            expect = None
        if st[0] == "at":
            last_t = t
            b.schedule([(t, c, v) for (c, v) in st[2]])
        elif st[0] == "press":
            last_t = t
            b.press(st[2])
        elif st[0] == "end":
            pass
    return b, fails


def _check(b, mark, words, t):
    """Compare the log since ``mark`` with the expected words."""
    fails = []
    commits = b.commits(mark)
    want_moves = [w for w in words if w not in _WORDS and w != "none"]
    got_moves = [c for c in commits if c != "takeback"]
    if want_moves != got_moves:
        fails.append("t=%d: expected moves %r, got %r" % (t, want_moves, got_moves))
    kinds = b.kinds(mark)
    for w in words:
        if w in _WORDS and _WORDS[w] not in kinds:
            fails.append("t=%d: expected %s, log %r" % (t, w, [TN.EVENT_NAMES[k] for k in kinds]))
    if "none" in words:
        for k in (T.EV_COMMITTED, T.EV_TAKEBACK):
            if k in kinds:
                fails.append("t=%d: expected nothing committed, log %r" % (t, b.log[mark:]))
    if "correction" not in words and T.EV_CORRECTION in kinds:
        fails.append("t=%d: unexpected correction, log %r" % (t, [TN.EVENT_NAMES[k] for k in kinds]))
    return fails


# --- the trace generator: Tobit moves played the way people play them ----------------
def result_occupancy(game, m):
    """Set of points occupied after move m (in the game's current position)."""
    occ = set(p for p in range(1, game.n_points + 1) if game.board[p])
    for c in game.captured_points(m):
        occ.discard(c)
    occ.discard(m[1])
    occ.add(m[len(m) - 1])
    return occ


def segment_points(game, a, b):
    """Points after a up to b along their common line."""
    ax, ay = game.xy(a)
    bx, by = game.xy(b)
    if ax == bx:
        d = 0 if by > ay else 2
    else:
        d = 1 if bx > ax else 3
    out = []
    p = a
    while p != b:
        p = game.neighbour(p, d)
        out.append(p)
    return out


def tobit_move_changes(game, m, rng, t0, wrong=0, slow=50, colour=False):
    """Sensor changes (t, point, value) that play ``m`` physically from ``t0``.

    Captured pieces go before lifting, between hops or after placing, in random
    order; the capturing piece touches down on turning points; a tobit slides slowly
    over the points on its way (< 300 ms each) when ``slow`` (percent) says so;
    with ``wrong`` percent the piece first goes on a wrong point for 0.4..1.8 s and
    is moved again. Returns (changes, t_end): t_end is when the last change happened."""
    s = m[1]
    e = m[len(m) - 1]
    caps = game.captured_points(m)
    piece = game.board[s]
    pv = (piece & 3) if colour else 1
    turns = list(m[2:len(m) - 1]) if m[0] == 1 else []
    hops = len(turns) + 1
    slots = {}
    for c in caps:
        slots.setdefault(rng.below(hops + 2), []).append(c)  # 0 before, 1..hops between, hops+1 after
    out = []
    t = t0

    def gap(lo=40, hi=350):
        return rng.between(lo, hi)

    for c in slots.get(0, []):
        out.append((t, c, 0))
        t += gap()
    out.append((t, s, 0))
    t += gap()
    pts_after_s = []
    a = s
    for k in range(hops):
        b = turns[k] if k < len(turns) else e
        seg = segment_points(game, a, b)
        # slow slide over the free points of the segment (not over pieces being jumped)
        if rng.chance(slow):
            for q in seg[:-1]:
                if q in caps or (game.board[q] and q != s):
                    continue
                out.append((t, q, pv))
                t += rng.between(60, 250)
                out.append((t, q, 0))
                t += rng.between(0, 40)
        if k < len(turns):
            if rng.chance(60):  # touch down on the turning point
                out.append((t, b, pv))
                t += rng.between(80, 1200)
                for c in slots.get(k + 1, []):
                    out.append((t, c, 0))
                    t += gap()
                out.append((t, b, 0))
                t += gap()
            else:
                for c in slots.get(k + 1, []):
                    out.append((t, c, 0))
                    t += gap()
        else:
            for c in slots.get(k + 1, []):
                out.append((t, c, 0))
                t += gap()
        pts_after_s.extend(seg)
        a = b
    if wrong and rng.chance(wrong):
        w = wrong_point(game, m, rng)
        if w:
            out.append((t, w, pv))
            t += rng.between(400, 1800)
            out.append((t, w, 0))
            t += gap()
    out.append((t, e, pv))
    t += gap(20, 200)
    for c in slots.get(hops + 1, []):
        out.append((t, c, 0))
        t += gap()
    return out, t


def wrong_point(game, m, rng):
    """An empty point where putting the moving piece (with some captured pieces already
    gone) matches no legal move's occupancy, or 0."""
    free = [p for p in range(1, game.n_points + 1) if not game.board[p] and p != m[len(m) - 1]]
    if not free:
        return 0
    results = [result_occupancy(game, x) for x in game.legal_moves()]
    base = set(p for p in range(1, game.n_points + 1) if game.board[p])
    caps = game.captured_points(m)
    for _ in range(8):
        w = rng.choice(free)
        bad = False
        # any subset of the captured pieces may be gone by then: test them all (few)
        n = len(caps)
        if n > 6:
            return 0
        for mask in range(1 << n):
            occ = set(base)
            occ.discard(m[1])
            for i in range(n):
                if mask >> i & 1:
                    occ.discard(caps[i])
            occ.add(w)
            if occ in results:
                bad = True
                break
        if not bad:
            return w
    return 0
