"""hardware/: the SKiDL schematic (ERC, netlist, the connections that matter), pin maps,
BOM, power budget and the drilling templates, all from the same data as the firmware."""
import os
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import generate  # noqa: E402
import schematic  # noqa: E402
from playboard.config import load_board  # noqa: E402
from playboard.board.layout import load_layout, read_layout_file, GAMES  # noqa: E402

BOARDS = schematic.SENSOR_BOARDS


@pytest.fixture(scope="module")
def built():
    return {name: schematic.build(name) for name in BOARDS}


def net_of(part, pin):
    n = part[pin].net
    assert n is not None, "%s.%s unconnected" % (part.ref, pin)
    return n


def members(net):
    return {(p.part.ref, p.name) for p in net.pins}


@pytest.mark.parametrize("name", BOARDS)
def test_erc_clean_and_netlist(built, name, tmp_path):
    circ, info = built[name]
    errors, warnings = schematic.erc(circ)
    assert errors == [] and warnings == [], errors + warnings
    path = tmp_path / ("%s.net" % name)
    text = schematic.netlist(circ, str(path))
    assert text.startswith("(export") and path.exists()
    for p in circ.parts:
        if p.fields.get("Kind") == "PWR_FLAG":
            assert '(ref "%s")' % p.ref not in text      # schematic-only, as in KiCad
        else:
            assert '(ref "%s")' % p.ref in text
    assert '(value "SC0915")' not in text and "RaspberryPi_Pico" in text
    assert text.count("(") == text.count(")")


@pytest.mark.parametrize("name", BOARDS)
def test_erc_uses_real_pin_types(built, name):
    circ, info = built[name]
    import skidl
    assert all(n.drive != skidl.POWER for n in circ.nets)    # no rail forced to power
    # the rails are driven by real power outputs (jack, USB, regulators) or by a
    # PWR_FLAG where a passive part (fuse, FET, diode) stands between
    flags = [p for p in circ.parts if p.fields.get("Kind") == "PWR_FLAG"]
    # (VIN_SW, VUSB_SW: the ideal-diode controllers' supply pins, fed through a FET)
    assert sorted(p["pwr"].net.name for p in flags) == sorted(
        ["+5V", "VIN_FUSED", "VIN_SW", "VSYS"] + ([] if name == "pico-hall" else ["VUSB_SW"]))
    kinds = {pin.name: pin.func for pin in info["pico"].pins if pin.name in ("3V3", "VBUS")}
    assert kinds == {"3V3": skidl.Pin.types.PWROUT, "VBUS": skidl.Pin.types.PASSIVE}
    # VBUS is driven by the USB socket in the wall
    drivers = [p for p in info["supply"]["VBUS"].pins if p.func == skidl.Pin.types.PWROUT]
    assert [(p.part.fields["Kind"], p.name) for p in drivers] == [("USB_B", "VBUS")]


def test_erc_catches_an_undriven_rail():
    # the check can fail: without the flag on +5V the LEDs' supply is undriven
    circ, info = schematic.build("pico-matrix")
    f5 = [p for p in circ.parts if p.fields.get("Kind") == "PWR_FLAG" and p["pwr"].net.name == "+5V"]
    f5[0]["pwr"].disconnect()
    errors, warnings = schematic.erc(circ)
    undriven = [w for w in warnings if "Insufficient drive current on net +5V" in w]
    assert len(undriven) == 58 + 1, warnings[:3]     # every LED and the level shifter


@pytest.mark.parametrize("name", BOARDS)
def test_every_sensor_reaches_the_scanner(built, name):
    circ, info = built[name]
    cfg = info["cfg"]
    s_cfg = cfg["sensor"]
    gp = info["gp"]
    sensors = info["sensors"]
    used = info["used"]
    assert len(used) == 56 and set(used) <= set(sensors)
    pico = info["pico"]
    if s_cfg["kind"] == "matrix":
        for s, sw in sensors.items():
            r, c = divmod(s, len(s_cfg["cols"]))
            nets = [net_of(sw, 1), net_of(sw, 2)]
            # the panel's row and column lines reach their GPIOs through 1 k each (an
            # isolated resistor array, pins 2j+1 / 2j+2) and carry an ESD array
            row_gp, col_gp = gp[s_cfg["rows"][r]], gp[s_cfg["cols"][c]]
            row, col_line = info["panel"][row_gp.name], info["panel"][col_gp.name]
            assert row in nets, (s, sw.ref)
            mid = nets[0] if nets[1] is row else nets[1]
            diodes = [p.part for p in mid.pins if p.part.fields.get("Kind") == "1N4148"]
            assert len(diodes) == 1 and diodes[0]["K"].net is mid
            assert net_of(diodes[0], "A") is col_line
            for g, line in ((row_gp, row), (col_gp, col_line)):
                rs = [p for p in line.pins if p.part.fields.get("Kind") == "R_Array4"]
                assert len(rs) == 1 and rs[0].part.value == "1k"
                other = rs[0].part[int(rs[0].num) - 1]
                assert other.net is g, (s, line.name)
                esd = [p for p in line.pins if p.part.fields.get("Kind") == "USBLC6_4"]
                assert len(esd) == 1 and net_of(esd[0].part, "VBUS") is info["supply"]["+5V"]
            assert (pico.ref, "GP%d" % s_cfg["cols"][c]) in members(col_gp)
            assert (pico.ref, "GP%d" % s_cfg["rows"][r]) in members(row_gp)
    elif s_cfg["kind"] == "shift_register":
        chips = info["chips"]
        assert net_of(chips[0], "QH") is gp[s_cfg["data"]]
        for k in range(1, len(chips)):
            assert net_of(chips[k], "QH") is net_of(chips[k - 1], "SER")
        assert net_of(chips[-1], "SER") is info["supply"]["+3V3"]
        for u in chips:
            assert net_of(u, "SH/LD") is gp[s_cfg["load"]]
            assert net_of(u, "CLK") is gp[s_cfg["clk"]]
            assert net_of(u, "CLK_INH") is info["supply"]["GND"]
        for s, sw in sensors.items():
            k, j = divmod(s, 8)
            sig = net_of(chips[k], "ABCDEFGH"[j])
            # the reed is on the panel's line, which reaches the input through 1 k
            line = info["panel"][sig.name]
            assert line in (sw[1].net, sw[2].net), (s, sw.ref)
            other = sw[2].net if sw[1].net is line else sw[1].net
            assert other is info["supply"]["GND"]
            assert _through_1k(line) is sig
            pulls = [p.part for p in sig.pins if p.part.fields.get("Kind") == "R_Pack"]
            assert len(pulls) == 1 and net_of(pulls[0], "COM") is info["supply"]["+3V3"]
    else:
        muxes = info["muxes"]
        for m, u in enumerate(muxes):
            mc = s_cfg["muxes"][m]
            assert net_of(u, "COM") is gp[mc["adc"]]
            assert net_of(u, "~E") is gp[mc["en"]]
            for i in range(4):
                assert net_of(u, "S%d" % i) is gp[s_cfg["select"][i]]
        for s, h in sensors.items():
            m, ch = divmod(s, 16)
            # the sensor's output reaches its channel through 1 k
            assert _through_1k(net_of(h, "OUT")) is net_of(muxes[m], "I%d" % ch), (s, h.ref)


