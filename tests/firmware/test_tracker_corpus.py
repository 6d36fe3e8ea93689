"""Move tracker, Tobit: the failures issue 10's corpus (bench/py_play.py) found, each
replayed through the simulated board and the debouncer (plies together with a
chattering sensor, a piece put on a wrong point among plies together). Apart from
test_tracker.py: one subject a module."""
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


def _replay(fen, name, changes, bumps, t_end):
    """The corpus's raw changes (bounce and all) from ``fen``'s position; ``bumps``
    (t0, t1, point): the sensor reads the opposite of its value meanwhile."""
    g, tr, o = started(fen, name=name)
    b = L.Bench(tr)
    b.set_from_game()
    b.run_for(100)
    b.schedule(changes)
    for (t0, t1, p) in bumps:
        b.fault(t0, t1, p)
    b.run_to(t_end)
    return g, tr, b


def test_a_bump_among_plies_together_leaves_the_older_boards_on_the_way():
    """Issue 10's corpus (tobit two 102000790): White's 17:31 (24 taken off last) while
    the hand brushes 16 (on for 320 ms), Black's 37:24 begun 157 ms after 17:31 ended
    (no board shows 17:31 without the bump), then White's 2-8. The kept boards with 16
    on were on the way to neither ply: the chain's rule that every older kept board
    leads to the move refused the only reading, and 17:31 was lost. Read with the
    points neither ply touches as the board found has them, they are on the way."""
    ch = [(1015, 17, 0), (1017, 17, 1), (1021, 17, 0), (1024, 17, 1), (1026, 17, 0), (1133, 31, 1),
          (1258, 24, 0), (1262, 24, 1), (1265, 24, 0), (1267, 24, 1), (1269, 24, 0), (1426, 37, 0),
          (1427, 37, 1), (1432, 37, 0), (1437, 37, 1), (1440, 37, 0), (1630, 24, 1), (1733, 31, 0),
          (2760, 2, 0), (3064, 8, 1), (3069, 8, 0), (3071, 8, 1), (3072, 8, 0), (3074, 8, 1)]
    bumps = [(1163, 1166, 16), (1169, 1173, 16), (1178, 1183, 16), (1185, 1483, 16),
             (1484, 1488, 16), (1489, 1492, 16)]
    g, tr, b = _replay("W:W1,2,5,6,7,13,17:B24,27,28,29,30,34,35,37,38", "tobit", ch, bumps, 6000)
    assert b.commits() == ["17:31", "37:24", "2-8"], (b.commits(), b.log)
    assert b.kinds()[-1] == T.EV_COMMITTED and not tr.correcting, b.log


def test_a_bump_that_looks_like_a_move_shown_does_not_hide_the_plies_together():
    """Issue 10's corpus (tobit two 102000930): White's 9 lifted, a bump on 10 (150 ms:
    9-10 shown, a legal move), 9 put on 8, then Black's 31-24, White's 8-9 and Black's
    34-28, each begun 0-300 ms after the last. 9-10, shown first, was kept as the move
    (a board exact for another move does not replace it once boards nothing explains
    came); its trial failed and the kept board with 10 and 8 both on was on the way to
    nothing: four plies lost. With the bump's point read as the board found has it the
    plies are read."""
    ch = [(1030, 9, 0), (1246, 8, 1), (1251, 8, 0), (1253, 8, 1), (1254, 8, 0), (1258, 8, 1),
          (1262, 8, 0), (1263, 8, 1), (1509, 31, 0), (1513, 31, 1), (1516, 31, 0), (1517, 31, 1),
          (1520, 31, 0), (1523, 31, 1), (1524, 31, 0), (1670, 24, 1), (1673, 24, 0), (1674, 24, 1),
          (1680, 8, 0), (1685, 8, 1), (1686, 8, 0), (1771, 9, 1), (1776, 9, 0), (1780, 9, 1),
          (1783, 9, 0), (1784, 9, 1), (2054, 34, 0), (2058, 34, 1), (2060, 34, 0), (2150, 28, 1),
          (2154, 28, 0), (2155, 28, 1), (2159, 28, 0), (2164, 28, 1), (2168, 28, 0), (2169, 28, 1)]
    g, tr, b = _replay("W:W1,4,6,7,9,12:BK5,23,27,31,33,34,35,36,37,38", "tobit", ch,
                       [(1185, 1335, 10)], 6000)
    assert b.commits() == ["9-8", "31-24", "8-9", "34-28"], (b.commits(), b.log)
    assert b.kinds()[-1] == T.EV_COMMITTED and not tr.correcting, b.log


