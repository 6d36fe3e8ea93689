"""The input stage in SPICE: every fault case, every tolerance corner, each part's ratings.

``netlist(board, case, corner)`` writes an ngspice netlist of the power stage exactly as
hardware/schematic.py wires it (the parts ``build`` marks ``Stage: power``, their nets by
name: nothing is drawn twice), with each part's model at a tolerance corner, the case's
sources (the adapter, right way round, reversed or over-voltage; USB) and the board's
loads. ``run(board, case, corner)`` runs ``ngspice -b`` and returns every node voltage
and every part's stress; ``check(result)`` compares the stress with the part's ratings
(datasheet maxima, in ``RATINGS``) and returns the violations, one line each.
``trip(board, corner)`` finds the over-voltage trip point by a DC sweep of the adapter;
``inrush(board, case)`` the peak current of a hot-plug (transient).

Units: volts, amps, watts, seconds. Needs ``ngspice`` (Debian package) on the PATH:
:func:`available` says whether it is.

``python hardware/spice.py [board]`` prints every case beside its limits (also what
``make bench`` shows: bench/py_spice.py).
"""
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

# -- specification -------------------------------------------------------------------

ADAPTER_V = 5.0        # the BOM's adapter (MEAN WELL GST25E05-P1J, 5 V +-2 %)
ADAPTER_MAX = 5.15     # its highest output: the trip must stay above it
ADAPTER_MIN = 4.9      # its lowest
LED_MAX_V = 5.3        # WS2812B supply, absolute maximum (Worldsemi WS2812B datasheet,
#                        Absolute Maximum Ratings: VDD +3.5 .. +5.3 V, VI -0.5 .. VDD + 0.5 V;
#                        read at http://38.142.81.21:8001/manual/seeedstudio/digital-rgb-led-
#                        flexi-strip-30-led-1-meter/data-sheet-english/page-2.html)
PICO_MAX_V = 5.5       # the Pico's VSYS, absolute maximum (Pico datasheet 4.5)
PIN_MAX_V = 3.8        # an RP2040 GPIO, absolute maximum (IOVDD 3.3 V + 0.5 V)
PIN_HIGH_V = 2.0       # its input high threshold (VIH minimum at IOVDD 3.3 V)
PIN_LOW_V = 0.8        # its input low threshold (VIL maximum)
USB_DECLARED_A = 0.5   # the image's configuration descriptor: bMaxPower 500 mA (PLAYBOARD_PICO)
USB_INRUSH_A = 0.1     # the soft-started path's peak at attach (USB: 10 uF at attach,
#                        i.e. 50 uC; 100 mA for 70 ms is what a compliant port delivers)
BACKFEED_A = 0.001     # current allowed back into a source (leakage)
OVP_QUIESCENT_A = 0.02  # what the cut-off itself draws from an over-voltage adapter
RAIL_MIN_V = 4.5       # the lowest +5V: the 74AHCT125's VCC minimum (the LEDs run lower),
#                        held at the full LED cap by every source in its range
LIGHT_A = 0.07         # the +5V rail's lightest load (58 dark LEDs, the logic)
PICO_A = 0.05          # the Pico's draw on VSYS (RP2040 busy, flash, its regulator)

