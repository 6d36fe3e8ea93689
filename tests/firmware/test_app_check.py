"""The builder's checks in the app (playboard.app.check): the self-test and the guided
hall calibration from the link's C request and at first boot; the board file's
brightness under the user's. A module of its own: test_app's heap stays as it was."""
import gc
import sys

from fakeflash import FakeFs
from tlib import raises

from apprig import Rig, _cfg  # the rig (it puts the compiled firmware first on the path under MicroPython)
from playboard.app.loop import App
from playboard.sim.open import open_board
from playboard.record import Store


def test_brightness_user_setting_over_board_file_over_default():
    # docs/hardware.md: a brightness the user saved > the board file's leds.brightness >
    # the firmware's default (48)
    from playboard.link import Link
    cfg = dict(_cfg())
    leds = dict(cfg["leds"])
    cfg["leds"] = leds
    fs = FakeFs()

    def app():
        st = Store("/games", fs=fs)
        return App(open_board(cfg), cfg, st, think="nodes", tt_size=64, clock=lambda: 0), st

    a, st = app()
    assert leds["brightness"] is None and a.lights.brightness == 48     # sim.json sets none
    leds["brightness"] = 120
    a, st = app()
    assert a.lights.brightness == 120
    lk = Link(None, st, app=a, settings=a.settings)
    lk._write_settings({"level": 5})            # the user changed another setting
    a, st = app()
    assert a.lights.brightness == 120 and a.settings["level"] == 5
    lk = Link(None, st, app=a, settings=a.settings)
    lk._write_settings({"brightness": 30})
    assert a.lights.brightness == 30
    leds["brightness"] = 200                     # a new board file does not override the user
    a, st = app()
    assert a.lights.brightness == 30


def test_self_test_from_the_link_judges_every_sensor():
    # docs/protocol.md G {"check": ...}: run the self-test instead of play; a stuck, a
    # dead and a chattering sensor are named, the others pass after a piece visited each
    from playboard.link import Link
    r = Rig()
    a = r.app
    lk = Link(None, r.store, app=a, settings=a.settings)
    ask = lk._set_game
    status = {"check": "status"}
    assert ask(status) == {"idle": True}
    for bad, why in (({"check": "dance"}, "no check 'dance'"),
                     ({"check": "selftest", "s": 2}, "5..600"),
                     ({"check": "status", "s": 9}, "s goes with a check to start"),
                     ({"check": "selftest", "x": 1}, "check takes only s"),
                     ({"check": 3}, "a check's name"),
                     ({"check": "calibrate"}, "need no calibration")):
        e = raises(ValueError, ask, bad)
        assert why in str(e), (bad, e)
    assert a.check is None                           # nothing started by a refusal
    assert ask({"check": "selftest", "s": 10}) == {"running": "selftest", "phase": 0}
    assert "a selftest is running" in str(raises(ValueError, ask, {"check": "selftest"}))
    r.adv(58 * 120)                                   # the chase: one LED at a time
    assert len(r.lit()) <= 1
    lay = a.layouts
    mapped = sorted({lay[g].sensor_of(c) for g in lay for c in lay[g].cells} - {-1})
    assert len(mapped) == 56
    stuck, dead, noisy = mapped[0], mapped[1], mapped[2]
    r.hw.set_sensor(stuck, 1)
    r.adv(100)
    for s in mapped[3:]:                               # a piece put on and lifted off each
        r.hw.set_sensor(s, 1)
        r.adv(60)
        r.hw.set_sensor(s, 0)
        r.adv(40)
    for k in range(40):                                # a chattering reed
        r.hw.set_sensor(noisy, k & 1)
        r.adv(10)
    assert ask(status)["running"] == "selftest"
    r.adv(5000)                                        # the 10 s are over
    res = ask(status)
    assert res["check"] == "selftest" and res["pass"] is False
    assert res["stuck"] == [stuck] and res["dead"] == [dead] and res["noisy"] == [noisy]
    assert res["checked"] == 56 and res["ok"] == 53
    # the verdict on the LEDs: red above the stuck one, blue above the dead, the kazans red
    led = {s: None for s in (stuck, dead)}
    for g in lay:
        for c in lay[g].cells:
            if lay[g].sensor_of(c) in led:
                led[lay[g].sensor_of(c)] = lay[g].led_of(c)
    assert r.hw.shown_led(led[stuck])[0] > 0 and r.hw.shown_led(led[stuck])[1:] == (0, 0)
    assert r.hw.shown_led(led[dead])[:2] == (0, 0) and r.hw.shown_led(led[dead])[2] > 0
    r.hw.set_sensor(stuck, 0)
    r.adv(6000)                                        # then back to the menu
    assert a.check is None and a.state == 0 and "check" in r.kinds()
    assert ask(status)["pass"] is False                # the last result stays readable


