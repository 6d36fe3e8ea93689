"""ESD in SPICE (hardware/esd.py, ngspice): an IEC 61000-4-2 contact discharge (150 pF,
330 ohm, +-8 kV) into every line that leaves the controller - USB D+/D-, a reed-matrix
line, a shift register's and a hall board's sensor line, the LED chain's data - through
the board's protection (USBLC6-2SC6 / USBLC6-4SC6, the series resistors, the matrix
lines' BAT85 clamps) to the chip's pin: the arrays under their rating, a GPIO within
its absolute maximum -0.5..IOVDD + 0.5 V at every instant (RP2040 datasheet Table 622),
the RP2040's pins' current and charge under its HBM 2 kV, the logic chips' pins under
their clamp / output current; the model is the schematic's; taking a protection part
out is caught."""
import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import esd  # noqa: E402
import spice  # noqa: E402

pytestmark = pytest.mark.skipif(not spice.available(),
                                reason="ngspice not installed (Debian package ngspice)")


@pytest.mark.parametrize("line", list(esd.LINES))
@pytest.mark.parametrize("kv", [8.0, -8.0])
def test_an_8kv_contact_discharge_stays_within_every_rating(line, kv):
    res = esd.strike(line, kv)
    assert esd.check(res) == [], res
    # the discharge is the standard's: its 30 A first peak (into the board, a little
    # under the 2 ohm target's), all into the array
    assert 27.0 < res["gun_a"] < 30.0 and 0.95 * res["gun_a"] < res["array_a"] <= res["gun_a"]
    # the array clamps the line: onto its rail (VBUS or +5V) above, to GND below
    if kv > 0:
        assert 11.0 < res["clamp_v"] < 16.0, res
    else:
        assert -9.0 < res["clamp_vn"] < -6.0, res
    supply, kind = esd.TARGETS[esd.LINES[line]["target"]]
    if kind == "rp2040":
        # a GPIO: inside -0.5..3.8 V at every instant, milliamps into it
        assert -0.5 <= res["pin_vn"] and res["pin_v"] <= 3.8 and res["pin_a"] < 0.01, res
    elif kind == "rp2040_usb":
        # the USB pin: a fraction of its own HBM 2 kV (1.33 A, 200 nC)
        assert res["pin_a"] < esd.RATINGS["pin_a"] / 4 and res["pin_q"] < esd.RATINGS["pin_q"] / 5
    else:
        assert 0.001 < res["pin_a"] <= kind, res       # a real current, under the chip's


def test_the_discharge_network_meets_the_standards_calibration_table():
    """IEC 61000-4-2 ed. 2 Table 2, contact discharge into the 2 ohm target: first peak
    3.75 A/kV +-15 %, rise 0.8 ns +-25 %, 2 A/kV at 30 ns and 1 A/kV at 60 ns +-30 %
    (a 150 pF / 330 ohm pair alone peaks at 24 A at 8 kV: under it)."""
    for kv in (2.0, 8.0):
        cal = esd.calibrate(kv)
        assert abs(cal["peak_a"] / (esd.IEC_PEAK_A_PER_KV * kv) - 1) <= esd.IEC_PEAK_TOL, cal
        assert abs(cal["rise_s"] / esd.IEC_RISE_S - 1) <= esd.IEC_RISE_TOL, cal
        assert abs(cal["i30_a"] / (esd.IEC_I30_A_PER_KV * kv) - 1) <= esd.IEC_TAIL_TOL, cal
        assert abs(cal["i60_a"] / (esd.IEC_I60_A_PER_KV * kv) - 1) <= esd.IEC_TAIL_TOL, cal
    cal = esd.calibrate(8.0)
    assert 28.0 < cal["peak_a"] < 31.0 and 15.0 < cal["i30_a"] < 17.5 and 7.5 < cal["i60_a"] < 9.0


def test_the_usb_pin_is_held_to_its_esd_rating_which_no_array_can_replace():
    """The USB pins' criterion (esd.TARGETS): the RP2040's own ESD rating (HBM 2 kV, its
    current and charge) during the strike, -0.5..IOVDD + 0.5 V after it. A per-instant
    IOVDD + 0.5 V could be met by no array: with an ideal clamp at the lowest figure
    found for a data-line array (Semtech RClamp3324P, 5.3 V at 16 A TLP), the pin's own
    diodes still take the rest through the Pico's 27 ohm and sit at about 4.1 V."""
    def ideal_clamp(text):
        text = re.sub(r"^D(up|dn|cl) .*$", "", text, flags=re.M)
        return text.replace("Vprobe_arr io arr DC 0", "Vprobe_arr io arr DC 0\n"
                            ".model DIDEAL D (IS=1e-14 N=1 RS=0.01 BV=5.3 IBV=1m)\n"
                            "Dideal 0 arr DIDEAL")
    res = esd.strike("usb_dp", 8.0, edit=ideal_clamp)
    assert 5.0 < res["clamp_v"] < 6.0 and 3.95 < res["pin_v"] < 4.3, res
    assert esd.check(res) == [] and res["pin_a"] < 0.1
    # the board's USBLC6-2SC6: a fifth of the HBM current, a sixth of its charge
    res = esd.strike("usb_dp", 8.0)
    assert 0.2 < res["pin_a"] < esd.RATINGS["pin_a"] / 4 and res["pin_q"] < esd.RATINGS["pin_q"] / 5
    # over the rating (a 12 kV strike, beyond the arrays' 8 kV, with a 2 ohm 27 ohm):
    # the checker says so
    def short_resistor(text):
        return re.sub(r"^Rser pad pinr .*$", "Rser pad pinr 2", text, flags=re.M)
    res = esd.strike("usb_dp", 12.0, edit=short_resistor)
    assert any("current into the RP2040's pin" in b for b in esd.check(res)), res