# Ratings per part kind: the datasheets' absolute maxima, each checked against the
# datasheet named beside it (continuous figures at 70 C ambient where the datasheet
# gives one: a museum's enclosure is warm).
RATINGS = {
    # AO3401A (Alpha & Omega rev 3, 2011; read at https://xonelec.com/mpn/alpha-omega/ao3401a):
    # VDS -30 V, VGS +-12 V, ID -3.2 A at TA 70 C (-4.0 at 25), IDM -27 A, PD 0.9 W at
    # TA 70 C (1.4 W at 25; 1 in2 FR-4); SOT-23: 1 G, 2 S, 3 D
    "PMOS": {"vds": 30.0, "vgs": 12.0, "id": 3.2, "id_pulse": 27.0, "p": 0.9},
    # AOD4185 (Alpha & Omega; read at https://xonelec.com/mpn/alpha-omega/aod4185): VDS
    # -40 V, VGS +-20 V, ID -31 A at TC 100 C, IDM -115 A, PDSM 1.6 W at TA 70 C (2.5 W
    # at 25; 1 in2 FR-4, RthJA 50 C/W): a breakout's copper is what PDSM assumes at
    # most; TO-252: 1 G, 2 (tab) D, 3 S
    "PMOS_LR": {"vds": 40.0, "vgs": 20.0, "id": 31.0, "id_pulse": 115.0, "p": 1.6},
    # 2N3906 (onsemi 2N3906/D; not re-read this time, its figures as the 2N3904's
    # family sheet gives them): VCEO -40 V, VEBO -5.0 V, IC -200 mA, PD 625 mW at 25 C
    # less 5.0 mW/C: 400 mW at 70 C; TO-92: 1 E, 2 B, 3 C
    "PNP": {"vce": 40.0, "veb": 5.0, "ic": 0.2, "p": 0.4},
    # TL431 (TI SLVS543; absolute maxima as read before: VKA 37 V, IK -100..150 mA; the
    # stored SLVS543R gives its electrical table: the B grade's Vref 2483..2507 mV, Iref
    # 4 uA max, the corners below); LP (TO-92): 1 REF, 2 ANODE, 3 CATHODE; 0.49 W at 70 C
    # ((150 - 70) C / 161 C/W, the LP package's ThetaJA as read before; at 25 C 0.775 W)
    "TL431": {"vka": 37.0, "ika": 0.15, "p": 0.49},
    "D_Zener": {"p": 0.5},                                   # BZX79 (Nexperia): Ptot 500 mW
    # SA5.0A (Littelfuse SA series, read at https://azmanual.top/manuals/291908/
    # littelfuse-sa-series.html): 500 W 10/1000 us; steady 3.0 W on an infinite heat
    # sink at TL 75 C; in free air RthJA 75 C/W: (150 - 70) / 75 = 1.07 W at TA 70 C
    "D_TVS": {"p": 1.0},
    "D_Schottky": {"if": 1.0, "vr": 20.0, "if_pulse": 25.0},   # 1N5817 (onsemi): 1 A, 20 V, IFSM 25 A
    "D_Schottky3A": {"if": 3.0, "vr": 40.0, "if_pulse": 80.0},  # 1N5822 (onsemi): 3 A, 40 V, IFSM 80 A
    # LTC4412 (Analog Devices 4412fb): read again, its pages 4 and 9 (Note 2: ThetaJA
    # 230 C/W in the TSOT-23; "VIN and SENSE pins ... are protected from negative
    # voltages"; STAT 0..28 V; operation 2.5-28 V); its absolute-maximum table (page 2)
    # is not among the stored copies: VIN, SENSE -14..36 V as read before. The SPICE
    # cases hold VIN and SENSE to the 28 V it operates at (the 24 V adapter) as well;
    # ThinSOT: 1 VIN, 2 GND, 3 CTL, 4 STAT, 5 GATE, 6 SENSE
    "LTC4412": {"vin": 36.0, "sense": 36.0, "v_neg": 14.0, "v_op": 28.0},
    # 2N3904 (onsemi 2N3903/D rev 8, Maximum Ratings and Thermal Characteristics,
    # read at https://radiolocman.com/datasheet/pdf.html?di=165559): VCEO 40 V, VCBO
    # 60 V, VEBO 6.0 V, IC 200 mA, PD 625 mW at 25 C less 5.0 mW/C: 400 mW at 70 C
    "NPN": {"vce": 40.0, "veb": 6.0, "ic": 0.2, "p": 0.4},
    "R": {"p": 0.25}, "R_Prec": {"p": 0.25},                   # MFR-25 / MFP-25: 0.25 W at 70 C
    "Fuse_PTC": {"v": 30.0},                                   # MF-R250 (Bourns): Vmax 30 V
    "C": {"v": 50.0}, "CP": {"v": 16.0, "v_rev": -0.5},
}

# Tolerance corners: the TL431's reference (+-0.5 % initial, +-0.3 % drift 0..50 C),
# its reference current (0..4 uA), the 0.1 % divider, the FETs' threshold (-0.5..-1.3 V),
# the Schottky diodes' leakage (x 100 hot), the Zener's voltage (+-6 %), the LTC4412's
# forward regulation voltage (10..30 mV), the P-FETs' Rds(on) at Vgs -4.5 V (50 mOhm
# typical, 60 mOhm the AO3401A's maximum; the AOD4185's 16
# typical and 20 mOhm maximum; AOD4185's VGS(th) -1.7 / -1.9 / -3.0 V min / typ / max).
CORNERS = {
    "nominal": {"vref": 2.495, "iref": 2e-6, "rtol": 0.0, "vto": -0.9, "leak": 1.0, "bv": 10.0,
                "vfr": 0.02, "rds": 0.05,
                "vto_lr": -1.9, "rds_lr": 0.016},
    "low": {"vref": 2.475, "iref": 0.0, "rtol": -0.001, "vto": -0.5, "leak": 100.0, "bv": 9.4,
            "vfr": 0.01, "rds": 0.05,
            "vto_lr": -1.7, "rds_lr": 0.016},
    "high": {"vref": 2.515, "iref": 4e-6, "rtol": 0.001, "vto": -1.3, "leak": 1.0, "bv": 10.6,
             "vfr": 0.03, "rds": 0.06,
             "vto_lr": -3.0, "rds_lr": 0.020},
}

