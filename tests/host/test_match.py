"""`playboard match` and playboard_host.match: players, intervals, progress, Ctrl-C."""
import json

import pytest

from playboard.games.registry import new_game
from playboard_host import match
from playboard_host.cli import main


def test_interval95_known_values():
    # 50 wins of 100 with no draws: the Wilson interval 40.4%-59.6%
    lo, hi = match.interval95(50, 0, 50)
    assert round(100 * lo, 1) == 40.4 and round(100 * hi, 1) == 59.6
    # 70-0-30: 60.4%-78.1%
    lo, hi = match.interval95(70, 0, 30)
    assert round(100 * lo, 1) == 60.4 and round(100 * hi, 1) == 78.1
    # draws narrow it: 40-20-40 scores 50% with less spread than 50-0-50
    lo2, hi2 = match.interval95(40, 20, 40)
    lo, hi = match.interval95(50, 0, 50)
    assert lo < lo2 < 0.5 < hi2 < hi
    assert match.interval95(10, 0, 0) == (pytest.approx(0.7225, abs=1e-3), 1.0)
    assert match.interval95(0, 0, 0) == (0.0, 1.0)


def test_player_specs():
    assert match.parse_spec("random") == ("random", None, None)
    assert match.parse_spec("noisy") == ("noisy", None, None)
    assert match.parse_spec("L3") == ("engine", 3, None)
    assert match.parse_spec("L8@2374") == ("engine", 8, 2374)
    assert match.parse_spec("base8@8000") == ("base", 8, 8000)
    assert match.parse_spec("prev8@8000") == ("prev", 8, 8000)
    for bad in ("L14", "L0", "greedy@5", "L8@", "L8@-1", "L8@x", "stockfish"):
        with pytest.raises(ValueError):
            match.parse_spec(bad)


def test_prev8_is_level_8_read_from_git():
    # prev8 is level 8 at match.PREV_REV, loaded from git into modules of its own
    # (not today's classes); until the search or the evaluations change it plays
    # as today's top level (9, Toguz Kumalak's level 8 then): the same move, score and
    # depth in the same nodes
    try:
        old = match.baseline_engine_class(match.PREV_REV)
    except ValueError:
        pytest.skip("no git history here")
    Engine = match.Engine  # (the players' class: a firmware test may have reloaded the module)

    assert old is not Engine and old is match.baseline_engine_class(match.PREV_REV)
    assert old.__module__ != Engine.__module__
    g = new_game("toguz")
    for m in (4, 6, 2, 7, 0, 3):
        g.push(m)
    a = old(tt_size=1024)
    a.think(g, 8, nodes=2000)
    b = Engine(tt_size=1024)
    b.think(g, 9, nodes=2000)
    assert a.best_move in g.legal_moves() and a.nodes == b.nodes == 2000
    assert (a.best_move, a.score, a.depth) == (b.best_move, b.score, b.depth)
    p = match.Player("prev8@500", 2374, 7)
    assert p.kind == "prev" and p.move(g) in g.legal_moves()


def test_noisy_player_mixes_greedy_and_random_moves():
    # after pit 1 North has few capturing moves: the greedy player picks among
    # them only; the noisy player leaves them in about 1 move of 4
    g = new_game("toguz")
    g.push(0)
    greedy = match.Player("greedy", 0, 7)
    best = {greedy.move(g) for _ in range(20)}
    noisy = match.Player("noisy", 0, 7)
    picks = [noisy.move(g) for _ in range(400)]
    other = sum(1 for m in picks if m not in best)
    assert len(best) <= 2
    assert 40 <= other <= 120  # a quarter of the moves are random, most of them not the greedy move


def test_run_match_counts_and_reports_progress():
    seen = []
    r = match.run_match("tihbat", "L2", "random", games=4, nodes=40, seed=3,
                        progress=lambda done, total, pts: seen.append((done, total, pts)))
    assert [s[:2] for s in seen] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert r["wins"] + r["draws"] + r["losses"] == 4
    assert seen[-1][2] == r["wins"] + 0.5 * r["draws"]
    assert 0 <= r["low"] <= r["score"] <= r["high"] <= 1
    # the same seed plays the same games
    r2 = match.run_match("tihbat", "L2", "random", games=4, nodes=40, seed=3)
    assert (r2["wins"], r2["draws"], r2["plies"]) == (r["wins"], r["draws"], r["plies"])


def test_unknown_player_is_one_clear_line(capsys):
    assert main(["match", "--game", "tihbat", "--games", "1", "--pair", "L8:stockfish"]) == 2
    err = capsys.readouterr().err
    assert "unknown player 'stockfish'" in err and "Traceback" not in err