@pytest.mark.parametrize("name", BOARDS)
def test_led_chain_is_continuous_through_the_level_shifter(built, name):
    circ, info = built[name]
    cfg = info["cfg"]
    sh = info["shifter"]
    leds = info["leds"]
    assert len(leds) == cfg["leds"]["count"] == 58
    assert net_of(sh, "1A") is info["gp"][cfg["leds"]["pin"]]
    assert net_of(sh, "VCC") is info["supply"]["+5V"]          # 5 V logic out
    assert net_of(sh, "1OE") is info["supply"]["GND"]           # buffer enabled
    out5 = net_of(sh, "1Y")
    rs = [p.part for p in out5.pins if p.part.fields.get("Kind") == "R"]
    assert len(rs) == 1
    r = rs[0]
    din0 = r[2].net if r[1].net is out5 else r[1].net
    assert net_of(leds[0], "DIN") is din0
    for k in range(1, len(leds)):
        assert net_of(leds[k - 1], "DOUT") is net_of(leds[k], "DIN"), k
        assert len(leds[k]["DIN"].net.pins) == 2
    for led in leds:
        assert net_of(led, "VDD") is info["supply"]["+5V"]


@pytest.mark.parametrize("name", BOARDS)
def test_every_part_is_powered(built, name):
    circ, info = built[name]
    sup = info["supply"]
    rails = {n for k, n in sup.items() if k != "GND"}
    checked = 0
    for p in circ.parts:
        for pin in p.pins:
            if pin.name in ("VCC", "VDD", "VSYS"):
                assert pin.net in rails, (p.ref, pin.name)
                checked += 1
            if pin.name in ("GND", "VSS", "AGND"):
                assert pin.net is sup["GND"], (p.ref, pin.name)
        if p.fields.get("Kind") in ("C", "CP") and p.fields.get("Stage") != "power":
            nets = {p[1].net, p[2].net}
            assert sup["GND"] in nets and nets & rails, p.ref
    assert checked >= 58 + 1
    # the jack reaches the 5 V rail through the fuse, the reverse-polarity FET, the
    # over-voltage switch (a TL431 comparator) and an ideal diode (an LTC4412 driving a
    # P-FET whose body diode points onto the rail: USB cannot back-feed the input); a TVS
    # across the rail; USB feeds it through a soft-start FET and its own ideal diode (not
    # on the hall board)
    by = {}
    for p in circ.parts:
        by.setdefault(p.fields.get("Kind"), []).append(p)
    jack = by["DC_Jack"][0]
    fuse = by["Fuse_PTC"][0]
    q1, q2, q_a = by["PMOS_LR"]
    assert net_of(jack, "VOUT") is net_of(fuse, 1)
    assert net_of(fuse, 2) is net_of(q1, "D") and net_of(q1, "S") is net_of(q2, "S")
    ideal = {net_of(u, "VIN"): u for u in by["LTC4412"]}
    u_a = ideal[net_of(q2, "D")]
    assert net_of(q_a, "D") is net_of(q2, "D") and net_of(q_a, "S") is sup["+5V"]
    assert net_of(u_a, "SENSE") is sup["+5V"] and net_of(u_a, "GATE") is net_of(q_a, "G")
    assert net_of(u_a, "CTL") is sup["GND"] and net_of(u_a, "GND") is sup["GND"]
    q3 = by["PNP"][0]
    assert net_of(q3, "C") is net_of(q2, "G") and net_of(q3, "E") is net_of(q2, "S")
    tl = by["TL431"][0]
    assert net_of(tl, "A") is sup["GND"] and net_of(tl, "REF").name == "OVP_REF"
    divider = sorted(_value("R", r.value) for r in by["R_Prec"])
    assert divider == [10000, 11000]                     # 2.495 V x 2.1 = 5.24 V
    tvs = by["D_TVS"][0]
    assert net_of(tvs, "K") is sup["+5V"] and net_of(tvs, "A") is sup["GND"]
    schottky = {net_of(d, "A"): net_of(d, "K") for d in by["D_Schottky"]}
    assert schottky == {sup["+5V"]: sup["VSYS"]}         # the only Schottky left
    if name == "pico-hall":
        assert "PMOS" not in by and len(ideal) == 1          # USB feeds only the Pico
    else:
        q4, q_u = by["PMOS"]
        assert net_of(q4, "S") is sup["VBUS"] and net_of(q_u, "D") is net_of(q4, "D")
        u_u = ideal[net_of(q4, "D")]
        assert net_of(q_u, "S") is sup["+5V"] and net_of(u_u, "GATE") is net_of(q_u, "G")
        assert net_of(u_u, "SENSE") is sup["+5V"]
    esd = by["USBLC6"][0]
    assert {net_of(esd, "IO1").name, net_of(esd, "IO2").name} == {"USB_DM", "USB_DP"}
    assert net_of(info["pico"], "USB_DM") is net_of(esd, "IO1")
    assert net_of(info["pico"], "VBUS") is sup["VBUS"]
    if name == "pico-hall":
        ldo = by["LDO"][0]
        assert net_of(ldo, "VIN") is sup["+5V"] and net_of(ldo, "VOUT") is sup["+3V3_HALL"]
        for h in by["DRV5053"]:
            vcc = net_of(h, "VCC")
            assert vcc is sup["+3V3_HALL"]
        # a 100 nF beside every sensor: as many on the sensors' rail as sensors
        local = [c for c in by["C"] if c.value == "100nF" and net_of(c, 1) is sup["+3V3_HALL"]]
        assert len(local) == len(by["DRV5053"]) == 56