# Fault cases: (name, adapter volts or None, USB volts or None, what it is)
CASES = (
    ("adapter", 5.0, None, "the adapter alone, full LED budget"),
    ("adapter high", ADAPTER_MAX, None, "the adapter at its highest"),
    ("adapter low", ADAPTER_MIN, None, "the adapter at its lowest, full LED budget"),
    ("usb", None, 5.0, "USB alone, the LEDs at the USB cap"),
    ("usb high", None, 5.25, "USB alone at the spec's highest VBUS"),
    ("usb low", None, 4.75, "USB alone at the spec's lowest VBUS"),
    ("adapter + usb", 5.0, 5.0, "both plugged in"),
    ("adapter low + usb high", ADAPTER_MIN, 5.25, "both, USB the higher"),
    ("reversed", -5.0, None, "a reversed (centre-negative) adapter"),
    ("reversed + usb", -5.0, 5.0, "a reversed adapter with USB plugged in (the old fault)"),
    ("reversed 12 V + usb", -12.0, 5.0, "a reversed 12 V adapter with USB"),
    ("6 V", 6.0, None, "a 6 V adapter"),
    ("6 V + usb", 6.0, 5.0, "a 6 V adapter with USB"),
    ("12 V + usb", 12.0, 5.0, "a 12 V adapter with USB"),
    ("24 V", 24.0, None, "a 24 V adapter"),
    ("reversed 24 V + usb", -24.0, 5.0, "a reversed 24 V adapter with USB"),
)
ADAPTER_R = 0.1    # the adapter's cable (1.2 m, 18 AWG, both ways) and contacts (ohms)
USB_R = 0.25       # the USB cable's resistance, both wires (ohms)


def available():
    """True if ngspice is on the PATH."""
    return shutil.which("ngspice") is not None


# -- models ------------------------------------------------------------------------------

def _models(c):
    leak = c["leak"]
    return "\n".join([
        # AO3401A: level 1, Rds(on) at Vgs -4.5 V the corner's, Ciss 645 pF, Crss 75 pF
        ".model AO3401A PMOS (LEVEL=1 VTO=%g KP=%g LAMBDA=0.01 CGSO=570p CGDO=75p)"
        % (c["vto"], 1.0 / (c["rds"] * (4.5 + c["vto"]))),
        # AOD4185: level 1, Rds(on) at Vgs -4.5 V the corner's, Ciss 2.6 nF, Crss 0.3 nF
        ".model AOD4185 PMOS (LEVEL=1 VTO=%g KP=%g LAMBDA=0.01 CGSO=2.3n CGDO=0.3n)"
        % (c["vto_lr"], 1.0 / (c["rds_lr"] * (4.5 + c["vto_lr"]))),
        ".model DBODY D (IS=1e-12 N=1.2 RS=0.02 BV=33 IBV=250u)",
        ".model Q2N3906 PNP (IS=1.41f XTI=3 EG=1.11 VAF=18.7 BF=180.7 NE=1.5 IKF=80m XTB=1.5"
        " BR=4.977 NC=2 RC=2.5 CJC=9.728p MJC=.5776 VJC=.75 FC=.5 CJE=8.063p MJE=.3677"
        " VJE=.75 TR=33.42n TF=179.3p ITF=.4 VTF=4 XTF=6 RB=10)",
        ".model D1N5822 D (IS=%g N=1.1 RS=0.012 CJO=400p M=0.5 BV=40 IBV=1m)" % (4.2e-6 * leak),
        ".model D1N5817 D (IS=%g N=1.0 RS=0.05 CJO=110p M=0.35 BV=20 IBV=1m)" % (3.3e-6 * leak),
        ".model Q2N3904 NPN (IS=6.734f XTI=3 EG=1.11 VAF=74.03 BF=416.4 NE=1.259 ISE=6.734f"
        " IKF=66.78m XTB=1.5 BR=.7371 NC=2 RC=1 CJC=3.638p MJC=.3085 VJC=.75 FC=.5"
        " CJE=4.493p MJE=.2593 VJE=.75 TR=239.5n TF=301.2p ITF=.4 VTF=4 XTF=2 RB=10)",
        ".model DMBR120 D (IS=%g N=1.0 RS=0.05 BV=20 IBV=1m)" % (3e-6 * leak),
        ".model DZ10 D (IS=1e-14 N=1 RS=15 BV=%g IBV=5m)" % c["bv"],
        ".model DSA5 D (IS=1e-12 N=1 RS=0.05 BV=6.4 IBV=10m)",
        ".model DESD D (IS=1e-14 N=1 RS=1 BV=6.1 IBV=1m)",
        ".model D1N4148 D (IS=2.52n RS=0.568 N=1.752 BV=100 IBV=100u)",
        ".model DTL D (IS=1e-12 N=1.5 RS=1)",
    ])


PFETS = {"PMOS": "AO3401A", "PMOS_LR": "AOD4185"}
DIODES = {"D_Zener": "DZ10", "D_TVS": "DSA5", "D_Schottky": "D1N5817", "D_Schottky3A": "D1N5822"}


def _val(text):
    """'10k' -> 1e4, '470nF' -> 4.7e-7, '2k2' -> 2200, '1M' -> 1e6."""
    m = re.fullmatch(r"(\d+)([RkKMunp]?)(\d*)[FA]?", text)
    mult = {"R": 1, "": 1, "k": 1e3, "K": 1e3, "M": 1e6, "u": 1e-6, "n": 1e-9, "p": 1e-12}
    return float(m.group(1) + "." + (m.group(3) or "0")) * mult[m.group(2)]