def test_the_matrix_clamps_hold_the_gpio_where_its_own_diodes_did_not():
    """Without the BAT85 pair the GPIO's own ESD diodes hold it at 3.96 V for a moment,
    over its 3.8 V; the checker says so."""
    def no_clamp(text):
        return re.sub(r"^Ds(up|dn) .*$", "", text, flags=re.M)
    res = esd.strike("matrix", 8.0, edit=no_clamp)
    assert 3.85 < res["pin_v"] < 4.1, res
    assert any("outside its absolute maximum" in b for b in esd.check(res))
    res = esd.strike("matrix", 8.0)
    assert 3.5 < res["pin_v"] <= 3.8 and esd.check(res) == []


def test_the_checker_catches_a_missing_protection_part():
    # a matrix line straight onto its GPIO (no 1 k): over an amp into the pin
    def no_resistor(text):
        return re.sub(r"^Rser pad pinr .*$", "Rser pad pinr 0.1", text, flags=re.M)
    res = esd.strike("matrix", 8.0, edit=no_resistor)
    assert any("RP2040's pin" in b for b in esd.check(res)), res
    # the USB line without its array: the strike goes through the 27 ohm into the pin
    def no_array(text):
        return re.sub(r"^D(up|dn|cl) .*$", "", text, flags=re.M)
    res = esd.strike("usb_dp", 8.0, edit=no_array)
    assert res["pin_a"] > 10.0 and res["array_a"] < 1e-3
    bad = esd.check(res)
    assert any("current into the RP2040's pin" in b for b in bad), bad
    # the LED data line with the old 470 ohm: 26 mA into the 74AHCT125's output
    def old_resistor(text):
        return re.sub(r"^Rser pad pinr .*$", "Rser pad pinr 470", text, flags=re.M)
    res = esd.strike("led_data", 8.0, edit=old_resistor)
    assert any("74AHCT125" in b for b in esd.check(res)), res


def _by_kind(circ):
    by = {}
    for p in circ.parts:
        by.setdefault(p.fields.get("Kind"), []).append(p)
    return by


@pytest.mark.parametrize("board", ["pico-matrix", "pico-165", "pico-hall"])
def test_the_simulated_protection_is_the_schematics(board):
    import schematic
    circ, info = schematic.build(board)
    by = _by_kind(circ)
    usb, led = by["USBLC6"]
    assert usb["VBUS"].net.name == "VBUS" and esd.LINES["usb_dp"]["rail"] == "vbus"
    assert {usb["IO1"].net.name, usb["IO2"].net.name} == {"USB_DM", "USB_DP"}
    # the LED data line: its array on +5V, the 680 ohm between it and the 74AHCT125
    assert led["IO1"].net.name == "LED_DIN_0" and led["VBUS"].net.name == "+5V"
    r_data = [r for r in by["R"] if {r[1].net.name, r[2].net.name} == {"LED_DIN_5V", "LED_DIN_0"}]
    assert [r.value for r in r_data] == ["680R"] and esd.LINES["led_data"]["r"] == 680.0
    # every panel line: a 4-line array on +5V and 1 k to its chip
    arrays = by["USBLC6_4"]
    assert all(u["VBUS"].net.name == "+5V" for u in arrays)
    assert {r.value for r in by["R_Array4"]} == {"1k"}
    lines = {u[pin].net.name for u in arrays for pin in ("IO1", "IO2", "IO3", "IO4")} - {"GND"}
    kind = info["cfg"]["sensor"]["kind"]
    if kind == "matrix":
        assert lines == {"ROW%d" % i for i in range(8)} | {"COL%d" % i for i in range(8)}
        assert esd.LINES["matrix"]["r"] == 1000.0 and esd.LINES["matrix"]["clamp"]
        # each GPIO of the matrix: a BAT85 to +3V3 and one from GND
        for g in info["panel"]:
            net = [n for n in circ.nets if n.name == g][0]
            d = [p for p in net.pins if p.part.fields.get("Kind") == "D_SchottkySig"]
            assert sorted(p.name for p in d) == ["A", "K"]
            assert {p.part[("K" if p.name == "A" else "A")].net.name for p in d} == {"+3V3", "GND"}
    else:
        assert lines == {"S%d" % s for s in info["used"]}
        name = "sr_input" if kind == "shift_register" else "hall_out"
        assert esd.LINES[name]["r"] == 1000.0 and esd.LINES[name]["rail"] == "p5v"


def test_every_active_part_names_the_datasheet_its_pinout_was_checked_against():
    import schematic
    active = {"USBLC6", "USBLC6_4", "PMOS", "PMOS_LR", "LTC4412", "74AHCT125", "74HC165",
              "CD74HC4067", "DRV5053", "TL431", "PNP", "NPN", "LDO", "WS2812B", "D_TVS"}
    assert active <= set(schematic.DATASHEETS) <= set(schematic.CATALOGUE)
    # the ESD arrays' pinout in the catalogue is the datasheet's
    pins = {k: [name for _, name, _ in schematic.CATALOGUE[k][3]] for k in ("USBLC6", "USBLC6_4")}
    assert pins["USBLC6_4"] == ["IO1", "GND", "IO2", "IO3", "VBUS", "IO4"]
    assert pins["USBLC6"] == ["IO1", "GND", "IO2", "IO2b", "VBUS", "IO1b"]
