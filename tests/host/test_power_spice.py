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
    # the protection's parts: fuse, reverse FET, TL431 comparator, the OR-ing ideal diodes
    # (LTC4412 + P-FET), the USB soft-start FET with its adapter sense; the Schottky left
    # is the +5V -> VSYS one
    assert sorted(set(kinds.values())) == sorted({
        "DC_Jack", "Fuse_PTC", "PMOS", "PMOS_LR", "D_Zener", "R", "R_Prec", "TL431", "PNP",
        "NPN", "LTC4412", "D_TVS", "USB_B", "USBLC6", "C", "D_Schottky", "CP"})
    assert sum(1 for k in kinds.values() if k == "PMOS") == 2       # USB soft-start, USB OR
    assert sum(1 for k in kinds.values() if k == "PMOS_LR") == 3    # reverse, OVP, adapter OR
    assert sum(1 for k in kinds.values() if k == "LTC4412") == 2
    assert sum(1 for k in kinds.values() if k == "D_Schottky") == 1


def test_the_checker_catches_the_old_back_feed():
    """Short the adapter's OR-ing ideal diode and take out the adapter sense that turns
    USB's path off (the old circuit had neither): USB back-feeds the input through Q2's
    body diode, turns the reverse FET on and a reversed adapter is shorted against USB."""
    def old_circuit(text):
        text = re.sub(r"^M(Q\d+) n_VIN_SW n_ID_GATE n_p5V n_p5V AOD4185 .*$",
                      r"R\1 n_VIN_SW n_p5V 0.001", text, flags=re.M)
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


FED = {"pico-matrix": ("adapter", "adapter low", "adapter + usb", "adapter low + usb high",
                       "usb", "usb low", "usb high"),
       "pico-hall": ("adapter", "adapter low", "adapter + usb", "adapter low + usb high")}


@pytest.mark.parametrize("board", BOARDS)
def test_the_rail_holds_4v5_at_the_full_led_cap_at_every_corner(board):
    """The ideal diodes (LTC4412 + P-FET) leave the +5V rail at or above the 74AHCT125's
    4.5 V minimum with the LEDs at the firmware's full cap: the adapter at 4.9-5.15 V,
    USB at 4.75-5.25 V, both, every tolerance corner (the 1N5822 left 4.2-4.4 V)."""
    i_adapter, i_usb = spice.loads(board)
    low = 9.0
    for case in FED[board]:
        name, v_jack, v_usb, _ = [c for c in spice.CASES if c[0] == case][0]
        for corner in spice.CORNERS:
            res = spice.run(board, case, corner)
            v5 = res["v"]["+5V"]
            low = min(low, v5)
            assert v5 >= spice.RAIL_MIN_V, (case, corner, v5)
            # the source feeds the whole cap (with both in, USB only the Pico's own)
            if v_jack:
                assert res["jack_a"] > 0.999 * i_adapter, (case, corner, res["jack_a"])
            else:
                assert res["usb_a"] > 0.999 * i_usb, (case, corner, res["usb_a"])
    assert 4.5 <= low < 4.7, low          # a real margin, and a real load


def test_the_checker_catches_the_schottky_drop():
    """Put the 1N5822 back in the adapter's ideal diode's place: the rail sags under 4.5 V
    at the full cap and the checker says so."""
    def schottky(text):
        return re.sub(r"^M(Q\d+) n_VIN_SW n_ID_GATE n_p5V n_p5V AOD4185 .*$",
                      r"D\1 n_VIN_SW n_p5V D1N5822", text, flags=re.M)
    res = spice.run("pico-hall", "adapter", "nominal", edit=schottky)
    assert 4.0 < res["v"]["+5V"] < 4.4, res["v"]
    assert any("under the 74AHCT125" in b for b in spice.check(res)), spice.check(res)


def test_ideal_diode_ratings_and_blocking():
    """The LTC4412s' pins stay within -14..36 V with a reversed 24 V adapter and USB; the
    adapter's ideal diode blocks USB (no current back into VIN_SW) and the USB one blocks
    the adapter (nothing back into VBUS)."""
    res = spice.run("pico-matrix", "reversed 24 V + usb", "nominal")
    ltc = [s for ref, kind, s in res["parts"] if kind == "LTC4412"]
    assert len(ltc) == 2 and all(s["v_neg"] < 14.0 and s["vin"] < 36.0 for s in ltc), ltc
    fet = [s for ref, kind, s in res["parts"] if ref == res["ideal_fet"]][0]
    assert fet["id"] < 1e-4 and res["v"]["VIN_SW"] < 0.5, (fet, res["v"])
    res = spice.run("pico-matrix", "adapter low + usb high", "low")
    assert res["usb_a"] < 0.06                     # USB feeds only the Pico
    assert 4.5 < res["v"]["+5V"] < res["v"]["VIN_SW"]