def _node(net):
    name = net.name
    if name == "GND":
        return "0"
    return "n_" + re.sub(r"[^A-Za-z0-9_]", "_", name.replace("+", "p"))


def stage_parts(board):
    """(circuit info, [power-stage parts]) of a board's schematic."""
    import schematic
    circ, info = schematic.build(board)
    return info, info["power"]


def _elements(parts, c):
    """SPICE lines for the power-stage parts at corner ``c``; {ref: kind}."""
    lines = []
    kinds = {}
    for p in parts:
        kind = p.fields["Kind"]
        ref = p.ref
        kinds[ref] = kind

        def n(pin):
            return _node(p[pin].net)
        if kind in PFETS:
            lines.append("M%s %s %s %s %s %s W=1 L=1" % (ref, n("D"), n("G"), n("S"), n("S"),
                                                        PFETS[kind]))
            lines.append("D%s_body %s %s DBODY" % (ref, n("D"), n("S")))
        elif kind in ("PNP", "NPN"):
            lines.append("Q%s %s %s %s %s" % (ref, n("C"), n("B"), n("E"),
                                             "Q2N3906" if kind == "PNP" else "Q2N3904"))
        elif kind == "TL431":
            k, a, r = n("K"), n("A"), n("REF")
            # a transconductance of 5 A/V at the reference (the TL431's open-loop gain
            # with its 1 mA knee), at most 100 mA, 1 MHz (its output capacitance)
            lines.append("B%s %s %s I=0.1*0.5*(1+tanh((v(%s,%s)-%g)/0.01))*(1-exp(-max(v(%s,%s),0)/0.4))"
                         % (ref, k, a, r, a, c["vref"], k, a))
            lines.append("C%s_out %s %s 150p" % (ref, k, a))
            lines.append("I%s_ref %s %s %g" % (ref, r, a, c["iref"]))
            lines.append("D%s_rev %s %s DTL" % (ref, a, k))
        elif kind in ("R", "R_Prec"):
            v = _val(p.value)
            if kind == "R_Prec":
                # the top of the divider high and the bottom low (or the reverse): the
                # trip's worst corners
                top = p[1].net.name == "VIN_OK"
                v *= 1 + (c["rtol"] if top else -c["rtol"])
            lines.append("R%s %s %s %g" % (ref, n(1), n(2), v))
        elif kind == "Fuse_PTC":
            lines.append("R%s %s %s 0.05" % (ref, n(1), n(2)))
        elif kind == "C":
            lines.append("C%s %s %s %g" % (ref, n(1), n(2), _val(p.value)))
        elif kind == "CP":
            lines.append("C%s %s %s_esr %g" % (ref, n("+"), ref, _val(p.value)))
            lines.append("R%s_esr %s_esr %s 0.05" % (ref, ref, n("-")))
        elif kind in DIODES:
            model = DIODES[kind]
            lines.append("D%s %s %s %s" % (ref, n("A"), n("K"), model))
        elif kind == "LTC4412":
            lines += _ltc4412(ref, n("VIN"), n("SENSE"), n("GATE"), n("CTL"), c["vfr"])
        elif kind == "USBLC6":
            lines.append("D%s %s %s DESD" % (ref, n("GND"), n("VBUS")))
        elif kind == "DC_Jack":
            lines.append("Rsrc_jack src_jack %s %g" % (n("VOUT"), ADAPTER_R))
        elif kind == "USB_B":
            lines.append("Rsrc_usb src_usb %s %g" % (n("VBUS"), USB_R))
        else:
            raise KeyError("no SPICE model for %s (%s)" % (ref, kind))
    return lines, kinds


# The LTC4412 (Analog Devices, datasheet rev. C): powered from the higher of VIN and
# SENSE (2.5-28 V); its amplifier holds VIN - SENSE at the 20 mV forward regulation
# voltage (10-30 mV over the tolerance corners: ``vfr``) by pulling GATE down, at most
# to GND or 7 V under SENSE (the gate clamp); SENSE above VIN - VFR (or CTL high) pulls
# GATE to SENSE: the P-FET off. Modelled as a smooth comparator (4 mV wide) driving the
# gate through 1 kOhm (its sourcing / sinking, a few microseconds into the FET's Ciss).


def _ltc4412(ref, vin, sense, gate, ctl, vfr=0.02):
    on = ("0.5*(1+tanh((v(%s)-v(%s)-%g)/0.004))*0.5*(1-tanh((v(%s)-0.5)/0.05))"
          % (vin, sense, vfr, ctl))
    power = "0.5*(1+tanh((max(v(%s),v(%s))-2.5)/0.1))" % (vin, sense)
    drive = "min(7,max(v(%s),v(%s)))" % (vin, sense)
    return ["B%s_gate %s_g 0 V=v(%s)-%s*%s*%s" % (ref, ref, sense, drive, on, power),
            "R%s_gate %s_g %s 1k" % (ref, ref, gate),
            # its supply current (11 uA at 3.6 V) drawn from VIN as a resistor
            "R%s_iq %s 0 330k" % (ref, vin)]


