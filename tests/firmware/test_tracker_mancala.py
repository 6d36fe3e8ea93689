"""Move tracker, Toguz Kumalak and Tihbat: a pit event selects once (bounce), an
illegal pit changes nothing, the sowing guidance lights exactly what RULES.md
says (a long sowing of several laps landing in a tuzdyk; a Tihbat capture chain),
confirmation by tap or by time, a forced pass, and whole games played by taps."""
from tlib import DATA, cases_dir, heap_lock_check, raises, is_micropython
from playboard.board import tracker as T
from playboard.board import tracker_names as TN
from playboard.board.mancala_tracker import MancalaTracker
import tracelib as L
from playboard.games.registry import game_class
from playboard import pgn

TRACES = DATA + "/tracker"


def events(tr, n):
    return [(TN.EVENT_NAMES[tr.ev_kind[i]], tr.ev_arg[i]) for i in range(n)]


def game(name, fen=None):
    return game_class(name)(fen, capacity=32)


def roles(req):
    return dict((c, TN.ROLE_NAMES[req.roles[c]]) for c in range(len(req.roles)) if req.roles[c])


def tap(tr, o, cell, t, bounce=()):
    """Stylus on at t (with bounces: off/on offsets in ms), off 150 ms later."""
    out = []
    o[cell] = 1
    out += events(tr, tr.update(o, t))
    v = 1
    for dt in bounce:
        v ^= 1
        o[cell] = v
        out += events(tr, tr.update(o, t + dt))
    o[cell] = 1
    out += events(tr, tr.update(o, t + 60))
    o[cell] = 0
    out += events(tr, tr.update(o, t + 150))
    return out


def test_a_bouncing_tap_selects_once_and_its_bounce_never_selects_for_the_next_player():
    g = game("toguz")
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(20)
    tr.update(o, 0)
    ev = tap(tr, o, 6, 1000, bounce=(2, 4, 6, 9, 13, 20))  # South pit 7, a bouncing contact
    assert [e for e in ev if e[0] in ("selected", "committed", "error")] == [("selected", 6), ("committed", 1)]
    assert g.ply == 1 and tr.request.mode == T.M_SOWING
    # confirm on the last pit (North pit 6 = cell 14, now North's turn), bouncing
    ev = tap(tr, o, 14, 2000, bounce=(3, 5, 8, 30, 34))
    assert [e for e in ev if e[0] in ("selected", "committed", "confirmed", "error")] == [("confirmed", 14)]
    assert g.ply == 1 and tr.request.mode == T.M_CHOOSE
    assert TN.cells(tr.request, T.R_TARGET) == [9, 10, 11, 12, 13, 15, 16, 17]  # North's pit 6 was captured


def test_an_illegal_pit_flashes_and_changes_nothing():
    # South to move; South pit 4 is North's tuzdyk (always empty), South pit 2 is empty
    fen = "5S,5S,5S,5S,5S,5S,5S,t,5S/40S,1,5S,t,5S,5S,5S,5S,10S 20 27 S 30"
    g = game("toguz", fen)
    tr = MancalaTracker(g, confirm_ms=0, error_ms=800)
    o = bytearray(20)
    tr.update(o, 0)
    before = TN.cells(tr.request, T.R_TARGET)
    t = 1000
    for cell in (1, 3, 12, 18, 19):  # empty, tuzdyk, North's pit, both kazans
        ev = tap(tr, o, cell, t)
        assert [e for e in ev if e[0] not in ("placed", "lifted")] == [("error", cell)], (cell, ev)
        assert g.fen() == fen and g.ply == 0
        assert TN.cells(tr.request, T.R_ERROR) == [cell]
        t += 1000  # the flash is over by the next
        tr.update(o, t - 10)
        assert TN.cells(tr.request, T.R_ERROR) == []
        assert TN.cells(tr.request, T.R_TARGET) == before
    assert TN.cells(tr.request, T.R_TUZDYK) == [3, 10]


def rules_sowing(counts, origin, n, pits):
    """Balls each pit receives when ``n`` balls leave ``origin`` (RULES.md 1.2 / 3.2,
    written out independently: the first ball back into the emptied origin, a lone
    ball into the next pit); returns (received, last)."""
    rec = [0] * pits
    if n == 1:
        last = (origin + 1) % pits
        rec[last] = 1
        return rec, last
    p = origin
    for k in range(n):
        rec[p] += 1
        last = p
        p = (p + 1) % pits
    return rec, last


def test_long_sowing_several_laps_into_a_tuzdyk_lights_exactly_the_rules_pits():
    # South pit 1 holds 40 balls: two laps of the 18 pits and 4 more; the last ball
    # lands in South pit 4, North's tuzdyk (1.5: it goes to North's kazan, no
    # capture); South's tuzdyk (North pit 2) receives 2 balls for South's kazan.
    fen = "5S,5S,5S,5S,5S,5S,5S,t,5S/40S,5S,5S,t,5S,5S,5S,5S,5S 20 27 S 30"
    g = game("toguz", fen)
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(20)
    tr.update(o, 0)
    assert g.pos[0] == 40
    want_sow, want_last = rules_sowing(list(g.pos[0:18]), 0, 40, 18)
    assert want_sow[0] == 3 and want_sow[3] == 3 and want_sow[4] == 2 and want_last == 3
    ev = tap(tr, o, 0, 1000)
    assert ("selected", 0) in ev
    req = tr.request
    assert list(req.sow[0:18]) == want_sow
    assert req.last == want_last
    want = dict((c, "sow") for c in range(18))
    want[3] = "last"  # in a tuzdyk: no capture, no new tuzdyk
    want[18] = "kazan"  # South's kazan: the 2 balls sown into its tuzdyk (North pit 2)
    want[19] = "kazan"  # North's kazan: the 3 balls sown into its tuzdyk (South pit 4)
    assert roles(req) == want
    assert g.pos[18] == 20 + 2 and g.pos[19] == 27 + 3
    assert g.pos[3] == 0 and g.pos[10] == 0


