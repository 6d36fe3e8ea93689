"""Move tracker cost per scan frame under MicroPython (unix port).

- Tobit, a frame with no change (idle, and waiting out the settle time):
  target < 0.005 ms here.
- Tobit, a frame with a change matched against every legal move's precomputed
  masks and the guidance lights painted (a piece lifted / put back, in a
  middle-game position with many moves): target < 0.1 ms.
- Tobit, the per-position precompute (every legal move's masks, the takeback
  record), averaged over the positions of random games: target < 1 ms.
- Tobit, the cold ``tobit_why`` (why a board went to correction, loaded for that
  once): the heap its import takes (target <= 1 KB) and one correction's reason
  over boards of random games with a piece misplaced (target <= 2 ms, <= 2 KB).
- Tobit, ``tobit_chain.proven`` (a board nothing explains tried at once as the move
  shown and the next ply landed whole), on the tests' worst case: corpus tobit two
  102000966's board (32-25 shown, Black's 27-28 put down whole: every point's bump
  matched, none refuses), presence and hall sensors (colour: two bumps an empty
  point). Targets: 0 bytes allocated a call, and <= 2 ms on the chip by the 100-150x
  rule (the unix port's time x 150): <= 0.0133 ms here.
- Mancala: a frame with no change (target < 0.005 ms) and a pit selection with
  the sowing view built (no target: once per move).
"""
import gc
import sys

try:  # the simulator's model has the firmware frozen in, as on the board: that one
    import playboard.frozen_files  # noqa: F401
except ImportError:
    sys.path.insert(0, "firmware")
sys.path.insert(0, "bench")

from benchlib import now_us, elapsed_us, report  # noqa: E402
from playboard.board.tobit_tracker import TobitTracker  # noqa: E402
from playboard.board.mancala_tracker import MancalaTracker  # noqa: E402
from playboard.games.registry import game_class  # noqa: E402


def rp(ms):
    """No RP2040 estimate from the unix port's time (bench/py_pico.py measures the Pico)."""
    return None


def occ_of(g):
    o = bytearray(g.n_points + 1)
    for p in range(1, g.n_points + 1):
        o[p] = 1 if g.board[p] else 0
    return o


class Rng:
    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        x = self.x
        x ^= (x << 13) & 0x3FFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0x3FFFFFFF
        self.x = x
        return x % n


def busy_position():
    """A middle-game Tobit position with many legal moves (tobits on both sides)."""
    g = game_class("tobit")("W:W2,3,K9,12,K16,20:B24,K27,30,31,K33,36", capacity=16)
    return g


def bench_tobit_idle():
    g = busy_position()
    tr = TobitTracker(g, setup=False)
    o = occ_of(g)
    tr.update(o, 0)
    upd = tr.update
    n = 20000
    t0 = now_us()
    for i in range(n):
        upd(o, 10)
    us = elapsed_us(t0) / n
    ms = us / 1000
    report("tracker tobit: no-change frame (idle)", round(ms, 5), "ms", "< 0.005 ms", ms < 0.005, rp(ms))
    # waiting out the settle time after a lift (a timer runs)
    o[9] = 0
    tr.update(o, 20)
    t0 = now_us()
    for i in range(n):
        upd(o, 30)
    ms = elapsed_us(t0) / n / 1000
    report("tracker tobit: no-change frame (timer running)", round(ms, 5), "ms", "< 0.005 ms", ms < 0.005, rp(ms))


def bench_tobit_match(fen=None, point=16):
    g = busy_position() if fen is None else game_class("tobit")(fen, capacity=16)
    tr = TobitTracker(g, setup=False)
    nm = len(g.legal_moves())
    o = occ_of(g)
    tr.update(o, 0)
    upd = tr.update
    n = 4000
    t = 10
    t0 = now_us()
    for i in range(n):
        o[point] = i & 1  # a White tobit lifted, put back: match + guidance each frame
        upd(o, t)
        t += 10
    ms = elapsed_us(t0) / n / 1000
    report("tracker tobit: matching frame (%d legal moves)" % nm, round(ms, 4), "ms", "< 0.1 ms", ms < 0.1, rp(ms))