def loads(board):
    """(adapter load on +5V in A, USB-only load on +5V in A): the power budget's
    consumers (hardware/generate.py) less the Pico, which draws from VSYS."""
    import generate
    import schematic
    from playboard.config import load_board
    from playboard.hw.pads import usb_led_budget
    cfg = load_board(board)
    circ, _ = schematic.build(board)
    rows, total = generate.power_rows(cfg, circ)
    pico = generate.CURRENT_MA["Pico"][1]
    adapter = (total - pico) / 1000.0
    other = total - pico - cfg["leds"]["budget_ma"]
    cap = usb_led_budget(cfg)
    usb = (other + cap) / 1000.0 if cap > 0 else 0.0
    return adapter, usb


_CACHE = {}


def netlist(board, case, corner="nominal", analysis=None, i_load=None):
    """ngspice netlist text of ``board``'s power stage in fault ``case`` (a CASES name, or
    a tuple (name, adapter V, USB V, note)) at ``corner`` (a CORNERS name). ``analysis``:
    the control lines (default: an operating point, every node and part printed);
    ``i_load``: the +5V rail's load (A; default the budget of the source in use)."""
    if board not in _CACHE:
        _CACHE[board] = (stage_parts(board), loads(board))
    (info, parts), (i_adapter, i_usb) = _CACHE[board]
    if isinstance(case, str):
        case = [cs for cs in CASES if cs[0] == case][0]
    name, v_jack, v_usb, _ = case
    c = CORNERS[corner]
    lines = ["* %s: %s, corner %s" % (board, name, corner), _models(c)]
    el, kinds = _elements(parts, c)
    lines += el
    lines.append("Vjack src_jack 0 %s" % _src(v_jack))
    lines.append("Vusb src_usb 0 %s" % _src(v_usb))
    # the Pico: its own Schottky from VBUS to VSYS, its draw on VSYS, its 10 uF
    lines.append("Dpico_vbus n_VBUS n_VSYS DMBR120")
    lines.append("Bpico n_VSYS 0 I=%g*min(max(v(n_VSYS),0)/3.0,1)" % PICO_A)
    lines.append("Cpico n_VSYS 0 10u")
    # the +5V rail's consumers: the adapter's budget when it is in (or VIN_SW is up),
    # else the USB cap (the firmware's leds.supply usb)
    if i_load is None:
        i_load = i_adapter if (v_jack or 0) > 0 else max(i_usb, LIGHT_A)
    lines.append("Bload n_p5V 0 I=%g*min(max(v(n_p5V),0)/4.2,1)" % i_load)
    lines += analysis or ["", ".control", "op", "print all", _prints(kinds), ".endc"]
    lines.append(".end")
    return "\n".join(lines) + "\n", kinds


def _src(v):
    return "DC 0" if v is None else "DC %g" % v


def _prints(kinds):
    out = []
    for ref, kind in kinds.items():
        if kind in PFETS:
            out += ["@m%s[id]" % ref, "@d%s_body[id]" % ref]
        elif kind in ("PNP", "NPN"):
            out += ["@q%s[ic]" % ref]
        elif kind == "TL431":
            out += ["@b%s[i]" % ref]
        elif kind in DIODES:
            out += ["@d%s[id]" % ref]
        elif kind in ("R", "R_Prec", "Fuse_PTC"):
            out += ["@r%s[i]" % ref]
    out += ["@vjack[i]", "@vusb[i]"]
    return "\n".join("print " + o for o in out)   # one a line: a missing one costs only itself


def _ngspice(text):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "in.cir")
        with open(path, "w") as f:
            f.write(text)
        proc = subprocess.run(["ngspice", "-b", path], capture_output=True, text=True,
                              timeout=120, cwd=d)
    if "Error" in proc.stdout and "= " not in proc.stdout:
        raise RuntimeError("ngspice failed:\n" + proc.stdout[-2000:] + proc.stderr[-2000:])
    return proc.stdout


def _parse(out):
    vals = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+)\s+=\s+(\S+)\s*$", line)
        if m:
            try:
                vals[m.group(1).lower()] = float(m.group(2))
            except ValueError:
                pass
    return vals


