"""The engine's search in the app's frames (issue 12): the frame that starts a search
does not step it, the next one collects the heap instead, then a planned collection
takes a frame of its own every ``_SLICES`` slices (Tobit: ``_SLICES_TOBIT``), so a
collection the heap asks for never lands inside a slice (on the RP2040 a slice plus
a collection was the longest frame while the engine thinks: docs/pico.md); and a slice
is 1 ms shorter while the thinking frames ran over their mean's target (issue 35)."""
import gc

from tlib import SkipTest, is_micropython

from apprig import Rig
import playboard.app.loop as L


class _Log:
    """Stands in for the loop module's ``gc``: counts its collections."""

    def __init__(self):
        self.n = 0

    def collect(self):
        self.n += 1
        gc.collect()


def _frames_of_a_search(r, n_frames):
    """Run frames from the game's first frame of play: [(thinking, collected,
    stepped)] per frame, with Engine.step and the loop's gc counted."""
    from playboard.engine.search import Engine
    real = Engine.step
    steps = [0]

    def counted(self, *a, **kw):
        steps[0] += 1
        real(self, *a, **kw)
        return False  # a search that spans every frame here

    log = _Log()
    Engine.step = counted
    L.gc = log
    out = []
    try:
        for _ in range(n_frames):
            c, s = log.n, steps[0]
            r.adv(10)
            out.append((r.app.thinking, log.n - c, steps[0] - s))
    finally:
        Engine.step = real
        L.gc = gc
    return out


def _check(frames, every):
    k = [t for t, _, _ in frames].index(True)
    assert frames[k] == (True, 0, 0), frames[k]  # the search started: nothing more
    assert frames[k + 1] == (True, 1, 0), frames[k + 1]  # its collection, no slice
    run = frames[k + 2:k + 2 + every]
    assert run == [(True, 0, 1)] * every, run  # the slices
    assert frames[k + 2 + every] == (True, 1, 0)  # the next planned collection
    assert frames[k + 3 + every:k + 3 + 2 * every] == [(True, 0, 1)] * every


def test_toguz_search_collects_in_frames_of_its_own_every_32_slices():
    r = Rig()
    r.app.link_set_game({"game": "toguz", "mode": "black", "level": 3})  # the engine: White
    while r.app._pending is not None:  # begun (a step a frame); the search not yet
        r.adv(10)
    _check(_frames_of_a_search(r, 80), 32)


def test_tobit_search_collects_every_8_slices():
    if is_micropython():
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    r = Rig()
    r.app.link_set_game({"game": "tobit4", "mode": "black", "level": 3})  # the engine: White
    while r.app._pending is not None:
        r.adv(10)
    g = r.app.game
    lay = r.app.lay
    for p in range(1, g.n_points + 1):  # the pieces put on their points: set-up done
        if g.board[p]:
            r.hw.set_sensor(lay.sensor_of(p), 1)
    _check(_frames_of_a_search(r, 80), 8)


def test_slices_are_1_ms_shorter_while_the_thinking_frames_ran_over():
    # issue 35: the thinking frames' mean within 10 ms: the app adds up what each ran
    # over L._FRAME_US and steps 1 ms less while that is above zero (the device clock's
    # us stand in here: a slice's frame takes what the list says)
    r = Rig()
    r.app.link_set_game({"game": "toguz", "mode": "black", "level": 3})  # the engine: White
    while r.app._pending is not None:
        r.adv(10)
    r.app.think = "ms"
    from playboard.engine.search import Engine
    real_step, real_us = Engine.step, L.ticks_us
    t = [0]
    f = getattr(L, "_FRAME_US", 9600)  # (MicroPython: consts are not the module's names)
    took = [f + 3400, f - 600, f - 600, f - 600, f + 500, f - 1000]
    got = []

    def step(self, nodes=None, ms=None):
        got.append(ms)
        t[0] += took[len(got) - 1]
        return False

    Engine.step = step
    L.ticks_us = lambda: t[0]
    try:
        while len(got) < len(took):
            r.adv(10)
    finally:
        Engine.step = real_step
        L.ticks_us = real_us
    # the start's and the collection's frames (no time here) leave the most credit kept,
    # 2 ms: the first slice 8 ms; 3.4 ms over, 1.4 in all: 7 ms until it is paid back
    # (-0.4), 8 ms then, 0.5 over (+0.1 in all): 7 ms again
    assert got == [8, 7, 7, 7, 8, 7], got
    assert r.app._over == -900, r.app._over
