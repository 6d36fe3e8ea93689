"""Museum mode on the real app (an in-process rig, docs/museum.md): the staff gesture,
locked mode, idle games abandoned, the resume policy. Apart from test_app.py: one subject a module."""
import gc

from fakeflash import FakeFs
from apprig import Rig, _first_half, _play_tihbat
from playboard.app.state import MENU_START, MENU_GAME, MENU_MODE, MENU_LEVEL
from playboard.record import Store


def _staff_gesture(r, hold=3200):
    """The staff gesture on the simulated board: the four corner pits held together
    ``hold`` ms, let go, held again ``hold`` ms, let go."""
    from playboard.app.state import STAFF_CORNERS
    sens = [r.sensor("toguz", c) for c in STAFF_CORNERS]
    for _ in range(2):
        for s in sens:
            r.hw.set_sensor(s, 1)
            r.adv(120)
        r.adv(hold)
        for s in sens:
            r.hw.set_sensor(s, 0)
            r.adv(120)
        r.adv(400)


def test_staff_gesture_opens_the_staff_menu_not_a_short_one_nor_with_another_pit():
    r = Rig()
    r.adv(50)
    _staff_gesture(r, 2000)  # held too briefly
    assert r.app.state == 0 and "staff" not in r.kinds()
    from playboard.app.state import STAFF_CORNERS
    from playboard.app.staff import STAFF_BRIGHT, STAFF_UNLOCK, STAFF_EXIT
    r.adv(6000)
    sens = [r.sensor("toguz", c) for c in STAFF_CORNERS]
    for k in range(2):  # the gesture with a fifth pit touched during its second hold
        for s in sens:
            r.hw.set_sensor(s, 1)
        r.adv(1500)
        if k:
            r.tap("toguz", 4, 200)
        r.adv(2000)
        for s in sens:
            r.hw.set_sensor(s, 0)
        r.adv(500)
    r.adv(6000)
    assert r.app.state == 0 and "staff" not in r.kinds()
    assert (r.app.game_name, r.app.mode) == ("toguz", "two")  # no menu choice either
    _staff_gesture(r)
    assert r.app.state == 5 and ("staff", {"open": True}) in r.events
    # brightness: North pit 3 (the third step), kept on flash
    r.press("toguz", STAFF_BRIGHT[2])
    assert r.app.settings["brightness"] == 32 and r.store.load_settings({})["brightness"] == 32
    # locked mode: the link refuses until the staff unlock it here
    r.app.settings["locked"] = True
    from playboard.settings import link_locked
    assert link_locked(r.app.settings, r.app)
    r.press("toguz", STAFF_UNLOCK)
    assert not link_locked(r.app.settings, r.app) and ("staff", {"unlocked": True}) in r.events
    r.press("toguz", STAFF_EXIT)
    assert r.app.state == 0
    # left alone, the staff menu closes by itself
    _staff_gesture(r)
    assert r.app.state == 5
    r.adv(61000)
    assert r.app.state == 0


def test_locked_mode_offers_only_the_allowed_games_modes_and_levels():
    r = Rig()
    r.app.settings.update({"locked": True, "games": ["tihbat"], "modes": ["two", "white"],
                           "max_level": 3})
    r.app.link_settings({"locked": True})
    assert (r.app.game_name, r.app.mode, r.app.level) == ("tihbat", "two", 3)
    r.adv(50)
    r.press("toguz", MENU_GAME[0])  # Toguz Kumalak: not offered
    r.press("toguz", MENU_MODE[3])  # demo: not offered
    assert (r.app.game_name, r.app.mode) == ("tihbat", "two")
    r.press("toguz", MENU_MODE[1])  # against the engine
    r.press("toguz", MENU_LEVEL[6])  # level 7: above max_level
    assert r.app.mode == "white" and r.app.level == 3
    r.press("toguz", MENU_LEVEL[1])
    assert r.app.level == 2
    lay = r.app.menu_lay
    lit = r.lit()
    assert lay.led_of(MENU_GAME[0]) not in lit and lay.led_of(MENU_GAME[3]) in lit
    assert lay.led_of(MENU_LEVEL[5]) not in lit
    r.press("toguz", MENU_START)
    assert r.app.state == 2 and r.app.game.name == "tihbat" and r.app.mode == "white"