def _through_1k(line):
    """The net a panel line reaches through its 1 k (the 4608X array's other pin), its
    line carrying one 4-line ESD array on +5V."""
    rs = [p for p in line.pins if p.part.fields.get("Kind") == "R_Array4"]
    assert len(rs) == 1 and rs[0].part.value == "1k", line.name
    num = int(rs[0].num)
    esd = [p for p in line.pins if p.part.fields.get("Kind") == "USBLC6_4"]
    assert len(esd) == 1 and esd[0].part["VBUS"].net.name == "+5V", line.name
    return rs[0].part[num - 1 if num % 2 == 0 else num + 1].net


@pytest.mark.parametrize("name", BOARDS)
def test_pin_map_matches_the_board_definition_and_schematic(built, name):
    circ, info = built[name]
    cfg = load_board(name)
    text = generate.pinmap_md(name)
    funcs = generate.pin_functions(cfg)
    for g, f in funcs.items():
        assert "| GP%d | %s |" % (g, f) in text
        # the schematic wires that GPIO (same data)
        assert g in info["gp"], g
    for g in info["gp"]:
        assert g in funcs
    assert "| 29 | GP22 | WS2812B data" in text


def test_bom_lists_every_part_with_part_numbers(built):
    circ, _ = built["pico-hall"]
    rows = generate.bom_rows(circ)
    flags = sum(1 for p in circ.parts if p.fields.get("Kind") == "PWR_FLAG")
    assert flags == 4 and sum(r[0] for r in rows) == len(circ.parts) - flags
    by_kind = {}
    for r in rows:
        by_kind.setdefault(r[2], []).append(r)
    drv = by_kind["DRV5053"][0]
    assert drv[0] == 56 and drv[5] == "DRV5053RAQLPG" and drv[4] == "Texas Instruments"
    assert by_kind["CD74HC4067"][0][0] == 4
    assert by_kind["WS2812B"][0][0] == 58 and by_kind["WS2812B"][0][1] == "LED1-LED58"
    # 100 nF at every sensor, the regulator's 1 uF in (10 uF electrolytic out), the
    # chips' and LEDs' own
    caps = {r[3]: r[0] for r in by_kind["C"]}
    # and Q2's soft start (its 1 uF gate-source, 100 nF gate-drain)
    assert caps == {"100nF": 58 + 1 + 4 + 56 + 1, "1uF": 1 + 1}
    assert {r[3]: r[0] for r in by_kind["CP"]} == {"1000uF": 1, "10uF": 1}
    for r in rows:
        assert r[4] and r[5] and r[6] == "Mouser" and r[7] > 0, r
    rows = generate.bom_all("pico-hall", circ)
    csv_lines = generate.bom_csv("pico-hall", circ).splitlines()
    assert csv_lines[0] == ("qty,refs,part,value,manufacturer,mpn,supplier,unit_eur,total_eur,"
                            "footprint,description")
    elec, mech, eur = generate.bom_totals(rows)
    assert elec == len(circ.parts) - flags
    assert csv_lines[-1].startswith("%d,,TOTAL," % (elec + mech)) and ("%.2f" % eur) in csv_lines[-1]
    assert abs(sum(r[8] for r in rows) - eur) < 0.01 and 100 < eur < 400
    mech_parts = {r[2] for r in rows if not r[1]}
    for want in ("Magnet", "Tobit piece", "Ball (kumalak)", "Stylus", "Wire", "Connector",
                 "Power supply", "Top panel", "Base panel"):
        assert want in mech_parts, want
    balls = [r for r in rows if r[2] == "Ball (kumalak)"][0]
    assert balls[0] >= 162                                # 9 in each of 18 pits
    reed_rows = generate.bom_all("pico-matrix", built["pico-matrix"][0])
    assert any(r[2] == "Reed mounting" for r in reed_rows)
    assert not any(r[2] == "Button" for r in reed_rows)  # no board file reads buttons


