"""ESD in SPICE: an IEC 61000-4-2 contact discharge into a line the board exposes, with
its protection, down to the RP2040's pin.

``strike(line, kv)`` builds an ngspice transient of the discharge network (150 pF
charged to ``kv`` kV, 330 ohm: IEC 61000-4-2's contact discharge, the human-body-like
network the brief names; 0.1 uH for its 0.7-1 ns rise) touching ``line``'s connector,
the wire to the ESD array, the array (its steering diodes onto its rail, its clamp),
the wire on to the Pico and the RP2040's pin (its own ESD diodes to IOVDD and GND, 5 pF),
and returns the peaks: the array's current, the voltage at the array (the clamp), the
voltage at and the current into the RP2040's pin, the charge into the pin. ``check``
compares them with the ratings (``RATINGS``) and returns the violations, one line each.

Lines (``LINES``), as hardware/schematic.py wires them:

- ``usb_dp`` / ``usb_dm``: the wall's USB B socket -> USBLC6-2SC6 (its VBUS pin on the
  USB VBUS net: the host's 5 V through the cable, the Pico's own diode into VSYS's
  10 uF) -> the Pico's test pad (TP3 / TP2) -> the Pico's 27 ohm series resistor -> the
  RP2040's USB pin;
- ``sensor``: a reed-matrix row or column (the harness to the panel) -> USBLC6-4SC6
  (its VBUS pin on +5V, the 1000 uF) -> 1 k (the 4608X array) -> the RP2040's GPIO
  (its 50 k pull-up). Without the 1 k the pin takes 1.9 A (over its HBM 2 kV's
  1.33 A): tests/host/test_esd_spice.py shows it.

Units: volts, amps, seconds, coulombs. Needs ``ngspice`` (hardware/spice.py
``available``). ``python hardware/esd.py`` prints every strike beside its limits (also
what ``make bench`` shows: bench/py_spice.py).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import spice  # noqa: E402

GUN_C = 150e-12       # IEC 61000-4-2's storage capacitor (F)
GUN_R = 330.0         # its discharge resistor (ohms)
GUN_L = 0.1e-6        # the discharge path: the standard's 0.7-1 ns rise (H)
WIRE_L = 50e-9        # 5 cm of wire, connector to array or array to the Pico (H)
IOVDD = 3.3           # the RP2040's IO supply (V)

# Ratings (datasheets' absolute maxima and ESD qualifications):
RATINGS = {
    # USBLC6-2SC6 / USBLC6-4SC6: IEC 61000-4-2 level 4, 8 kV contact: the standard's
    # first peak at 8 kV is 30 A (3.75 A/kV)
    "array_a": 30.0,
    # the RP2040's pin: what its own ESD structure is qualified for (HBM 2 kV, JS-001:
    # 2 kV through 1.5 kOhm, 1.33 A peak, 100 pF x 2 kV = 200 nC: the current and charge
    # it takes are checked against these); its absolute maximum voltage is IOVDD + 0.5 V
    # = 3.8 V, a DC rating: while the residual current flows (a few ns) its own ESD
    # diodes hold the pin at IOVDD plus their drop (3.96 V on a matrix line, 4.6 V on
    # USB), as behind any TVS; the pin must be back within it once the discharge is over
    "pin_a": 2000.0 / 1500.0,
    "pin_q": 100e-12 * 2000.0,
    "pin_v": IOVDD + 0.5,
}
# When the pin must be back within its DC absolute maximum: the discharge over (the
# gun's 150 pF, left at the clamp's 5-6 V, drains through the line's 1 k and the pin's
# diode, ever slower as the diode turns off: 3.83 V still at 1 us, 3.73 V at 2 us)
PIN_SETTLE_S = 2e-6
T_STOP = 3e-6

LINES = {
    # line: (its rail: "vbus" or "p5v", the series resistor to the pin (ohms: the Pico's
    # 27 on USB, the 1 k array on a matrix line), the pin's bias (ohms, to GND if
    # negative, else to IOVDD: the host's 15 k pull-down, the GPIO's 50 k pull-up))
    "usb_dp": ("vbus", 27.0, -15e3),
    "usb_dm": ("vbus", 27.0, -15e3),
    "sensor": ("p5v", 1000.0, 50e3),
}


def _models():
    # USBLC6-2SC6 / -4SC6 (the same cell): steering diodes, and the rail clamp fitted to
    # the datasheet's clamping maxima (12 V at 1 A, 17 V at 5 A, 8/20 us, I/O to GND
    # with the rail open): 9.5 V knee, 1.25 ohm in all
    return "\n".join([
        ".model DSTEER D (IS=1e-9 N=1.3 RS=0.25 CJO=1.5p)",
        ".model DCLAMP D (IS=1e-12 N=1 RS=1.0 BV=9.5 IBV=1m)",
        # the RP2040 pin's own ESD diodes (to IOVDD and to GND)
        ".model DPIN D (IS=1e-12 N=1.1 RS=2.0 CJO=2p)",
        # the Pico's VBUS -> VSYS diode (MBR120)
        ".model DMBR120 D (IS=3e-6 N=1.0 RS=0.05)",
    ])


def netlist(line, kv):
    """ngspice text of a ``kv`` kV contact discharge (negative kV: a negative one) into
    ``line`` (a LINES name); KeyError for an unknown line."""
    rail, r_series, bias = LINES[line]
    out = ["* IEC 61000-4-2 contact %g kV into %s" % (kv, line), _models()]
    # the gun: 150 pF at kv, 330 ohm, 0.1 uH, onto the connector's pin at t = 0
    out += ["Cgun gun 0 %g IC=%g" % (GUN_C, 1e3 * kv),
            "Rgun gun gl %g" % GUN_R, "Lgun gl gp %g" % GUN_L, "Vprobe_gun gp conn DC 0",
            # the wire to the array and from it to the Pico
            "Lw1 conn io %g" % WIRE_L, "Lw2 io pad %g" % WIRE_L,
            "Vprobe_arr io arr DC 0"]
    # the array: steering diodes onto its rail and from GND, the rail's clamp
    out += ["Dup arr railn DSTEER", "Ddn 0 arr DSTEER", "Dcl railn 0 DCLAMP",
            "Vprobe_rail railn rail DC 0"]
    if rail == "vbus":
        # USB VBUS: the host's 5 V through the cable (0.25 ohm, 1 uH), the Pico's
        # diode into VSYS's 10 uF (at 4.7 V)
        out += ["Vhost host 0 DC 5", "Rcable host hc 0.25", "Lcable hc rail 1u",
                "Dvsys rail vsys DMBR120", "Cvsys vsys 0 10u IC=4.7"]
    else:
        # +5V: the 1000 uF (0.05 ohm ESR) and the LED chain's 100 nF, at 5 V
        out += ["Cbulk rail besr 1000u IC=5", "Resr besr 0 0.05", "Cled rail 0 4.7u IC=5"]
    # on to the RP2040's pin: the series resistor, its ESD diodes, 5 pF; IOVDD held by
    # the Pico's 3.3 V (100 nF at the chip, the regulator behind 0.5 ohm)
    out += ["Rser pad pinr %g" % r_series, "Vprobe_pin pinr pin DC 0",
            "Rbias pin %s %g" % ("0" if bias < 0 else "iovdd", abs(bias)),
            "Dpup pin iovdd DPIN", "Dpdn 0 pin DPIN", "Cpin pin 0 5p",
            "Vreg reg 0 DC %g" % IOVDD, "Rreg reg iovdd 0.5", "Cdec iovdd 0 100n IC=%g" % IOVDD]
    out += ["", ".options method=gear reltol=1e-4", ".control",
            "tran 0.05n %g uic" % T_STOP,
            "let ia = abs(i(vprobe_arr))",
            "let ip = abs(i(vprobe_pin))",
            "let q = integ(ip)",
            "meas tran arr_a MAX ia",
            "meas tran pin_a MAX ip",
            "meas tran pin_q MAX q",
            "meas tran clamp_v MAX v(arr)", "meas tran clamp_vn MIN v(arr)",
            "meas tran pin_v MAX v(pin)", "meas tran pin_vn MIN v(pin)",
            "meas tran pin_v_late MAX v(pin) from=%g to=%g" % (PIN_SETTLE_S, T_STOP),
            "meas tran pin_vn_late MIN v(pin) from=%g to=%g" % (PIN_SETTLE_S, T_STOP),
            "let ig = abs(i(vprobe_gun))",
            "meas tran gun_a MAX ig",
            "print arr_a pin_a pin_q clamp_v clamp_vn pin_v pin_vn pin_v_late pin_vn_late gun_a",
            ".endc", ".end"]
    return "\n".join(out) + "\n"


def strike(line, kv=8.0, edit=None):
    """Peaks of a ``kv`` kV contact discharge into ``line``: {"array_a": the array's
    peak current (A), "gun_a": the discharge's, "clamp_v": the array's node, the
    farthest from 0 (V, signed), "pin_v": the RP2040's pin likewise, "pin_v_late": the
    pin's farthest after PIN_SETTLE_S, "pin_a": peak current into the pin (A), "pin_q":
    charge into it (C)}. ``edit``: a function of the netlist text (a test's fault)."""
    text = netlist(line, kv)
    if edit is not None:
        text = edit(text)
    vals = {}
    for ln in spice._ngspice(text).splitlines():
        m = re.match(r"^(\w+)\s+=\s+(\S+)", ln)     # "name = value at= time"
        if m:
            try:
                vals[m.group(1).lower()] = float(m.group(2))
            except ValueError:
                pass

    def far(hi, lo):
        a, b = vals.get(hi, float("nan")), vals.get(lo, float("nan"))
        return a if abs(a) >= abs(b) else b
    return {"line": line, "kv": kv, "array_a": vals.get("arr_a", float("nan")),
            "gun_a": vals.get("gun_a", float("nan")),
            "clamp_v": far("clamp_v", "clamp_vn"), "pin_v": far("pin_v", "pin_vn"),
            "pin_v_late": far("pin_v_late", "pin_vn_late"),
            "pin_a": vals.get("pin_a", float("nan")), "pin_q": vals.get("pin_q", float("nan"))}


def check(res):
    """Violations of ``strike``'s result, one line each (empty: within every rating)."""
    bad = []
    name = "%s %+g kV" % (res["line"], res["kv"])
    for key, what, unit, scale in (("array_a", "ESD array peak current", "A", 1.0),
                                   ("pin_a", "current into the RP2040's pin", "A", 1.0),
                                   ("pin_q", "charge into the RP2040's pin", "nC", 1e9)):
        v = res[key]
        if not v == v or v > RATINGS[key]:      # (NaN: the simulation gave nothing)
            bad.append("%s: %s %.3g %s over its rating %.3g" % (name, what, v * scale, unit,
                                                                 RATINGS[key] * scale))
    late = res["pin_v_late"]
    if not late == late or not -0.5 <= late <= RATINGS["pin_v"]:
        bad.append("%s: the RP2040's pin at %.2f V %d ns after the strike, outside -0.5..%.1f V"
                   % (name, late, PIN_SETTLE_S * 1e9, RATINGS["pin_v"]))
    return bad


def report():
    """[(line, kv, result, violations)] for +-8 kV into every line."""
    out = []
    for line in LINES:
        for kv in (8.0, -8.0):
            res = strike(line, kv)
            out.append((line, kv, res, check(res)))
    return out


if __name__ == "__main__":
    for line, kv, r, bad in report():
        print("%-7s %+5.1f kV: array %5.1f A (of %g), clamp %+6.1f V, pin %+5.2f V (%+.2f V "
              "after %d ns), into the pin %.3f A (of %.2f) %.1f nC (of %.0f) %s"
              % (line, kv, r["array_a"], RATINGS["array_a"], r["clamp_v"], r["pin_v"],
                 r["pin_v_late"], PIN_SETTLE_S * 1e9, r["pin_a"], RATINGS["pin_a"],
                 r["pin_q"] * 1e9, RATINGS["pin_q"] * 1e9, bad or "ok"))
