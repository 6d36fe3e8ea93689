"""The engine's search in the app's frames (issue 12): the frame that starts a search
does not step it, the next one collects the heap instead, then a planned collection
takes a frame of its own every ``_SLICES`` slices (Tobit: ``_SLICES_TOBIT``), so a
collection the heap asks for never lands inside a slice (on the RP2040 a slice plus
a collection was the longest frame while the engine thinks: docs/pico.md)."""
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
