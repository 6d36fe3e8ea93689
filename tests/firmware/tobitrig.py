"""The Tobit 4x4 game on the in-process rig, for the Tobit app tests (under CPython and
under the simulator's model of the chip: the firmware's code in ROM leaves the rig room
beside the harness)."""


def tobit_rig(mode="two", level=3, settle=True):
    """A Rig playing Tobit 4x4 in ``mode`` at ``level``, its start position stood on the
    sensors; with ``settle`` the board has accepted it (play, 600 ms later). Returns
    (rig, game, layout)."""
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
