"""The app on the in-process rig (and under the simulator's model, tests/test_micropython.py) with faulty sensors
and selections that go wrong in Toguz Kumalak: a pit chattering at 5 Hz is isolated
and the sowing view still confirms; two pits at once play nothing (docs/tracker.md).
A module apart from test_app.py: under MicroPython a test module's code shares the heap."""
from apprig import Rig


def test_a_chattering_pit_is_isolated_and_the_sowing_view_still_confirms():
    # a weak magnet under Toguz North pit 5 flips every 100 ms (5 Hz) while South plays
    r = Rig()
    r.app.link_set_game({"game": "toguz", "mode": "two"})
    r.begun()
    s = r.sensor("toguz", 13)
    v = 1
    t_end = r.t + 7000
    k = 0
    while r.t < t_end:
        r.hw.set_sensor(s, v)
        v = 1 - v
        if k == 12:  # 1.2 s in: South lifts pit 4 (a human hold, with bounce)
            s4 = r.sensor("toguz", 3)
            r.hw.set_sensor(s4, 1)
            r.adv(3)
            r.hw.set_sensor(s4, 0)
            r.adv(3)
            r.hw.set_sensor(s4, 1)
            r.adv(94)
        elif k == 16:
            r.hw.set_sensor(r.sensor("toguz", 3), 0)
            r.adv(100)
        else:
            r.adv(100)
        k += 1
    faults = [f for kind, f in r.events if kind == "fault"]
    assert faults == [{"sensor": s, "fault": 1}], faults
    assert r.app.tracker.request.fault[13] == 1
    assert r.app.game.ply == 1 and r.app.tracker.request.mode == 7  # confirmed: choose
    assert "resolved" not in r.kinds()
    r.hw.set_sensor(s, 0)
    r.adv(2100)  # quiet recover_ms: trusted again by itself
    assert [f for kind, f in r.events if kind == "fault"][-1] == {"sensor": s, "fault": 0}
    assert r.app.tracker.request.fault[13] == 0 and r.app.game.ply == 1


def test_two_pits_at_once_play_nothing_and_flash_both():
    r = Rig()
    r.app.link_set_game({"game": "toguz", "mode": "two"})
    r.begun()
    a, b = r.sensor("toguz", 2), r.sensor("toguz", 6)
    r.hw.set_sensor(a, 1)
    r.adv(30)
    r.hw.set_sensor(b, 1)
    r.adv(250)
    r.hw.set_sensor(b, 0)  # let go of the higher one first
    r.adv(20)
    r.hw.set_sensor(a, 0)
    r.adv(100 + 400)  # (a lift counts once it has held lift_ms)
    errs = sorted((f["cell"], f["why"]) for kind, f in r.events if kind == "error")
    assert errs == [(2, 3), (6, 3)], r.events
    assert r.app.game.ply == 0 and r.store.read(1).moves == []
    roles = r.app.tracker.request.roles
    assert roles[2] == roles[6] == 16  # R_ERROR


def test_a_game_whose_isolation_cannot_load_goes_on_and_is_abandoned_when_left():
    """A pit turns faulty in play and the isolation's code (playboard.board.isolate,
    loaded then) meets a MemoryError (the soak: the names' pool unable to grow). Each
    frame used to load it again and end there: 100 errors a second, and the rest of
    the frame (lights, records, ``idle_s``) never reached, the game never left. Now it
    is tried again a second later and the frames go on meanwhile."""
    import sys
    from playboard.compat import unload
    r = Rig()
    r.app.settings["idle_s"] = 30
    r.app.link_set_game({"game": "toguz", "mode": "two"})
    r.begun()
    unload("playboard.board.isolate")

    class NoRoom:
        def isolate(self, *a):
            raise MemoryError
    sys.modules["playboard.board.isolate"] = NoRoom()
    try:
        s = r.sensor("toguz", 13)
        for k in range(100):  # a loose wire: faulty (chatter), then it rests, still faulty
            r.hw.set_sensor(s, k & 1)
            r.adv(10)
        e0 = r.app.memory_errors
        r.adv(1900)  # faulty till quiet 2 s
        assert 1 <= r.app.memory_errors - e0 <= 3, r.app.memory_errors - e0
        for k in range(100):  # and again, for long
            r.hw.set_sensor(s, k & 1)
            r.adv(10)
        r.adv(35000)
        assert "abandoned" in r.kinds() and r.app.state != 2  # (S_PLAY)
    finally:
        del sys.modules["playboard.board.isolate"]
