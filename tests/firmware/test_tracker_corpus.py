"""Move tracker, Tobit: the failures issue 10's corpus (bench/py_play.py) found, each
replayed through the simulated board and the debouncer (plies together with a
chattering sensor, a piece put on a wrong point among plies together). Apart from
test_tracker.py: under MicroPython at 192 KB a module's code is in the heap beside
its tests' boards."""
from tlib import is_micropython, use_compiled_firmware

if is_micropython():
    use_compiled_firmware()  # (as test_tracker.py: tobit_chain imported in play)

from playboard.board import tracker as T  # noqa: E402
from playboard.board.tobit_tracker import TobitTracker  # noqa: E402
import tracelib as L  # noqa: E402
from tracelib import occ_of, small_game  # noqa: E402


def started(fen=None, name="tobit"):
    g = small_game(name, fen)
    tr = TobitTracker(g, setup=False)
    o = occ_of(g)
    assert tr.update(o, 0) == 0
    return g, tr, o


def test_plies_together_while_a_sensor_chatters_are_each_committed_once_it_is_isolated():
    """Issue 10's corpus (tobit two 102001044): plies made 30-250 ms apart while a point
    no ply touches chatters at 5 Hz (a weak magnet), caught and isolated after about
    0.8 s. The boards kept before the isolation hold its flips; read as they are, no
    kept board showed the plies (the board went to correction, and a later board was
    guessed as another move: a phantom). Read with the isolated point as the game
    says, every ply is committed once, in order (4 of the first 40 seeds failed before:
    5, 17, 21, 28)."""
    for seed in range(24):
        rng = L.Rng(seed)
        name = "tobit4" if seed % 2 else "tobit"
        g, ref = L.somewhere(name, rng, 14)
        tr = TobitTracker(g, setup=False)
        b = L.Bench(tr, isolating=True)
        b.set_from_game()
        b.run_for(100)
        t = b.t + 50
        t0 = t
        want = []
        used = set()
        for k in range(3):
            legal = ref.legal_moves()
            if not legal:
                break
            m = rng.choice(legal)
            used.update([m[1], m[-1]] + list(ref.captured_points(m)) + list(m[2:]))
            ch, t_end = L.tobit_move_changes(ref, m, rng, t)
            b.schedule(ch)
            want.append(L.tobit_text(m))
            ref.push(m)
            t = t_end + rng.between(30, 250)
        bad = rng.choice([p for p in range(1, g.n_points + 1) if p not in used])
        c0 = t0 + rng.between(0, 400)  # chattering from then, 100 ms a value, 4 s
        for k in range(0, 40, 2):
            b.fault(c0 + 100 * k, c0 + 100 * k + 100, bad)
        b.run_to(c0 + 4000 + 6000)
        assert b.commits() == want, (seed, bad, want, b.commits(), b.log)
        assert g.fen() == ref.fen() and T.EV_CORRECTION not in b.kinds(), seed


def test_a_slide_stop_then_a_wrong_point_is_never_the_stop_and_a_reply_begun():
    """Issue 10's corpus (tobit4 two 102000428): Black's king 3-14 slides over 8 (a
    legal move's stop, 3-8), is put on 7 (a wrong point) for 1.5 s, then on 14. The
    board 3-8 made, a piece on 7, read against the position after 3-8, is on the way to
    White's 9:7 (8 captured first), but 9 still stands: a piece put on 7 came from
    elsewhere, not a reply begun (3-8 was committed: a phantom). Then, 3-14 made and
    White's 9-8 begun 24 ms after it (3-14 never shown for settle_ms), then Black's
    14:3: the trial of 3-8 failed, so the board exact for 3-14 replaces it (it was kept
    as 3-8: a correction, then 3-8 again, a phantom)."""
    moves = [(757, 3, 0), (933, 8, 1), (1039, 8, 0), (1041, 7, 1), (2550, 7, 0), (2851, 14, 1)]
    for reply in (False, True):
        g, tr, o = started("B:W2,9,10,21:BK3,19,23,28,31", name="tobit4")
        b = L.Bench(tr)
        b.set_from_game()
        b.run_for(100)
        ch = list(moves)
        if reply:
            ch += [(2875, 9, 0), (3149, 8, 1), (3336, 8, 0), (3683, 14, 0), (3977, 3, 1)]
        b.schedule(ch)
        b.run_to(9000)
        want = ["3-14", "9-8", "14:3"] if reply else ["3-14"]
        assert b.commits() == want, (reply, b.commits(), b.log)
        assert T.EV_CORRECTION not in b.kinds(), (reply, b.log)


def test_a_wrong_point_put_right_leaves_no_board_that_hides_the_plies_after():
    """Issue 10's corpus (tobit4 two 101001285): Black's 30-25 put on a wrong point (2)
    first: correction; the piece lifted (resolved) and put on 25, White's 29-18 begun 3
    ms after (in the same scan), then Black's 26-27 at once. The boards kept since the
    wrong point (on the way to no move) made every later board fail the chain's test
    that the older boards lead to the move (nothing committed for 7 s, then six plies at
    once, late); the correction put right drops them."""
    g, tr, o = started("B:W5,8,K29:B26,30", name="tobit4")
    b = L.Bench(tr)
    b.set_from_game()
    b.run_for(100)
    b.schedule([(181, 30, 0), (253, 2, 1), (1288, 2, 0), (1407, 25, 1), (1410, 29, 0),
                (1554, 18, 1), (1620, 26, 0), (1864, 27, 1)])
    b.run_to(1864 + 1500)
    assert b.commits() == ["30-25", "29-18", "26-27"], (b.commits(), b.log)
    assert b.kinds().count(T.EV_CORRECTION) == 1 and b.kinds()[-1] == T.EV_COMMITTED, b.log


def test_a_move_read_with_the_next_plys_lift_then_a_wrong_point_is_still_committed():
    """Issue 10's corpus (tobit two 102000888): Black's 31-24 ends in the scan that
    reads White's 8 lifted (no board shows 31-24 alone), 8 goes on a wrong point (17)
    first, then on 9. The trial of 31-24 on the wrong point's board failed and dropped
    the kept board that showed it (landed: 31-24 made, 8 lifted); no later board told
    31-24 (the wrong point's board before them): both plies lost. A failed trial now
    keeps the boards."""
    g, tr, o = started("B:W1,2,3,4,5,6,7,8,10,11,12,16:B27,28,29,30,31,32,33,34,35,36,37,38")
    b = L.Bench(tr)
    b.set_from_game()
    b.run_for(100)
    b.schedule([(767, 31, 0), (951, 24, 1), (960, 8, 0), (1012, 17, 1), (1480, 17, 0), (1673, 9, 1)])
    b.run_to(4000)
    assert b.commits() == ["31-24", "8-9"], (b.commits(), b.log)
    assert b.kinds()[-1] == T.EV_COMMITTED and not tr.correcting, b.log
