"""hardware/: each BOM part's footprint and part number are one part, where the part
number says which: a footprint named after a maker's part (Bourns, CUI, JST, On Shore)
names the BOM's part number; a part number's package code (TI's N / E, ST's SC6, ADI's
S6, ...) is the footprint's package. The old fault, an MF-R250 fuse on an MF-RG300
land, is caught."""
import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import generate  # noqa: E402
import schematic  # noqa: E402

# footprints named after one maker's part: (the footprint's pattern, its part's group)
NAMED = [
    r"Fuse:Fuse_Bourns_(MF-[A-Z]+\d+)$",
    r"Connector_BarrelJack:BarrelJack_CUI_([A-Z0-9-]+)_",
    r"Connector_JST:JST_XH_(B\dB-XH-A)_",
    r"Connector_USB:USB_B_OST_(USB-B1HS)xx_",       # (xx: the colour and finish)
]

# (part number, the footprint's package, what the part number's code says)
PACKAGES = [
    (r"SN74(AHCT125|HC165)N", r"Package_DIP:DIP-(14|16)_W7\.62mm", "TI: N = PDIP"),
    (r"CD74HC4067E", r"Package_DIP:DIP-24_W15\.24mm", "TI: E = PDIP-24, 600 mil"),
    (r"USBLC6-[24]SC6", r"Package_TO_SOT_SMD:SOT-23-6", "ST: SC6 = SOT23-6L"),
    (r"LTC4412ES6#PBF", r"Package_TO_SOT_SMD:SOT-23-6", "ADI: S6 = 6-lead ThinSOT"),
    (r"AO3401A", r"Package_TO_SOT_SMD:SOT-23", "AOS: SOT-23 only"),
    (r"AOD4185", r"Package_TO_SOT_SMD:TO-252-2", "AOS: AOD = TO-252 (DPAK)"),
    (r"2N390[46]BU|TL431BILP|DRV5053RAQLPG", r"Package_TO_SOT_THT:TO-92_Inline",
     "onsemi BU / TI LP, LPG = TO-92"),
    (r"LD1117V33", r"Package_TO_SOT_THT:TO-220-3_Vertical", "ST: V = TO-220"),
    (r"MF[RP]-25(FBF|BRD)52-\w+", r"Resistor_THT:R_Axial_DIN0207_",
     "Yageo MFR-25 / MFP-25: 0.25 W, 6.3 x 2.5 mm body (DIN 0207)"),
    (r"1N4148|BAT85|BZX79-C\w+,113", r"Diode_THT:D_DO-35_", "DO-35"),
    (r"1N5817", r"Diode_THT:D_DO-41_", "DO-41"),
    (r"1N5822", r"Diode_THT:D_DO-201AD_", "DO-201AD"),
    (r"SA5\.0A", r"Diode_THT:D_DO-15_", "Littelfuse SA: DO-15"),
    (r"4608X-[\w-]+", r"Resistor_THT:R_Array_SIP8", "Bourns 46xxX: xx = pins"),
    (r"4609X-[\w-]+", r"Resistor_THT:R_Array_SIP9", "Bourns 46xxX: xx = pins"),
    (r"WS2812B-B/W", r"LED_SMD:LED_WS2812B_PLCC4_5\.0x5\.0mm", "5050 PLCC4"),
]

# parts whose number names no package the footprint could be checked against: the
# Pico (a module), the reed (wired on the panel), the capacitors (KEMET's and
# Nichicon's size codes not decoded here)
UNCHECKED = {"Pico", "Reed", "C", "CP"}


def mismatch(mpn, footprint):
    """Why ``footprint`` is not ``mpn``'s land (a sentence), or None when it is or
    nothing can be told; the rules above."""
    for pat in NAMED:
        m = re.match(pat, footprint)
        if m and not mpn.startswith(m.group(1)):
            return "%s: its footprint %s is %s's land" % (mpn, footprint, m.group(1))
    for part, pkg, why in PACKAGES:
        if re.fullmatch(part, mpn):
            if not re.match(pkg, footprint):
                return "%s: %s, not %s" % (mpn, why, footprint)
            return None
    return None


def _rows():
    rows = []
    for name in schematic.SENSOR_BOARDS:
        circ, _ = schematic.build(name)
        rows += [(r[2], r[5], r[8]) for r in generate.bom_rows(circ)]
    return sorted(set(rows))


@pytest.fixture(scope="module")
def rows():
    return _rows()


def test_every_bom_part_is_its_footprints_part(rows):
    assert [mismatch(mpn, fp) for _, mpn, fp in rows if mismatch(mpn, fp)] == []
    fuse = [(mpn, fp) for kind, mpn, fp in rows if kind == "Fuse_PTC"]
    assert fuse == [("MF-R250", "Fuse:Fuse_Bourns_MF-R250")]


def test_every_part_a_rule_can_check_is_checked(rows):
    """A part added later without a rule for its package fails here (or joins
    UNCHECKED, saying why)."""
    def covered(mpn, fp):
        return (any(re.match(p, fp) for p in NAMED)
                or any(re.fullmatch(p, mpn) for p, _, _ in PACKAGES))
    left = [(kind, mpn, fp) for kind, mpn, fp in rows
            if kind not in UNCHECKED and not covered(mpn, fp)]
    assert left == []
    assert len(rows) > 30


def test_the_checker_catches_the_old_and_other_wrong_lands():
    assert "MF-RG300" in mismatch("MF-R250", "Fuse:Fuse_Bourns_MF-RG300")
    assert mismatch("61729-0010BLF", "Connector_USB:USB_B_OST_USB-B1HSxx_Horizontal")
    assert mismatch("B3B-XH-A", "Connector_JST:JST_XH_B4B-XH-A_1x04_P2.50mm_Vertical")
    assert mismatch("SN74HC165N", "Package_SO:SOIC-16_3.9x9.9mm_P1.27mm")
    assert mismatch("USBLC6-2SC6", "Package_TO_SOT_SMD:SOT-23")
    assert mismatch("MFR-25FBF52-10K", "Resistor_SMD:R_0805_2012Metric")
    assert mismatch("MF-R250", "Fuse:Fuse_Bourns_MF-R250") is None
    assert mismatch("USB-B1HSW6", "Connector_USB:USB_B_OST_USB-B1HSxx_Horizontal") is None


# Bourns MF-R250 (MF-R datasheet): hold 2.5 A, 30 V max
FUSE_HOLD_A = 2.5
FUSE_V = 30.0


def test_the_fuse_holds_every_boards_current_and_the_adapters_voltage():
    import spice
    from playboard.config import load_board
    totals = []
    for name in schematic.SENSOR_BOARDS:
        circ, _ = schematic.build(name)
        _, total = generate.power_md(name, load_board(name), circ)
        totals.append(total)
    # the largest board's budget (the hall board, about 1.76 A) under the 2.5 A hold
    assert 1500 < max(totals) < 1e3 * FUSE_HOLD_A
    # its 30 V over the highest adapter the SPICE cases plug in (24 V)
    assert spice.RATINGS["Fuse_PTC"]["v"] == FUSE_V
    assert max(abs(v) for _, v, _, _ in spice.CASES if v is not None) <= FUSE_V
