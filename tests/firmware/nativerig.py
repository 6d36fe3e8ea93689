"""What the native searches' tests share (test_engine_native.py for Tobit,
test_engine_toguz_native.py for Toguz Kumalak): engines in pairs, the engine's own
search and the native one, their results side by side, and the slices, stop and time
budget checks both searches must pass alike.

Runs under CPython (pytest) and MicroPython (tests/mp_runner.py).
"""
import gc

from playboard.engine.search import Engine
from playboard.games.registry import new_game

import tlib


def native(e):
    """``e`` with its native search on (``Engine.native``)."""
    e.native = True
    return e


def pair(tt):
    """(the engine's own search, the native one), each with a table of ``tt`` entries."""
    gc.collect()
    return Engine(tt_size=tt), native(Engine(tt_size=tt))


def result(e):
    """What a search found: (best move, score, nodes, depth)."""
    return (e.best_move, e.score, e.nodes, e.depth)


def check_slices_stop_and_time_budgets(name, level, native_level):
    """A random game of ``name`` (at ply 8): the native search at ``native_level`` in
    slices of 7 nodes finds what the engine's own search finds at ``level`` in one
    go (the same nodes: both levels search the whole budget); stopped mid-search it
    is done at once with a legal move; a time budget on an injected clock (1 ms a
    look) ends it, and a budget of no time visits no node (the first legal move)."""
    g = next(tlib.random_games(lambda: new_game(name), 1, 8, most=30))
    e1, e2 = pair(256)
    e1.think(g, level, nodes=900)
    e2.start(g, native_level, nodes=900)
    steps = 0
    while not e2.step(nodes=7):  # one slice a frame
        steps += 1
    assert result(e1) == result(e2) and steps == 900 // 7
    # stopped mid-search: done at once, a legal move kept
    e1 = e2 = None
    e3 = native(Engine(tt_size=256))
    e3.start(g, native_level, nodes=5000)
    e3.step(nodes=300)
    e3.stop()
    assert e3.done and e3.stopped and e3.step() and e3.nodes == 300
    assert e3.best_move in g.legal_moves()
    # a time budget on an injected clock: 1 ms a look at the clock
    t = [0]

    def clock():
        t[0] += 1
        return t[0]

    e3 = None
    e4 = native(Engine(tt_size=256, clock=clock))
    e4.think(g, native_level, ms=40)
    assert e4.done and 0 < e4.nodes and e4.best_move in g.legal_moves()
    # the clock read before the first node, as the engine's own search reads it: no time,
    # no node, the first legal move
    e4.think(g, native_level, ms=0)
    assert (e4.nodes, e4.best_move) == (0, g.legal_moves()[0])
