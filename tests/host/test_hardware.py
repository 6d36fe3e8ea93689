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
from playboard.board.layout import load_layout, GAMES  # noqa: E402

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
        assert '(ref "%s")' % p.ref in text
    assert '(value "SC0915")' not in text and "RaspberryPi_Pico" in text


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
            row = gp[s_cfg["rows"][r]]
            assert row in nets, (s, sw.ref)
            mid = nets[0] if nets[1] is row else nets[1]
            diodes = [p.part for p in mid.pins if p.part.fields.get("Kind") == "1N4148"]
            assert len(diodes) == 1 and diodes[0]["K"].net is mid
            col = net_of(diodes[0], "A")
            assert col is gp[s_cfg["cols"][c]]
            assert (pico.ref, "GP%d" % s_cfg["cols"][c]) in members(col)
            assert (pico.ref, "GP%d" % s_cfg["rows"][r]) in members(row)
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
            assert sig in (sw[1].net, sw[2].net), (s, sw.ref)
            other = sw[2].net if sw[1].net is sig else sw[1].net
            assert other is info["supply"]["GND"]
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
            assert net_of(h, "OUT") is net_of(muxes[m], "I%d" % ch), (s, h.ref)


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
    rails = {sup["+5V"], sup["VSYS"]} | ({sup["+3V3"]} if "+3V3" in sup else set())
    checked = 0
    for p in circ.parts:
        for pin in p.pins:
            if pin.name in ("VCC", "VDD", "VSYS"):
                assert pin.net in rails, (p.ref, pin.name)
                checked += 1
            if pin.name in ("GND", "VSS", "AGND"):
                assert pin.net is sup["GND"], (p.ref, pin.name)
        if p.fields.get("Kind") in ("C", "CP"):
            nets = {p[1].net, p[2].net}
            assert sup["GND"] in nets and nets & rails, p.ref
    assert checked >= 58 + 1
    # the supply reaches the Pico and the 5 V rail from the jack
    jack = [p for p in circ.parts if p.fields.get("Kind") == "DC_Jack"][0]
    assert net_of(jack, "VOUT") is sup["+5V"]


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
    assert sum(r[0] for r in rows) == len(circ.parts)
    by_kind = {r[2]: r for r in rows}
    assert by_kind["DRV5053"][0] == 56 and by_kind["DRV5053"][4] == "DRV5053RAQDBZR"
    assert by_kind["CD74HC4067"][0] == 4
    assert by_kind["WS2812B"][0] == 58 and by_kind["WS2812B"][1] == "LED1-LED58"
    assert all(r[4] for r in rows)
    csv_text = generate.bom_csv(circ)
    assert csv_text.splitlines()[0] == "qty,refs,part,value,mpn,footprint,description"


def test_power_budget_fits_the_supply(built):
    for name in BOARDS:
        circ, _ = built[name]
        cfg = load_board(name)
        text, total = generate.power_md(name, cfg, circ)
        assert cfg["leds"]["budget_ma"] < total < 2000, (name, total)
        assert "3480" in text                                   # the uncapped figure is shown


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
