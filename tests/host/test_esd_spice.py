"""ESD in SPICE (hardware/esd.py, ngspice): an IEC 61000-4-2 contact discharge (150 pF,
330 ohm, +-8 kV) into the USB data lines and a reed-matrix line, through the board's
protection (USBLC6-2SC6 / USBLC6-4SC6, the matrix lines' 1 k) to the RP2040's pin: the
arrays under their rating, the pin's current and charge under its own ESD
qualification, the pin back within its absolute maximum once the discharge is over;
the model is the schematic's; taking a protection part out is caught."""
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
    # the discharge is the standard's: about 8 kV / 330 ohm at its peak, all into the array
    assert 20.0 < res["gun_a"] < 26.0 and 0.95 * res["gun_a"] < res["array_a"] <= res["gun_a"]
    # the array clamps the line: onto its rail (VBUS or +5V) above, to GND below
    if kv > 0:
        assert 10.0 < res["clamp_v"] < 14.0, res
    else:
        assert -8.0 < res["clamp_v"] < -5.0, res
    # what reaches the pin: a fraction of the pin's own HBM 2 kV qualification
    assert res["pin_a"] < esd.RATINGS["pin_a"] / 4 and res["pin_q"] < esd.RATINGS["pin_q"] / 10
    if line == "sensor":                       # behind 1 k: milliamps
        assert res["pin_a"] < 0.02 and abs(res["pin_v"]) < 4.0, res


def test_the_checker_catches_a_missing_protection_part():
    # a matrix line straight onto its GPIO (no 1 k): 1.9 A into the pin, over its 1.33 A
    def no_resistor(text):
        return re.sub(r"^Rser pad pinr .*$", "Rser pad pinr 0.1", text, flags=re.M)
    res = esd.strike("sensor", 8.0, edit=no_resistor)
    assert res["pin_a"] > esd.RATINGS["pin_a"]
    assert any("current into the RP2040's pin" in b for b in esd.check(res))
    # the USB line without its array: the strike goes through the 27 ohm into the pin
    def no_array(text):
        return re.sub(r"^D(up|dn|cl) .*$", "", text, flags=re.M)
    res = esd.strike("usb_dp", 8.0, edit=no_array)
    assert res["pin_a"] > 10.0 and res["array_a"] < 1e-3
    bad = esd.check(res)
    assert any("current into the RP2040's pin" in b for b in bad), bad


def test_the_simulated_protection_is_the_schematics():
    import schematic
    circ, info = schematic.build("pico-matrix")
    by = {}
    for p in circ.parts:
        by.setdefault(p.fields.get("Kind"), []).append(p)
    usb = by["USBLC6"][0]
    assert usb["VBUS"].net.name == "VBUS"                     # LINES: the USB lines' rail
    assert {usb["IO1"].net.name, usb["IO2"].net.name} == {"USB_DM", "USB_DP"}
    arrays = by["USBLC6_4"]
    assert len(arrays) == 4 and all(u["VBUS"].net.name == "+5V" for u in arrays)
    assert esd.LINES["sensor"][0] == "p5v" and esd.LINES["usb_dp"][0] == "vbus"
    assert {r.value for r in by["R_Array4"]} == {"1k"} and esd.LINES["sensor"][1] == 1000.0
    lines = {u[pin].net.name for u in arrays for pin in ("IO1", "IO2", "IO3", "IO4")}
    assert lines == {"ROW%d" % i for i in range(8)} | {"COL%d" % i for i in range(8)}