def _decode_mpn(kind, mpn):
    """The value a manufacturer part number codes, in ohms / farads / volts."""
    import re
    if kind in ("R", "R_Prec"):           # Yageo MFR-25FBF52-<value> / MFP-25BRD52-<value>
        m = re.fullmatch(r"MF[RP]-25(?:FBF|BRD)52-(\d+)([RKM])(\d*)", mpn)
        mult = {"R": 1, "K": 1000, "M": 1e6}[m.group(2)]
        return float(m.group(1) + "." + (m.group(3) or "0")) * mult
    if kind == "R_Array4":                # Bourns 4608X-102-<3-digit code>LF
        m = re.fullmatch(r"4608X-102-(\d\d)(\d)LF", mpn)
        return int(m.group(1)) * 10 ** int(m.group(2))
    if kind == "R_Pack":                  # Bourns 4609X-101-<3-digit code>LF
        m = re.fullmatch(r"4609X-101-(\d\d)(\d)LF", mpn)
        return int(m.group(1)) * 10 ** int(m.group(2))
    if kind == "C":                       # KEMET C320C<3-digit pF code>K5R5TA
        m = re.fullmatch(r"C320C(\d\d)(\d)K5R5TA", mpn)
        return int(m.group(1)) * 10 ** int(m.group(2)) * 1e-12
    if kind == "CP":                      # Nichicon UVR1C<3-digit uF code>M<size>
        m = re.fullmatch(r"UVR1C(\d\d)(\d)M[A-Z]{2}", mpn)
        return int(m.group(1)) * 10 ** int(m.group(2)) * 1e-6
    if kind == "D_Zener":                 # BZX79-C<volts, V as the point>,113
        m = re.fullmatch(r"BZX79-C(\d+)V?(\d*),113", mpn)
        return float(m.group(1) + "." + (m.group(2) or "0"))
    raise KeyError(kind)


def _value(kind, value):
    import re
    m = re.fullmatch(r"(\d+)([RkKMuUnNVpF]?)(\d*)(F|A)?", value)
    num = float(m.group(1) + "." + (m.group(3) or "0"))
    unit = m.group(2)
    if kind in ("R", "R_Prec", "R_Pack", "R_Array4"):
        return num * {"R": 1, "": 1, "k": 1000, "K": 1000, "M": 1e6}[unit]
    if kind in ("C", "CP"):
        return num * {"u": 1e-6, "n": 1e-9, "p": 1e-12}[unit]
    return num


@pytest.mark.parametrize("name", BOARDS)
def test_bom_part_numbers_match_their_values(built, name):
    circ, _ = built[name]
    checked = 0
    for r in generate.bom_rows(circ):
        kind, value, mpn = r[2], r[3], r[5]
        if kind in ("R", "R_Prec", "R_Pack", "R_Array4", "C", "CP", "D_Zener"):
            got = _decode_mpn(kind, mpn)
            want = _value(kind, value)
            assert abs(got - want) <= 1e-9 * max(1, want) + 1e-15, (kind, value, mpn, got, want)
            checked += 1
    assert checked >= 4
    # the old fault: 10 k resistors carrying the 330 R part number
    assert schematic.VALUE_MPN[("R", "10k")] != schematic.VALUE_MPN[("R", "330R")]
    assert checked >= 6


def test_power_budget_fits_the_supply(built):
    from playboard.hw.pads import usb_led_budget, USB_MA
    for name in BOARDS:
        circ, _ = built[name]
        cfg = load_board(name)
        text, total = generate.power_md(name, cfg, circ)
        assert cfg["leds"]["budget_ma"] < total < 2000, (name, total)
        assert "3480" in text                                   # the uncapped figure is shown
        cap, other, usb_total, reserve = generate.usb_budget(cfg, circ)
        assert cap == usb_led_budget(cfg)
        if name == "pico-hall":
            # no path from USB to its +5V (56 sensors take 202 mA): USB feeds only the Pico
            assert cap <= 0 and 255 < other < 270 and "Not possible" in text
        else:
            # the image declares bMaxPower 500 mA: the whole board stays under it
            assert 0 < cap and usb_total + reserve <= USB_MA == 500, (name, usb_total)
            assert "caps the LEDs at **%d mA**" % cap in text and "500 mA" in text
    matrix = load_board("pico-matrix")
    assert generate.usb_budget(matrix, built["pico-matrix"][0])[0] == 390


def test_generated_files_are_up_to_date(built):
    files = generate.generated({n: built[n][0] for n in BOARDS})
    for fname, text in files.items():
        path = os.path.join(ROOT, "hardware", "out", fname)
        assert os.path.exists(path), "run python hardware/generate.py"
        with open(path) as f:
            assert f.read() == text, "%s is stale: run python hardware/generate.py" % fname


@pytest.mark.parametrize("game", GAMES)
def test_template_has_every_cell_at_its_coordinates(game):
    svg = generate.templates()["template-%s.svg" % game]
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    lay = load_layout(game)
    w, h = lay.size_mm
    assert root.get("width") == "%dmm" % w and root.get("height") == "%dmm" % h
    assert root.get("viewBox") == "0 0 %d %d" % (w, h)      # 1 unit = 1 mm: to scale
    found = {}
    for el in root.iter():
        i = el.get("id") or ""
        if i.startswith(game + "-"):
            cell = int(i[len(game) + 1:])
            if el.tag == ns + "circle":
                x, y = float(el.get("cx")), h - float(el.get("cy"))
                r = float(el.get("r"))
                assert r * 2 == {"point": 16, "pit": 32}[lay.kind(cell)]
            else:
                assert el.tag == ns + "rect"
                x = float(el.get("x")) + float(el.get("width")) / 2
                y = h - (float(el.get("y")) + float(el.get("height")) / 2)
            found[cell] = (x, y)
    assert sorted(found) == sorted(lay.cells)
    for c in lay.cells:
        assert found[c] == lay.xy_mm(c), (game, c)


