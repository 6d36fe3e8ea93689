"""Does the hall board's stylus still reach its sensor through a deep pit?

The stylus (the BOM's 10 x 20 mm N42 rod magnet, axially magnetised) selects a pit by
being touched to it (``pit_select`` "stylus"); its sensor is a DRV5053RA under the top
panel (hardware/schematic.py), read through the ADC as ``read_u16`` units against the
board file's ``sensor.threshold``. The worst reach is a pit full to its brim: the
stylus's tip on the top of the balls, ``depth_mm.pit`` above the pit's floor, which is
the top panel with the sensor in its groove below (hardware/generate.py ``STACK``). The
worst neighbour is the nearest other sensor with the stylus on the floor of its pit.

``reach(board)`` gives {"operate_mt": the field the firmware's threshold needs at the
sensor's lowest sensitivity (mT), "far_mm" / "far_mt": the stylus's tip to the Hall
element over a full pit and its field there, "margin": far_mt / operate_mt,
"neighbour_mm" / "neighbour_mt": the nearest other sensor's distance (centre to centre)
and the field there with the stylus on its pit's floor, "release_margin": operate_mt /
neighbour_mt}. Units: mm, mT.

Sources: DRV5053 (TI SLIS153, read at https://raw.githubusercontent.com/Tinkerforge/
hall-effect-v2-bricklet/master/datasheets/DRV5053.pdf): RA -45 mV/mT, sensitivity
+-10 % over temperature, output 0.2-1.8 V; the Hall element about 1 mm behind the TO-92's
flat face (its "Hall element location" figure, as last read: not among the stored
pages). N42: Br 1.28 T at least (the grade's minimum remanence). The RP2040's ADC: 3.3 V
full scale, ``read_u16`` 0..65535.
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
if os.path.join(ROOT, "firmware") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "firmware"))

BR_T = 1.28                 # N42's lowest remanence (T)
MAGNET_D_MM = 10.0          # the stylus's rod magnet (first4magnets F1020-N42)
MAGNET_L_MM = 20.0
SENS_MV_PER_MT = 45.0       # DRV5053RA, typical (its sign is the calibration's polarity)
SENS_TOL = 0.10             # +-10 %
ADC_FULL_MV = 3300.0        # read_u16 65535 at 3.3 V
ELEMENT_MM = 1.0            # the Hall element behind the TO-92's face


def axial_mt(z_mm, d_mm=None, l_mm=None, br_t=BR_T):
    """The field (mT) on the axis of a cylinder magnet (``d_mm`` across, ``l_mm`` long;
    default the stylus's) ``z_mm`` from its face (the exact solution for a uniformly
    magnetised cylinder)."""
    d_mm = MAGNET_D_MM if d_mm is None else d_mm
    l_mm = MAGNET_L_MM if l_mm is None else l_mm
    r = d_mm / 2.0
    z = float(z_mm)
    return 1e3 * br_t / 2.0 * ((z + l_mm) / math.hypot(r, z + l_mm) - z / math.hypot(r, z))


def dipole_vertical_mt(rho_mm, h_mm, d_mm=None, l_mm=None, br_t=BR_T):
    """The field's vertical component (mT, its magnitude) at ``rho_mm`` beside the axis
    of a vertical cylinder magnet (default the stylus's) whose centre is ``h_mm`` above
    the point: the magnet as a dipole (far enough: rho several diameters)."""
    d_mm = MAGNET_D_MM if d_mm is None else d_mm
    l_mm = MAGNET_L_MM if l_mm is None else l_mm
    vol = math.pi * (d_mm / 2.0) ** 2 * l_mm
    r = math.hypot(rho_mm, h_mm)
    cos = h_mm / r
    return abs(1e3 * br_t * vol / (4 * math.pi * r ** 3) * (3 * cos * cos - 1))


def reach(board="pico-hall"):
    """The stylus's reach on ``board`` (see the module's docstring); ValueError for a
    board without the stylus."""
    import generate
    from playboard.config import load_board
    cfg = load_board(board)
    if cfg.get("pit_select") != "stylus":
        raise ValueError("%s selects its pits without the stylus" % board)
    with open(os.path.join(ROOT, "firmware", "boards", "layout_%s.json" % cfg["layout"])) as f:
        lay = json.load(f)
    floor = generate.STACK["top"] - generate.STACK["groove"] + ELEMENT_MM
    deep = lay.get("depth_mm", {}).get("pit", 0)
    thr_mv = cfg["sensor"]["threshold"] * ADC_FULL_MV / 65535.0
    operate = thr_mv / (SENS_MV_PER_MT * (1 - SENS_TOL))
    far = floor + deep
    # the nearest other sensor to any pit's sensor
    where = {}
    for g in lay["games"].values():
        for cell, s, led, x, y, kind in g["cells"]:
            if s >= 0:
                where.setdefault(s, (x, y, kind))
    near = min(math.hypot(x - x2, y - y2) for s, (x, y, k) in where.items() if k == "pit"
               for s2, (x2, y2, k2) in where.items() if s2 != s)
    neighbour = dipole_vertical_mt(near, floor + MAGNET_L_MM / 2.0)
    # the neighbour is read at the sensor's highest sensitivity
    release = operate * (1 - SENS_TOL) / (1 + SENS_TOL)
    return {"operate_mt": operate, "far_mm": far, "far_mt": axial_mt(far),
            "margin": axial_mt(far) / operate, "neighbour_mm": near,
            "neighbour_mt": neighbour, "release_margin": release / neighbour}


if __name__ == "__main__":
    r = reach(sys.argv[1] if len(sys.argv) > 1 else "pico-hall")
    print("operate %.2f mT; over a full pit %.1f mm: %.2f mT (x%.2f); the nearest other "
          "sensor %.0f mm away: %.2f mT (x%.2f under its threshold)"
          % (r["operate_mt"], r["far_mm"], r["far_mt"], r["margin"], r["neighbour_mm"],
             r["neighbour_mt"], r["release_margin"]))
