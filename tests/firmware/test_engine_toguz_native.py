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
    e2.think(g, 9, nodes=nodes)  # (the native table's top: the whole budget, as 9's)
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
    # the first position's answer, a known value (game 1 at ply 12, South to move)
    assert seen[0] == (4, -10, 1200, 4), seen[0]


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
        e2.think(g, 9, nodes=200)
        assert result(e1) == result(e2), (g.ply, g.fen())
        g.push(e1.best_move)
    assert (g.result(), g.ply) == ("1-0", 105), (g.result(), g.ply)


def test_slices_stop_and_time_budgets():
    check_slices_stop_and_time_budgets('toguz', 9, 9)


def test_the_native_levels():
    from playboard.engine import search

    # (the module as imported now: a test before may have loaded it again)
    t = search.levels_of("toguz", True)
    assert t[:8] == search.LEVELS[:8] and len(t) == len(search.LEVELS)
    assert t[9] == search.LEVELS[9] and t[8][2] == 7 and t[8][0] == search.MAX_PLY - 1
    assert search.levels_of("tihbat", True) == search.LEVELS and search.levels_of("toguz") == search.LEVELS
    # a level with a depth cap searches with the engine's own loop on a native engine
    g = new_game("toguz")
    e = native(Engine(tt_size=256))
    e.think(g, 7, nodes=2000)
    assert getattr(e, "_tgs", None) is None
    if hasattr(toguz_native, "_P"):  # (MicroPython: consts are not the module's names;
        # the loop's bounds are tobit_native's: test_engine_native.py)
        assert toguz_native._P == search.MAX_PLY + 1