@pytest.mark.parametrize("lay_name", generate.LAYOUTS)
@pytest.mark.parametrize("paper", sorted(generate.PAPER))
def test_tiled_templates_cover_every_hole_on_pages_of_the_paper_size(lay_name, paper):
    from playboard.board.layout import read_layout_file
    lay = read_layout_file(os.path.join(ROOT, "firmware", "boards", "layout_%s.json" % lay_name))
    W, H = lay["size_mm"]
    pw, ph = generate.PAPER[paper]
    files = generate.tiles(lay_name, paper)
    cols, rows, sx, sy = generate.tile_grid(W, H, paper)
    assert len(files) == cols * rows
    if lay_name == "full":
        assert (cols, rows) == ({"A4": 5, "A3": 4}[paper], {"A4": 3, "A3": 2}[paper])
    windows = []
    for fname, text in files.items():
        path = os.path.join(ROOT, "hardware", "out", fname)
        assert os.path.exists(path), "run python hardware/generate.py"
        root = ET.fromstring(text)
        assert root.get("width") == "%dmm" % pw and root.get("height") == "%dmm" % ph
        assert root.get("viewBox") == "0 0 %d %d" % (pw, ph)                 # 1:1
        x0, y0, w, h = (float(root.get(k)) for k in ("data-x0", "data-y0", "data-w", "data-h"))
        assert w == pw - 20 and h == ph - 20                                 # 10 mm margins
        windows.append((x0, y0, w, h))
        assert any((el.get("id") == "page") for el in root.iter())
    # the pages overlap by 10 mm and cover the whole board
    assert max(x + w for x, y, w, h in windows) >= W and max(y + h for x, y, w, h in windows) >= H
    # every hole's centre on some page, away from the cut edges
    n = 0
    for g in ("tobit", "toguz"):
        for cell, s, led, x, y, kind in lay["games"][g]["cells"]:
            cx, cy = x, H - y
            assert any(wx <= cx <= wx + ww and wy <= cy <= wy + wh for wx, wy, ww, wh in windows)
            n += 1
    assert n == 38 + 20


@pytest.mark.parametrize("name", sorted(generate.CIRCUIT_OF))
def test_wiring_picture_labels_every_sensor_and_led(name):
    text = generate.wiring_svg(name)
    path = os.path.join(ROOT, "hardware", "out", "wiring-%s.svg" % name)
    assert os.path.exists(path)
    root = ET.fromstring(text)
    cfg = load_board(name)
    lay = load_layout("toguz", cfg["layout"])
    W, H = lay.size_mm
    assert root.get("width") == "%dmm" % (W + generate.WIRING_LEGEND_W)
    assert root.get("height") == "%dmm" % (H + generate.WIRING_PICO_H)
    ns = "{http://www.w3.org/2000/svg}"
    texts = {}
    for el in root.iter(ns + "text"):
        texts.setdefault(el.get("class"), []).append(el.text)
    sensors = set()
    for g in GAMES:
        lg = load_layout(g, cfg["layout"])
        for c in lg.cells:
            if lg.sensor_of(c) >= 0:
                sensors.add(lg.sensor_of(c))
    assert len(sensors) == 56
    assert sorted(texts["sensor-label"]) == sorted("S%d" % s for s in sensors)
    assert sorted(texts["led-label"]) == sorted("L%d" % k for k in range(58))
    assert len(texts["sensor-address"]) == 56
    if cfg["sensor"]["kind"] == "matrix":
        assert "R5 C0" in texts["sensor-address"]             # sensor 40: row 5, column 0
    chain = [el for el in root.iter(ns + "polyline") if el.get("id") == "led-chain"][0]
    assert len(chain.get("points").split()) == 58 + 1          # from the Pico through every LED


def _starts(text):
    """{(game, cell): mark} of a template's start marks."""
    root = ET.fromstring(text)
    ns = "{http://www.w3.org/2000/svg}"
    out = {}
    for g in root.iter(ns + "g"):
        gid = g.get("id") or ""
        if gid.startswith("start-"):
            for el in g.iter(ns + "circle"):
                out[(gid[6:], int(el.get("data-cell")))] = el.get("data-mark")
    return out


def test_start_marks_are_the_games_start_positions():
    # RULES.md 2.3: White's men on points 1..12, Black's on 27..38 (4 x 4: 1..10, 23..32);
    # Toguz Kumalak 9 balls in each of 18 pits, Tihbat 7 counters in each of 4
    m = generate.start_marks("tobit")
    assert sorted(p for p in m if m[p] == "W") == list(range(1, 13))
    assert sorted(p for p in m if m[p] == "B") == list(range(27, 39))
    m = generate.start_marks("tobit4")
    assert sorted(p for p in m if m[p] == "W") == list(range(1, 11))
    assert sorted(p for p in m if m[p] == "B") == list(range(23, 33))
    assert generate.start_marks("toguz") == {c: "9" for c in range(18)}
    assert generate.start_marks("tihbat") == {c: "7" for c in range(4)}


def test_every_template_and_page_marks_the_start_points():
    files = generate.templates()
    for g in GAMES:
        want = {(g, c): v for c, v in generate.start_marks(g).items()}
        assert _starts(files["template-%s.svg" % g]) == want, g
    board = {("tobit", c): v for c, v in generate.start_marks("tobit").items()}
    board.update({("toguz", c): v for c, v in generate.start_marks("toguz").items()})
    assert len(board) == 24 + 18
    for name in ("template-board.svg", "template-full-board.svg"):
        assert _starts(files[name]) == board, name
    for lay_name in generate.LAYOUTS:
        for paper in generate.PAPER:
            pages = generate.tiles(lay_name, paper)
            for fname, text in pages.items():
                assert _starts(text) == board, fname      # each page carries the whole body,
            # clipped to its window: every mark lies on some page's window
            wins = [tuple(float(ET.fromstring(t).get(k)) for k in ("data-x0", "data-y0", "data-w", "data-h"))
                    for t in pages.values()]
            root = ET.fromstring(files["template-%sboard.svg" % ("" if lay_name == "default" else "full-")])
            for el in root.iter("{http://www.w3.org/2000/svg}circle"):
                if el.get("class") == "start":
                    cx, cy = float(el.get("cx")), float(el.get("cy"))
                    assert any(x <= cx <= x + w and y <= cy <= y + h for x, y, w, h in wins)