def test_a_move_shown_whose_trial_failed_is_tried_again_once_the_next_ply_shows():
    """Issue 10's corpus (tobit4 two 101000489): Black's 26-24, White's 9-8 begun 273 ms
    after it (9-8 shown 220 ms, read from the boards kept for 26-24), Black's 24:6:10
    taking 8 first, then White's 11-12. The trial of 9-8 on the board with 8 lifted
    failed (in hand, or taken: a board on the way is not enough), and 9-8 was then
    forgotten: no later board told it, since its board was read for 26-24, and the
    boards after fit 12-18 as well (18 never seen). Now 9-8 is tried again on the next
    boards, which show 24:6:10 under way: four plies, in order."""
    ch = [(1000, 26, 0), (1003, 26, 1), (1006, 26, 0), (1008, 26, 1), (1009, 26, 0), (1148, 25, 1),
          (1153, 25, 0), (1154, 25, 1), (1156, 25, 0), (1160, 25, 1), (1164, 25, 0), (1167, 25, 1),
          (1254, 25, 0), (1256, 25, 1), (1259, 25, 0), (1276, 24, 1), (1281, 24, 0), (1282, 24, 1),
          (1284, 24, 0), (1288, 24, 1), (1291, 24, 0), (1295, 24, 1), (1568, 9, 0), (1670, 8, 1),
          (1675, 8, 0), (1677, 8, 1), (1681, 8, 0), (1682, 8, 1), (1890, 8, 0), (1892, 8, 1),
          (1896, 8, 0), (2204, 24, 0), (2208, 24, 1), (2212, 24, 0), (2216, 24, 1), (2220, 24, 0),
          (2386, 6, 1), (3168, 12, 0), (3169, 12, 1), (3171, 12, 0), (3172, 12, 1), (3177, 12, 0),
          (3179, 12, 1), (3180, 12, 0), (3361, 6, 0), (3583, 10, 1), (3861, 11, 0), (3865, 11, 1),
          (3869, 11, 0), (3874, 11, 1), (3875, 11, 0), (4135, 12, 1), (4136, 12, 0), (4137, 12, 1),
          (4138, 12, 0), (4143, 12, 1)]
    g, tr, b = _replay("B:W9,11,12:B22,K26", "tobit4", ch, [], 8000)
    assert b.commits() == ["26-24", "9-8", "24:6:10", "11-12"], (b.commits(), b.log)
    assert b.kinds()[-1] == T.EV_COMMITTED and not tr.correcting, b.log


def _committed_at(b, text):
    """The time of the commit of ``text`` in ``b``'s log (None: not committed)."""
    for (t, kind, arg, m) in b.log:
        if kind == T.EV_COMMITTED and m == text:
            return t
    return None


def test_a_slide_stop_is_committed_when_the_next_ply_lands_whole_not_when_the_board_stands():
    """The 2,000-game corpus's worst Tobit ply (tobit two 102000966): White's 32-25, a
    king's slide whose stop 25 is also on the way of longer slides (slide_ms), Black's
    27 lifted 110 ms after it landed, then five more plies, the board changing every
    10-300 ms: no board stood settle_ms until all six were made, and 32-25 was committed
    2.66 s after it landed. 27-28 put down whole (a piece moved to another point: no
    bump of White's slide does that) proves 32-25 ended: it is tried at once."""
    ch = [(1000, 32, 0), (1260, 25, 1), (1370, 27, 0), (1380, 27, 1), (1390, 27, 0), (1630, 28, 1),
          (1640, 28, 0), (1650, 28, 1), (1730, 25, 0), (1740, 25, 1), (1750, 25, 0), (1840, 38, 1),
          (1890, 6, 0), (2100, 7, 1), (2270, 7, 0), (2300, 8, 1), (2350, 2, 0), (2500, 15, 1),
          (2510, 15, 0), (2520, 15, 1), (2690, 8, 0), (2950, 33, 0), (3250, 32, 1), (3290, 38, 0),
          (3300, 38, 1), (3310, 38, 0), (3540, 25, 1), (3570, 32, 0)]
    g, tr, b = _replay("W:W1,2,K32:BK6,27,33", "tobit", ch, [], 6000)
    assert b.commits()[:6] == ["32-25", "27-28", "25-38", "6-8", "2:15", "33-32"], (b.commits(), b.log)
    t = _committed_at(b, "32-25")
    assert t is not None and t - 1260 <= 1500, (t, b.log)  # (was 3,910: 2.65 s)
    assert b.kinds()[-1] == T.EV_COMMITTED and not tr.correcting, b.log