def test_toguz_capture_and_new_tuzdyk_lit():
    g = game("toguz")
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(20)
    tr.update(o, 0)
    tap(tr, o, 6, 1000)  # 76: the last ball makes North pit 6 even: captured
    r = roles(tr.request)
    assert r[14] == "capture" and r[18] == "kazan" and 19 not in r
    # a tuzdyk: North pit 3 holding 2 balls and South's last ball landing there
    fen = "9S,9S,9S,9S,9S,9S,2S,9S,9S/1S,9S,9S,9S,9S,9S,9S,9S,9S 6 9 S 20"
    g = game("toguz", fen)
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(20)
    tr.update(o, 0)
    m = g.parse_move("43x")  # South pit 4 (9 balls) ends in North pit 3 -> 3 balls: tuzdyk
    tap(tr, o, m, 1000)
    r = roles(tr.request)
    assert r[11] == "tuzdyk" and r[18] == "kazan", r
    assert g.tuzdyk_of(0) == 11


def test_tihbat_capture_chain_lit():
    # South pit 1 (6 counters): pits 1 and 2 get 2 each, North pits 1 each; the last
    # lands in pit 2 making 4: taken, and pit 1 (2) before it too (3.3)
    g = game("tihbat", "7S,7S/6S,2S 3 3 S 5")
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(6)
    tr.update(o, 0)
    tap(tr, o, 0, 1000)
    assert roles(tr.request) == {0: "capture", 1: "capture", 2: "sow", 3: "sow", 4: "kazan"}
    assert list(tr.request.sow[0:4]) == [2, 2, 1, 1] and tr.request.last == 1
    assert g.pos[4] == 3 + 6


def test_tihbat_forced_pass_is_committed_after_the_confirmation():
    g = game("tihbat", "2/2S,1S 10 15 S 9")
    tr = MancalaTracker(g, confirm_ms=1500)
    o = bytearray(6)
    tr.update(o, 0)
    ev = tap(tr, o, 0, 1000)
    assert ("committed", 1) in ev and g.turn == 1
    assert tr.update(o, 1150 + 1490) == 0  # 1.5 s after the stylus left the board
    assert events(tr, tr.update(o, 1150 + 1500)) == [("confirmed", 1), ("committed", 2)]
    assert g.move_stack() == [0, 2] and g.turn == 0  # North passed (3.4)


def test_lift_selection_ignores_balls_dropped_and_confirms_after_quiet_time():
    g = game("toguz")
    tr = MancalaTracker(g, select="lift", confirm_ms=2000)
    assert MancalaTracker(game("toguz"), select="stylus").tap
    o = bytearray(20)
    for c in range(18):
        o[c] = 1  # every pit holds balls
    tr.update(o, 0)
    o[4] = 0  # South lifts pit 5's balls: no selection before they have been off HELD ms
    assert events(tr, tr.update(o, 1000)) == [("lifted", 4)] and tr.busy()
    assert tr.update(o, 1000 + HELD - 1) == 0
    assert events(tr, tr.update(o, 1000 + HELD)) == [("selected", 4), ("committed", 1)]
    o[4] = 1  # the first ball back into the origin: an event, no selection
    assert events(tr, tr.update(o, 1300)) == [("placed", 4)]
    o[12] = 0  # North pit 4 made even: captured, its balls lifted to the kazan
    assert events(tr, tr.update(o, 2500)) == [("lifted", 12)]
    assert tr.update(o, 4490) == 0  # 2 s of quiet since the last event are needed
    assert events(tr, tr.update(o, 4500)) == [("confirmed", 12)]
    # now North lifts pit 5: selected
    assert lift(tr, o, 13, 5000) == [("lifted", 13), ("selected", 13), ("committed", 2)]
    # a lift shorter than HELD (a weak magnet under the balls flipping at 5 Hz: each
    # value 100 ms) selects nothing; its next flips off are not rearmed (on < HELD)
    o[13] = 1
    tr.update(o, 6000)
    tr.update(o, 9000)  # (the view confirmed)
    assert tr.request.mode == T.M_CHOOSE and g.ply == 2
    for k in range(10):
        o[5] = k & 1  # South pit 6's sensor flipping
        assert events(tr, tr.update(o, 10000 + 100 * k)) == [("placed" if k & 1 else "lifted", 5)]
    assert tr.update(o, 12000) == 0 and g.ply == 2 and not tr.busy()
    raises(ValueError, MancalaTracker, g, select="lift", confirm_ms=0)
    raises(ValueError, MancalaTracker, g, select="shake")


def test_count_display_and_takeback():
    g = game("toguz")
    tr = MancalaTracker(g, confirm_ms=0, count_ms=5000)
    o = bytearray(20)
    tr.update(o, 0)
    tap(tr, o, 6, 1000)
    tr.show_count(18, 2000)
    assert tr.request.count_cell == 18 and tr.request.count_value == 10
    tr.update(o, 6999)
    assert tr.request.count_cell == 18
    tr.update(o, 7000)
    assert tr.request.count_cell == 255
    assert events(tr, tr.takeback(7100)) == [("takeback", 0)]
    assert g.ply == 0 and tr.request.mode == T.M_CHOOSE
    raises(IndexError, tr.show_count, 20, 0)


def test_no_change_frame_does_not_allocate():
    g = game("toguz")
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(20)
    tr.update(o, 0)

    def frame():
        tr.update(o, 100)

    assert not heap_lock_check(frame)


