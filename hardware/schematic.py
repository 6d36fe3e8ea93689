"""The Playboard schematic as code (SKiDL), one circuit per sensor option.

``build(board_name)`` reads the firmware's board definition
(``firmware/boards/<board_name>.json``, the same data the firmware validates and
runs on) and the default layout, and returns a SKiDL ``Circuit``:

- power (docs/hardware.md, "The hardware folder"; every fault case proved in SPICE by
  hardware/spice.py): a 5 V DC jack through a resettable fuse (PTC), a reverse-polarity
  P-FET and an over-voltage switch (a second P-FET that a TL431 comparator turns off
  above 5.17-5.31 V) and a Schottky diode onto the +5 V rail, a TVS diode across it;
  a USB B socket in the enclosure wall, its data lines through an ESD array to the
  Pico's USB test pads, its VBUS to the Pico and (reed boards) through a soft-started
  P-FET, off while an adapter is in, and a Schottky diode onto the same rail: the two
  diodes OR the sources, neither back-feeds the other; a Schottky diode from +5 V into
  the Pico's VSYS; the Pico's 3V3 output for the logic; a 1000 uF bulk capacitor at
  the LED chain;
- the Raspberry Pi Pico, wired pin for pin from the board definition;
- the LED chain: GP(leds.pin) -> 74AHCT125 buffer (3.3 V in, 5 V out) -> 330 ohm ->
  WS2812B 0 -> ... -> WS2812B 57 (each with 100 nF), in the layout's LED order;
- the sensors, by ``sensor.kind``:
  ``matrix``: per sensor a reed switch and a 1N4148 (anode to the column), rows and
  columns on the Pico's GPIOs; spare crossings are left empty;
  ``shift_register``: per sensor a reed switch to GND with a 10 k pull-up (bussed
  resistor networks), 74HC165s chained QH -> SER, chip 0's QH on the data pin;
  ``hall_mux``: per sensor a DRV5053 (with its own 100 nF) into a CD74HC4067
  channel, the multiplexers' commons on the ADC pins, select and enable lines on
  GPIOs; the sensors on their own 3.3 V regulator (LD1117, 800 mA: 56 sensors draw
  up to 202 mA, too much for the Pico's 3V3 output beside the logic).

Pin types are the parts' real ones (power outputs only where a regulator, the jack or
USB sources a rail); a rail fed through a passive part (fuse, FET, diode) carries a
``PWR_FLAG`` as in KiCad, and nothing else is forced.

Every part is defined here with its pins (``Part(tool=SKIDL, ...)``): no KiCad
symbol library is needed. ``python hardware/schematic.py [board ...]`` writes
``hardware/out/<board>.net`` (KiCad netlist) after the electrical rules check.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.join(ROOT, "firmware") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "firmware"))

os.environ.setdefault("KICAD_SYMBOL_DIR", "")

import skidl  # noqa: E402
from skidl import SKIDL, TEMPLATE, Circuit, Net, Part  # noqa: E402
from skidl import Pin as SPin  # noqa: E402

from playboard.config import load_board  # noqa: E402
from playboard.board.layout import read_layout_file  # noqa: E402


def _fast_trace():
    """Where a SKiDL object was made, without inspect.stack() (which reads every
    source file on the stack and took three quarters of the build time)."""
    trace = []
    f = sys._getframe(1)
    skidl_dir = os.path.dirname(skidl.__file__)
    while f is not None:
        fn = f.f_code.co_filename
        if not fn.startswith(skidl_dir):
            trace.append((fn, str(f.f_lineno)))
        f = f.f_back
    trace.reverse()
    return trace


# no .log/.erc files in the working folder: messages go to stderr only
skidl.logger.stop_log_file_output()

for _mod in ("circuit", "node", "logger", "scriptinfo"):
    _m = sys.modules.get("skidl." + _mod)
    if _m is not None and hasattr(_m, "get_skidl_trace"):
        _m.get_skidl_trace = _fast_trace

SENSOR_BOARDS = ("pico-matrix", "pico-165", "pico-hall")
T = SPin.types

# Raspberry Pi Pico: physical pin -> name (GPn, power pins)
PICO_PINS = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND",
    9: "GP6", 10: "GP7", 11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11",
    16: "GP12", 17: "GP13", 18: "GND", 19: "GP14", 20: "GP15", 21: "GP16", 22: "GP17",
    23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND", 29: "GP22",
    30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF", 36: "3V3",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}
PICO_PIN_OF = {}
for _num, _name in PICO_PINS.items():
    if _name.startswith("GP"):
        PICO_PIN_OF[int(_name[2:])] = _num

# Part catalogue: name -> (ref prefix, footprint, manufacturer part number, pins, description)
# pins: list of (number, name, type)
_IN, _OUT, _BI, _PAS = T.INPUT, T.OUTPUT, T.BIDIR, T.PASSIVE
_PWRIN, _PWROUT, _NC = T.PWRIN, T.PWROUT, T.NOCONNECT


def _pico_pins():
    pins = []
    for num, name in sorted(PICO_PINS.items()):
        if name.startswith("GP"):
            kind = _BI
        elif name in ("GND", "AGND"):
            kind = _PWRIN
        elif name == "3V3":
            kind = _PWROUT
        elif name == "VSYS":
            kind = _PWRIN
        else:
            # VBUS (fed by the USB socket in the wall), RUN, 3V3_EN, ADC_VREF (left open)
            kind = _PAS
        pins.append((num, name, kind))
    # the USB data lines' test pads under the Pico (TP2 D-, TP3 D+): wired to the wall
    # socket through the ESD array
    pins += [("TP2", "USB_DM", _BI), ("TP3", "USB_DP", _BI)]
    return pins


# Footprints: the controller is built on 2.54 mm perfboard (docs/build.md), so its
# parts are through-hole; the few parts made only as SMD (the P-FETs, the USB ESD
# array) come on a breakout board with 2.54 mm pins (``MOUNT``). The LEDs and the
# sensors sit on the panel, wired to the controller.
CATALOGUE = {
    "Pico": ("U", "Module:RaspberryPi_Pico_Common_THT", "SC0915",
             _pico_pins(), "Raspberry Pi Pico (RP2040), soldered on 2 x 20 pin headers"),
    "DC_Jack": ("J", "Connector_BarrelJack:BarrelJack_CUI_PJ-102AH_Horizontal", "PJ-102AH",
                [(1, "VOUT", _PWROUT), (2, "GND", _PWROUT)], "5 V 2 A DC input, 5.5 x 2.1 mm"),
    "USB_B": ("J", "Connector_USB:USB_B_OST_USB-B1HSxx_Horizontal", "USB-B1HSW6",
              [(1, "VBUS", _PWROUT), (2, "D-", _BI), (3, "D+", _BI), (4, "GND", _PAS),
               (5, "SHIELD", _PAS)], "USB B socket in the enclosure wall (the Pico's own "
              "micro-USB stays unplugged)"),
    "USBLC6": ("U", "Package_TO_SOT_SMD:SOT-23-6", "USBLC6-2SC6",
               [(1, "IO1", _PAS), (2, "GND", _PAS), (3, "IO2", _PAS), (4, "IO2b", _PAS),
                (5, "VBUS", _PAS), (6, "IO1b", _PAS)],
               "USB ESD protection (IEC 61000-4-2 8 kV contact), on a SOT-23-6 breakout"),
    "USBLC6_4": ("U", "Package_TO_SOT_SMD:SOT-23-6", "USBLC6-4SC6",
                 [(1, "IO1", _PAS), (2, "GND", _PAS), (3, "IO2", _PAS), (4, "IO3", _PAS),
                  (5, "VBUS", _PAS), (6, "IO4", _PAS)],
                 "4-line ESD protection (IEC 61000-4-2 8 kV contact): the sensor lines, "
                 "on a SOT-23-6 breakout"),
    "PWR_FLAG": ("#FLG", "", "", [(1, "pwr", _PWROUT)], "power flag (schematic only)"),
    # MF-R250: 2.5 A hold (the board's 1.8 A at most, the jack's 2.5 A), 30 V (the MF-RG
    # and MF-RHT series are 16 V above 1 A: under the 24 V adapter the SPICE cases
    # apply). KiCad ships no MF-R land: "Fuse_Bourns_MF-R250" is this part's two leads
    # 5.08 mm apart (Bourns MF-R datasheet: lead spacing 5.1 mm, MF-R110..R400), the
    # land of KiCad's Fuse_Bourns_MF-RHT200 / -RHT900 (LANDS)
    "Fuse_PTC": ("F", "Fuse:Fuse_Bourns_MF-R250", "MF-R250",
                 [(1, "1", _PAS), (2, "2", _PAS)], "PTC resettable fuse, 2.5 A hold, 30 V"),
    "PMOS": ("Q", "Package_TO_SOT_SMD:SOT-23", "AO3401A",
             [(1, "G", _IN), (2, "S", _PAS), (3, "D", _PAS)],
             "P-channel MOSFET -30 V 4 A, on a SOT-23 breakout"),
    "PMOS_LR": ("Q", "Package_TO_SOT_SMD:TO-252-2", "AOD4185",
                [(1, "G", _IN), (2, "D", _PAS), (3, "S", _PAS)],
                "P-channel MOSFET -40 V, 20 mOhm at Vgs -4.5 V, TO-252 on a breakout"),
    "PNP": ("Q", "Package_TO_SOT_THT:TO-92_Inline", "2N3906BU",
            [(2, "B", _IN), (1, "E", _PAS), (3, "C", _PAS)], "PNP transistor 40 V 200 mA"),
    "NPN": ("Q", "Package_TO_SOT_THT:TO-92_Inline", "2N3904BU",
            [(2, "B", _IN), (1, "E", _PAS), (3, "C", _PAS)], "NPN transistor 40 V 200 mA"),
    "TL431": ("U", "Package_TO_SOT_THT:TO-92_Inline", "TL431BILP",
              [(1, "REF", _IN), (2, "A", _PAS), (3, "K", _PAS)],
              "shunt reference 2.495 V +-0.5 %: the over-voltage comparator"),
    "D_Zener": ("D", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal", "BZX79-C10,113",
                [(1, "K", _PAS), (2, "A", _PAS)], "Zener diode 500 mW"),
    "D_TVS": ("D", "Diode_THT:D_DO-15_P10.16mm_Horizontal", "SA5.0A",
              [(1, "K", _PAS), (2, "A", _PAS)], "TVS diode 5 V stand-off, 500 W"),
    "LDO": ("U", "Package_TO_SOT_THT:TO-220-3_Vertical", "LD1117V33",
            [(1, "GND", _PWRIN), (2, "VOUT", _PWROUT), (3, "VIN", _PWRIN)],
            "3.3 V 800 mA LDO regulator"),
    "D_Schottky": ("D", "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal", "1N5817",
                   [(1, "K", _PAS), (2, "A", _PAS)], "Schottky diode 1 A 20 V"),
    "D_Schottky3A": ("D", "Diode_THT:D_DO-201AD_P15.24mm_Horizontal", "1N5822",
                     [(1, "K", _PAS), (2, "A", _PAS)], "Schottky diode 3 A 40 V"),
    "LTC4412": ("U", "Package_TO_SOT_SMD:SOT-23-6", "LTC4412ES6#PBF",
                [(1, "VIN", _PWRIN), (2, "GND", _PWRIN), (3, "CTL", _IN), (4, "STAT", _OUT),
                 (5, "GATE", _OUT), (6, "SENSE", _IN)],
                "ideal-diode (PowerPath) controller 2.5-28 V, -14..36 V abs. max: drives "
                "a P-FET as a 20 mV diode, on a SOT-23-6 breakout"),
    "D_SchottkySig": ("D", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal", "BAT85",
                      [(1, "K", _PAS), (2, "A", _PAS)], "small-signal Schottky diode 30 V"),
    "CP": ("C", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm", "UVR1C102MPD",
           [(1, "+", _PAS), (2, "-", _PAS)], "electrolytic capacitor 16 V"),
    "C": ("C", "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm", "C320C104K5R5TA",
          [(1, "1", _PAS), (2, "2", _PAS)], "ceramic capacitor X7R 50 V"),
    "R": ("R", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
          "MFR-25FBF52-330R", [(1, "1", _PAS), (2, "2", _PAS)], "resistor 1 % 0.25 W"),
    "R_Prec": ("R", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
               "MFP-25BRD52-10K", [(1, "1", _PAS), (2, "2", _PAS)],
               "resistor 0.1 % 25 ppm/K (the over-voltage divider)"),
    "R_Array4": ("RN", "Resistor_THT:R_Array_SIP8", "4608X-102-102LF",
                 [(i + 1, "%d" % (i + 1), _PAS) for i in range(8)],
                 "4 isolated resistors (1-2, 3-4, 5-6, 7-8), SIP-8: the sensor lines' series "
                 "resistors"),
    "R_Pack": ("RN", "Resistor_THT:R_Array_SIP9", "4609X-101-103LF",
               [(1, "COM", _PAS)] + [(i + 2, "R%d" % (i + 1), _PAS) for i in range(8)],
               "8 x 10 k bussed resistor network"),
    "74AHCT125": ("U", "Package_DIP:DIP-14_W7.62mm", "SN74AHCT125N",
                  [(1, "1OE", _IN), (2, "1A", _IN), (3, "1Y", _OUT), (4, "2OE", _IN),
                   (5, "2A", _IN), (6, "2Y", _OUT), (7, "GND", _PWRIN), (8, "3Y", _OUT),
                   (9, "3A", _IN), (10, "3OE", _IN), (11, "4Y", _OUT), (12, "4A", _IN),
                   (13, "4OE", _IN), (14, "VCC", _PWRIN)],
                  "quad buffer, TTL inputs: 3.3 V -> 5 V level shifter"),
    "WS2812B": ("LED", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", "WS2812B-B/W",
                [(1, "VDD", _PWRIN), (2, "DOUT", _OUT), (3, "VSS", _PWRIN), (4, "DIN", _IN)],
                "addressable RGB LED (on the panel, pre-soldered on a 10 mm round PCB)"),
    "Reed": ("SW", "Connector_Wire:SolderWire-0.5sqmm_1x02_P4.6mm_D0.9mm_OD2.1mm", "MKA-14103",
             [(1, "1", _PAS), (2, "2", _PAS)], "reed switch, normally open (on the panel)"),
    "Button": ("SW", "Button_Switch_THT:SW_PUSH_6mm", "B3F-1000",
               [(1, "1", _PAS), (2, "2", _PAS)], "push button"),
    "1N4148": ("D", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal", "1N4148",
               [(1, "K", _PAS), (2, "A", _PAS)], "signal diode (at its reed switch)"),
    "74HC165": ("U", "Package_DIP:DIP-16_W7.62mm", "SN74HC165N",
                [(1, "SH/LD", _IN), (2, "CLK", _IN), (3, "E", _IN), (4, "F", _IN), (5, "G", _IN),
                 (6, "H", _IN), (7, "~QH", _OUT), (8, "GND", _PWRIN), (9, "QH", _OUT),
                 (10, "SER", _IN), (11, "A", _IN), (12, "B", _IN), (13, "C", _IN), (14, "D", _IN),
                 (15, "CLK_INH", _IN), (16, "VCC", _PWRIN)],
                "8-bit parallel-in shift register"),
    "CD74HC4067": ("U", "Package_DIP:DIP-24_W15.24mm", "CD74HC4067E",
                   [(1, "COM", _PAS)] + [(9 - i, "I%d" % i, _PAS) for i in range(8)]
                   + [(10, "S0", _IN), (11, "S1", _IN), (12, "GND", _PWRIN), (13, "S3", _IN),
                      (14, "S2", _IN), (15, "~E", _IN)]
                   + [(23 - i, "I%d" % (8 + i), _PAS) for i in range(8)] + [(24, "VCC", _PWRIN)],
                   "16-channel analog multiplexer"),
    "DRV5053": ("U", "Package_TO_SOT_THT:TO-92_Inline", "DRV5053RAQLPG",
                [(1, "VCC", _PWRIN), (3, "OUT", _OUT), (2, "GND", _PWRIN)],
                "bipolar analog hall sensor (on the panel)"),
}

# Where each active part's pinout and absolute maxima above were checked (the ratings
# themselves are in hardware/spice.py RATINGS and hardware/esd.py): the datasheets as
# read for issue 33 (a mirror where the maker's own page was not among the stored
# copies; "not re-read" where none was)
DATASHEETS = {
    "USBLC6": "ST USBLC6-2 DocID11265 (https://manualmachine.com/stmicroelectronics/"
              "usblc62sc6/24859206-datasheet): 1 IO1, 2 GND, 3 IO2, 4 IO2, 5 VBUS, 6 IO1; "
              "8 kV contact, VCL 12 V at 1 A / 17 V at 5 A",
    "USBLC6_4": "ST USBLC6-4SC6 rev 2 (https://manualmachine.com/st/usblc64sc6/8434336-user-"
                "manual): 1 IO1, 2 GND, 3 IO2, 4 IO3, 5 VBUS, 6 IO4",
    "R_Array4": "Bourns 4600X (https://pdf.elecfans.com/BOURNS/4608X-102-511LF.html): 102 = "
                "isolated pairs 1-2, 3-4, 5-6, 7-8; 100 V; 4608X package 1.00 W at 70 C",
    "R_Pack": "Bourns 4600X: 101 = bussed, pin 1 common",
    "74AHCT125": "TI SN74AHCT125 SCLS264 (https://ti.com/document-viewer/SN54AHCT125/"
                 "datasheet): the AHCT family's VO -0.5..VCC + 0.5 V, IOK +-20 mA, IO +-25 mA; "
                 "pins as SN74AHC125 (1OE 1A 1Y 2OE 2A 2Y GND 3Y 3A 3OE 4Y 4A 4OE VCC)",
    "74HC165": "TI SN74HC165 SCLS116 (https://www.ti.com/document-viewer/ja-jp/SN74HC165/"
               "datasheet/pin_configuration_and_functions): 1 SH/LD, 2 CLK, 3-6 E-H, 7 ~QH, "
               "8 GND, 9 QH, 10 SER, 11-14 A-D, 15 CLK INH, 16 VCC; IIK +-20 mA",
    "PMOS_LR": "AOS AOD4185 (https://xonelec.com/mpn/alpha-omega/aod4185): TO-252 G, D (tab), S",
    "PMOS": "AOS AO3401A (https://xonelec.com/mpn/alpha-omega/ao3401a): SOT-23 1 G, 2 S, 3 D",
    "LTC4412": "ADI LTC4412 4412fa/fb (pin functions read at http://beike2008.cn/ltc4412is6-"
               "trm_datasheet_3558501_8.html; 4412fb pages 4 and 9 at http://38.142.81.21:8001/"
               "manual/linear-technology/ltc4412es6-trmpbf/): ThinSOT 1 VIN, 2 GND, 3 CTL, 4 "
               "STAT, 5 GATE, 6 SENSE; operates at 2.5-28 V; VIN and SENSE protected from "
               "negative voltages; STAT 0-28 V; ThetaJA 230 C/W (its absolute-maximum table, "
               "page 2, not among the stored copies: -14..36 V as read before)",
    "DRV5053": "TI DRV5053 SLIS153 (https://raw.githubusercontent.com/Tinkerforge/hall-effect-"
               "v2-bricklet/master/datasheets/DRV5053.pdf): RA -45 mV/mT, 2.5-38 V",
    "D_TVS": "Littelfuse SA series: SA5.0A VBR 6.40-7.00 V, 500 W 10/1000 us",
    "CD74HC4067": "TI CD74HC4067 SCHS209D (2024; its absolute-maximum table not among the "
                  "stored copies: IIK / IOK +-20 mA as read before; Recommended Operating "
                  "Conditions read: VCC 2-6 V (HC), the switch's I/O 0..VCC)",
    "TL431": "TI TL431 SLVS543R (2023): LP 1 REF, 2 ANODE, 3 CATHODE; B grade Vref "
             "2483-2507 mV, Iref 4 uA max (Electrical Characteristics, read at ti.com's "
             "document viewer); VKA 37 V, IK -100..150 mA (absolute maxima as read before)",
    "PNP": "onsemi 2N3906: TO-92 1 E, 2 B, 3 C; 40 V, VEBO 5 V, 200 mA, 625 mW at 25 C "
           "(not re-read)",
    "NPN": "onsemi 2N3904 (2N3903/D rev 8, Maximum Ratings: https://radiolocman.com/datasheet/"
           "pdf.html?di=165559): TO-92 1 E, 2 B, 3 C; VCEO 40 V, VCBO 60 V, VEBO 6.0 V, IC "
           "200 mA, PD 625 mW at 25 C less 5.0 mW/C",
    "LDO": "ST LD1117V33 (LD1117 datasheet 2002, Absolute Maximum Ratings, read at https://"
           "manualmachine.com/stmicroelectronics/ld1117dt33/24865910-datasheet): TO-220 1 GND, "
           "2 VOUT, 3 VIN; VIN 15 V, Ptot 12 W, TJ 0..125 C",
    "WS2812B": "Worldsemi WS2812B (Absolute Maximum Ratings: http://38.142.81.21:8001/manual/"
               "seeedstudio/digital-rgb-led-flexi-strip-30-led-1-meter/data-sheet-english/"
               "page-2.html): 1 VDD, 2 DOUT, 3 VSS, 4 DIN; VDD +3.5..+5.3 V, VI -0.5..VDD + "
               "0.5 V, input capacitance 15 pF max",
}

# JST XH headers (2.5 mm pitch: up to 8 pins sit in 2.54 mm perfboard holes) for the
# harness to the panel: one kind per pin count
for _n in range(2, 9):
    CATALOGUE["XH%d" % _n] = (
        "J", "Connector_JST:JST_XH_B%dB-XH-A_1x%02d_P2.50mm_Vertical" % (_n, _n),
        "B%dB-XH-A" % _n, [(i + 1, "%d" % (i + 1), _PAS) for i in range(_n)],
        "JST XH %d-pin header, vertical: the harness to the panel (its XHP-%d housing and "
        "crimps in the BOM's connector kit)" % (_n, _n))

# where each part goes: "controller" (the perfboard: through-hole, 2.54 mm pitch, or a
# breakout with 2.54 mm pins), "panel" (under the top panel, wired), "wall" (the
# enclosure wall)
MOUNT = {
    "PMOS": "controller: SOT-23 breakout", "USBLC6": "controller: SOT-23-6 breakout",
    "LTC4412": "controller: SOT-23-6 breakout", "USBLC6_4": "controller: SOT-23-6 breakout",
    "PMOS_LR": "controller: TO-252 breakout",
    "WS2812B": "panel", "Reed": "panel", "1N4148": "panel", "DRV5053": "panel",
    "DC_Jack": "wall", "USB_B": "wall", "Button": "panel",
}

POWER_PIN_NAMES = ("VCC", "VDD", "GND", "VSS", "VSYS")

# The manufacturer part number of each value of a part that comes in values: the
# value is coded in it (tests/host/test_hardware.py decodes each and compares).
VALUE_MPN = {
    ("R", "330R"): "MFR-25FBF52-330R",
    ("R", "680R"): "MFR-25FBF52-680R",
    ("R", "10k"): "MFR-25FBF52-10K",
    ("R", "100k"): "MFR-25FBF52-100K",
    ("R", "4k7"): "MFR-25FBF52-4K7",
    ("R", "47k"): "MFR-25FBF52-47K",
    ("R", "15k"): "MFR-25FBF52-15K",
    ("R", "22k"): "MFR-25FBF52-22K",
    ("R", "470k"): "MFR-25FBF52-470K",
    ("R", "1M"): "MFR-25FBF52-1M",
    ("R_Prec", "10k"): "MFP-25BRD52-10K",
    ("R_Prec", "11k"): "MFP-25BRD52-11K",
    ("C", "100nF"): "C320C104K5R5TA",
    ("C", "1uF"): "C320C105K5R5TA",
    ("CP", "1000uF"): "UVR1C102MPD",
    ("CP", "10uF"): "UVR1C100MDD",
    ("R_Pack", "10k"): "4609X-101-103LF",
    ("R_Array4", "1k"): "4608X-102-102LF",
    ("D_Zener", "10V"): "BZX79-C10,113",
}

MANUFACTURER = {
    "Pico": "Raspberry Pi", "DC_Jack": "CUI Devices", "Fuse_PTC": "Bourns",
    "USB_B": "On Shore Technology", "USBLC6": "STMicroelectronics", "USBLC6_4": "STMicroelectronics", "TL431": "Texas Instruments",
    "PMOS": "Alpha & Omega", "PMOS_LR": "Alpha & Omega", "PNP": "onsemi", "NPN": "onsemi", "D_Zener": "Nexperia", "D_TVS": "Littelfuse",
    "LDO": "STMicroelectronics", "LTC4412": "Analog Devices", "D_Schottky": "onsemi", "D_Schottky3A": "onsemi",
    "D_SchottkySig": "Vishay", "CP": "Nichicon", "C": "KEMET",
    "R": "Yageo", "R_Prec": "Yageo", "R_Pack": "Bourns", "R_Array4": "Bourns", "74AHCT125": "Texas Instruments",
    "XH2": "JST", "XH3": "JST", "XH4": "JST", "XH5": "JST", "XH6": "JST", "XH7": "JST",
    "XH8": "JST",
    "WS2812B": "Worldsemi", "Reed": "Standex-Meder", "Button": "Omron", "1N4148": "onsemi",
    "74HC165": "Texas Instruments", "CD74HC4067": "Texas Instruments",
    "DRV5053": "Texas Instruments",
}


class Builder:
    """Holds the circuit being built and the part templates."""

    def __init__(self, circuit):
        self.circuit = circuit
        self.templates = {}
        self.counts = {}

    def part(self, kind, value=None):
        prefix, fp, mpn, pins, desc = CATALOGUE[kind]
        if any(k == kind for k, _ in VALUE_MPN):
            mpn = VALUE_MPN[(kind, value)]    # KeyError: a value without its part number
        if kind not in self.templates:
            self.templates[kind] = Part(
                tool=SKIDL, name=kind, ref_prefix=prefix, dest=TEMPLATE, footprint=fp,
                pins=[SPin(num=n, name=nm, func=f) for n, nm, f in pins])
        k = self.counts.get(prefix, 0) + 1
        self.counts[prefix] = k
        ref = "%s%d" % (prefix, k)
        p = self.templates[kind](circuit=self.circuit, ref=ref, tag=ref,
                                 value=value or desc, footprint=fp)
        p.fields["MPN"] = mpn
        p.fields["Manufacturer"] = MANUFACTURER.get(kind, "")
        p.fields["Description"] = desc
        p.fields["Kind"] = kind
        p.fields["Mount"] = "" if kind == "PWR_FLAG" else MOUNT.get(kind, "controller")
        return p

    def net(self, name):
        return Net(name, circuit=self.circuit)

    def wired(self, kind, value=None, nets=None):
        """A part of ``kind`` (and ``value``) with each pin named in ``nets`` ({pin name
        or number: Net}) joined to its net."""
        p = self.part(kind, value)
        for pin, net in (nets or {}).items():
            p[pin] += net
        return p

    def between(self, kind, value, a, b):
        """A two-pin part of ``kind`` and ``value`` from net ``a`` (pin 1) to net ``b``."""
        p = self.part(kind, value)
        p[1] += a
        p[2] += b
        return p


def build(board_name):
    """Build and return (circuit, info) for a board definition name.

    info: dict with the nets and parts the tests check: ``pico``, ``gp`` (GPIO ->
    Net), ``leds`` (list of LED parts in chain order), ``shifter``, ``sensors``
    (sensor index -> the part that senses it), ``supply`` (net name -> Net).
    """
    cfg = load_board(board_name)
    layout = read_layout_file(os.path.join(ROOT, "firmware", "boards",
                                           "layout_%s.json" % cfg["layout"]))
    circ = Circuit()
    b = Builder(circ)
    v5 = b.net("+5V")
    matrix = cfg["sensor"]["kind"] == "matrix"
    hall = cfg["sensor"]["kind"] == "hall_mux"
    v3 = b.net("+3V3")          # the Pico's 3V3: the logic, the matrix lines' clamps
    gnd = b.net("GND")
    vsys = b.net("VSYS")
    vbus = b.net("VBUS")
    info = {"cfg": cfg, "supply": {"+5V": v5, "GND": gnd, "VSYS": vsys, "VBUS": vbus}}
    info["supply"]["+3V3"] = v3

    def flag(net):
        f = b.part("PWR_FLAG")
        f["pwr"] += net

    # power in (docs/hardware.md, "Power"; proved by hardware/spice.py in every
    # combination of adapter, reversed adapter, over-voltage adapter and USB):
    # jack -> PTC fuse -> Q1 (reverse polarity) -> Q2 (over-voltage switch, TL431
    # comparator) -> ideal diode (LTC4412 + P-FET) -> +5V; USB -> Q4 (soft-start switch, off
    # while the adapter is in) -> ideal diode (LTC4412 + P-FET) -> +5V. The two ideal diodes OR
    # the sources:
    # neither can back-feed the other (the old fault: USB back-fed the input through
    # Q2's body diode and turned the reverse FET on against a reversed adapter).
    stage = []

    def pw(p):
        p.fields["Stage"] = "power"
        stage.append(p)
        return p

    def between(kind, value, a, c):
        return pw(b.between(kind, value, a, c))

    def ideal_diode(kind, vin, gate_name):
        """An ideal diode from ``vin`` onto +5V: a P-FET of ``kind`` (its body diode
        pointing onto the rail) that an LTC4412 drives (CTL low, STAT unused)."""
        g = b.net(gate_name)
        pw(b.wired(kind, None, {"D": vin, "S": v5, "G": g}))
        pw(b.wired("LTC4412", None, {"VIN": vin, "SENSE": v5, "GATE": g, "GND": gnd,
                                     "CTL": gnd, "STAT": circ.NC}))
        flag(vin)

    def wired(kind, value=None, **nets):
        return pw(b.wired(kind, value, nets))

    vin = b.net("VIN_JACK")
    wired("DC_Jack", VOUT=vin, GND=gnd)
    vf = b.net("VIN_FUSED")
    between("Fuse_PTC", "2.5A", vin, vf)
    flag(vf)
    # Q1 (a 20 mOhm FET, as the ideal diode's: with Q2 and the fuse they must leave the
    # rail >= 4.5 V at the full LED cap): drain to the input, source to VIN_OK, gate to
    # GND through 10 k: on when the
    # jack is the right way round (body diode first, then the channel), off and
    # blocking when reversed; a 10 V Zener holds its gate-source voltage in range
    vok = b.net("VIN_OK")
    g1 = b.net("Q1_GATE")
    wired("PMOS_LR", D=vf, S=vok, G=g1)
    between("R", "10k", g1, gnd)
    wired("D_Zener", "10V", K=vok, A=g1)
    # Q2: source to VIN_OK, drain to VIN_SW, gate pulled to GND through 100 k (on). The
    # TL431 compares VIN_OK / 2.1 (0.1 % divider) with its 2.495 V reference: above
    # it, it sinks, Q3 (PNP) turns on and pulls Q2's gate to its source: Q2 off. The
    # 1 M from Q2's gate back to the reference gives hysteresis (a clean snap, no
    # linear region)
    vsw = b.net("VIN_SW")
    g2 = b.net("Q2_GATE")
    wired("PMOS_LR", S=vok, D=vsw, G=g2)
    between("R", "100k", g2, gnd)
    # Q2 also soft-starts the adapter: at the plug its 1 uF holds the gate at the source
    # (off), the 100 k turns it on over about 50 ms and the 100 nF gate-drain (Miller)
    # capacitor holds VIN_SW's rise to about 300 V/s: about 0.3 A into the 1000 uF
    # where the bare path took 9.6 A (hardware/spice.py inrush "adapter5")
    between("C", "1uF", g2, vok)
    between("C", "100nF", g2, vsw)
    ref = b.net("OVP_REF")
    between("R_Prec", "11k", vok, ref)
    between("R_Prec", "10k", ref, gnd)
    between("R", "1M", g2, ref)
    ovk = b.net("OVP_K")
    wired("TL431", REF=ref, A=gnd, K=ovk)
    bq3 = b.net("Q3_BASE")
    wired("PNP", E=vok, C=g2, B=bq3)
    between("R", "10k", vok, bq3)
    between("R", "4k7", bq3, ovk)
    wired("D_TVS", K=v5, A=gnd)
    flag(v5)
    # USB: the socket in the wall, its data lines through the ESD array to the Pico's
    # test pads; VBUS to the Pico's VBUS pin (the Pico's own diode feeds its VSYS)
    dm = b.net("USB_DM")
    dp = b.net("USB_DP")
    wired("USB_B", VBUS=vbus, GND=gnd, SHIELD=gnd, **{"D-": dm, "D+": dp})
    wired("USBLC6", IO1=dm, IO1b=dm, IO2=dp, IO2b=dp, VBUS=vbus, GND=gnd)
    if not hall:
        # USB feeds the +5 V rail too (USB-only power, the LEDs capped: docs/build.md).
        # Q4 soft-starts it: at attach the 1 uF holds its gate at its source, the 470 k
        # turns it on slowly and the 100 nF gate-drain (Miller) capacitor holds the
        # rail's rise to about 70 V/s: about 70 mA into the 1000 uF (USB allows 10 uF
        # at attach). While an adapter is in the jack (VIN_OK up, even one the
        # over-voltage switch has cut off) Q6 turns Q5 on, which holds Q4's gate at its
        # source: off, and USB feeds only the Pico. A hall board has no such path: its
        # 56 sensors alone take 202 mA: USB feeds only its Pico.
        vusb = b.net("VUSB_SW")
        g4 = b.net("Q4_GATE")
        wired("PMOS", S=vbus, D=vusb, G=g4)
        between("C", "1uF", g4, vbus)
        between("C", "100nF", g4, vusb)
        between("R", "470k", g4, gnd)
        b5 = b.net("Q5_BASE")
        wired("PNP", E=vbus, C=g4, B=b5)
        between("R", "100k", vbus, b5)
        c6 = b.net("Q6_COLL")
        between("R", "10k", b5, c6)
        b6 = b.net("Q6_BASE")
        wired("NPN", C=c6, E=gnd, B=b6)
        between("R", "47k", vok, b6)
        between("R", "10k", b6, gnd)
        # USB's OR-ing: an ideal diode too (an LTC4412 and a P-FET: 20 mV where a
        # Schottky dropped 0.3 V and left the rail at 4.4 V from a 4.75 V port)
        ideal_diode("PMOS", vusb, "IDU_GATE")
    # the adapter's OR-ing: an ideal diode (an LTC4412 driving a 20 mOhm P-FET whose
    # body diode points onto the rail): 20 mV at light load, Rds(on) x I at full (about
    # 0.03 V at 1.7 A where the 1N5822 Schottky it replaces dropped 0.4 V and left the
    # rail under the 74AHCT125's 4.5 V); off (gate at its source) as soon as the rail is
    # above VIN_SW: USB never back-feeds the input
    ideal_diode("PMOS_LR", vsw, "ID_GATE")
    wired("D_Schottky", A=v5, K=vsys)
    flag(vsys)
    wired("CP", "1000uF", **{"+": v5, "-": gnd})
    info["power"] = stage

    # the Pico
    pico = b.part("Pico")
    pico["VSYS"] += vsys
    pico["VBUS"] += vbus
    pico["USB_DM"] += dm
    pico["USB_DP"] += dp
    pico["3V3"] += v3
    for num, name in PICO_PINS.items():
        if name in ("GND", "AGND"):
            pico[num] += gnd
    for name in ("RUN", "3V3_EN", "ADC_VREF"):
        pico[name] += circ.NC
    gp = {}

    def gpio(n, label):
        if n not in gp:
            net = b.net("GP%d_%s" % (n, label))
            pico[PICO_PIN_OF[n]] += net
            gp[n] = net
        return gp[n]

    info["pico"] = pico
    info["gp"] = gp

    # LED chain through the level shifter
    leds_cfg = cfg["leds"]
    if leds_cfg.get("adapter_pin") is not None:
        # the adapter sense (leds.supply "sense": the firmware caps the LEDs by the
        # source, playboard.hw.rp2): VIN_SW (the adapter behind the reverse and
        # over-voltage switches) through 15 k / 22 k: 2.7-3.2 V while the adapter feeds
        # the rail, about 0 with none, a reversed one or one cut off; USB itself is the
        # Pico's own VBUS sense (GPIO24, inside the module)
        sense = gpio(leds_cfg["adapter_pin"], "ADAPTER_SENSE")
        pw(b.between("R", "15k", vsw, sense))
        pw(b.between("R", "22k", sense, gnd))
    shifter = b.part("74AHCT125")
    shifter["VCC"] += v5
    shifter["GND"] += gnd
    b.between("C", "100nF", v5, gnd)
    shifter["1A"] += gpio(leds_cfg["pin"], "LED_DATA")
    shifter["1OE"] += gnd
    for g in "234":
        shifter["%sA" % g] += gnd
        shifter["%sOE" % g] += v5       # unused buffers disabled, inputs tied
        shifter["%sY" % g] += circ.NC
    # 680 ohm to the chain (its first LED's input), the line to the panel clamped by a
    # USBLC6-2SC6 onto +5V: an 8 kV strike (the standard's 30 A first peak) leaves 18 mA
    # in the 74AHCT125's output, under its 25 mA (hardware/esd.py, line led_data; 470 ohm
    # left 26 mA, 330 ohm more)
    r_data = b.part("R", "680R")
    d5 = b.net("LED_DIN_5V")
    shifter["1Y"] += d5
    r_data[1] += d5
    prev = b.net("LED_DIN_0")
    r_data[2] += prev
    u_led = b.part("USBLC6")
    for pin in ("IO1", "IO1b"):
        u_led[pin] += prev
    for pin in ("IO2", "IO2b", "GND"):
        u_led[pin] += gnd
    u_led["VBUS"] += v5
    info["led_esd"] = u_led
    leds = []
    for k in range(leds_cfg["count"]):
        led = b.part("WS2812B")
        led["VDD"] += v5
        led["VSS"] += gnd
        b.between("C", "100nF", v5, gnd).fields["Mount"] = "panel"   # at its LED
        led["DIN"] += prev
        if k + 1 < leds_cfg["count"]:
            prev = b.net("LED_DIN_%d" % (k + 1))
            led["DOUT"] += prev
        else:
            led["DOUT"] += circ.NC
        leds.append(led)
    info["leds"] = leds
    info["shifter"] = shifter

    # sensors
    used = set()
    for g in layout["games"].values():
        for cell, s, led, x, y, kind in g["cells"]:
            if s >= 0:
                used.add(s)
    s_cfg = cfg["sensor"]
    n = cfg["n_sensors"]
    sensors = {}
    kind = s_cfg["kind"]
    if kind == "matrix":
        rows_gp = [gpio(p, "ROW%d" % i) for i, p in enumerate(s_cfg["rows"])]
        cols_gp = [gpio(p, "COL%d" % i) for i, p in enumerate(s_cfg["cols"])]
        # the lines to the panel each through 1 k and an ESD array (``protect``), and a
        # BAT85 pair from the GPIO to +3V3 and GND: an 8 kV strike leaves the pin within
        # -0.39..3.71 V, inside its -0.5..3.8 V (its own diodes alone let it reach 3.96 V)
        rows = [b.net("ROW%d" % i) for i in range(len(rows_gp))]
        cols = [b.net("COL%d" % i) for i in range(len(cols_gp))]
        protect(b, info, list(zip(rows_gp + cols_gp, rows + cols)), v5, gnd)
        for g in rows_gp + cols_gp:
            up = b.part("D_SchottkySig", "BAT85")
            up["A"] += g
            up["K"] += v3
            dn = b.part("D_SchottkySig", "BAT85")
            dn["A"] += gnd
            dn["K"] += g
        nc = len(cols)
        for s in range(n):
            r, c = divmod(s, nc)
            if s not in used:
                continue                  # a spare crossing: left empty
            sw = b.part("Reed")
            d = b.part("1N4148")
            mid = b.net("S%d" % s)
            d["A"] += cols[c]
            d["K"] += mid
            sw[1] += mid
            sw[2] += rows[r]
            sensors[s] = sw
        info["diodes"] = True
    elif kind == "shift_register":
        load = gpio(s_cfg["load"], "SR_LOAD")
        clk = gpio(s_cfg["clk"], "SR_CLK")
        data = gpio(s_cfg["data"], "SR_DATA")
        chips = []
        lines = []
        for k in range(s_cfg["chain"]):
            u = b.part("74HC165")
            u["VCC"] += v3
            u["GND"] += gnd
            b.between("C", "100nF", v3, gnd)
            u["SH/LD"] += load
            u["CLK"] += clk
            u["CLK_INH"] += gnd
            u["~QH"] += circ.NC
            rn = b.part("R_Pack", "10k")
            rn["COM"] += v3
            for j, pin in enumerate("ABCDEFGH"):
                s = 8 * k + j
                net = b.net("SR_IN%d" % s)
                u[pin] += net
                rn["R%d" % (j + 1)] += net
                if s < n and s in used:
                    line = b.net("S%d" % s)       # to the panel: ``protect`` below
                    lines.append((net, line))
                    sw = b.part("Reed")
                    sw[1] += line
                    sw[2] += gnd
                    sensors[s] = sw
            chips.append(u)
        protect(b, info, lines, v5, gnd)
        chips[0]["QH"] += data
        for k in range(1, len(chips)):
            link = b.net("SR_CHAIN_%d" % k)
            chips[k]["QH"] += link
            chips[k - 1]["SER"] += link
        chips[-1]["SER"] += v3
        info["chips"] = chips
    elif kind == "hall_mux":
        # the sensors' own 3.3 V regulator
        vh = b.net("+3V3_HALL")
        info["supply"]["+3V3_HALL"] = vh
        ldo = b.part("LDO")
        ldo["VIN"] += v5
        ldo["GND"] += gnd
        ldo["VOUT"] += vh
        b.between("C", "1uF", v5, gnd)
        b.between("CP", "10uF", vh, gnd)    # the LD1117's output capacitor (>= 10 uF)
        sel = [gpio(p, "MUX_S%d" % i) for i, p in enumerate(s_cfg["select"])]
        muxes = []
        lines = []
        for m, mc in enumerate(s_cfg["muxes"]):
            u = b.part("CD74HC4067")
            u["VCC"] += v3
            u["GND"] += gnd
            b.between("C", "100nF", v3, gnd)
            for i in range(4):
                u["S%d" % i] += sel[i]
            u["COM"] += gpio(mc["adc"], "ADC")
            if mc["en"] is not None:
                u["~E"] += gpio(mc["en"], "MUX%d_EN" % m)
            else:
                u["~E"] += gnd
            for ch in range(16):
                s = 16 * m + ch
                net = b.net("MUX_IN%d" % s)
                u["I%d" % ch] += net
                if s < n and s in used:
                    line = b.net("S%d" % s)       # to the panel: ``protect`` below
                    lines.append((net, line))
                    h = b.part("DRV5053")
                    h["VCC"] += vh
                    h["GND"] += gnd
                    h["OUT"] += line
                    c_s = b.between("C", "100nF", vh, gnd)   # the datasheet's bypass,
                    c_s.fields["Mount"] = "panel"              # at the sensor
                    sensors[s] = h
                else:
                    # spare channel: a 10 k to ground keeps the input defined
                    b.between("R", "10k", net, gnd)
            muxes.append(u)
        protect(b, info, lines, v5, gnd)
        info["muxes"] = muxes
    else:
        raise ValueError("no schematic for sensor kind %r" % kind)
    for num, name in PICO_PINS.items():
        if name.startswith("GP") and int(name[2:]) not in gp:
            pico[num] += circ.NC          # unused GPIOs, marked so for the ERC
    info["sensors"] = sensors
    info["used"] = used
    info["harness"] = harness(b, circ)
    return circ, info


def protect(b, info, pairs, rail, gnd):
    """Each (chip-side net, panel-side net) of ``pairs`` joined through 1 k (4608X
    arrays of 4) and the panel side clamped by a USBLC6-4SC6 (4 lines each, its rail
    on ``rail``: the +5V's 1000 uF takes the charge): a strike on the harness, a switch
    or a sensor reaches the chip through 1 k from a line held within the array's clamp
    (hardware/esd.py simulates each). A last array's spare places go to GND.
    ``info["panel"]``: chip-side net name -> panel-side net."""
    panel = info.setdefault("panel", {})
    for k in range(0, len(pairs), 4):
        rn = b.part("R_Array4", "1k")
        u = b.part("USBLC6_4")
        for j in range(4):
            g, line = pairs[k + j] if k + j < len(pairs) else (gnd, gnd)
            rn[2 * j + 1] += g
            rn[2 * j + 2] += line
            u["IO%d" % (j + 1)] += line
            if g is not gnd:
                panel[g.name] = line
        u["VBUS"] += rail
        u["GND"] += gnd


HARNESS_POWER = ("LED_DIN_0", "+5V", "GND")


def harness(b, circ):
    """Put a JST XH header on the controller for every net that leaves it for the panel
    (a pin on a controller part and one on a panel part): the LED chain's data, +5V and
    GND on one 3-pin header; a sensor supply rail (+3V3_HALL) with GND on a 2-pin one;
    the sensor lines, by name, 8 to a header. Returns [(header part, [net names])]."""
    def mount(pin):
        return pin.part.fields.get("Mount", "")
    leaving = []
    for n in circ.nets:
        if n.name == "__NOCONNECT":
            continue
        mounts = {mount(p).split(":")[0] for p in n.pins}
        if "controller" in mounts and "panel" in mounts:
            leaving.append(n)
    by_name = {n.name: n for n in leaving}
    groups = [[by_name[k] for k in HARNESS_POWER if k in by_name]]
    if "+3V3_HALL" in by_name:
        groups.append([by_name["+3V3_HALL"], [n for n in circ.nets if n.name == "GND"][0]])
    rest = sorted((n for n in leaving if n.name not in HARNESS_POWER and n.name != "+3V3_HALL"),
                  key=lambda n: _natural(n.name))
    for k in range(0, len(rest), 8):
        groups.append(rest[k:k + 8])
    out = []
    for nets in groups:
        if not nets:
            continue
        j = b.part("XH%d" % len(nets), "harness")
        for i, n in enumerate(nets):
            j[i + 1] += n
        out.append((j, [n.name for n in nets]))
    return out


def _natural(name):
    """'COL10' after 'COL9': the name's letters, then its number."""
    head = name.rstrip("0123456789")
    tail = name[len(head):]
    return (head, int(tail) if tail else -1)


def erc(circ):
    """Run SKiDL's electrical rules check; return (errors, warnings): lists of messages."""
    import logging
    from skidl.logger import erc_logger

    got = {"ERROR": [], "WARNING": []}

    class Catch(logging.Handler):
        def emit(self, record):
            if record.levelname in got:
                got[record.levelname].append(record.getMessage())

    h = Catch()
    erc_logger.addHandler(h)
    try:
        circ.ERC()
    finally:
        erc_logger.removeHandler(h)
    return got["ERROR"], got["WARNING"]


def netlist(circ, path):
    """Write the KiCad netlist of ``circ`` to ``path``; return its text. The power flags
    (``#FLG``, schematic only, as KiCad's) are left out of it."""
    def quiet(part):
        if not part.ref.startswith("#FLG"):
            skidl.part.default_empty_footprint_handler(part)

    saved = skidl.empty_footprint_handler
    skidl.empty_footprint_handler = quiet
    try:
        circ.generate_netlist(file_=path, tool=skidl.KICAD8, do_backup=False)
    finally:
        skidl.empty_footprint_handler = saved
    with open(path) as f:
        text = _drop_flags(f.read())
    with open(path, "w") as f:
        f.write(text)
    return text


def _drop_flags(text):
    """``text`` without the ``(comp ...)`` and ``(node ...)`` blocks of ``#FLG`` parts."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        j = text.find("(", i)
        if j < 0:
            out.append(text[i:])
            break
        head = text[j:j + 60].split()
        if head and head[0] in ("(comp", "(node") and len(head) > 2 and head[2].startswith('"#FLG'):
            depth = 0
            k = j
            instr = False
            while k < n:
                ch = text[k]
                if instr:
                    if ch == "\\":
                        k += 1
                    elif ch == '"':
                        instr = False
                elif ch == '"':
                    instr = True
                elif ch == "(":
                    depth += 1
                elif ch == ")":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            line_start = text.rfind("\n", 0, j) + 1
            keep = text[i:line_start] if text[line_start:j].strip() == "" else text[i:j]
            out.append(keep)
            i = k + 1
            if text[i:i + 1] == "\n" and text[line_start:j].strip() == "":
                i += 1
            continue
        out.append(text[i:j + 1])
        i = j + 1
    return "".join(out)


def main(argv):
    out = os.path.join(ROOT, "hardware", "out")
    os.makedirs(out, exist_ok=True)
    for name in argv or SENSOR_BOARDS:
        circ, _ = build(name)
        errors, warnings = erc(circ)
        path = os.path.join(out, "%s.net" % name)
        netlist(circ, path)
        print("%s: %d parts, %d nets, ERC %d errors %d warnings -> %s"
              % (name, len(circ.parts), len(circ.nets), len(errors), len(warnings),
                 os.path.relpath(path, ROOT)))
        for m in errors + warnings:
            print("  " + m)
        if errors:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
