"""The Tobit 4x4 game on the in-process rig, for the CPython-only Tobit app tests
(beside the test harness, compiled from source, the Tobit rig does not fit
MicroPython's 192 KB: tests/host/test_app_e2e.py plays Tobit there with the whole
firmware). Imported inside the tests, after their MicroPython check, so that a test
module run under MicroPython never loads it."""
from tlib import SkipTest, is_micropython


def skip_on_micropython():
    """SkipTest under MicroPython (see the module)."""
    if is_micropython():
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")


def tobit_rig(mode="two", level=3, settle=True):
    """A Rig playing Tobit 4x4 in ``mode`` at ``level``, its start position stood on the
    sensors; with ``settle`` the board has accepted it (play, 600 ms later). Returns
    (rig, game, layout). SkipTest under MicroPython."""
    skip_on_micropython()
    from apprig import Rig
    r = Rig()
    r.app.link_set_game({"game": "tobit4", "mode": mode, "level": level})
    r.begun()
    g = r.app.game
    lay = r.app.lay
    for p in range(1, g.n_points + 1):
        if g.board[p]:
            r.hw.set_sensor(lay.sensor_of(p), 1)
    if settle:
        r.adv(600)
        assert r.app.state == 2
    return r, g, lay


def play(r, lay, m, hold=150):
    """Move ``m``'s piece by hand: lifted, ``hold`` ms in the air, put down (no wait after)."""
    r.hw.set_sensor(lay.sensor_of(m[1]), 0)
    r.adv(hold)
    r.hw.set_sensor(lay.sensor_of(m[-1]), 1)