def test_mancala_trace_files():
    import os

    names = sorted(n for n in os.listdir(TRACES) if n.endswith(".trace") and not n.startswith("tobit"))
    assert len(names) >= 2, names
    fails = []
    for name in names:
        b, f = L.play_trace(L.read_trace(TRACES + "/" + name))
        fails.extend([name + ": " + x for x in f])
    assert not fails, "\n".join(fails)


def play_taps(rec, seed, bounce=True):
    """Play a mancala record by stylus taps (random bounces) through the simulated
    board and the debouncer; assert each commit; return the game."""
    if is_micropython():
        import gc

        gc.collect()
    g = game_class(rec.game_name)(rec.tags.get("FEN"), capacity=64)
    tr = MancalaTracker(g, confirm_ms=0)
    b = L.Bench(tr)
    rng = L.Rng(seed)
    b.run_for(100)
    for k in range(len(rec.moves)):
        txt = rec.moves[k]
        b.log = []
        if txt == "pass":
            # committed by the tracker itself at the previous move's confirmation
            assert g.ply == k + 1 and g.move_stack()[k] == 2, (rec.number, k + 1)
        else:
            m = g.parse_move(txt)
            cell = g.turn * g.n_pits + m
            t = b.t + rng.between(100, 600)
            ch = [(t, cell, 1)]
            if bounce and rng.chance(50):
                for j in range(rng.between(1, 4)):
                    ch.append((t + 2 * j + 1, cell, 0))
                    ch.append((t + 2 * j + 2, cell, 1))
            ch.append((t + rng.between(80, 300), cell, 0))
            b.schedule(ch)
            b.run_to(t + 400)
            got = b.commits()
            assert got == [L.move_text(g, m)], (rec.number, k + 1, txt, got, b.log)
            # confirm on the last pit
            last = tr.request.last
            t = b.t + rng.between(100, 500)
            b.schedule([(t, last, 1), (t + rng.between(80, 300), last, 0)])
            b.run_to(t + 400)
    return g


def test_generated_tihbat_games_played_by_taps():
    path = cases_dir() + "/generated-games.pgn"
    n = 0
    with open(path) as f:
        for rec in pgn.read_games(f):
            if rec.game_name != "tihbat":
                continue
            g = play_taps(rec, rec.number)
            assert [L.move_text(g, m) for m in g.move_stack()] == rec.moves, rec.number
            final = rec.tags.get("FinalPosition")
            if final:
                assert g.fen() == final, (rec.number, g.fen(), final)
            n += 1
    assert n >= 20, n


def test_toguz_master_games_played_by_taps():
    path = cases_dir() + "/toguz-masters-2018.pgn"
    n = 0
    with open(path) as f:
        for rec in pgn.read_games(f):
            g = play_taps(rec, rec.number)  # each move's text was checked (landing pit, x)
            assert g.move_stack() == [int(t[0]) - 1 for t in rec.moves], rec.number
            n += 1
            if n == 12:
                break
    assert n == 12


def test_own_games_played_by_taps():
    """Our own recorded Toguz Kumalak and Tihbat games (tests/data/own-games.pgn)."""
    from tlib import DATA

    n = 0
    with open(DATA + "/own-games.pgn") as f:
        for rec in pgn.read_games(f):
            if rec.game_name not in ("toguz", "tihbat"):
                continue
            g = play_taps(rec, 77 + rec.number)
            assert g.fen() == rec.tags["FinalPosition"], (rec.number, g.fen())
            assert g.is_game_over()
            n += 1
    assert n == 2


def test_three_pits_touched_in_one_scan_commit_nothing_and_the_app_reads_no_move():
    """Named regression (the whole-board fuzz, seed 6 on sim-stylus, issue 31): a stylus
    hand over Tihbat's South pits 1, 2 and North's pit 2 in one scan. The first
    selected and committed, the second's place event came after the commit, so the
    selection was withdrawn by an EV_TAKEBACK in the same update: the app read a commit
    whose move was already popped and raised IndexError. Now the selection's events
    go (``_unselect`` finds them among the update's), nothing is committed."""
    g = game("tihbat")
    tr = MancalaTracker(g, confirm_ms=0)  # stylus taps
    o = bytearray(tr.n_cells)
    tr.update(o, 0)
    o[0] = o[1] = o[3] = 1
    ev = events(tr, tr.update(o, 1000))
    assert ev == [("placed", 0), ("placed", 1), ("error", 0), ("error", 1), ("placed", 3),
                  ("error", 3)], ev
    assert g.ply == 0 and tr.request.mode == T.M_CHOOSE
    o[0] = o[1] = o[3] = 0
    tr.update(o, 1200)
    tap(tr, o, 1, 3000)  # the next touch plays
    assert g.ply == 1 and g.fen() != game("tihbat").fen()


def _commits(ev):
    return [e for e in ev if e[0] in ("committed", "takeback")]


def test_one_commit_an_update_when_a_hand_touches_a_move_its_reply_and_more_in_one_scan():
    """Named regressions (the whole-board fuzz, seed 118 on sim-stylus, issue 31): the
    app records each commit as the game's last move, so an update commits one move at
    most. South's pit, then North's two pits in one scan: South's move is played (North's
    first touch confirms its view), North's two pits are two at once - nothing more
    (the board had recorded North's move twice, South's lost)."""
    g = game("tihbat", "11S,3S/10S,4S 0 0 S 2")  # South pit 1 sows 11: its last ball in pit 2
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(tr.n_cells)
    tr.update(o, 0)
    o[0] = o[2] = o[3] = 1
    ev = events(tr, tr.update(o, 1000))
    assert tr.request.last == 255 and g.turn == 1  # North's first touch confirmed the view
    assert _commits(ev) == [("committed", 1)], ev
    assert ("error", 2) in ev and ("error", 3) in ev and tr.why == 3
    assert _commits(events(tr, tr.update(o, 1010))) == [] and g.ply == 1
    o[0] = o[2] = o[3] = 0
    tr.update(o, 1200)
    tap(tr, o, 3, 3000)  # North's move, touched alone
    assert g.ply == 2 and g.turn == 0