def test_ctrl_c_keeps_the_finished_pairings(capsys, tmp_path, monkeypatch):
    real = match.run_match
    calls = []

    def run_then_interrupt(*args, **kw):
        calls.append(args[1:3])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kw)

    monkeypatch.setattr(match, "run_match", run_then_interrupt)
    out_json = tmp_path / "m.json"
    rc = main(["match", "--game", "tihbat", "--games", "2", "--nodes", "40", "--pair", "L2:L1",
               "--pair", "L3:L2", "--pair", "L4:L3", "--jsonl", str(out_json)])
    assert rc == 130
    cap = capsys.readouterr()
    rows = [line for line in cap.out.splitlines() if line.startswith("| tihbat")]
    assert len(rows) == 1 and rows[0].startswith("| tihbat | L2 | L1 | 2 |")
    assert "interrupted: 1 pairing(s) finished" in cap.err and "tihbat L3:L2 dropped" in cap.err
    assert [json.loads(x)["a"] for x in out_json.read_text().splitlines()] == ["L2"]
    assert calls == [("L2", "L1"), ("L3", "L2")]


def test_ladder_suite_has_every_level_against_the_references_and_the_one_below():
    from playboard_host.commands.match import suite

    for game, top in (("toguz", 9), ("tihbat", 9), ("tobit", 11), ("tobit4", 11)):
        pairs = suite(game)
        for k in range(1, top + 1):
            for ref in ("random", "greedy", "noisy"):
                assert ("L%d" % k, ref) in pairs
        for k in range(2, top + 1):
            assert ("L%d" % k, "L%d" % (k - 1)) in pairs
        assert len(pairs) == 4 * top - 1


def test_openings_differ_while_there_are_any_left():
    # Toguz Kumalak has 81 openings of 2 plies: 50 pairs get 50 different ones
    ops = match.openings("toguz", 2, 50, seed=1)
    assert len(ops) == 50 and len(set(ops)) == 50
    assert all(len(op) == 2 and 0 <= op[0] < 9 and 0 <= op[1] < 9 for op in ops)
    assert ops == match.openings("toguz", 2, 50, seed=1)  # the seed repeats them
    assert ops != match.openings("toguz", 2, 50, seed=2)
    # Tihbat has 4: the fifth pair repeats one
    ops = match.openings("tihbat", 2, 5, seed=1)
    assert len(set(ops[:4])) == 4 and ops[4] in ops[:4]


def test_each_opening_is_played_from_both_sides(monkeypatch):
    seen = []
    real = match.play_game

    def spy(game, white, black, nodes, opening, seed, max_plies=None, native=False):
        seen.append((white, tuple(opening)))
        return real(game, white, black, nodes, opening, seed, max_plies, native)

    monkeypatch.setattr(match, "play_game", spy)
    match.run_match("toguz", "L1", "random", games=6, nodes=16, seed=5)
    assert [w for w, _ in seen] == ["L1", "random"] * 3
    assert [op for _, op in seen[0::2]] == [op for _, op in seen[1::2]]
    assert len({op for _, op in seen}) == 3


def test_ctrl_c_mid_pairing_says_how_far_it_got(capsys, monkeypatch):
    real = match._task
    n = []

    def task_then_interrupt(args):
        n.append(1)
        if len(n) == 4:  # the second pairing's second game
            raise KeyboardInterrupt
        return real(args)

    monkeypatch.setattr(match, "_task", task_then_interrupt)
    rc = main(["match", "--game", "toguz", "--games", "2", "--nodes", "32", "--pair", "L2:L1",
               "--pair", "L3:L2", "--pair", "L4:L3"])
    assert rc == 130
    cap = capsys.readouterr()
    assert [line.split(" | ")[1:3] for line in cap.out.splitlines() if line.startswith("| toguz")] == [["L2", "L1"]]
    assert "toguz L3:L2 dropped after 1 of 2 games" in cap.err
    assert "toguz L2:L1: 2/2 games" in cap.err  # the progress line


def test_ladder_pairings_are_the_targets():
    from playboard_host.commands.match import ladder

    assert ladder() == ladder("toguz") == [("L1", "random"), ("L1", "greedy"), ("L1", "noisy"), ("L2", "L1"),
                                           ("L3", "L2"), ("L4", "L3"), ("L5", "L4"), ("L6", "L5"), ("L7", "L6"),
                                           ("L8", "L7"), ("L9", "L8")]
    assert ladder("tobit")[-3:] == [("L9", "L8"), ("L10", "L9"), ("L11", "L10")]