def bench_tobit_precompute():
    total = 0
    count = 0
    times = []
    for seed in (1, 2, 3, 4):
        g = game_class("tobit")(capacity=128)
        tr = TobitTracker(g, setup=False)
        rng = Rng(seed * 7919 + 1)
        for ply in range(80):
            legal = g.legal_moves()
            if not legal:
                break
            g.push(legal[rng.below(len(legal))])
            g.legal_moves()  # the rules core's own generation is not the tracker's cost
            gc.collect()
            t0 = now_us()
            tr.new_position()
            us = elapsed_us(t0)
            total += us
            times.append(us)
            count += 1
    ms = total / count / 1000
    report("tracker tobit: per-position precompute (mean of %d)" % count, round(ms, 4), "ms", "< 1 ms", ms < 1, rp(ms))
    times.sort()
    med = times[len(times) // 2] / 1000
    report("tracker tobit: per-position precompute (median)", round(med, 4), "ms", "< 1 ms", med < 1, rp(med))


def _why_cases():
    """(game, board) pairs a Tobit board goes to correction with: in the positions of
    seeded random games, one of the mover's pieces lifted and put on an empty point
    (where its moves may or may not end: every reason's path), or left in the hand."""
    out = []
    for seed in (1, 2, 3):
        g = game_class("tobit")(capacity=128)
        rng = Rng(seed * 104729 + 7)
        for ply in range(60):
            legal = g.legal_moves()
            if not legal:
                break
            if ply % 4 == 3:
                n = g.n_points
                mine = [p for p in range(1, n + 1) if g.board[p] & 3 == g.turn + 1]
                empty = [p for p in range(1, n + 1) if not g.board[p]]
                if mine and empty:
                    o = occ_of(g)
                    o[mine[rng.below(len(mine))]] = 0
                    if rng.below(4):
                        o[empty[rng.below(len(empty))]] = 1
                    out.append((game_class("tobit")(g.fen(), capacity=16), o))
            g.push(legal[rng.below(len(legal))])
    return out


def bench_tobit_why():
    """The cold ``playboard.board.tobit_why`` (the app loads it for one correction and
    unloads it, playboard.app.loop._why_wrong): the heap its import takes, and one
    correction's reason, us and bytes allocated (mean over the cases)."""
    from playboard.compat import unload
    cases = _why_cases()
    gc.collect()
    a0 = gc.mem_alloc()
    from playboard.board import tobit_why
    gc.collect()
    load = gc.mem_alloc() - a0
    report("tobit_why: heap to load", load, "bytes", "<= 1024 bytes", load <= 1024, None)
    reason = tobit_why.reason
    total_us = total_b = named = 0
    for g, o in cases:
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        t0 = now_us()
        r = reason(g, o)
        us = elapsed_us(t0)
        b = gc.mem_alloc() - a
        gc.enable()
        total_us += us
        total_b += b
        named += r is not None
    n = len(cases)
    ms = total_us / n / 1000
    per = total_b // n
    report("tobit_why: one correction's reason (mean of %d, %d named)" % (n, named), round(ms, 4), "ms",
           "<= 2 ms", ms <= 2, rp(ms))
    report("tobit_why: one correction's reason, heap", per, "bytes", "<= 2048 bytes", per <= 2048, None)
    reason = tobit_why = None
    unload("playboard.board.tobit_why")


# corpus tobit two 102000966 (tests/firmware/test_tracker_corpus.py), as debounced:
# White's king 32-25 (25 a stop on longer slides), Black's 27 lifted, 27-28 put down
PROVEN_FEN = "W:W1,2,K32:BK6,27,33"
PROVEN_BOARDS = ((1000, 32, 0), (1260, 25, 1), (1390, 27, 0), (1650, 28, 1))


def proven_tracker(colour):
    """A TobitTracker (``colour``: a hall board) on PROVEN_FEN fed PROVEN_BOARDS, left
    just before the frame that calls ``tobit_chain.proven``: the board nothing explains
    (32-25 shown, 27-28 made) waiting for its trial at the next frame."""
    g = game_class("tobit")(PROVEN_FEN, capacity=16)
    tr = TobitTracker(g, setup=False, colour=colour)
    o = bytearray(g.n_points + 1)
    for p in range(1, g.n_points + 1):
        v = g.board[p]
        o[p] = (1 if v & 3 == 1 else 2) if colour and v else (1 if v else 0)
    tr.update(o, 0)
    for (t, p, v) in PROVEN_BOARDS:
        o[p] = (2 if colour and p == 28 else 1) if v else 0  # (28: Black's piece)
        tr.update(o, t)
    assert tr.state == 3 and tr._seen >= 0 and tr._expect < 0 and tr._wait == 1, \
        (tr.state, tr._seen, tr._expect, tr._wait)
    return tr


def bench_tobit_proven():
    """``tobit_chain.proven`` on the tests' worst case (every point's bump matched):
    us and bytes allocated a call (mean of many calls; it leaves the tracker as it
    found it)."""
    from playboard.board import tobit_chain
    from playboard.compat import unload
    proven = tobit_chain.proven
    for colour, what in ((0, "presence"), (1, "hall")):
        tr = proven_tracker(colour)
        assert proven(tr) is True
        n = 500
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        t0 = now_us()
        for i in range(n):
            proven(tr)
        us = elapsed_us(t0)
        b = gc.mem_alloc() - a
        gc.enable()
        ms = us / n / 1000
        report("tobit_chain.proven: one call, %s board, worst case (%d points)" % (what, tr.n_points),
               round(ms, 4), "ms", "<= 0.0133 ms (2 ms on the chip at 150x)", ms <= 0.0133, rp(ms))
        per = b / n
        report("tobit_chain.proven: one call, %s board, heap" % what, per, "bytes", "0 bytes",
               per == 0, None)
    proven = tobit_chain = None
    unload("playboard.board.tobit_chain")


def bench_mancala():
    g = game_class("toguz")(capacity=64)
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(20)
    tr.update(o, 0)
    upd = tr.update
    n = 20000
    t0 = now_us()
    for i in range(n):
        upd(o, 10)
    ms = elapsed_us(t0) / n / 1000
    report("tracker toguz: no-change frame", round(ms, 5), "ms", "< 0.005 ms", ms < 0.005, rp(ms))
    n = 200
    total = 0
    t = 1000
    for i in range(n):
        if g.is_game_over() or g.ply > 60:
            g = game_class("toguz")(capacity=64)
            tr = MancalaTracker(g, confirm_ms=0)
            o = bytearray(20)
            tr.update(o, t)
        legal = g.legal_moves()
        cell = g.turn * 9 + legal[i % len(legal)]
        o[cell] = 1
        t += 300
        t0 = now_us()
        tr.update(o, t)  # the selection: sowing computed and lit
        total += elapsed_us(t0)
        o[cell] = 0
        t += 300
        tr.update(o, t)
        last = tr.request.last
        o[last] = 1
        t += 300
        tr.update(o, t)  # confirmation
        o[last] = 0
        t += 300
        tr.update(o, t)
    ms = total / n / 1000
    report("tracker toguz: selection frame (sowing view built)", round(ms, 4), "ms", None, None, rp(ms))


bench_tobit_idle()
bench_tobit_match()
bench_tobit_match("W:WK7,K12,K16,K21,K26,3:BK1,38", 16)  # five tobits: many slides
bench_tobit_precompute()
bench_tobit_why()
bench_tobit_proven()
bench_mancala()