def test_every_error_says_why_and_two_pits_at_once_undo_the_selection():
    g = game("toguz")
    tr = MancalaTracker(g, confirm_ms=0)  # stylus taps
    o = bytearray(20)
    tr.update(o, 0)
    assert [e for e in tap(tr, o, 12, 1000) if e[0] == "error"] == [("error", 12)]
    assert tr.why == 2  # North's pit: not the mover's
    # two pits at once: a stylus slanted over South pits 3 and 4, 20 ms apart
    o[2] = 1
    ev = events(tr, tr.update(o, 2000))
    o[3] = 1
    ev += events(tr, tr.update(o, 2020))
    assert ("committed", 1) in ev and ("takeback", 0) in ev, ev
    assert sorted(e for e in ev if e[0] == "error") == [("error", 2), ("error", 3)] and tr.why == 3
    assert g.ply == 0 and tr.request.mode == T.M_CHOOSE
    assert TN.cells(tr.request, T.R_ERROR) == [2, 3]
    o[2] = o[3] = 0
    tr.update(o, 2200)
    # a pit played: another pit of South tapped during its sowing view
    tap(tr, o, 6, 3000)
    assert g.ply == 1
    assert [e for e in tap(tr, o, 7, 4000) if e[0] == "error"] == [("error", 7)] and tr.why == 4
    assert TN.cells(tr.request, T.R_SELECTED) == [6] and TN.cells(tr.request, T.R_ERROR) == [7]
    assert g.ply == 1
    # the engine's move: its pit lit; its own pit tapped is no error, another is
    tap(tr, o, tr.request.last, 5000)  # confirmed
    n = tr.press(9, 6000, True)  # North pit 1 for the engine
    assert events(tr, n) == [("selected", 9), ("committed", 2)]
    assert TN.cells(tr.request, T.R_ENGINE_FROM) == [9]
    assert [e for e in tap(tr, o, 9, 6500) if e[0] == "error"] == []
    assert [e for e in tap(tr, o, 11, 7000) if e[0] == "error"] == [("error", 11)] and tr.why == 5
    assert TN.cells(tr.request, T.R_ENGINE_FROM) == [9]  # still shown
    tr.update(o, 7000 + 900)
    assert TN.cells(tr.request, T.R_ERROR) == [] and TN.cells(tr.request, T.R_ENGINE_FROM) == [9]
    assert g.ply == 2


HELD = 400  # lift_ms: a lift selects once it has held this long (a chattering sensor's flips and a stir do not)


def lift(tr, o, cell, t):
    """Lift mode: the balls of ``cell`` lifted at ``t`` (its debounced edge) and held; the
    events of the frames at ``t`` and ``t`` + HELD, when the lift counts."""
    o[cell] = 0
    ev = events(tr, tr.update(o, t))
    return ev + events(tr, tr.update(o, t + HELD))


def lift_board(g):
    """Occupancy of a lift-selection board: a pit's sensor on while it holds balls."""
    o = bytearray(20)
    for c in range(2 * g.n_pits):
        o[c] = 1 if g.pos[c] else 0
    return o


def test_a_reply_made_while_the_sowing_view_shows_confirms_it_and_is_played():
    # lift selection, two players: North lifts a pit 0.1-2.4 s after South's last ball
    for delay in (100, 700, 1500, 2400):
        g = game("toguz")
        tr = MancalaTracker(g, select="lift", confirm_ms=2500)
        o = lift_board(g)
        tr.update(o, 0)
        assert ("selected", 4) in lift(tr, o, 4, 1000)  # South lifts pit 5: selected
        o[4] = 1  # the first ball back into it; the rest fall into full pits
        tr.update(o, 1400)
        assert tr.request.mode == T.M_SOWING
        # North lifts pit 5 (legal) while South's view still shows
        ev = lift(tr, o, 13, 1400 + delay)
        assert ev == [("lifted", 13), ("confirmed", 12), ("selected", 13), ("committed", 2)], (delay, ev)
        assert g.ply == 2 and tr.request.mode == T.M_SOWING
    # even 100 ms after the selection (within the hold-off of two pits at once: the
    # other row is never the same hand)
    g = game("toguz")
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    o = lift_board(g)
    tr.update(o, 0)
    lift(tr, o, 4, 1000)
    assert lift(tr, o, 13, 1100 + HELD) == [("lifted", 13), ("confirmed", 12), ("selected", 13),
                                            ("committed", 2)]
    o[14] = 0  # but a second North pit 50 ms later: two pits at once
    tr.update(o, 1150 + HELD)
    ev = events(tr, tr.update(o, 1150 + 2 * HELD))
    assert ("takeback", 1) in ev and tr.why == 3 and g.ply == 1, ev
    # stylus: a tap on a legal pit of the next player (not the last pit) is the reply
    g = game("toguz")
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(20)
    tr.update(o, 0)
    tap(tr, o, 6, 1000)  # South pit 7: last ball North pit 6 (cell 14)
    ev = tap(tr, o, 10, 1600)  # North pit 2 at once
    assert [e for e in ev if e[0] not in ("lifted", "placed")] == [
        ("confirmed", 14), ("selected", 10), ("committed", 2)], ev
    # another pit of the mover during its view stays an error
    ev = tap(tr, o, 12, 2200)
    assert ("error", 12) in ev and tr.why == 4 and g.ply == 2