def run(board, case, corner="nominal", edit=None):
    """Operating point of ``case`` at ``corner``: {"v": {net: volts}, "parts": [(ref,
    kind, {stress: value})], "jack_a", "usb_a" (currents out of each source, A)}.
    ``edit``: a function of the netlist text returning it changed (a test's fault)."""
    text, kinds = netlist(board, case, corner)
    if edit is not None:
        text = edit(text)
    vals = _parse(_ngspice(text))

    def v(net):
        if net == "GND":
            return 0.0
        return vals.get(("v(%s)" % _node_name(net)).lower(), vals.get(_node_name(net).lower(), 0.0))
    (info, parts), _ = _CACHE[board]
    stress = []
    for p in parts:
        kind = kinds[p.ref]
        ref = p.ref.lower()
        s = {}
        if kind in PFETS:
            vd, vg, vs = v(p["D"].net.name), v(p["G"].net.name), v(p["S"].net.name)
            i = vals.get("@m%s[id]" % ref, 0.0) + vals.get("@d%s_body[id]" % ref, 0.0)
            s = {"vds": abs(vd - vs), "vgs": abs(vg - vs), "id": abs(i), "p": abs((vd - vs) * i)}
        elif kind in ("PNP", "NPN"):
            vc, vb, ve = v(p["C"].net.name), v(p["B"].net.name), v(p["E"].net.name)
            i = vals.get("@q%s[ic]" % ref, 0.0)
            # the base-emitter junction reversed: emitter above base (NPN), below (PNP)
            veb = (ve - vb) if kind == "NPN" else (vb - ve)
            s = {"vce": abs(vc - ve), "veb": max(veb, 0.0), "ic": abs(i),
                 "p": abs((vc - ve) * i)}
        elif kind == "TL431":
            vk, va = v(p["K"].net.name), v(p["A"].net.name)
            i = vals.get("@b%s[i]" % ref, 0.0)
            s = {"vka": vk - va, "ika": abs(i), "p": abs((vk - va) * i)}
        elif kind in DIODES:
            va, vk = v(p["A"].net.name), v(p["K"].net.name)
            i = vals.get("@d%s[id]" % ref, 0.0)
            s = {"if": max(i, 0.0), "vr": max(vk - va, 0.0), "p": abs((va - vk) * i)}
        elif kind == "LTC4412":
            vin, vsense = v(p["VIN"].net.name), v(p["SENSE"].net.name)
            s = {"vin": vin, "sense": vsense, "v_neg": max(-vin, -vsense, 0.0),
                 "v_op": max(vin, vsense)}
        elif kind in ("R", "R_Prec"):
            i = vals.get("@r%s[i]" % ref, 0.0)
            s = {"p": i * i * _val(p.value)}
        elif kind == "Fuse_PTC":
            s = {"v": abs(v(p[1].net.name) - v(p[2].net.name)),
                 "i": abs(vals.get("@r%s[i]" % ref, 0.0))}
        elif kind in ("C", "CP"):
            pos = "+" if kind == "CP" else 1
            neg = "-" if kind == "CP" else 2
            dv = v(p[pos].net.name) - v(p[neg].net.name)
            s = {"v": abs(dv)}
            if kind == "CP":
                s["v_rev"] = dv
        stress.append((p.ref, kind, s))
    nets = {n: v(n) for n in ("VIN_JACK", "VIN_FUSED", "VIN_OK", "VIN_SW", "+5V", "VSYS", "VBUS",
                              "Q2_GATE", "OVP_REF", "ID_GATE")}
    # the adapter sense line into a GPIO (boards with leds.adapter_pin)
    for p in parts:
        for pin in p.pins:
            if pin.net is not None and pin.net.name.endswith("_ADAPTER_SENSE"):
                nets["ADAPTER_SENSE"] = v(pin.net.name)
    usb_path = any(k == "NPN" for k in kinds.values())
    ideal = [p.ref for p in parts if kinds[p.ref] in PFETS and p["D"].net.name == "VIN_SW"]
    return {"case": case, "corner": corner, "v": nets, "parts": stress, "usb_path": usb_path,
            "ideal_fet": ideal[0] if ideal else None,
            "jack_a": -vals.get("@vjack[i]", 0.0), "usb_a": -vals.get("@vusb[i]", 0.0)}


def _node_name(net):
    return "0" if net == "GND" else "n_" + re.sub(r"[^A-Za-z0-9_]", "_", net.replace("+", "p"))