def test_a_slide_stop_in_tobit4_is_committed_when_the_next_ply_lands_whole():
    """Tobit 4 x 4's worst (tobit4 two 101000657): Black's 3-14 (the king paused 170 ms on
    8; 14 a stop on a longer slide too), White's 10 lifted 40 ms after 14 landed, six
    plies in 2.5 s: 3-14 was committed 2.37 s after it landed."""
    ch = [(1000, 3, 0), (1150, 8, 1), (1320, 8, 0), (1330, 8, 1), (1340, 8, 0), (1360, 14, 1),
          (1400, 10, 0), (1480, 9, 1), (1780, 14, 0), (1830, 12, 0), (1990, 11, 1), (2020, 9, 0),
          (2200, 15, 1), (2310, 15, 0), (2520, 11, 0), (2580, 12, 1), (2800, 12, 0), (2840, 13, 1),
          (3020, 13, 0), (3030, 13, 1), (3040, 13, 0), (3040, 14, 1), (3110, 14, 0), (3140, 16, 1),
          (3340, 4, 0), (3400, 9, 1)]
    g, tr, b = _replay("B:W2,4,5,10,12:BK3,23,24,25,27,28,30,31,32", "tobit4", ch, [], 6000)
    assert b.commits()[:2] == ["3-14", "10-9"], (b.commits(), b.log)
    t = _committed_at(b, "3-14")
    assert t is not None and t - 1360 <= 1500, (t, b.log)  # (was 3,740: 2.38 s)
    assert b.kinds()[-1] == T.EV_COMMITTED and not tr.correcting, b.log


def test_a_bump_while_the_slide_goes_on_from_its_stop_is_not_a_reply_that_proves_it():
    """White's king pauses on 31 (32-31, a stop on the way to 28), slides on to 28 (31 is
    read off 50 ms after 28 is read on) while the hand brushes Black's 27 (off 250 ms):
    for 50 ms the board is 32-31 followed by Black's 27-28, made whole. Tried at once
    that board would commit 32-31 and 27-28, neither made; one sensor read back (27)
    makes it White's slide on its way, so it is not tried before it stands, and 32-28
    alone is committed."""
    ch = [(1000, 32, 0), (1260, 31, 1), (1400, 28, 1), (1450, 31, 0)]
    g, tr, b = _replay("W:W1,2,K32:BK6,27,33", "tobit", ch, [(1395, 1645, 27)], 4000)
    assert b.commits() == ["32-28"], (b.commits(), b.log)
    assert not tr.correcting and g.fen() == "B:W1,2,K28:BK6,27,33", (g.fen(), b.log)


def test_proven_on_the_worst_case_leaves_the_board_as_it_was_and_allocates_nothing():
    """``tobit_chain.proven`` runs in a scan frame: on 102000966's board (32-25 shown,
    27-28 put down whole; every point's bump matched, presence and hall boards) it
    says True, the snapshot and the match flags as they were, and, under MicroPython,
    allocates nothing (bench/mp_tracker.py times it)."""
    from tlib import heap_lock_check
    from playboard.board import tobit_chain
    for colour in (0, 1):
        g = small_game("tobit", "W:W1,2,K32:BK6,27,33")
        tr = TobitTracker(g, setup=False, colour=colour)
        o = occ_of(g)
        black = 2 if colour else 1  # (a hall board reads 1 White, 2 Black)
        for p in (6, 27, 33):
            o[p] = black
        tr.update(o, 0)
        for (t, p, v) in ((1000, 32, 0), (1260, 25, 1), (1390, 27, 0), (1650, 28, black)):
            o[p] = v
            tr.update(o, t)
        assert (tr.state, tr._wait) == (3, 1) and tr._seen >= 0 and tr._expect < 0
        cur = list(tr._cur)
        flags = bytes(tr._flags)
        assert tobit_chain.proven(tr) is True, colour
        assert list(tr._cur) == cur and bytes(tr._flags) == flags
        assert not heap_lock_check(tobit_chain.proven, tr), colour