def test_the_movers_reply_when_the_next_player_passes_commits_the_pass_then_the_reply():
    # Tihbat, lift selection: South plays pit 1 (2 balls), North is left with no balls
    # and passes (3.4); South lifts pit 1 again while the view shows: the pass is
    # committed with the view, the reply a frame later (one commit an update)
    g = game("tihbat", "2/2S,1S 10 15 S 9")
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    o = lift_board(g)
    tr.update(o, 0)
    assert lift(tr, o, 0, 1000) == [("lifted", 0), ("selected", 0), ("committed", 1)]
    o[0] = 1  # its first ball back in
    tr.update(o, 1300)
    # pit 2's captured balls taken off
    assert lift(tr, o, 1, 1700) == [("lifted", 1)]
    assert g.legal_moves() == [2] and tr.request.mode == T.M_SOWING
    # South's reply, 0.3 s later
    assert lift(tr, o, 0, 2000) == [("lifted", 0), ("confirmed", 1), ("committed", 2)]
    assert tr.busy() and g.move_stack() == [0, 2]
    assert events(tr, tr.update(o, 2010 + HELD)) == [("selected", 0), ("committed", 3)]
    assert g.move_stack() == [0, 2, 0] and tr.request.mode == T.M_SOWING
    # never for the engine's side: South the engine, the player's lift is no reply
    g = game("tihbat", "2/2S,1S 10 15 S 9")
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    tr.engines = 1
    o = lift_board(g)
    tr.update(o, 0)
    tr.press(0, 500, engine=True)
    lift(tr, o, 0, 1000)
    o[0] = 1
    tr.update(o, 1300)
    lift(tr, o, 1, 1700)
    assert ("committed", 2) not in lift(tr, o, 0, 2000)
    assert events(tr, tr.update(o, 2010 + HELD)) == [] and g.move_stack() == [0]


def test_a_long_sowing_through_full_pits_is_not_taken_for_balls_put_back():
    # Toguz Kumalak, lift selection: South pit 3 holds 22 balls, every pit full but
    # North pit 6 (cell 14: the sowing's 12th ball after the pit's own). The first ball
    # goes back into the pit; then 11 balls, 80-200 ms each, fall into full pits (no
    # sensor changes) for more than confirm_ms: the view confirms, nothing withdrawn
    # (issue 10's corpus, toguz two 101000343: the move was taken back while sown)
    g = game("toguz")
    for c in range(18):
        g.pos[c] = 3
    g.pos[2] = 22
    g.pos[14] = 0
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    o = lift_board(g)
    tr.update(o, 0)
    assert lift(tr, o, 2, 1000) == [("lifted", 2), ("selected", 2), ("committed", 1)]
    o[2] = 1  # the first ball back in
    tr.update(o, 1300)
    ev = events(tr, tr.update(o, 1300 + 2500))
    assert ev == [("confirmed", 5)], ev  # (the last ball in South pit 6)
    assert g.move_stack() == [2] and tr.request.mode == T.M_CHOOSE
    o[14] = 1  # the 12th ball lands in North pit 6, 2.6 s after: an event, nothing else
    assert events(tr, tr.update(o, 3900)) == [("placed", 14)]


def test_no_reply_is_taken_for_the_engines_side_during_the_players_view():
    g = game("toguz")
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    tr.engines = 2  # North is the engine
    o = lift_board(g)
    tr.update(o, 0)
    lift(tr, o, 4, 1000)
    # a North pit lifted during South's view: the engine plays North
    assert lift(tr, o, 13, 1500) == [("lifted", 13)]
    assert g.ply == 1 and tr.request.mode == T.M_SOWING


def test_a_pending_selection_is_withdrawn_by_a_second_touch_or_its_balls_put_back():
    # stylus: the same pit touched again (after the hold-off) withdraws it
    g = game("toguz")
    tr = MancalaTracker(g, confirm_ms=0)
    o = bytearray(20)
    tr.update(o, 0)
    tap(tr, o, 3, 1000)
    assert g.ply == 1
    ev = tap(tr, o, 3, 1800)
    assert [e for e in ev if e[0] not in ("lifted", "placed")] == [("takeback", 0)], ev
    assert g.ply == 0 and tr.request.mode == T.M_CHOOSE and 3 in TN.cells(tr.request, T.R_TARGET)
    assert [e for e in tap(tr, o, 5, 2600) if e[0] == "selected"] == [("selected", 5)]  # chosen again
    # lift: a single ball put back (a single ball is never sown into its own pit)
    g = game("toguz")
    for m in (0, 0):  # South pit 1 played: it keeps one ball; North pit 1
        g.push(m)
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    o = lift_board(g)
    tr.update(o, 0)
    assert g.pos[0] == 1
    assert ("committed", 3) in lift(tr, o, 0, 1000)
    o[0] = 1  # put back: withdrawn once it has held HELD ms (a 5 Hz flip does not)
    assert events(tr, tr.update(o, 1500)) == [("placed", 0)] and g.ply == 3
    assert events(tr, tr.update(o, 1500 + HELD)) == [("takeback", 2)]
    assert g.ply == 2 and tr.request.mode == T.M_CHOOSE
    # lift: balls put back where the sowing would fill an empty pit that stays empty:
    # withdrawn at the view's end; the same with that pit filled: confirmed
    for sown in (False, True):
        g = game("toguz")
        for m in (0, 0, 0):  # South pit 1 now empty; North to move
            g.push(m)
        assert g.pos[0] == 0 and g.pos[17] > 1
        tr = MancalaTracker(g, select="lift", confirm_ms=2500)
        o = lift_board(g)
        tr.update(o, 0)
        # North pit 9: sows into itself, then South pit 1 (empty)
        assert ("committed", 4) in lift(tr, o, 17, 1000)
        o[17] = 1
        tr.update(o, 1300)
        if sown:
            o[0] = 1
            tr.update(o, 1600)
        ev = events(tr, tr.update(o, 1600 + 2500))
        if sown:
            assert ev == [("confirmed", tr.ev_arg[0])] and g.ply == 4, ev
        else:
            assert ev == [("takeback", 3)] and g.ply == 3, ev
            assert tr.request.mode == T.M_CHOOSE


