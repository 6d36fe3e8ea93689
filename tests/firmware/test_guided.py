"""The builder's checks under the LED current cap, the guided placement test
(playboard.hw.guided) finding crossed wires, an upside-down hall sensor and a dead LED
colour on the simulated board, and a timed-out calibration never saved."""
from playboard.board.layout import read_layout_file, boards_dir
from playboard.hw.ledcap import cap_leds
from playboard.hw.guided import GuidedTest, CLEAR, PLACE, COLOUR, DONE
from playboard.hw.selftest import SelfTest, sensor_leds
from playboard.hw.calibrate import GuidedCalibration
from playboard.sim.hw import SimBoard
from playboard.sim.faults import FaultyBoard
from tlib import raises

USB_CAP = 140          # a low USB-only cap (pico-matrix's under stock MicroPython's 250 mA)


def _layout():
    return read_layout_file(boards_dir() + "/layout_default.json")


def _est(hw, ma_per_led=60, idle_ma=1):
    """The LED current of the last frame shown, estimated as playboard.board.lights does."""
    return idle_ma * hw.n_leds + sum(hw.shown) * ma_per_led // 765


def test_cap_leds_scales_one_factor_within_the_budget():
    hw = SimBoard(4, 10)
    for j in range(30):
        hw.leds[j] = 255                      # full white: 10 x 60 mA
    assert cap_leds(hw.leds, 10, 2000) == 610 and hw.leds[0] == 255   # under: unchanged
    ma = cap_leds(hw.leds, 10, 140)
    assert ma <= 140 and 130 <= ma and hw.leds[0] == hw.leds[29] and hw.leds[0] < 60
    hw.leds[0] = 200
    hw.leds[1] = 0
    cap_leds(hw.leds, 10, 140)
    assert hw.leds[1] == 0                    # a dark channel stays dark
    raises(ValueError, cap_leds, hw.leds, 10, 10)


