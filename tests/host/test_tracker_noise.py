"""Tracker under noise (host, seeded generators): random games of Tobit and Tobit 4x4
played through the tracker with bouncing contacts, random sensor noise, stuck
sensors and knocked pieces injected. Checked for every seed: no move that was not
played is ever committed, every committed move is the legal move played, and the
game recovers (the played move is committed, a knocked piece put back resolves
the correction) once the sensors show the pieces right again.

Scale (stated, and asserted below): 240 traces (seeds) of up to 30 plies each:
over 5,000 moves, 60,000 sensor changes, 8,000 noise bursts, 500 stuck sensors
and 400 knocked pieces. Even seeds play with takeback off (museum play) and get
the stuck sensors; odd seeds play with takebacks on.
The sensors feed the tracker directly (no debouncer): raw bounce reaches it.
"""
import pytest

from playboard.games.registry import game_class
from playboard.board import tracker as T
from playboard.board.tobit_tracker import TobitTracker
import tracelib as L

SEEDS = 240
PLIES = 30


def bounce(changes, rng):
    """Add contact bounce (1-15 ms flips) before about half of the changes."""
    out = []
    for (t, c, v) in changes:
        if rng.chance(50):
            for k in range(rng.between(1, 5)):
                dt = rng.between(1, 15) * (k + 1)
                out.append((t - dt, c, v))
                out.append((t - dt + 1, c, 0 if v else 1))
        out.append((t, c, v))
    return out


def knock(g, rng):
    """A piece of the side not to move pushed to a free neighbour: (p, q) or None.
    A push that exactly undoes the last move would be a takeback: not chosen."""
    last = g.peek() if g.ply else None
    options = []
    for p in range(1, g.n_points + 1):
        c = g.board[p]
        if not c or (c & 3) == g.turn + 1:
            continue
        for d in range(4):
            q = g.neighbour(p, d)
            if q and not g.board[q]:
                if last is not None and last[0] == 0 and last[2] == p and last[1] == q:
                    continue
                options.append((p, q))
    return rng.choice(options) if options else None


def play_noisy(seed, name):
    g = game_class(name)(capacity=64)
    ref = game_class(name)(capacity=64)
    # Stuck sensors go with museum play (takeback off): on a presence-only board a
    # stuck sensor can make the board look exactly like the previous position (a
    # capture onto the last mover's start point, the capturing piece's sensor stuck
    # on), which a board with takebacks must read as a takeback (docs/tracker.md).
    museum = seed % 2 == 0
    tr = TobitTracker(g, setup=False, takeback=not museum)
    b = L.Bench(tr, debounce=False)
    b.set_from_game()
    rng = L.Rng(seed)
    b.run_for(100)
    stats = [0, 0, 0, 0, 0]  # moves, changes, noise, stuck, knocks
    for ply in range(PLIES):
        legal = ref.legal_moves()
        if not legal:
            break
        m = rng.choice(legal)
        t0 = b.t + 50
        ch, tend = L.tobit_move_changes(ref, m, rng, t0, wrong=10)
        ch = bounce(ch, rng)
        stats[1] += len(ch)
        span = max(tend - t0, 1)
        clear = tend
        for _ in range(rng.between(0, 4)):  # short random noise (< settle_ms)
            t = t0 + rng.below(span + 600)
            dur = rng.between(5, 250)
            b.fault(t, t + dur, rng.between(1, g.n_points))
            clear = max(clear, t + dur)
            stats[2] += 1
        if museum and rng.chance(30):  # a sensor sticks for up to 4 s
            t = t0 + rng.below(span + 300)
            dur = rng.between(500, 4000)
            b.fault(t, t + dur, rng.between(1, g.n_points), stuck=True)
            clear = max(clear, t + dur)
            stats[3] += 1
        b.log = []
        b.schedule(ch)
        b.run_to(clear + tr.slide_ms + 500)
        got = b.commits()
        want = L.tobit_text(m)
        # nothing but the played move, at most once; once the sensors are right it is there
        assert got == [want], (seed, name, ply, want, got, b.log)
        ref.push(m)
        assert g.fen() == ref.fen()
        stats[0] += 1
        b.faults = []
        if rng.chance(12) and ref.legal_moves():
            k = knock(ref, rng)
            if k:
                p, q = k
                t = b.t + rng.between(100, 400)
                back = t + rng.between(400, 4000)
                b.log = []
                b.schedule([(t, p, 0), (t + rng.between(0, 30), q, 1), (back, q, 0), (back + rng.between(50, 300), p, 1)])
                b.run_to(back + 700)
                kinds = b.kinds()
                assert T.EV_COMMITTED not in kinds and T.EV_TAKEBACK not in kinds, (seed, ply, b.log)
                # a knock no move explains: correction after settle_ms; one that looks like a
                # takeback under way (the piece pushed along the last move's path): after
                # correction_ms; either way resolved once the piece is back
                if back - t > tr.correction_ms + 100:
                    assert T.EV_CORRECTION in kinds, (seed, ply, b.log)
                if T.EV_CORRECTION in kinds:
                    assert T.EV_RESOLVED in kinds, (seed, ply, b.log)
                assert not tr.correcting and g.fen() == ref.fen()
                stats[4] += 1
    return stats


def test_noise_never_commits_an_unplayed_move_and_the_game_recovers():
    total = [0, 0, 0, 0, 0]
    for seed in range(SEEDS):
        s = play_noisy(seed, "tobit" if seed % 3 else "tobit4")
        for i in range(5):
            total[i] += s[i]
    moves, changes, noise, stuck, knocks = total
    print("noise: %d traces, %d moves, %d sensor changes, %d noise bursts, %d stuck sensors, %d knocks"
          % (SEEDS, moves, changes, noise, stuck, knocks))
    assert moves > 5000 and changes > 60000 and noise > 8000 and stuck > 500 and knocks > 400, total
