"""The LED cap follows the power source (board file ``leds.supply`` "sense"): the board
definition's check, the rp2 backend's VBUS (GPIO24) and adapter sense lines, Lights'
new cap, and the app on the simulated board switching between the adapter's cap and
USB's within a frame."""
from tlib import raises

from hwfakes import World, install_rp2
from playboard.config import ConfigError, load_board, validate_board
from playboard.board.lights import Lights, USER, ON
from playboard.hw.base import ADAPTER, USB
from playboard.hw.open import open_board
from playboard.sim.hw import SimBoard


def _matrix(**leds):
    d = load_board("pico-matrix")
    raw = {k: d[k] for k in ("name", "backend", "module", "layout", "n_sensors", "scan",
                             "pit_select")}
    raw["sensor"] = {"kind": "matrix", "rows": [2, 3, 4, 5, 6, 7, 8, 9],
                     "cols": [10, 11, 12, 13, 14, 15, 16, 17]}
    raw["leds"] = {"pin": 22, "count": 58}
    raw["leds"].update(leds)
    return raw


def test_board_file_sense_fills_both_caps_and_checks_the_pins():
    d = load_board("pico-matrix")["leds"]
    assert (d["supply"], d["budget_ma"], d["usb_budget_ma"]) == ("sense", 1500, 390)
    assert (d["vbus_pin"], d["adapter_pin"]) == (24, 21)
    d = validate_board(_matrix(supply="sense"))["leds"]
    assert (d["vbus_pin"], d["adapter_pin"], d["usb_budget_ma"]) == (24, None, 390)
    d = validate_board(_matrix(supply="sense", budget_ma=100))["leds"]
    assert (d["budget_ma"], d["usb_budget_ma"]) == (100, 100)     # never above the board's
    assert load_board("pico-165")["leds"]["usb_budget_ma"] == 350  # 8 chips take 32 mA
    e = raises(ConfigError, validate_board, _matrix(supply="sense", adapter_pin=22))
    assert "leds.adapter_pin: GP22 already used by leds.pin" in str(e)
    e = raises(ConfigError, validate_board, _matrix(supply="sense", adapter_pin=25))
    assert "leds.adapter_pin: GP25 is not a free pin" in str(e)
    e = raises(ConfigError, validate_board, _matrix(supply="sense", vbus_pin=2))
    assert "leds.vbus_pin: GP2 already used by sensor.rows" in str(e)
    cp = load_board("feather-matrix-cp")
    cp["leds"]["supply"] = "sense"
    e = raises(ConfigError, validate_board, cp)
    assert "leds.supply: sense reads the supply on the rp2 backend only" in str(e)
    e = raises(ConfigError, validate_board, _matrix(supply="mains"))
    assert "leds.supply: 'mains' not adapter, usb or sense" in str(e)
    e = raises(ConfigError, validate_board, _matrix(supply="sense", count=400))
    assert "over USB 390 mA are left for the LEDs: they cannot feed 400 idle" in str(e)


def test_rp2_reads_vbus_and_the_adapter_line():
    w = World()
    install_rp2(w)
    b = open_board(load_board("pico-matrix"))
    assert w.mode[24] == "in" and w.mode[21] == "in"
    cases = (({24: 0, 21: 1}, ADAPTER), ({24: 1, 21: 1}, ADAPTER),   # the adapter feeds
             ({24: 1, 21: 0}, USB), ({24: 0, 21: 0}, ADAPTER))
    for levels, want in cases:
        w.sensed = dict(levels)
        assert b.source() == want, levels
    # no adapter line: USB with the adapter reads USB (the lower cap)
    w2 = World()
    install_rp2(w2)
    cfg = validate_board(_matrix(supply="sense"))
    b = open_board(cfg)
    w2.sensed = {24: 1}
    assert b.source() == USB
    w2.sensed = {24: 0}
    assert b.source() == ADAPTER
    # a board file without sensing reads no pin at all
    w3 = World()
    install_rp2(w3)
    b = open_board(validate_board(_matrix()))
    assert 24 not in w3.mode and b.source() == ADAPTER


def test_lights_set_budget_caps_the_next_frame_at_once():
    hw = SimBoard(8, 20)
    li = Lights(hw, budget_ma=1500, brightness=255, gamma=1.0)
    li.set_colour(USER, 255, 255, 255)
    for i in range(20):
        li.mark(USER, i, ON)
    assert li.frame(0) and not li.capped
    full = sum(hw.shown)
    assert full == 20 * 765                           # 20 x 60 mA = 1200 mA: under 1500
    li.set_budget(140)
    assert li.frame(1)                                # shown at once, not 20 ms later
    ma = 20 + sum(hw.shown) * 60 / 765.0
    assert li.capped and 120 < ma <= 140, ma
    li.set_budget(1500)
    assert li.frame(2) and sum(hw.shown) == full
    e = raises(ValueError, li.set_budget, 20)
    assert "cannot feed 20 LEDs" in str(e)


def test_the_app_caps_the_leds_by_the_source_within_a_frame():
    from apprig import Rig
    r = Rig()
    app = r.app
    assert app.link_status()["supply"] == "adapter" and app.lights.budget_ma == 1500
    r.adv(200)                                         # the menu painted
    # every LED white at full brightness: 58 x 60 mA, over either cap
    app.lights.set_brightness(255)
    app.lights.set_colour(USER, 255, 255, 255)
    for i in range(58):
        app.lights.mark(USER, i, ON)
    r.adv(40)

    def shown_ma():
        return 58 + sum(r.hw.shown) * 60 / 765.0
    assert 1400 < shown_ma() <= 1500
    r.hw.set_source(USB)
    shows = r.hw.shows
    r.adv(10)                                          # one frame
    assert r.hw.shows > shows and 350 < shown_ma() <= 390, shown_ma()
    st = app.link_status()
    assert (st["supply"], st["led_cap_ma"]) == ("usb", 390)
    r.hw.set_source(ADAPTER)
    r.adv(10)
    assert 1400 < shown_ma() <= 1500 and app.link_status()["supply"] == "adapter"
    raises(ValueError, r.hw.set_source, 2)