def test_a_game_left_alone_is_recorded_abandoned_and_the_board_attracts_again():
    r = Rig()
    r.app.settings["idle_s"] = 30
    r.app.link_set_game({"game": "tihbat", "mode": "two"})
    r.begun()
    _play_tihbat(r, [0])
    r.adv(25000)
    assert r.app.state == 2  # not yet
    _play_tihbat(r, [1])  # a move restarts the wait (its last touch 3 s ago)
    r.adv(25000)
    assert r.app.state == 2
    r.adv(3000)
    assert r.app.state == 4 and "abandoned" in r.kinds()
    rec = r.store.read(1)
    assert rec.finished and rec.result == "*" and rec.termination == "abandoned"
    assert len(rec.moves) == 2 and r.store.current is None
    r.hw.set_sensor(r.sensor("tobit", 1), 1)  # a visitor: the menu again
    r.adv(100)
    assert r.app.state == 0


def test_resume_never_closes_the_unfinished_game_as_abandoned_at_power_up():
    fs = FakeFs()
    played, fen = _first_half(fs)
    gc.collect()
    st = Store("/games", fs=fs)
    s = st.load_settings({})
    s["resume"] = "never"
    assert st.save_settings(s)
    r2 = Rig(fs)
    r2.adv(20)
    assert r2.app.state == 0 and r2.app.game is None
    rec = r2.store.read(1)
    assert rec.finished and rec.termination == "abandoned" and rec.moves == played


def _at(h, m, year=2026):
    return lambda: (year, 12, 1, h, m, 0, 1, 335)


def test_outside_the_opening_hours_the_board_is_dark_and_starts_nothing():
    r = Rig()
    r.adv(50)
    clock = [_at(8, 59)]
    r.app.wallclock = lambda: clock[0]()
    r.app.settings["hours"] = "09:00-17:30"
    r.app.link_settings({"hours": "09:00-17:30"})
    r.adv(100)
    assert r.app.closed and r.app.state == 4 and r.app.lights.brightness == 0
    assert ("hours", {"open": False, "hours": "09:00-17:30"}) in r.events  # (the page says until when)
    r.adv(2000)
    assert r.lit() == []  # dark, attract or not
    r.press("toguz", MENU_START)  # a visitor's press starts nothing
    r.press("toguz", MENU_START)
    assert r.app.state == 4 and r.app.game is None and r.store.count == 0
    clock[0] = _at(9, 0)  # opening time: the menu lit again within HOURS_MS
    r.adv(30000)
    assert not r.app.closed and r.app.state == 0 and r.lit()
    assert r.app.lights.brightness == 48
    r.press("toguz", MENU_START)
    assert r.app.state == 2 and r.app.game is not None
    clock[0] = _at(17, 30)  # closing time with a game in play: it goes on
    r.adv(31000)
    assert not r.app.closed and r.app.state == 2
    clock[0] = _at(1, 0, year=2021)  # a power cut: the clock not set counts as open
    r.app.open_menu(r.t)
    r.adv(31000)
    assert not r.app.closed and r.app.state == 0


def test_opening_hours_past_midnight_and_the_brightness_cap():
    r = Rig()
    r.adv(50)
    r.app.wallclock = _at(23, 0)
    r.app.settings.update({"hours": "18:00-02:00", "brightness": 200, "max_brightness": 60})
    r.app.link_settings({"hours": 1, "brightness": 1})
    r.adv(100)
    assert not r.app.closed and r.app.lights.brightness == 60  # under the cap
    r.app.wallclock = _at(2, 0)
    r.adv(30000)
    assert r.app.closed and r.app.lights.brightness == 0
    r.app.settings["max_brightness"] = 255
    r.app.wallclock = _at(17, 59)
    r.adv(30000)
    assert r.app.closed
    r.app.wallclock = _at(18, 0)
    r.adv(30000)
    assert not r.app.closed and r.app.lights.brightness == 200


