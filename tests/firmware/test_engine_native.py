"""The native Tobit search (playboard.engine.tobit_native) against the
engine's own search (playboard.engine.search, ``Engine.native = False``): the same
moves in the same order, and the same move, score, nodes and depth from every search.

Runs under CPython (pytest; the viper code as plain Python) and MicroPython
(tests/mp_runner.py; the viper code native, as on the RP2040).
"""
from playboard.engine.evaluation import for_game
from playboard.engine.evaluation_native import _tobit_eval
from playboard.engine.search import Engine
from playboard.engine import tobit_native
from playboard.games.registry import new_game

import tlib
from nativerig import native, pair, result, check_slices_stop_and_time_budgets

TOBITS = ("tobit", "tobit4")


def _native_moves(g, ts):
    """(moves, order keys) as the native generator gives them for ``g``."""
    n = tobit_native._gen(g.board, g._geo, g.turn + 1, ts.pool, 0, ts.mo, ts.mk, 0, ts.fr)
    moves = [bytes(ts.pool[ts.mo[i] + 1:ts.mo[i] + 1 + ts.pool[ts.mo[i]]]) for i in range(n)]
    return moves, [ts.mk[i] for i in range(n)]


def _scattered(name, count, seed):
    """``count`` games of ``name`` set up with men and tobits scattered at random (a
    seeded linear congruential draw; no man on its own far row; at most 2L + 2 pieces
    a side, as set_fen allows: RULES.md 2.3): positions rich in the long captures of
    tobits that games between random movers seldom reach."""
    x = seed
    for _ in range(count):
        g = new_game(name)
        n, top, most = g.n_points, g.T + 1, 2 * g.L + 2
        side = ([], [])
        for p in range(1, n + 1):
            x = (x * 1103515245 + 12345) & 0x3FFFFFFF
            r = (x >> 8) % 100
            y = g.xy(p)[1]
            if r < 12 and y != top and len(side[0]) < most:
                side[0].append(str(p))
            elif r < 24 and y != 0 and len(side[1]) < most:
                side[1].append(str(p))
            elif r < 29 and len(side[0]) < most:
                side[0].append("K%d" % p)
            elif r < 34 and len(side[1]) < most:
                side[1].append("K%d" % p)
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        yield new_game(name, "%s:W%s:B%s" % ("WB"[(x >> 8) & 1], ",".join(side[0]), ",".join(side[1])))


def _positions(name):
    for g in tlib.random_games(lambda: new_game(name), 100, 11, most=120):
        yield g
    for g in _scattered(name, 150, 12):
        yield g


def test_the_native_moves_are_the_rules_cores_moves_in_their_order():
    ts = tobit_native.TobitSearch()
    seen = {"capture": 0, "quiet": 0, "tobit capture": 0, "long capture": 0}
    for name in TOBITS:
        ev = for_game(name)
        for g in _positions(name):
            if g.is_game_over():
                continue
            want = g.legal_moves()
            moves, keys = _native_moves(g, ts)
            assert moves == want, (name, g.fen())
            assert keys == [ev.order(g, m) for m in want], (name, g.fen())
            v = _tobit_eval(g.board, g._geo, g.st, 1)  # the horizon's question, in the evaluation's pass
            assert (v < 30000) == g.quiet() and (v == 32767) == (want[0][0] == 1), (name, g.fen())
            assert v == 32767 or v == ev.evaluate(g), (name, g.fen())
            if want[0][0] == 1:
                seen["capture"] += 1
                seen["tobit capture"] += any(g.board[m[1]] & 4 for m in want)
                seen["long capture"] += any(len(m) > 4 for m in want)
            else:
                seen["quiet"] += 1
    # the positions were of every kind (a test that meets only quiet moves proves little)
    assert (seen["capture"] >= 200 and seen["quiet"] >= 100 and seen["tobit capture"] >= 100
            and seen["long capture"] >= 10), seen


def test_the_native_search_finds_what_the_engine_finds_at_equal_nodes():
    for tt in (256, 0):
        for name in TOBITS:
            for g in tlib.random_games(lambda: new_game(name), 12, 5 + tt, most=90):
                if len(g.legal_moves()) < 2:
                    continue
                # equal nodes: a level of each's table (TOBIT_LEVELS, TOBIT_NATIVE_LEVELS)
                # with the same nodes after its share: 11 and 13 the whole budget, 10 a
                # half, 12 a third
                for level, nodes, level2, nodes2 in ((11, 600, 13, 600), (10, 1500, 12, 2250)):
                    e1 = e2 = None
                    e1, e2 = pair(tt)
                    e1.think(g, level, nodes=nodes)
                    e2.think(g, level2, nodes=nodes2)
                    assert e2._ts.kk[41] == e2.nodes  # (the native search ran)
                    assert result(e1) == result(e2), (name, tt, level, g.fen())
                    assert e2._ts.s[380] == 0  # every move list fitted (_OVER)


def test_whole_games_played_alike_with_the_table_kept_between_moves():
    # each side's engine keeps its table from move to move, as in play; the games run
    # into the endgame, where tobits shuttle and the repetition rule (and the keys of
    # positions before the native search's snapshots) decide
    ends = []
    for name, fen in (("tobit4", None), ("tobit", None), ("tobit", "W:W15,K32:BK23"),
                      ("tobit4", "W:WK21:BK7,K25")):
        g = new_game(name, fen) if fen else next(tlib.random_games(lambda: new_game(name), 1, 3, most=4))
        e1 = e2 = None
        e1, e2 = pair(256)
        while not g.is_game_over() and g.ply < 240:  # (the native search's key window)
            e1.start(g, 11, nodes=250, copy=False)  # (no copy of a long game: the heap)
            while not e1.step():
                pass
            e2.think(g, 13, nodes=250)  # (the native table's top: the whole budget, as 11's)
            assert result(e1) == result(e2), (name, g.ply, g.fen())
            g.push(e1.best_move)
        ends.append((g.termination, g.ply))
    assert ends == [("repetition", 13), ("no piece or no legal move", 97), (None, 240),
                    ("repetition", 213)], ends


def test_slices_stop_and_time_budgets():
    check_slices_stop_and_time_budgets('tobit', 11, 13)


def test_the_native_search_shares_the_engines_bounds():
    from playboard.engine import search
    if not hasattr(tobit_native, "_P"):  # MicroPython: consts are not the module's names
        return
    assert (tobit_native._P, tobit_native._WIN, tobit_native._INF, tobit_native._WB) == (
        search.MAX_PLY + 1, search.WIN, search.INF, search._WIN_BOUND)