def test_a_refused_request_leaves_the_checks_verdict_on_show():
    # the link's rule: a refused request changes nothing, the verdict of a finished
    # check included; an accepted one (a game, the next check) cuts it short
    from playboard.app.state import S_SETUP, S_PLAY
    from playboard.link import Link
    r = Rig()
    a = r.app
    lk = Link(None, r.store, app=a, settings=a.settings)
    ask = lk._set_game
    assert ask({"check": "selftest", "s": 5}) == {"running": "selftest", "phase": 0}
    r.adv(58 * 120 + 5200)                             # the chase, then 5 s: the verdict
    assert a.check is not None and a.check[2] >= 0     # on show
    shown = a.check[2]
    for bad, why in (({"level": 99}, "level must be"),
                     ({"mode": "dance"}, "unknown mode"),
                     ({"game": "chess"}, "unknown game"),
                     ({"start": "yes"}, "start takes true or false"),
                     ({"resign": 0}, "no game is being played"),
                     ({"draw": True, "game": "toguz"}, "take no other field"),
                     ({"check": "dance"}, "no check 'dance'"),
                     ({"check": "selftest", "s": 2}, "5..600"),
                     ({"check": "calibrate"}, "need no calibration")):
        e = raises(ValueError, ask, bad)
        assert why in str(e), (bad, e)
        assert a.check is not None and a.check[2] == shown, bad   # still on show
    r.adv(1000)
    assert a.check is not None                          # its 5 s are not over yet
    assert ask({"check": "selftest", "s": 5})["running"] == "selftest"   # the next check
    assert a.check[2] < 0
    r.adv(58 * 120 + 5200)
    assert a.check[2] >= 0
    out = ask({"game": "toguz", "mode": "two"})          # a game: the verdict cut short
    assert a.check is None and out["mode"] == "two", out
    r.begun()
    assert a.state in (S_SETUP, S_PLAY) and a.game_name == "toguz", a.state   # begun


class _HallOnSim:
    """A hall board made of the simulated board: analog readings from its sensors."""

    ZERO_LO = 17873
    ZERO_HI = 22838

    def __init__(self, hw, rest):
        self.hw = hw
        self.n_sensors = hw.n_sensors
        self.n_leds = hw.n_leds
        self.leds = hw.leds
        self.rest = rest
        self.last = [0] * hw.n_sensors
        self.calibrated = False
        self.saved = 0
        self.zero = [19859] * hw.n_sensors

    def read(self, buf):
        self.hw.read(buf)
        for s in range(self.n_sensors):
            self.last[s] = self.rest[s] + (9000 if buf[s] else 0)

    def set_zero(self, mean, spread, noise_factor=4, only=None):
        bad = []
        for s in range(self.n_sensors):
            if only is None or only[s]:
                if self.ZERO_LO <= mean[s] <= self.ZERO_HI:
                    self.zero[s] = mean[s]
                else:
                    bad.append(s)
        return bad

    def save_calibration(self, path=None):
        self.saved += 1
        self.calibrated = True

    def show(self):
        self.hw.show()

    def __getattr__(self, k):
        return getattr(self.hw, k)