def check(res):
    """Violations of ``run``'s result: lines "<part or rail>: <what> <value> over <limit>"."""
    bad = []
    for ref, kind, s in res["parts"]:
        lim = RATINGS.get(kind, {})
        for key, val in s.items():
            if key == "v_rev":
                if val < lim["v_rev"]:
                    bad.append("%s: reversed %.2f V" % (ref, val))
            elif key in lim and val > lim[key]:
                bad.append("%s (%s): %s %.3g over its rating %.3g" % (ref, kind, key, val, lim[key]))
    v = res["v"]
    name, v_jack, v_usb, _ = [cs for cs in CASES if cs[0] == res["case"]][0] \
        if isinstance(res["case"], str) else res["case"]
    if v["+5V"] > LED_MAX_V:
        bad.append("+5V: %.3f V over the WS2812B's %.1f V" % (v["+5V"], LED_MAX_V))
    if v["VSYS"] > PICO_MAX_V:
        bad.append("VSYS: %.3f V over the Pico's %.1f V" % (v["VSYS"], PICO_MAX_V))
    up = ((v_jack is not None and 0 < v_jack <= 5.5)
          or (v_usb and res["usb_path"] and not (v_jack or 0) > 0))
    if up and v["+5V"] < RAIL_MIN_V:
        bad.append("+5V: %.3f V at the full LED cap, under the 74AHCT125's %.1f V"
                   % (v["+5V"], RAIL_MIN_V))
    if not up and v["+5V"] > 0.5:
        bad.append("+5V: %.2f V, should be off" % v["+5V"])
    if "ADAPTER_SENSE" in v:
        vs = v["ADAPTER_SENSE"]
        fed = v_jack is not None and 0 < v_jack <= 5.5
        if not -0.5 <= vs <= PIN_MAX_V:
            bad.append("adapter sense: %.2f V at the GPIO, outside -0.5..%.1f V" % (vs, PIN_MAX_V))
        elif fed and vs < PIN_HIGH_V:
            bad.append("adapter sense: %.2f V with the adapter in, under the GPIO's %.1f V high"
                       % (vs, PIN_HIGH_V))
        elif not fed and vs > PIN_LOW_V:
            bad.append("adapter sense: %.2f V with no adapter feeding, over the GPIO's %.1f V low"
                       % (vs, PIN_LOW_V))
    if v_usb and res["usb_a"] > USB_DECLARED_A:
        bad.append("USB: %.0f mA over the declared %.0f mA" % (1e3 * res["usb_a"], 1e3 * USB_DECLARED_A))
    if v_usb and res["usb_a"] < -BACKFEED_A:
        bad.append("USB: %.1f mA back into the host" % (-1e3 * res["usb_a"]))
    if v_jack and v_jack < 0 and abs(res["jack_a"]) > BACKFEED_A:
        bad.append("jack: %.1f mA with a reversed adapter" % (1e3 * res["jack_a"]))
    if v_jack and v_jack > 5.5:
        if abs(res["jack_a"]) > OVP_QUIESCENT_A:
            bad.append("jack: %.1f mA with a %g V adapter (only the cut-off's own %d mA)"
                       % (1e3 * res["jack_a"], v_jack, 1e3 * OVP_QUIESCENT_A))
        fed = [s["id"] for ref, kind, s in res["parts"] if ref == res["ideal_fet"]]
        if fed and fed[0] > BACKFEED_A:
            bad.append("+5V: fed %.1f mA by a %g V adapter (should be cut off)" % (1e3 * fed[0], v_jack))
    if v_jack and 0 < v_jack and res["jack_a"] < -BACKFEED_A:
        bad.append("jack: %.1f mA back into the adapter" % (-1e3 * res["jack_a"]))
    return bad


def trip(board, corner="nominal", lo=4.8, hi=6.0, step=0.005, usb=None):
    """(trip volts, highest +5V over the sweep, highest VSYS): a DC sweep of the adapter
    from ``lo`` to ``hi``; the trip is the first adapter voltage at which Q2 is off
    (VIN_SW more than 1 V under VIN_OK). None for the trip if it never trips."""
    case = ("sweep", lo, usb, "sweep")
    analysis = ["", ".control", "dc Vjack %g %g %g" % (lo, hi, step),
                "wrdata sweep.txt v(n_VIN_OK) v(n_VIN_SW) v(n_p5V) v(n_VSYS)", ".endc"]
    text, _ = netlist(board, case, corner, analysis, i_load=LIGHT_A)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "in.cir")
        with open(path, "w") as f:
            f.write(text)
        subprocess.run(["ngspice", "-b", path], capture_output=True, text=True, timeout=120, cwd=d)
        with open(os.path.join(d, "sweep.txt")) as f:
            rows = f.read().splitlines()
    t = None
    vmax = smax = 0.0
    for line in rows:
        cols = line.split()
        if len(cols) != 8:
            continue
        vj, vok, vsw, v5, vs = (float(cols[0]), float(cols[1]), float(cols[3]),
                                float(cols[5]), float(cols[7]))
        vmax = max(vmax, v5)
        smax = max(smax, vs)
        if t is None and vok - vsw > 1.0 and vj > 4.9:
            t = vj
    return t, vmax, smax


def inrush(board, which="usb", with_adapter=False):
    """A hot-plug in the time domain: (peak A above the final current, highest +5V V).

    ``which`` "usb": VBUS rises 0 -> 5 V in 100 us (at 1 ms), the adapter in or not;
    the current is the board's own +5 V path's (Q4's source: the Pico's own, behind its
    own diode, excluded), its peak less its final value (the rail's load at power-up,
    the LEDs dark). "adapter12": USB feeds the board, then at 200 ms a 12 V adapter is
    plugged in (rising in 100 us): the current is the jack's, and the rail must stay
    under the LEDs' 5.3 V. "adapter5": no USB, the 5 V adapter plugged in at 1 ms
    (rising in 100 us): the jack's peak (the 1000 uF charging through the fuse, Q1, Q2
    and the ideal diode), the rail's highest."""
    if which == "adapter5":
        case = ("5 V plug", None, None, "plug")
        usb_src = "DC 0"
        jack_src = "PWL(0 0 1m 0 1.1m 5)"
        probe = "i(vjack)"
        t0, t_stop = 0.5e-3, 0.3
    elif which == "usb":
        case = ("usb attach", 5.0 if with_adapter else None, None, "attach")
        usb_src = "PWL(0 0 1m 0 1.1m 5)"
        jack_src = "DC 5" if with_adapter else "DC 0"
        probe = "i(vprobe)"
        t0, t_stop = 0.5e-3, 0.25
    else:
        case = ("12 V plug", None, 5.0, "plug")
        usb_src = "DC 5"
        jack_src = "PWL(0 0 200m 0 200.1m 12)"
        probe = "i(vjack)"
        t0, t_stop = 0.199, 0.3
    analysis = ["", ".options method=gear", ".control",
                "tran 20u %g uic" % t_stop,
                "let ip = abs(%s)" % probe,
                "meas tran ipk MAX ip from=%g to=%g" % (t0, t_stop),
                "meas tran ifin FIND ip AT=%g" % t_stop,
                "meas tran v5 MAX v(n_p5V) from=%g to=%g" % (t0, t_stop),
                "print ipk ifin v5", ".endc"]
    text, _ = netlist(board, case, "nominal", analysis, i_load=LIGHT_A)
    text = re.sub(r"^Vjack src_jack 0 .*$", "Vjack src_jack 0 " + jack_src, text, flags=re.M)
    text = re.sub(r"^Vusb src_usb 0 .*$", "Vusb src_usb 0 " + usb_src, text, flags=re.M)
    if which == "usb":
        text = _probe_q4(text)
    vals = _parse(_ngspice(text))
    ipk, ifin = vals.get("ipk", float("nan")), vals.get("ifin", 0.0)
    return (ipk - ifin if which == "usb" else ipk), vals.get("v5", float("nan"))