def test_full_size_board_has_its_own_bom(built):
    # pico-matrix's circuit, the full-size layout's mechanics: the pit panel over the
    # Toguz half as deep as the pits, a light pipe per Toguz LED, longer wire
    full = {r[2] + " " + r[3]: r for r in generate.bom_all("pico-matrix-full", built["pico-matrix"][0])}
    compact = {r[2] + " " + r[3]: r for r in generate.bom_all("pico-matrix", built["pico-matrix"][0])}
    assert full["Reed reed switch, normally open (on the panel)"][0] == 56
    assert "Top panel birch plywood 6 mm, 840 x 660 mm" in full
    lay = read_layout_file(os.path.join(ROOT, "firmware", "boards", "layout_full.json"))
    w, h, plies = generate.pit_panel(lay)
    assert 12 * plies == lay["depth_mm"]["pit"] == lay["depth_mm"]["kazan"] == 24
    assert full["Pit panel birch plywood 12 mm, %d x %d mm" % (w, h)][0] == plies == 2
    toguz = [c for c in lay["games"]["toguz"]["cells"]]
    tobit = [c for c in lay["games"]["tobit"]["cells"]]
    pit_r = lay["holes_mm"]["pit"] / 2
    assert max(c[4] for c in toguz if c[5] == "pit") + pit_r < h                 # covers the pits
    assert min(c[4] for c in tobit) - lay["holes_mm"]["point"] / 2 > h          # not a point
    assert "cut to 30 mm" in full["Light pipe 5 mm clear acrylic rod, 1 m"][10]  # 20 from 1 m
    # (the compact board has its pit panel too now: its pits hold their balls)
    assert any(k.startswith("Pit panel") for k in compact)
    # the full-size pits hold their balls in a cup lifted to sow (pit_select lift); it
    # fits its pit and holds about 40 balls of 12 mm
    import math
    import re
    cup = [k for k in full if k.startswith("Pit cup")][0]
    outer, inner, high, base = (int(v) for v in re.findall(r"(\d+) mm", cup))
    assert full[cup][0] == 18 and outer < lay["holes_mm"]["pit"] and high <= lay["depth_mm"]["pit"]
    ball = 4 / 3 * math.pi * 6 ** 3 / 0.64
    assert math.pi * (inner / 2) ** 2 * (high - base) >= 40 * ball
    assert not any(k.startswith("Pit token") for k in list(full) + list(compact))
    wire = [k for k in full if k.startswith("Wire 0.14")][0]
    assert wire.endswith("x 45 m") and [k for k in compact if k.startswith("Wire 0.14")][0].endswith("x 25 m")
    assert generate.pit_panel(read_layout_file(os.path.join(ROOT, "firmware", "boards",
                                                            "layout_default.json")))[2] == 2


