"""The native Toguz Kumalak search (playboard.engine.toguz_native) against the engine's
own search (playboard.engine.search, ``Engine.native = False``): the same move, score,
nodes and depth from every search, on positions of the master games in
../shared/cases (skipped with a message where absent) and of random games.

Runs under CPython (pytest; the viper code as plain Python) and MicroPython
(tests/mp_runner.py; the viper code native, as on the RP2040).
"""
from playboard import pgn
from playboard.engine.search import Engine
from playboard.engine import toguz_native
from playboard.games.registry import new_game

import tlib
from nativerig import native, pair, result, check_slices_stop_and_time_budgets


def _master_positions(games, every):
    """Positions of the first ``games`` master games (../shared/cases), one every
    ``every`` plies from ply 6 on, with the game's moves before them pushed."""
    with open(tlib.cases_dir() + "/toguz-masters-2018.pgn") as f:
        k = 0
        for rec in pgn.read_games(f):
            g = new_game("toguz")
            for i, t in enumerate(rec.moves):
                if g.is_game_over():
                    break
                if i >= 6 and i % every == 0:
                    yield g
                g.push(int(t[0]) - 1)
            k += 1
            if k == games:
                break


def _same(g, tt, nodes, seen):
    e1 = e2 = None
    e1, e2 = pair(tt)
    e1.think(g, 9, nodes=nodes)
    e2.think(g, 10, nodes=nodes)  # (the native table's top, 10: the whole budget, as 9's)
    assert e2._tgs.kk[41] == e2.nodes  # (the native search ran)
    assert result(e1) == result(e2), (tt, nodes, g.fen(), result(e1), result(e2))
    seen.append(result(e1))


def test_the_native_search_finds_what_the_engine_finds_on_master_positions():
    seen = []
    for g in _master_positions(4, 12):
        for tt, nodes in ((1024, 1200), (0, 300)):
            _same(g, tt, nodes, seen)
    assert len(seen) >= 40, len(seen)
    # searches of every kind: most reached the budget, some ended early
    assert sum(1 for r in seen if r[2] == 1200) >= 10 and len(set(r[3] for r in seen)) >= 3, seen
    # the first position's answer, a known value (game 1 at ply 12, South to move; with
    # ToguzEval.SEARCH's PVS and reductions a ply deeper: without them (4, -10, 1200, 4))
    assert seen[0] == (4, 90, 1200, 5), seen[0]


def test_the_native_search_finds_what_the_engine_finds_in_random_games_and_endings():
    seen = []
    for g in tlib.random_games(lambda: new_game("toguz"), 14, 21, most=160):
        if len(g.legal_moves()) >= 2:
            _same(g, 256, 700, seen)
    assert len(seen) >= 10
    # endings (random games played out, then 6 plies taken back): forced results found
    # (scores past the win bound) and whole trees seen
    for g in tlib.random_games(lambda: new_game("toguz"), 4, 33, most=400):
        if g.ply > 6:
            for _ in range(6):
                g.pop()
            _same(g, 1024, 5000, seen)
    assert sum(1 for r in seen[-4:] if abs(r[1]) > 29000) >= 2, seen[-4:]


def test_whole_games_played_alike_with_the_table_kept_between_moves():
    g = next(tlib.random_games(lambda: new_game("toguz"), 1, 4, most=4))
    e1 = e2 = None
    e1, e2 = pair(1024)
    while not g.is_game_over():
        e1.start(g, 9, nodes=200, copy=False)
        while not e1.step():
            pass
        e2.think(g, 10, nodes=200)  # (the native top)
        assert result(e1) == result(e2), (g.ply, g.fen())
        g.push(e1.best_move)
    # (without ToguzEval.SEARCH's features: 1-0 in 105 plies)
    assert (g.result(), g.ply) == ("1-0", 75), (g.result(), g.ply)


def test_slices_stop_and_time_budgets():
    check_slices_stop_and_time_budgets('toguz', 9, 10)


def test_the_native_levels():
    from playboard.engine import search

    # (the module as imported now: a test before may have loaded it again)
    t = search.levels_of("toguz", True)
    assert t[:8] == search.LEVELS[:8] and len(t) == len(search.LEVELS) + 1  # 10 levels
    # 8, 9 and 10 the native search (no cap) at 1/40, 1/13 and all of the budget
    assert t[10] == search.LEVELS[9] and [t[k][2] for k in (8, 9, 10)] == [40, 13, 1]
    assert [t[k][0] for k in (8, 9, 10)] == [search.MAX_PLY - 1] * 3
    assert search.levels_of("tihbat", True) == search.LEVELS and search.levels_of("toguz") == search.LEVELS
    # a level with a depth cap searches with the engine's own loop on a native engine
    g = new_game("toguz")
    e = native(Engine(tt_size=256))
    e.think(g, 7, nodes=2000)
    assert getattr(e, "_tgs", None) is None
    if hasattr(toguz_native, "_P"):  # (MicroPython: consts are not the module's names;
        # the loop's bounds are tobit_native's: test_engine_native.py)
        assert toguz_native._P == search.MAX_PLY + 1


def test_the_search_features_find_the_same_in_both_searches():
    # each feature (search.SEARCH_*: PVS, late-move reductions) and both, switched on on both engines (Engine.features): the same
    # move, score, nodes and depth on master positions, with a table and without
    from playboard.engine import search

    seen = {}
    for g in _master_positions(3, 24):
        for ft in (0, search.SEARCH_PVS, search.SEARCH_LMR, 3):
            for tt, nodes in ((1024, 1500), (0, 300)):
                e1, e2 = pair(tt)
                e1.features = e2.features = ft
                e1.think(g, 9, nodes=nodes)
                e2.think(g, 10, nodes=nodes)
                assert result(e1) == result(e2), (ft, tt, nodes, g.fen(), result(e1), result(e2))
                seen.setdefault(ft, []).append(result(e1))
    assert len(seen[0]) >= 8, len(seen[0])
    # every feature changes the search: the nodes of a 5-ply search (the engine's own)
    g = next(_master_positions(1, 24))
    visited = []
    for ft in (0, search.SEARCH_PVS, search.SEARCH_LMR, 3):
        e = Engine(tt_size=1024)
        e.features = ft
        e.think(g, 9, depth=5)
        visited.append((e.best_move, e.score, e.nodes))
    # (PVS changes the nodes, not the 5-ply value; reductions save nearly half of them)
    assert visited == [(5, 32, 953), (5, 32, 923), (5, 32, 513), (5, 32, 530)], visited
    # the first position's answers (game 1 at ply 24, with the table): all off, all on
    assert (seen[0][0], seen[3][0]) == ((5, 32, 1500, 5), (5, 32, 1500, 5)), (seen[0][0], seen[3][0])