def test_first_boot_of_a_hall_board_runs_the_guided_calibration():
    hw = open_board(_cfg())
    rest = [18000 + 37 * s for s in range(hw.n_sensors)]
    hall = _HallOnSim(hw, rest)
    hw.set_sensor(44, 1)                      # a piece left on the board
    t = [0]
    a = App(hall, _cfg(), Store("/games", fs=FakeFs()), think="nodes", tt_size=64,
            clock=lambda: t[0])
    a.start(0)                                 # the power-up: the calibration first
    assert a.check is not None and a.check[0] == "calibrate"
    raises(ValueError, a.link_set_game, {"game": "toguz", "start": True})  # no game over it
    assert a.link_status()["check"] == "calibrate" and a.game is None

    def adv(ms):
        end = t[0] + ms
        while t[0] < end:
            t[0] += 10
            hw.tick(t[0])
            a.frame(t[0])

    adv(3000)
    assert a.check_result is None              # waits for the clear board, the piece shown red
    lay = a.layouts["toguz"]
    led = lay.led_of(lay.cell_of_sensor(44))
    assert hw.shown_led(led)[0] > 0 and hw.shown_led(led)[1] == 0
    hw.set_sensor(44, 0)
    adv(2500)
    res = a.check_result
    assert res["check"] == "calibrate" and res["pass"] and res["bad"] == [] and res["checked"] == 56
    assert hall.saved == 1 and hall.zero[44] == rest[44] and hall.zero[0] == rest[0]
    adv(5100)
    assert a.check is None and a.state == 0   # the menu
    assert "playboard.app.check" not in sys.modules       # the check's code is dropped
    # the next boot finds it calibrated: no calibration
    a = None
    gc.collect()
    a2 = App(hall, _cfg(), Store("/games", fs=FakeFs()), think="nodes", tt_size=64,
             clock=lambda: 0)
    a2.start(0)
    assert a2.check is None and "playboard.app.check" not in sys.modules  # not even loaded


def test_first_boot_of_a_reed_board_loads_no_check():
    r = Rig()
    r.app.start(0)                            # reed switches: nothing to calibrate
    assert r.app.check is None and "playboard.app.check" not in sys.modules


def test_self_test_from_the_staff_menu_reports_on_leds_and_link():
    # the staff menu's self-test pit (pressed deliberately) runs the judged self-test
    # (playboard.app.check.start, docs/museum.md): the staff state is left for the
    # check, its verdict goes out as a "check" event and a press ends nothing
    from playboard.app import staff
    from playboard.app.state import S_STAFF
    r = Rig()
    a = r.app
    r.adv(200)
    staff.staff_open(a, a.now)
    assert a.state == S_STAFF
    r.press("toguz", staff.STAFF_TEST)
    assert a.check[0] == "selftest" and ("staff", {"selftest": True}) in r.events
    r.adv(58 * 120 + 30200)                    # the chase, then 30 s with nothing placed
    res = a.check_result
    assert res["check"] == "selftest" and res["pass"] is False and len(res["dead"]) == 56
    assert [f for k, f in r.events if k == "check"][-1] == res   # over the link
    r.adv(5100)
    assert a.check is None and a.state == 0    # back to the menu


def test_guided_test_from_the_link_names_crossed_wires_under_the_usb_cap():
    # docs/build.md step 6: G {"check": "guided"}: the board asks for one point at a
    # time (the link names it), then each colour; two crossed wires are named both ways
    from playboard.link import Link
    r = Rig()
    a = r.app
    lk = Link(None, r.store, app=a, settings=a.settings)
    ask = lk._set_game
    lay = a.layouts
    led_of = {}
    for g in lay:
        for c in lay[g].cells:
            s = lay[g].sensor_of(c)
            if s >= 0:
                led_of[s] = lay[g].led_of(c)
    s1, s2 = sorted(led_of)[4:6]
    wired = {s1: s2, s2: s1}                            # their wires crossed
    st = ask({"check": "guided", "s": 10})
    assert st["running"] == "guided" and st["phase"] == 0
    assert a.check[1].budget_ma == 390                  # the USB-only cap (pads.check_led_budget)
    r.adv(1600)
    answered = 0
    while True:
        st = ask({"check": "status"})
        if st.get("running") != "guided" or st["phase"] != 1:
            break
        t = st["target"]
        assert r.lit() == [led_of[t]]                   # the LED beside the point asked for
        r.hw.set_sensor(wired.get(t, t), 1)             # a White piece put there
        r.adv(700)
        r.hw.set_sensor(wired.get(t, t), 0)
        r.adv(500)
        answered += 1
    assert answered == 56 and st["phase"] == 2 and st["colour"] == "r"
    r.adv(3 * 15000 + 100)                              # every colour shown, none reported
    res = ask({"check": "status"})
    assert res["check"] == "guided" and res["pass"] is False
    assert res["swapped"] == [[s1, s2], [s2, s1]] and res["ok"] == 54 and res["dark"] == []
    assert a.check[1].max_ma <= 390
    r.adv(6000)
    assert a.check is None and "playboard.hw.guided" not in sys.modules