@pytest.mark.parametrize("lay_name", ["default", "full"])
def test_the_toguz_panel_holds_the_games_balls(built, lay_name):
    """Cup and kazan volumes from the template's holes and depths and the ball size: a
    pit's cup holds the 40 a pit has at most in play, a kazan all 162 balls (82, over
    half, wins in practice); the cup fits its hole and stands on the pit's floor; the
    BOM buys balls of the size the pits are cut for. The compact board's 6 mm top panel
    alone (a 1.5 mm recess) held none: the check fails for it."""
    import math
    lay = read_layout_file(os.path.join(ROOT, "firmware", "boards", "layout_%s.json" % lay_name))
    cap = generate.capacity(lay)
    assert cap["pit"] >= generate.PIT_BALLS and cap["kazan"] >= generate.KAZAN_BALLS, cap
    d = lay["ball_mm"]
    ball = 4 / 3 * math.pi * (d / 2) ** 3 / 0.64                   # mm3 a ball takes in a heap
    outer, inner, high, base = generate.PIT_CUPS[lay_name]
    assert cap["pit"] == int(math.pi * (inner / 2) ** 2 * (high - base) // ball)
    kw, kh = lay["holes_mm"]["kazan"]
    assert cap["kazan"] == int(kw * kh * lay["depth_mm"]["kazan"] // ball)
    assert outer < lay["holes_mm"]["pit"] and inner + 2 <= outer and high > lay["depth_mm"]["pit"] - 3
    assert inner > 3 * d                                           # balls lie side by side
    board = "pico-matrix" if lay_name == "default" else "pico-matrix-full"
    bom = {r[2]: r for r in generate.bom_all(board, built["pico-matrix"][0])}
    assert bom["Ball (kumalak)"][3] == "%d mm" % d and bom["Ball (kumalak)"][0] >= 162
    assert bom["Pit cup"][3].startswith("%d mm outside, %d mm inside" % (outer, inner))
    # what the compact panel was: no pit panel, a 1.5 mm recess: no ball fits a pit
    flat = dict(lay, depth_mm={})
    assert generate.capacity(flat) == {"pit": 0, "kazan": 0}


@pytest.mark.parametrize("name", BOARDS)
def test_board_titles_count_the_parts_the_schematic_has(built, name):
    # the old fault: the hall board's title said 64 sensors, its BOM 56
    import re
    circ, _ = built[name]
    kinds = {}
    for p in circ.parts:
        kinds[p.fields.get("Kind")] = kinds.get(p.fields.get("Kind"), 0) + 1
    title = load_board(name)["title"]
    named = re.findall(r"(\d+) (?:x )?(DRV5053|WS2812B|CD74HC4067|74HC165)", title)
    assert named, title
    for n, kind in named:
        assert int(n) == kinds[kind], (title, kind, kinds[kind])


@pytest.mark.parametrize("lay_name", generate.LAYOUTS)
def test_leds_sit_beside_their_pieces_where_they_can_be_seen(built, lay_name):
    """Each LED (hardware/out/leds-<layout>.csv, the templates' green holes) clear of
    every piece, pit token, cup and kazan on the panel, inside it, and nearer its own
    cell than any other. The pieces' sizes are the BOM's."""
    import csv
    import re
    lay = read_layout_file(os.path.join(ROOT, "firmware", "boards", "layout_%s.json" % lay_name))
    board = "pico-matrix" if lay_name == "default" else "pico-matrix-full"
    bom = {r[2]: r for r in generate.bom_all(board, built["pico-matrix"][0])}
    piece = int(re.match(r"(\d+) mm", bom["Tobit piece"][3]).group(1))
    pit_cover = lay["holes_mm"]["pit"]
    if "Pit token" in bom:
        pit_cover = max(pit_cover, int(re.match(r"(\d+) mm", bom["Pit token"][3]).group(1)))
    if "Pit cup" in bom:
        cup = int(re.match(r"(\d+) mm outside", bom["Pit cup"][3]).group(1))
        assert cup <= lay["holes_mm"]["pit"]
    assert piece == 30
    with open(os.path.join(ROOT, "hardware", "out", "leds-%s.csv" % lay_name)) as f:
        rows = list(csv.DictReader(f))
    w, h = lay["size_mm"]
    cells = {}
    led_cell = {}
    for g in lay["games"].values():
        for cell, s, led, x, y, kind in g["cells"]:
            cells[(x, y)] = kind
            if led >= 0:
                led_cell[led] = (x, y)
    assert sorted(int(r["led"]) for r in rows) == sorted(led_cell) and len(rows) == 58
    led_r = int(rows[0]["hole_mm"]) / 2
    for r in rows:
        px, py = float(r["x_mm"]), float(r["y_mm"])
        own = (int(r["cell_x_mm"]), int(r["cell_y_mm"]))
        assert own == led_cell[int(r["led"])]
        assert led_r < px < w - led_r and led_r < py < h - led_r
        for (x, y), kind in cells.items():
            size = lay["holes_mm"][kind]
            if isinstance(size, list):             # a kazan: its balls fill the hole
                dx = max(abs(px - x) - size[0] / 2, 0)
                dy = max(abs(py - y) - size[1] / 2, 0)
                gap = (dx * dx + dy * dy) ** 0.5 - led_r
            else:
                c = {"point": max(size, piece), "pit": max(size, pit_cover)}[kind]
                gap = ((px - x) ** 2 + (py - y) ** 2) ** 0.5 - c / 2 - led_r
            assert gap >= 2, (r["led"], (x, y), gap)      # not covered, 2 mm to spare
        if not isinstance(lay["holes_mm"][cells[own]], list):
            near = min(cells, key=lambda q: (q[0] - px) ** 2 + (q[1] - py) ** 2)
            assert near == own, (r["led"], near, own)    # beside its own point or pit
        # its own piece is near: the LED is read as that point's
        assert ((px - own[0]) ** 2 + (py - own[1]) ** 2) ** 0.5 < 60
    # the templates carry the same holes
    svg = generate.templates()["template-board.svg" if lay_name == "default" else "template-full-board.svg"]
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    holes = {c.get("id"): c for c in root.iter(ns + "circle") if c.get("class") == "led"}
    assert len(holes) == 58
    for r in rows:
        c = holes["led-%s" % r["led"]]
        assert abs(float(c.get("cx")) - float(r["x_mm"])) < 0.01
        assert abs(float(c.get("cy")) - (h - float(r["y_mm"]))) < 0.01


@pytest.mark.parametrize("name", BOARDS)
def test_every_controller_part_is_placeable_on_the_perfboard(built, name):
    """Every part the controller carries is through-hole with 2.54 mm pins or on a
    breakout that has them, placed inside the BOM's perfboard, no two overlapping, and
    every one of its pins reaches its net in the wire list."""
    import controller
    circ, _ = built[name]
    parts = controller.controller_parts(circ)
    smd = [p.ref for p in parts if "SMD" in p.footprint and "breakout" not in p.fields["Mount"]]
    assert smd == []
    assert {p.fields["Kind"] for p in parts} >= {"Pico", "74AHCT125", "PMOS_LR", "LTC4412",
                                                 "TL431", "CP"}
    mm, (W, H) = controller.board_size(circ)
    bom = {r[2]: r for r in generate.bom_all(name, circ)}
    assert bom["Perfboard"][3].startswith("%d x %d mm" % mm)
    placed = controller.place(circ, (W, H))
    assert set(placed) == {p.ref for p in parts}
    used = {}
    for ref, (x, y, w, h) in placed.items():
        assert 0 <= x and x + w <= W and 0 <= y and y + h <= H, ref
        for c in range(x, x + w):
            for r in range(y, y + h):
                assert (c, r) not in used, (ref, used.get((c, r)))
                used[(c, r)] = ref
    holes = controller.pins(circ, placed)
    text = controller.wirelist(name, circ)
    rows = {ln.split(" | ")[0][2:]: ln for ln in text.splitlines() if ln.startswith("| ")}
    for p in parts:
        for pin in p.pins:
            if pin.net is None or pin.net.name == "__NOCONNECT":
                assert "__NOCONNECT" not in text
                continue
            h = holes[(p.ref, str(pin.num))]
            cell = "%s.%s (%s)" % (p.ref, pin.num, "pad under the Pico" if h is None
                                   else "%d,%d" % (h[0] + 1, h[1] + 1))
            assert cell in rows[pin.net.name], (p.ref, pin.num, pin.net.name)
            if h is not None:
                assert used[h] == p.ref
    # the panel's parts go by wire: the LED chain's data leaves the board to LED1
    assert "LED1.4 (panel)" in rows["LED_DIN_0"]


@pytest.mark.parametrize("name", BOARDS)
def test_schematic_drawing_shows_every_part_and_net(built, name):
    """schematic-<board>.svg, drawn from the same SKiDL circuit: every part a box, every
    pin labelled with its own net, so every net of the netlist is on the drawing."""
    import drawing
    circ, _ = built[name]
    root = ET.fromstring(drawing.svg(name, circ))
    ns = "{http://www.w3.org/2000/svg}"
    labels = {(t.get("data-ref"), t.get("data-pin")): t.text for t in root.iter(ns + "text")
              if t.get("class") == "net"}
    boxes = {g.get("id")[4:] for g in root.iter(ns + "g") if g.get("class") == "part"}
    parts = [p for p in circ.parts if not p.ref.startswith("#FLG")]
    assert boxes == {p.ref for p in parts}
    for p in parts:
        for pin in p.pins:
            want = "NC" if pin.net is None or pin.net.name == "__NOCONNECT" else pin.net.name
            assert labels[(p.ref, str(pin.num))] == want, (p.ref, pin.num)
    nets = {n.name for n in circ.nets if n.name != "__NOCONNECT" and
            any(not q.part.ref.startswith("#FLG") for q in n.pins)}
    assert nets <= set(labels.values()), nets - set(labels.values())
    assert len(nets) > 100


@pytest.mark.parametrize("lay_name", generate.LAYOUTS)
def test_panel_stack_leaves_wood_under_every_cut(lay_name):
    """stack-<layout>.svg: each recess from above and the sensor's groove from below leave
    WOOD_MIN_MM of the top panel between them (the old 3 mm pit recess over a 3 mm
    groove in 6 mm left none); the groove takes the reed's glass."""
    lay = read_layout_file(os.path.join(ROOT, "firmware", "boards", "layout_%s.json" % lay_name))
    st = generate.STACK
    assert st["groove"] >= st["reed_glass"] and st["groove_w"] >= st["reed_glass"]
    root = ET.fromstring(generate.stack_svg(lay_name))
    ns = "{http://www.w3.org/2000/svg}"
    wood = {t.get("data-kind"): float(t.get("data-mm")) for t in root.iter(ns + "text")
            if t.get("class") == "wood"}
    assert set(wood) == {"point", "pit"}
    for kind in {c[5] for g in lay["games"].values() for c in g["cells"]}:
        left = generate.wood_left(lay, kind)
        through = lay.get("depth_mm", {}).get(kind, 0)
        assert abs(left - (st["top"] - (0 if through else st["recess"][kind]) - st["groove"])) < 1e-9
        assert left >= generate.WOOD_MIN_MM, (kind, left)
        if kind in wood:
            assert wood[kind] == left
    layers = [float(r.get("data-mm")) for r in root.iter(ns + "rect") if r.get("class") == "layer"]
    assert layers[-3:] == [st["top"], st["frame"], st["base"]]
    if lay.get("depth_mm"):
        assert layers[0] == lay["depth_mm"]["pit"] == 24


@pytest.mark.parametrize("name", BOARDS)
def test_every_harness_connector_is_on_the_perfboard_drawing(built, name):
    """Every net that leaves the controller for the panel goes through a JST XH header
    the schematic carries; every connector of the netlist is placed on the drawing
    (controller-<board>.svg, as committed) with a hole for each pin, and the wire list
    joins each header pin to its net."""
    import re
    circ, info = built[name]
    heads = [p for p in circ.parts if p.fields.get("Kind", "").startswith("XH")]
    assert heads and {j.ref for j, nets in info["harness"]} == {p.ref for p in heads}
    through = {}
    for j, nets in info["harness"]:
        assert 2 <= len(nets) <= 8 and [j[i + 1].net.name for i in range(len(nets))] == nets
        for n in nets:
            through.setdefault(n, j.ref)
    for n in circ.nets:
        if n.name == "__NOCONNECT":
            continue                                         # pins left open
        mounts = {p.part.fields.get("Mount", "").split(":")[0] for p in n.pins}
        if "controller" in mounts and "panel" in mounts:
            assert n.name in through, n.name                 # no wire leaves unheaded
    with open(os.path.join(ROOT, "hardware", "out", "controller-%s.svg" % name)) as f:
        svg = f.read()
    with open(os.path.join(ROOT, "hardware", "out", "controller-%s.md" % name)) as f:
        md = f.read()
    for p in heads:
        g = re.search(r'<g id="part-%s" class="%s"[^>]*>(.*?)</g>' % (p.ref, p.fields["Kind"]),
                      svg, re.S)
        assert g, p.ref
        holes = len(re.findall(r"<(?:rect|circle) [^>]*fill=\"navy\"", g.group(1)))
        assert holes == len(p.pins), (p.ref, holes)
        for pin in p.pins:
            row = [ln for ln in md.splitlines() if ln.startswith("| %s | " % pin.net.name)][0]
            assert re.search(r"\b%s\.%s \(\d+,\d+\)" % (p.ref, pin.num), row), (p.ref, pin.num)
    if name == "pico-matrix":
        assert sorted(len(nets) for j, nets in info["harness"]) == [3, 8, 8]
    elif name == "pico-hall":
        assert sum(len(nets) for j, nets in info["harness"]) == 3 + 2 + 56