def test_self_test_and_calibration_stay_under_the_usb_cap():
    lay = _layout()
    hw = SimBoard(64, 58)
    sl = sensor_leds(lay, 64)
    st = SelfTest(hw, sl, step_ms=10, sense_ms=2000, budget_ma=USB_CAP)
    t = 0
    worst = 0
    while st.step(t) != 2:
        worst = max(worst, _est(hw))
        for s in range(64):                   # every sensor visited: the result all green
            hw.set_sensor(s, 1 if (t // 100) % 64 == s else 0)
        t += 20
    worst = max(worst, _est(hw))
    assert worst <= USB_CAP and st.max_ma <= USB_CAP and st.max_ma > 100, (worst, st.max_ma)
    # uncapped, the same result frame would draw more than USB's share
    st2 = SelfTest(hw, sl, step_ms=10, sense_ms=100, budget_ma=5000)
    t = 0
    while st2.step(t) != 2:
        t += 20
    assert st2.max_ma > USB_CAP

    class Hall(SimBoard):
        ZERO_LO = 17873
        ZERO_HI = 22838

        def __init__(self):
            SimBoard.__init__(self, 64, 58)
            self.last = [20000] * 64
            self.saved = 0

        def set_zero(self, mean, spread, noise_factor=4, only=None):
            return []

        def save_calibration(self):
            self.saved += 1
    h = Hall()
    cal = GuidedCalibration(h, sl, frames=2, quiet_ms=1000, timeout_ms=20000, budget_ma=USB_CAP)
    t = 0
    while cal.step(t) != 2:
        assert _est(h) <= USB_CAP
        t += 50
    assert cal.max_ma <= USB_CAP and h.saved == 1 and cal.summary()["pass"]


def test_timed_out_calibration_is_not_saved():
    class Hall(SimBoard):
        ZERO_LO = 17873
        ZERO_HI = 22838

        def __init__(self):
            SimBoard.__init__(self, 64, 58)
            self.last = [20000] * 64
            self.last[7] = 30000               # a piece left on sensor 7 the whole time
            self.saved = 0
            self.calibrated = False

        def set_zero(self, mean, spread, noise_factor=4, only=None):
            return [s for s in range(64) if (only is None or only[s])
                    and not self.ZERO_LO <= mean[s] <= self.ZERO_HI]

        def save_calibration(self):
            self.saved += 1
            self.calibrated = True
    h = Hall()
    sl = sensor_leds(_layout(), 64)
    cal = GuidedCalibration(h, sl, frames=2, quiet_ms=1000, timeout_ms=3000)
    t = 0
    while cal.step(t) != 2:
        t += 100
    s = cal.summary()
    assert s["timed_out"] and not s["saved"] and not s["pass"] and s["bad"] == [7]
    assert h.saved == 0 and h.calibrated is False
    # the piece lifted in time: saved
    h2 = Hall()
    h2.last[7] = 20000
    cal = GuidedCalibration(h2, sl, frames=2, quiet_ms=1000, timeout_ms=3000)
    t = 0
    while cal.step(t) != 2:
        t += 100
    assert cal.summary() == {"saved": True, "checked": 56, "bad": [], "pass": True}


class Builder:
    """A builder following the guided test on the simulated board: reads which LED is
    lit, puts a White piece on the point under it (the layout's sensor there: the
    point, whatever the wiring reads), lifts it after ``hold_ms``; in the colour
    phases puts a piece on each point whose LED does not show the colour asked."""

    def __init__(self, hw, sl, hold_ms=800, think_ms=600):
        self.hw = hw
        self.point_of_led = {}
        for s in range(len(sl)):
            if sl[s] != 255:
                self.point_of_led[sl[s]] = s
        self.hold_ms = hold_ms
        self.think_ms = think_ms
        self.busy_until = 0
        self.on = -1
        self.reported = set()
        self.seen = (-1, -1, 0)               # (phase, colour) asked, since when

    def asked(self, g, now):
        """How long (ms) the builder has seen what the board asks now."""
        key = (g.phase, g.channel)
        if key != self.seen[:2]:
            self.seen = key + (now,)
        return now - self.seen[2]

    def act(self, g, now):
        hw = self.hw
        if self.asked(g, now) < self.think_ms or now < self.busy_until:
            return
        if self.on >= 0:                     # lift the piece
            hw.set_sensor(self.on, 0)
            self.on = -1
            self.busy_until = now + self.think_ms
            return
        if g.phase == PLACE:
            lit = [i for i in range(hw.n_leds) if hw.shown_led(i) != (0, 0, 0)]
            if len(lit) == 1 and lit[0] in self.point_of_led:
                self.on = self.point_of_led[lit[0]]
                hw.set_sensor(self.on, 1)     # a White piece
                self.busy_until = now + self.hold_ms
        elif g.phase == COLOUR and g.channel >= 0:
            ch = g.channel
            for led, p in sorted(self.point_of_led.items()):
                c = hw.shown_led(led)
                key = (led, ch)
                if key in self.reported or g.verdict[p] == 4:
                    continue
                if c[ch] == 0 or c[(ch + 1) % 3] or c[(ch + 2) % 3]:
                    self.reported.add(key)
                    self.on = p
                    hw.set_sensor(p, 1)
                    self.busy_until = now + self.hold_ms
                    return


def _run(hw, colour=False, **kw):
    sl = sensor_leds(_layout(), hw.n_sensors)
    g = GuidedTest(hw, sl, colour=colour, place_ms=8000, colour_ms=4000 + 2000 * kw.pop("slow", 0),
                   budget_ma=USB_CAP, **kw)
    b = Builder(hw, sl)
    t = 0
    phases = set()
    while g.step(t) != DONE:
        phases.add(g.phase)
        assert _est(hw) <= USB_CAP
        b.act(g, t)
        t += 20
        assert t < 3600 * 1000
    assert phases == {CLEAR, PLACE, COLOUR}
    return g, g.summary(), t


def test_guided_test_passes_a_good_board_in_human_time():
    hw = SimBoard(64, 58)
    g, s, t = _run(hw)
    assert s["pass"] and s["checked"] == 56 and s["ok"] == 56, s
    assert s["swapped"] == s["inverted"] == s["dead"] == s["stuck"] == s["dark"] == []
    assert 56 * 1.4 < t / 1000 < 56 * 3 + 20      # about 2 s a point
    assert g.max_ma <= USB_CAP


def test_guided_test_finds_crossed_wires_and_names_both_points():
    hw = FaultyBoard(64, 58)
    hw.swap(17, 18)
    g, s, _ = _run(hw)
    assert not s["pass"] and s["swapped"] == [[17, 18], [18, 17]], s
    assert s["ok"] == 54 and s["dead"] == [] and s["dark"] == []


def test_guided_test_finds_an_upside_down_hall_sensor():
    hw = FaultyBoard(64, 58)
    hw.invert(5)
    g, s, _ = _run(hw, colour=True)
    assert s["inverted"] == [5] and not s["pass"] and s["ok"] == 55, s
    # a reed board reads no colour: the same sensor passes there
    hw2 = FaultyBoard(64, 58)
    hw2.invert(5)
    assert _run(hw2, colour=False)[1]["pass"]


def test_guided_test_finds_a_dead_led_channel():
    hw = FaultyBoard(64, 58)
    sl = sensor_leds(_layout(), 64)
    led = sl[30]
    hw.kill(led, 1)                          # its green die dead
    g, s, _ = _run(hw)
    assert s["dark"] == [[led, "g"]] and not s["pass"] and s["ok"] == 56, s
    assert hw.shown_led(led)[1] == 0 and hw.shown_led(led)[0] > 0   # shown amber: red left


def test_guided_test_marks_a_dead_and_a_stuck_sensor():
    hw = SimBoard(64, 58)
    hw.force(40, 0)                          # an open wire: never reads a piece
    hw.force(3, 1)                           # a short: always reads one
    g, s, _ = _run(hw)
    assert s["dead"] == [40] and s["stuck"] == [3] and not s["pass"], s
    assert s["ok"] == 54


def test_guided_summary_stays_short_when_everything_is_wrong():
    import json
    hw = FaultyBoard(64, 58)
    for s in range(0, 56, 2):
        hw.swap(s, s + 1)                     # every pair crossed
    for led in range(58):
        hw.kill(led, 2)                       # and every blue dead
    g, s, _ = _run(hw)
    assert not s["pass"] and s["ok"] <= 4 and s["more"] > 0
    assert len(s["swapped"]) * 2 + len(s["dark"]) * 2 <= 48
    assert len(json.dumps(s)) < 400