def test_a_faulty_sensor_never_withdraws_a_selection():
    # issue 10's corpus, toguz white 101001208: a single ball lifted from South pit 1
    # (selected), then a weak magnet under the emptied pit flips at 5 Hz (each value
    # 100 ms): its first flip on read as the ball put back took the move back
    g = game("toguz")
    for m in (0, 0):
        g.push(m)
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    o = lift_board(g)
    tr.update(o, 0)
    assert g.pos[0] == 1 and ("committed", 3) in lift(tr, o, 0, 1000)
    ev = []
    for k in range(10):
        o[0] = 1 - (k & 1)
        ev += events(tr, tr.update(o, 2200 + 100 * k))
        ev += events(tr, tr.update(o, 2250 + 100 * k))
    assert ev == [("placed" if k & 1 == 0 else "lifted", 0) for k in range(10)], ev
    assert g.ply == 3 and tr.request.mode == T.M_SOWING
    o[0] = 1  # the ball put back for good: withdrawn
    tr.update(o, 3500)
    assert events(tr, tr.update(o, 3500 + HELD)) == [("takeback", 2)] and g.ply == 2
    # corpus tihbat two 102001104: the pit the sowing fills (empty before) isolated (a
    # chattering sensor), the balls' first back into the sown pit: no board can tell a
    # withdrawal, the view is confirmed (before: taken back, the isolated pit's sensor
    # being the one that would have shown the sowing). Isolated before the selection, or
    # during the view
    from playboard.board import isolate
    for before in (True, False):
        g = game("toguz")
        for m in (0, 0, 0):  # South pit 1 now empty; North to move
            g.push(m)
        tr = MancalaTracker(g, select="lift", confirm_ms=2500)
        o = lift_board(g)
        tr.update(o, 0)
        faulty = bytearray(20)
        faulty[0] = 1  # South pit 1's sensor
        if before:
            isolate.isolate(tr, faulty, 500)
        assert ("committed", 4) in lift(tr, o, 17, 1000)  # North pit 9: itself, then South pit 1
        if not before:
            isolate.isolate(tr, faulty, 1200)
        o[17] = 1
        tr.update(o, 1300)
        o[0] = 1  # (what the isolated sensor reads is ignored)
        tr.update(o, 1600)
        ev = events(tr, tr.update(o, 1600 + 2500))
        assert ev == [("confirmed", tr.ev_arg[0])] and g.ply == 4, (before, ev)


def test_a_pit_lifted_just_after_its_sensor_recovers_is_a_lift():
    # issue 10's corpus, tihbat white 101000488: the engine's pit's sensor chattered,
    # was isolated, and recovered (its value, held 2 s, reported as a change while
    # still isolated: docs/tracker.md "Faulty sensors"); the player lifted the pit 70 ms
    # later to carry the engine's move out: the lift was taken for a sensor that had
    # held its value only 70 ms (no edge), the engine's view then refused the reply
    from playboard.board import isolate
    for engine in (False, True):
        g = game("toguz")
        tr = MancalaTracker(g, select="lift", confirm_ms=2500)
        o = lift_board(g)
        tr.update(o, 0)
        if engine:
            tr.engines = 1  # South is the engine
            tr.press(4, 500, True)
        faulty = bytearray(20)
        faulty[4] = 1
        isolate.isolate(tr, faulty, 1000)
        o[4] = 0  # frozen off while it chattered (the app's debouncer) ...
        tr.update(o, 1000)
        o[4] = 1  # ... its true value (balls in it) reported when it recovers
        assert events(tr, tr.update(o, 5000)) == []
        isolate.isolate(tr, bytearray(20), 5000)
        ev = lift(tr, o, 4, 5070)
        if not engine:
            assert ev == [("lifted", 4), ("selected", 4), ("committed", 1)], ev
            continue
        assert ev == [("lifted", 4)], ev  # the engine's move carried out
        o[4] = 1
        tr.update(o, 5400)
        assert lift(tr, o, 13, 5800) == [("lifted", 13), ("confirmed", 12),
                                         ("selected", 13), ("committed", 2)]


def test_in_the_engines_view_a_reply_counts_once_its_pit_was_lifted():
    g = game("toguz")
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    tr.engines = 1  # South is the engine; North the player
    o = lift_board(g)
    tr.update(o, 0)
    assert events(tr, tr.press(4, 1000, True)) == [("selected", 4), ("committed", 1)]
    # North lifts its own pit before making the engine's move: an error
    assert lift(tr, o, 13, 1500) == [("lifted", 13), ("error", 13)] and tr.why == 5
    assert g.ply == 1 and TN.cells(tr.request, T.R_ENGINE_FROM) == [4]
    o[13] = 1
    tr.update(o, 1700)
    lift(tr, o, 4, 2000)  # the engine's pit lifted, sown (the first ball back into it)
    o[4] = 1
    tr.update(o, 2300)
    # now North's reply: it confirms the engine's view and is played
    assert lift(tr, o, 13, 2600) == [("lifted", 13), ("confirmed", 12),
                                     ("selected", 13), ("committed", 2)]


def engine_view(engines=1):
    """Toguz Kumalak, lift selection, South the engine (``engines`` 3: both sides): its
    move South pit 5 shown at 1000 ms, not carried out yet. Returns (game, tracker, occupancy)."""
    g = game("toguz")
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    tr.engines = engines
    o = lift_board(g)
    tr.update(o, 0)
    tr.press(4, 1000, True)
    return g, tr, o