def test_chip_nodes_per_second_is_the_benchs_table():
    # bench/mp_engine.py runs under MicroPython and cannot import the host tools: it
    # writes the table again, read here from its text
    import ast
    import os

    path = os.path.join(match.ROOT, "bench", "mp_engine.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    tables = [ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
              and [getattr(t, "id", None) for t in n.targets] == ["CHIP_NODES_PER_S"]]
    assert tables == [match.CHIP_NODES_PER_S]
    assert sorted(match.CHIP_NODES_PER_S) == ["tihbat", "tobit", "tobit4", "toguz"]


def _thinks(cls, play):
    """The (level, nodes) of each ``cls.think`` call while ``play()`` runs."""
    seen = []
    real = cls.think

    def think(e, game, level=8, nodes=None, **kw):
        seen.append((level, nodes))
        return real(e, game, level, nodes=nodes, **kw)

    cls.think = think
    try:
        play()
    finally:
        cls.think = real
    return seen


def test_a_native_board_plays_its_native_levels_at_the_native_budget():
    # --native: Tobit's 13 levels; the levels without a depth cap take their share of
    # NATIVE_NODES (played by the engine's own loop, the same search), the others their
    # share of DEFAULT_NODES, as on the chip
    Engine = match.Engine  # (the players' class: a firmware test may have reloaded the module)
    from playboard_host.commands.match import ladder

    assert match.top_level("tobit", True) == 13 and match.top_level("tobit") == 11
    assert ladder("tobit", True)[-2:] == [("L12", "L11"), ("L13", "L12")]
    g = new_game("tobit")
    for m in g.legal_moves()[:1]:
        g.push(m)
    seen = _thinks(Engine, lambda: [match.Player(spec, 9888, 5, native=True).move(g)
                                    for spec in ("L13", "L12", "L11", "L8")])
    # the top's search (11 of the table without the native search) at 9888, 9888 / 3,
    # 9888 / 8; level 8 as on any board (DEFAULT_NODES, its own share)
    assert seen == [(11, 9888), (11, 3296), (11, 1236), (8, match.DEFAULT_NODES["tobit"])]
    # Toguz Kumalak's native levels: 9 all of NATIVE_NODES, 8 a seventh of it (about
    # the nodes of today's top), 7 as on any board
    g = new_game("toguz")
    seen = _thinks(Engine, lambda: [match.Player(spec, 15984, 5, native=True).move(g)
                                    for spec in ("L9", "L8", "L7")])
    assert seen == [(9, 15984), (9, 2283), (7, match.DEFAULT_NODES["toguz"])]
    with pytest.raises(ValueError, match="only Tobit and Toguz Kumalak"):
        match.run_match("tihbat", "L2", "L1", games=2, native=True)


def test_a_level_above_the_games_top_is_one_clear_line_before_any_game(capsys):
    # L12 in Toguz Kumalak (top 9) or Tobit without --native (11) would play the top:
    # a pairing of two equal players, reported as a measurement
    for game, pair, native in (("toguz", ("L12", "L11"), False), ("tobit", ("L12", "L11"), False),
                               ("tobit", ("L14@9", "L1"), True)):
        with pytest.raises(ValueError):
            match.run_match(game, *pair, games=2, nodes=16, native=native)
    assert main(["match", "--games", "1", "--pair", "L10:L9"]) == 2
    out, err = capsys.readouterr()
    assert "toguz has levels 1..9" in err and "| toguz |" not in out
    match.check_players("tobit", ("L13", "L12"), native=True)
    match.check_players("tobit", ("L11", "base8@8000"))


def test_native_players_keep_their_own_budget_and_old_engines_are_not_remapped():
    # --native remaps today's engine levels to the chip's budgets; an @N is the player's
    # own (as without --native), and base8 / prev8 (old engines, no native table) play
    # their level 8 at their @N
    Engine = match.Engine  # (the players' class: a firmware test may have reloaded the module)

    g = new_game("tobit")
    g.push(g.legal_moves()[0])
    seen = _thinks(Engine, lambda: [match.Player(spec, 9888, 5, native=True).move(g)
                                    for spec in ("L8@700", "L5")])
    assert seen == [(8, 700), (5, match.DEFAULT_NODES["tobit"])]
    try:
        old = match.baseline_engine_class(match.PREV_REV)
    except ValueError:
        pytest.skip("no git history here")
    assert _thinks(old, lambda: match.Player("prev8@500", 9888, 5, native=True).move(g)) == [(8, 500)]