# The 5 V adapter's plug: the 1000 uF charged from nothing. The binding rating is the
# jack's (CUI PJ-102AH: 2.5 A, no surge figure), far under the AOD4185's IDM 115 A, the
# MF-R250's Imax 40 A and the 1N5817's IFSM 25 A: Q2's gate capacitors (1 uF to its
# source, 100 nF to its drain) make it a soft start under ADAPTER_INRUSH_A
ADAPTER_INRUSH_A = 1.0


def _probe_q4(text):
    """Put a 0 V probe between VBUS and Q4's source (its FET, body diode and 1 uF)."""
    out = []
    q4 = None
    for line in text.splitlines():
        m = re.match(r"^M(Q\d+) \S+ n_Q4_GATE ", line)
        if m:
            q4 = m.group(1)
        out.append(line)
    if q4 is None:
        raise ValueError("no soft-start switch on this board")
    text = "\n".join(out) + "\n"
    text = re.sub(r"^(M%s \S+ n_Q4_GATE) n_VBUS n_VBUS" % q4, r"\1 n_Q4_S n_Q4_S", text, flags=re.M)
    text = re.sub(r"^(D%s_body \S+) n_VBUS" % q4, r"\1 n_Q4_S", text, flags=re.M)
    text = re.sub(r"^(C\S+ n_Q4_GATE) n_VBUS$", r"\1 n_Q4_S", text, flags=re.M)
    text = re.sub(r"^(C\S+) n_VBUS (n_Q4_GATE)$", r"\1 n_Q4_S \2", text, flags=re.M)
    return text.replace("\n.control", "\nVprobe n_VBUS n_Q4_S DC 0\n.control", 1)


def report(board):
    """Lines of text: every case at every corner (worst of each figure), the trips, the
    hot-plugs, each beside its limit; and the list of violations (empty: all within)."""
    lines = []
    bad = []
    for case in CASES:
        worst = {}
        for corner in CORNERS:
            res = run(board, case[0], corner)
            for b in check(res):
                bad.append("%s, %s, %s" % (case[0], corner, b))
            for ref, kind, s in res["parts"]:
                for key in ("p", "id", "if", "ic", "ika"):
                    if key in s and s[key] > worst.get((ref, key), (-1, 0))[0]:
                        worst[(ref, key)] = (s[key], kind)
            worst[("USB", "a")] = (max(worst.get(("USB", "a"), (-9, 0))[0], res["usb_a"]), "")
            worst[("jack", "a")] = (max(worst.get(("jack", "a"), (-9, 0))[0], abs(res["jack_a"])), "")
            worst[("+5V", "v")] = (max(worst.get(("+5V", "v"), (-9, 0))[0], res["v"]["+5V"]), "")
        top = sorted(((v[0] / RATINGS[v[1]][k[1]], k, v) for k, v in worst.items()
                      if v[1] and k[1] in RATINGS.get(v[1], {})), reverse=True)[:2]
        lines.append("%-24s jack %7.1f mA  USB %6.1f mA  +5V %.3f V  hottest: %s" % (
            case[0], 1e3 * worst[("jack", "a")][0], 1e3 * worst[("USB", "a")][0],
            worst[("+5V", "v")][0],
            ", ".join("%s %s %.3g (of %.3g)" % (k[0], k[1], v[0], RATINGS[v[1]][k[1]])
                      for _, k, v in top)))
    return lines, bad


if __name__ == "__main__":
    for b in sys.argv[1:] or ["pico-matrix", "pico-hall"]:
        print("==", b)
        lines, bad = report(b)
        print("\n".join(lines))
        for corner in CORNERS:
            t, v5, vs = trip(b, corner)
            print("trip %-8s %s V (rail max %.3f, VSYS max %.3f)" % (corner, t, v5, vs))
        print("violations:", bad or "none")