def test_in_the_engines_view_a_pit_isolated_while_lifted_lets_the_reply_count():
    # the engine's pit's sensor chatters (isolated) while the player carries its move
    # out: the lift is never seen, the first ball sown back turns it on again, and the
    # reply was refused for ever (corpus tihbat white 101000800, toguz black 101000306)
    g, tr, o = engine_view()
    tr.request.fault[4] = 1  # isolated (board/isolate.py) while the move is carried out
    tr.update(o, 1500)
    tr.request.fault[4] = 0  # recovered, reading its balls again
    tr.update(o, 3000)
    assert lift(tr, o, 13, 3200) == [("lifted", 13), ("confirmed", 12),
                                     ("selected", 13), ("committed", 2)]
    # never isolated: the pit not lifted, the reply is still an error
    g, tr, o = engine_view()
    tr.update(o, 1500)
    assert lift(tr, o, 13, 3200) == [("lifted", 13), ("error", 13)] and tr.why == 5


def test_the_engines_view_is_not_confirmed_by_time_before_its_pit_is_lifted():
    # lift selection: the engine's view waits for the player to carry the move out (its
    # pit lifted), however long; then it confirms confirm_ms after the last sensor event
    # (issue 10's corpus, tihbat white 102000363: the view confirmed by itself 2.5 s after
    # it was shown, the player, with no balls, passed and the engine played again on a
    # board that had not its move)
    g, tr, o = engine_view()
    assert tr.update(o, 1000 + 10000) == 0 and tr.request.mode == T.M_SOWING and tr.busy()
    lift(tr, o, 4, 12000)  # carried out at last
    o[4] = 1
    tr.update(o, 12300)
    assert tr.update(o, 12300 + 2490) == 0
    assert events(tr, tr.update(o, 12300 + 2500)) == [("confirmed", 12)]
    # a demo (the engine both sides): nobody carries it out, confirmed by time
    g, tr, o = engine_view(3)
    assert events(tr, tr.update(o, 1000 + 2500)) == [("confirmed", 12)]


def test_three_pits_lifted_in_one_scan_commit_at_most_one_move_an_update():
    """Found by the whole-board fuzzer (issue 31, bench/py_fuzz.py seeds 1005 and 1006):
    Tihbat, lift mode, South to move; North 2, South 1 and North 1 lifted in one scan.
    South 1 was selected, North 1 read as the reply (deferred a frame: one commit an
    update) and North 2 then selected in the same update: two commits in one update,
    and the app, which records each commit by the tracker's last move, wrote North's
    move twice (the record's replay no longer the board's position)."""
    for order in ((3, 0, 2), (2, 0, 3), (0, 2, 3)):
        g = game("tihbat")
        tr = MancalaTracker(g, select="lift", confirm_ms=2500)
        o = lift_board(g)
        tr.update(o, 0)
        for c in order:
            o[c] = 0
        t = 1000
        seen = []
        for k in range(80):
            kinds = [e[0] for e in events(tr, tr.update(o, t))]
            assert kinds.count("committed") <= 1, (order, k, kinds)
            seen.append(kinds)
            t += 10
        assert g.ply <= 2, (order, g.ply, seen)


def tihbat_captured_north_1(engines):
    """Tihbat, lift selection, after South 2, North 1, South 2, North 1, South 1, North
    2 (corpus tihbat black 102001049): North's last move took North 1 (Tihbat 3.3), its
    balls not yet off (the sensor on), the view confirmed by time; South to move, both
    of whose pits sow into North 1. ``engines``: 1 South is the engine (its move South
    1 shown at 10,000 ms), 0 two players (South lifts South 1 at 10,000 ms). Returns
    (game, tracker, occupancy, the time the move shows)."""
    g = game("tihbat")
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    tr.engines = engines
    for m in (1, 0, 1, 0, 0, 1):
        g.push(m)
    tr.new_position()
    o = lift_board(g)
    o[2] = 1  # North 1's captured balls still there
    tr.update(o, 0)
    assert g.pos[2] == 0 and g.turn == 0
    if engines:
        assert events(tr, tr.press(0, 10000, True)) == [("selected", 0), ("committed", 7)]
        return g, tr, o, 10000
    assert ("committed", 7) in lift(tr, o, 0, 10000)
    return g, tr, o, 10000 + HELD


def test_a_pit_the_sowing_fills_lifted_before_its_balls_land_is_no_reply():
    # North's captured balls taken off late, after South's move showed, which sows into
    # North 1: its sensor going off is no reply by North 1 (it was played as one: a move
    # nobody made); once the sowing's balls land there, North 1 lifted is the reply
    for engines, why in ((1, 5), (0, 4)):
        g, tr, o, t = tihbat_captured_north_1(engines)
        assert g.pos[2] and g.is_legal(0)  # (North 1 filled by South's move: North may play it)
        o[2] = 0  # the captured balls taken off
        ev = events(tr, tr.update(o, t + 130))
        if engines:
            ev += lift(tr, o, 0, t + 380)  # the engine's pit lifted to carry its move out
        ev += events(tr, tr.update(o, t + 130 + HELD + 10))
        assert [e for e in ev if e[0] not in ("lifted", "placed")] == [("error", 2)], (engines, ev)
        assert tr.why == why and g.ply == 7 and tr.request.mode == T.M_SOWING
        o[0] = 1  # the sowing: its first ball back into South 1, then North 1
        tr.update(o, t + 900)
        o[2] = 1
        tr.update(o, t + 1100)
        assert lift(tr, o, 2, t + 1600) == [("lifted", 2), ("confirmed", 2), ("selected", 2), ("committed", 8)], engines


