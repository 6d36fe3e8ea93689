"""The native searches' step loop on the device's clock (``tobit_native.step``: the
nearer end read in ms once a slice, then followed in us, each run of the loop sized to
the time left at the search's us a node). The clocks here are stand-ins tied to the
search's nodes (100 us a node), put in the module's place of the device's clocks, so
that the slices' looks and ends are exact on any machine.

Runs under CPython (pytest) and MicroPython (tests/mp_runner.py).
"""
from playboard.engine import tobit_native as tn
from playboard.engine.search import Engine
from playboard.games.registry import new_game

import tlib
from nativerig import native, result

UPN = 100  # the stand-in clocks: us a node
TOP = 10  # Toguz Kumalak's top level on a native board: the whole budget


def _on_device_clocks(body):
    """Run ``body(engine, looks)`` with a native engine whose clock is the stand-in
    device ms clock (``tn._DEVICE_MS``), the us clock ``tn._US`` counting UPN us a
    node of that engine; ``looks``: the node limit of each run of the loop."""
    box = []
    at = [0, 0]  # us before the engine's nodes last went back to 0, its nodes then

    def us():
        n = box[0].nodes if box else 0
        if n < at[1]:  # a new search: the clock goes on
            at[0] += at[1] * UPN
        at[1] = n
        return at[0] + n * UPN

    def ms():
        return us() // 1000

    saved = tn._US, tn._US_DIFF, tn._DEVICE_MS
    tn._US, tn._US_DIFF, tn._DEVICE_MS = us, lambda a, b: a - b, ms
    try:
        e = native(Engine(tt_size=256, clock=ms))
        box.append(e)
        looks = []
        body(e, looks)
    finally:
        tn._US, tn._US_DIFF, tn._DEVICE_MS = saved


def _counted(e, looks):
    # the engine's native search, each run of its loop noted (the limit it was given)
    ts = e._native_search
    run = type(ts).run

    def counted(eng, lim):
        looks.append(lim)
        return run(ts, eng, lim)

    ts.run = counted


def _game():
    return next(tlib.random_games(lambda: new_game("toguz"), 1, 21, most=30))


def test_a_slice_on_the_device_clock_takes_three_looks_and_ends_within_it():
    def body(e, looks):
        g = _game()
        e.start(g, TOP, ms=2000)
        _counted(e, looks)
        assert not e.step(ms=8)
        # 16 nodes while the us a node is unknown, then three quarters of the time left
        # less a look (250 us) at 100 us a node: 46, then 11 (7.3 ms); then less than a
        # look and 4 nodes' time is left
        assert looks == [16, 62, 73], looks
        assert e.nodes == 73 and e._native_search._upn == UPN
        assert not e.step(ms=8)  # the next slice knows the us a node from its first look:
        assert looks[3:] == [73 + 58, 73 + 72, 73 + 76], looks  # 58, 14, 4 (7.6 ms)

    _on_device_clocks(body)


def test_the_budget_ends_on_the_device_clock_at_what_a_node_budget_finds():
    seen = []

    def body(e, looks):
        g = _game()
        e.start(g, TOP, ms=300)
        _counted(e, looks)
        while not e.step(ms=8):  # one slice a frame
            pass
        # 300 ms at 100 us a node: never past 3,000 nodes, and the end within 4 nodes
        # and a look of it
        assert e.done and 2990 <= e.nodes <= 3000, e.nodes
        seen.append(result(e))
        e.think(g, TOP, ms=0)  # no time: no node, the first legal move
        assert (e.nodes, e.best_move) == (0, g.legal_moves()[0])

    _on_device_clocks(body)
    # the same search as a node budget of those nodes: the loop stops at node counts
    e2 = native(Engine(tt_size=256))
    e2.think(_game(), TOP, nodes=seen[0][2])
    assert result(e2) == seen[0], (result(e2), seen[0])
