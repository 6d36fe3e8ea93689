"""The input stage in SPICE (hardware/spice.py, ngspice): every combination of adapter,
reversed adapter, over-voltage adapter and USB at every tolerance corner within every
part's rating; the over-voltage trip between the adapter's highest output and the
LEDs' limit; USB's inrush at attach; the netlist is the schematic's."""
import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import spice  # noqa: E402

pytestmark = pytest.mark.skipif(not spice.available(),
                                reason="ngspice not installed (Debian package ngspice)")
BOARDS = ("pico-matrix", "pico-hall")     # with and without USB feeding the rail


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("case", [c[0] for c in spice.CASES])
def test_every_fault_case_keeps_every_part_within_its_ratings(board, case):
    for corner in spice.CORNERS:
        res = spice.run(board, case, corner)
        assert spice.check(res) == [], (board, case, corner)
        name, v_jack, v_usb, _ = [c for c in spice.CASES if c[0] == case][0]
        v = res["v"]
        if v_jack is not None and v_jack < 0:
            # the old fault: a reversed adapter with USB in drew 1.5 A through the FETs
            assert abs(res["jack_a"]) < 1e-3 and v["VIN_OK"] < 1.0, (case, corner, res["jack_a"])
        if v_usb and v_jack is not None and 0 < v_jack < 5.5:
            assert res["usb_a"] < 0.06       # the Pico's own 50 mA: the adapter feeds the rail
        if v_jack and v_jack > 5.5:
            assert v["+5V"] < 0.5 and v["VIN_SW"] < 1.0     # cut off


def test_netlist_is_the_schematics_power_stage():
    import schematic
    circ, info = schematic.build("pico-matrix")
    text, kinds = spice.netlist("pico-matrix", "adapter")
    assert set(kinds) == {p.ref for p in info["power"]}
    for p in info["power"]:
        if p.fields["Kind"] in ("R", "R_Prec"):
            line = [ln for ln in text.splitlines() if ln.startswith("R%s " % p.ref)][0]
            nets = {spice._node(p[1].net), spice._node(p[2].net)}
            assert set(line.split()[1:3]) == nets, line
    # the protection's parts: fuse, reverse FET, TL431 comparator, the OR-ing Schottkys,
    # the USB soft-start FET with its adapter sense
    assert sorted(set(kinds.values())) == sorted({
        "DC_Jack", "Fuse_PTC", "PMOS", "D_Zener", "R", "R_Prec", "TL431", "PNP", "NPN",
        "D_Schottky3A", "D_TVS", "USB_B", "USBLC6", "C", "D_Schottky", "CP"})
    assert sum(1 for k in kinds.values() if k == "PMOS") == 3


def test_the_checker_catches_the_old_back_feed():
    """Short the adapter's OR-ing Schottky and take out the adapter sense that turns USB's
    path off (the old circuit had neither): USB back-feeds the input through Q2's body
    diode, turns the reverse FET on and a reversed adapter is shorted against USB."""
    def old_circuit(text):
        text = re.sub(r"^D(D\d+) n_VIN_SW n_p5V D1N5822$", r"R\1 n_VIN_SW n_p5V 0.001",
                      text, flags=re.M)
        return re.sub(r"^R\S+ n_VIN_OK n_Q6_BASE .*$", "", text, flags=re.M)
    assert spice.check(spice.run("pico-matrix", "reversed + usb", "nominal")) == []
    res = spice.run("pico-matrix", "reversed + usb", "nominal", edit=old_circuit)
    bad = spice.check(res)
    assert any(b.startswith("jack:") for b in bad), bad
    assert any("over its rating" in b for b in bad), bad
    assert abs(res["jack_a"]) > 0.5


@pytest.mark.parametrize("corner", list(spice.CORNERS))
def test_over_voltage_trip_within_spec_at_every_corner(corner):
    t, v5_max, vsys_max = spice.trip("pico-matrix", corner)
    assert t is not None
    assert spice.ADAPTER_MAX < t < 5.35, t          # the adapter passes, a 5.5 V one not
    assert v5_max < spice.LED_MAX_V and vsys_max < spice.PICO_MAX_V


def test_usb_attach_inrush_is_soft_started():
    peak, v5 = spice.inrush("pico-matrix", "usb")
    assert 0.02 < peak < spice.USB_INRUSH_A and v5 > 4.5, (peak, v5)
    peak, _ = spice.inrush("pico-matrix", "usb", with_adapter=True)
    assert peak < 1e-3                               # the adapter in: USB feeds no rail


@pytest.mark.parametrize("board", BOARDS)
def test_12v_adapter_plugged_in_while_on_usb_never_reaches_the_leds(board):
    peak, v5 = spice.inrush(board, "adapter12")
    assert v5 < spice.LED_MAX_V and peak < spice.RATINGS["PMOS"]["id_pulse"], (peak, v5)