def test_engine_lift_marks_only_the_engines_unlifted_pit_lifted_once():
    # the app asks it of a lift in the result (App._carried_out): the engine's pit,
    # not lifted since its move was shown, is taken as lifted once, and then the view
    # is confirmed by time like one carried out
    g, tr, o = engine_view()
    assert [tr.engine_lift(c) for c in (13, 5, -1, 255)] == [False] * 4
    assert tr.update(o, 1000 + 2500) == 0 and tr.state == 1  # still waits for the lift
    assert tr.engine_lift(4) is True
    assert tr.engine_lift(4) is False  # once: a later lift is a lift again
    assert events(tr, tr.update(o, 1000 + 2600)) == [("confirmed", 12)]
    assert tr.engine_lift(4) is False  # no view any more
    # the player's own view, and tap mode: never
    g = game("toguz")
    tr = MancalaTracker(g, select="lift", confirm_ms=2500)
    o = lift_board(g)
    tr.update(o, 0)
    tr.press(4, 1000)
    assert tr.state == 1 and tr.engine_lift(4) is False
    g = game("toguz")
    tr = MancalaTracker(g, select="tap", confirm_ms=2500)
    tr.update(bytearray(tr.n_cells), 0)
    tr.press(4, 1000, True)
    assert tr.state == 1 and tr.engine_lift(4) is False


def frames(tr, o, t0, t1, out):
    """Frames every 10 ms from ``t0`` up to ``t1`` (excluded), their events added to ``out``."""
    t = t0
    while t < t1:
        out += events(tr, tr.update(o, t))
        t += 10


def test_a_capture_taken_off_just_before_the_sowing_reaches_its_pit_is_that_pit_filled():
    # the whole-board fuzz's late hands: North 1's captured balls taken off 10-400 ms
    # before South 1's sowing (back into South 1, South 2, then North 1) lands a ball
    # there. The pit went off and on again within lift_ms: it was read as balls lifted
    # and put back (a stir), the ball unseen; the mover's view then looked withdrawn
    # (balls back in South 1, no empty pit filled): South's move was undone; in the
    # engine's view North's reply from North 1 was refused (why 5) and lost
    for engines in (0, 1, 2):
        for d in (10, 50, 150, 300, 390, 400):
            g, tr, o, t = tihbat_captured_north_1(engines & 1)
            tr.engines = engines  # (2: North the engine, South's move the player's)
            ev = []
            if engines == 1:  # the engine's move carried out
                ev += lift(tr, o, 0, t + 500)
                t += 900
            o[0] = 1  # the first ball back into South 1 (South 2 full)
            frames(tr, o, t + 100, t + 300, ev)
            o[2] = 0  # North 1's captured balls taken off
            frames(tr, o, t + 300, t + 300 + d, ev)
            o[2] = 1  # the sowing's ball lands there
            frames(tr, o, t + 300 + d, t + 300 + d + 200, ev)
            assert tr.request.mode == T.M_SOWING and g.ply == 7, (engines, d, ev)
            if engines == 2:  # North is the engine: no reply; the view confirms by time
                frames(tr, o, t + 500 + d, t + 500 + d + 2600, ev)
                assert [e for e in ev if e[0] not in ("lifted", "placed")] == [("confirmed", 2)], (d, ev)
                assert g.ply == 7
                continue
            # North's reply from North 1 (the ball sown there)
            o[2] = 0
            frames(tr, o, t + 500 + d, t + 500 + d + HELD + 20, ev)
            assert [e for e in ev if e[0] not in ("lifted", "placed")] == [
                ("confirmed", 2), ("selected", 2), ("committed", 8)], (engines, d, ev)
            assert g.move_stack()[-2:] == [0, 0]


def test_a_stir_of_a_captured_pit_before_the_sowing_reaches_it_is_no_ball_sown():
    # what tells a capture taken off then a ball sown from a stir: the hands have sown up
    # to the pit (the move carried out, the pits before it in the sowing's order that
    # keep a ball read on). Toguz Kumalak, South 3's 9 balls: back into South 3, South 4
    # (empty, its sensor off) then South 5 (empty, but North's capture still on it). The
    # balls put back into South 3 and South 5's captured balls lifted and put back
    # within lift_ms: South 4 never filled, the selection withdrawn (before the check,
    # the stir read as South 5 filled: the move kept, a move nobody made)
    for stir in (False, True):
        g = game("toguz")
        g.pos[3] = 0
        g.pos[4] = 0
        g.pos[19] = 18
        tr = MancalaTracker(g, select="lift", confirm_ms=2500)
        o = lift_board(g)
        o[4] = 1  # South 5's captured balls still on
        tr.update(o, 0)
        assert ("committed", 1) in lift(tr, o, 2, 1000)
        ev = []
        o[2] = 1  # the balls put back
        frames(tr, o, 1500, 1700, ev)
        if stir:
            o[4] = 0
            frames(tr, o, 1700, 1900, ev)
            o[4] = 1
        frames(tr, o, 1900, 1900 + 2600, ev)
        assert [e for e in ev if e[0] not in ("lifted", "placed")] == [("takeback", 0)], (stir, ev)
        assert g.ply == 0 and tr.request.mode == T.M_CHOOSE
    # the engine's view, its pit not lifted yet: the player's captured North 1 stirred is
    # no ball sown (its later lift, the captured balls taken off, is no reply: why 5)
    g, tr, o, t = tihbat_captured_north_1(1)
    ev = []
    o[2] = 0
    frames(tr, o, t + 100, t + 250, ev)
    o[2] = 1
    frames(tr, o, t + 250, t + 600, ev)
    o[2] = 0
    frames(tr, o, t + 600, t + 600 + HELD + 20, ev)
    assert [e for e in ev if e[0] not in ("lifted", "placed")] == [("error", 2)] and tr.why == 5, ev
    assert g.ply == 7