def test_the_adapter_sense_line_reads_the_source_and_stays_in_the_pins_range():
    """The divider from VIN_SW to the adapter sense GPIO (leds.supply "sense"): high
    (>= 2.0 V, <= 3.8 V) while the adapter feeds the rail, low (<= 0.8 V) with USB
    alone, a reversed or an over-voltage adapter, at every corner; the checker fails
    a divider that would put the adapter's 5 V on the pin."""
    seen = {}
    for case, fed in (("adapter low", True), ("adapter high", True), ("adapter + usb", True),
                      ("usb", False), ("reversed 24 V + usb", False), ("12 V + usb", False),
                      ("24 V", False)):
        for corner in spice.CORNERS:
            res = spice.run("pico-matrix", case, corner)
            vs = res["v"]["ADAPTER_SENSE"]
            seen[(case, corner)] = vs
            if fed:
                assert spice.PIN_HIGH_V <= vs <= spice.PIN_MAX_V, (case, corner, vs)
            else:
                assert -0.5 <= vs <= spice.PIN_LOW_V, (case, corner, vs)
    assert 2.6 < seen[("adapter low", "high")] < seen[("adapter high", "nominal")] < 3.2

    def no_bottom(text):
        return re.sub(r"^R\S+ n_GP21_ADAPTER_SENSE 0 .*$", "", text, flags=re.M)
    bad = spice.check(spice.run("pico-matrix", "adapter high", "nominal", edit=no_bottom))
    assert any(b.startswith("adapter sense:") for b in bad), bad


@pytest.mark.parametrize("board", BOARDS)
def test_the_adapters_plug_is_soft_started(board):
    """The 5 V adapter plugged into a board with no USB: the 1000 uF charges through
    Q2 as a soft start (its gate's 1 uF and 100 nF) at about half an amp, under the
    jack's 2.5 A and far under every part's pulse rating; without the two capacitors
    the same plug drew 9.6 A."""
    peak, v5 = spice.inrush(board, "adapter5")
    assert 0.1 < peak < spice.ADAPTER_INRUSH_A, peak
    assert peak < spice.RATINGS["PMOS_LR"]["id_pulse"] and peak < spice.RATINGS["D_Schottky"]["if_pulse"]
    assert 4.9 < v5 < spice.LED_MAX_V, v5                 # the rail reached, not overshot

    def no_soft_start(text):
        return re.sub(r"^C\S+ n_Q2_GATE n_VIN_(OK|SW) .*$", "", text, flags=re.M)
    orig = spice._ngspice
    try:
        spice._ngspice = lambda t: orig(no_soft_start(t))
        bare, _ = spice.inrush(board, "adapter5")
    finally:
        spice._ngspice = orig
    assert bare > 5.0, bare


def test_the_reread_ratings_are_the_checkers():
    """The ratings read again for issue 33 (hardware/spice.py RATINGS): the 2N3904's and
    2N3906's 625 mW derated to 70 C (400 mW), their reversed base-emitter (VEBO 6.0 /
    5.0 V), the TL431's 0.49 W at 70 C, the LTC4412's 28 V operating range: a stress just
    over each is reported, one just under is not."""
    res = spice.run("pico-matrix", "usb")
    by = {ref: (kind, s) for ref, kind, s in res["parts"]}
    npn = [ref for ref, (kind, _) in by.items() if kind == "NPN"][0]
    ltc = [ref for ref, (kind, _) in by.items() if kind == "LTC4412"][0]
    # the case itself: the USB path's NPN conducting nothing reversed, the LTC4412 at VBUS
    assert 0.0 <= by[npn][1]["veb"] < 0.1 and 4.7 < by[ltc][1]["v_op"] < 5.0
    assert spice.check(res) == []
    for ref, key, under, over in ((npn, "veb", 5.9, 6.1), (npn, "p", 0.39, 0.41),
                                  (ltc, "v_op", 27.9, 28.1)):
        for val, flagged in ((under, False), (over, True)):
            parts = [(r, k, dict(s, **{key: val}) if r == ref else s)
                     for r, k, s in res["parts"]]
            bad = spice.check(dict(res, parts=parts))
            hit = any(b.startswith("%s (" % ref) and key in b for b in bad)
            assert hit == flagged, (key, val, bad)
    assert spice.RATINGS["PNP"]["veb"] == 5.0 and spice.RATINGS["TL431"]["p"] == 0.49