def test_staff_menu_clears_only_the_synced_games_and_calibrates_only_a_hall_board():
    r = Rig()
    st = r.store
    ids = []
    for k in range(3):  # three finished games, the first two synced by the host
        gid = st.new_game("toguz")
        st.add_move("1(3)")
        st.finish("1-0", "resigned")
        ids.append(gid)
    assert st.ack(ids[0]) and st.ack(ids[1])
    assert (st.synced, st.count) == (2, 1)
    r.adv(50)
    _staff_gesture(r)
    assert r.app.state == 5
    from playboard.app.staff import STAFF_CLEAR, STAFF_CALIBRATE, STAFF_EXIT
    # one press arms it (the pit blinks), a second too late clears nothing
    r.press("toguz", STAFF_CLEAR)
    assert ("staff", {"clear": "armed"}) in r.events and st.synced == 2
    r.adv(3500)
    r.press("toguz", STAFF_CLEAR)
    assert st.synced == 2 and not any(f and "cleared" in f for k, f in r.events)
    r.press("toguz", STAFF_CLEAR)  # the second within 3 s: cleared
    assert ("staff", {"cleared": 2, "synced": 0, "games": 1}) in r.events
    names = sorted(n for n, size in st.fs.ilistdir("/games") if n.endswith(".rec"))
    assert names == ["g%d.rec" % ids[2]], names  # the game not yet synced stays
    assert st.read(ids[2]).moves == ["1(3)"]
    # calibration: the simulated board's reed switches need none (said, nothing started)
    r.press("toguz", STAFF_CALIBRATE)
    ev = [f["calibrate"] for k, f in r.events if k == "staff" and f and "calibrate" in f]
    assert ev and "need no calibration" in ev[-1] and r.app.check is None and r.app.state == 5
    # a hall board (the simulated one given a hall board's calibration hooks, readings
    # at zero field): the guided calibration runs in place of the menu, saves, then the menu
    hw = r.app.hw
    saved = []
    hw.last = [19859] * hw.n_sensors
    hw.ZERO_LO, hw.ZERO_HI = 17873, 22838
    hw.set_zero = lambda mean, spread, noise_factor=4, only=None: []
    hw.save_calibration = lambda path=None: saved.append(1)
    r.press("toguz", STAFF_CALIBRATE)
    assert r.app.check is not None and r.app.check[0] == "calibrate", r.app.check
    assert ("staff", {"calibrate": True}) in r.events
    r.adv(12000)
    assert saved == [1] and r.app.check is None and r.app.state == 0
    assert r.app.check_result["check"] == "calibrate" and r.app.check_result["pass"]


def test_an_idle_game_whose_menu_code_cannot_load_beside_it_is_abandoned_all_the_same():
    # issue 14's soak: in play the menu's code (app/ui) did not load beside a game's
    # (a MemoryError each frame: 20,938 in 30 days), so the idle game was never
    # abandoned; the game's objects now go first, then the menu's code loads, its
    # length kept
    r = Rig()
    r.app.settings["idle_s"] = 30
    r.app.link_set_game({"game": "tihbat", "mode": "two"})
    r.begun()
    _play_tihbat(r, [0])
    real = r.app._ui
    fails = []

    def ui_short_of_heap():
        if r.app.game is not None:  # no room beside the game
            fails.append(r.t)
            raise MemoryError("memory allocation failed, allocating 752 bytes")
        return real()

    r.app._ui = ui_short_of_heap
    r.adv(34000)
    assert fails == [] and r.app.state == 4, (fails, r.app.state)  # attract, never beside the game
    assert r.app.memory_errors == 0 and r.app.tracker is None
    ab = [f for k, f in r.events if k == "abandoned"]
    assert ab == [{"ply": 1}], ab
    rec = r.store.read(1)
    assert rec.finished and rec.termination == "abandoned" and len(rec.moves) == 1
