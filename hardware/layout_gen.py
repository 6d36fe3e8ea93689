"""Generate the physical layouts: firmware/boards/layout_default.json (the compact board)
and layout_full.json (a full-size Toguz Kumalak panel), docs/hardware.md, docs/build.md.

Run ``python hardware/layout_gen.py`` after changing the geometry below; a host test
checks that the committed files equal what this script makes.

Both layouts have the same cells, sensors and LEDs (one wiring, one board definition
apart from ``layout``); only positions and hole sizes differ. The full-size option
(``FULL``): 70 mm pits at 90 mm pitch, 24 mm deep, two 330 x 60 mm kazan troughs
24 mm deep, an 840 x 660 mm board. Why: a pit must hold 20-40 balls, a kazan 82 or
more (more than half of 162 wins); with 12 mm balls (about 0.9 cm3 each, 0.64 of a
heap is balls) 40 balls need about 57 cm3: a 70 mm pit 24 mm deep holds 92 cm3; all
162 need about 230 cm3: a kazan trough of 330 x 60 x 24 mm holds 475 cm3. Boards on
sale run from 43 x 18 cm a side (a folding board with 1 cm troughs) through 55 x 35 cm
(walnut balls) to the large carved boards of clubs and tournaments with pits of 60-80
mm; 70 mm at 90 mm pitch is the large end, seen from across a museum room. The pits
and kazans are through-holes in a 24 mm pit panel (two 12 mm plies) glued over the
Toguz half of the 6 mm top panel, which is their floor: the sensors sit under it as
on the compact board (hardware/generate.py's BOM, docs/build.md). The 20 mm between
pits carries the LED beside each pit, under a 5 mm light pipe through the pit panel.

The board (400 x 460 mm, origin at White's / South's bottom-left corner, y away from
White, all in mm) carries two panels on one 8 x 8 reed-switch matrix (64 sensors)
and one chain of 58 WS2812 LEDs:

- Tobit panel (top): a 7 x 6 grid of 40 mm pitch, gx 0..6, gy 0..5 at
  x = 80 + 40 gx, y = 240 + 40 gy; its 38 points (the 4 corners have none) are
  Tobit 5 x 4's points 1..38 (RULES.md 2.1/2.2: point (x, y) sits at gx = x, gy = y).
  Tobit 4 x 4 uses the same points with the same (x, y) (gx 0..5): its 32 points
  are a subset, so the 4 x 4 game is played on the left part of the grid.
- Mancala panel (bottom): Toguz Kumalak's 2 x 9 pits, 40 mm pitch, South's row at
  y = 40 (pit k at x = 40 k), North's at y = 160 (North's pit k at x = 400 - 40 k:
  each player numbers from their own left), the kazans in the band between
  (South's at (110, 100), North's at (290, 100)). Tihbat's 2 x 2 pits are the four
  centre pits (South 5, 6 and North 5, 4 of Toguz Kumalak) and its two
  captured-counter displays are the kazan LEDs.

Sensors: Tobit point p -> sensor p - 1 (0..37); Toguz pit i (g.pos index 0..17)
-> sensor 40 + i (40..57); 38, 39, 58..63 are spare (buttons). Sensor s sits at
matrix row s // 8, column s % 8. Kazans have no sensor.

LEDs run in one serpentine chain from the Pico at the South edge: South pits 1..9
(0..8, left to right), North's kazan (9), South's kazan (10), North pits 9..1
(11..19, left to right), then the Tobit rows bottom to top, alternating direction
(row 0 right to left from 20, row 1 left to right, ...), ending at point 38 (57).
"""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "firmware", "boards", "layout_default.json")

PITCH = 40
TOBIT_X0, TOBIT_Y0 = 80, 240
SOUTH_Y, NORTH_Y, KAZAN_Y = 40, 160, 100

# geometry of each layout option: board size, Tobit grid origin and pitch, pit row
# positions and pitch, kazan centres, hole sizes (mm)
COMPACT = {
    "name": "default", "size": (400, 460), "tobit": (80, 240, 40),
    "pits": (40, 40, 160, 40), "kazans": ((110, 100), (290, 100)),
    "holes": {"point": 16, "pit": 32, "kazan": [120, 30], "counter": [120, 30], "led": 5},
    # the pits and kazans cut through a 24 mm pit panel, as on the full-size board, for
    # 8 mm balls: a pit's cup (31 mm, 28 inside, 30 high) holds 41, a kazan 206 (all 162
    # fit; more than half, 82, wins): hardware/generate.py capacity(); the 6 mm top
    # panel alone held none (a 1.5 mm recess under a token)
    "depth": {"pit": 24, "kazan": 24, "counter": 24, "point": 0},
    "ball": 8,
    "title": "Playboard default: Tobit 7 x 6 grid above a Toguz Kumalak 2 x 9 panel",
}
FULL = {
    "name": "full", "size": (840, 660), "tobit": (300, 400, 40),
    "pits": (60, 60, 280, 90), "kazans": ((225, 170), (615, 170)),
    "holes": {"point": 16, "pit": 70, "kazan": [330, 60], "counter": [330, 60], "led": 5},
    "depth": {"pit": 24, "kazan": 24, "counter": 24, "point": 0},
    "ball": 12,
    "title": "Playboard full size: Toguz Kumalak with 70 mm pits at 90 mm pitch, Tobit 7 x 6 "
             "grid above",
}


def tobit_points(L, T):
    """[(point, x, y)] in RULES.md 2.2 order for an L x T board."""
    pts = []
    for y in range(T + 2):
        for x in range(L + 2):
            if (x in (0, L + 1)) and (y in (0, T + 1)):
                continue
            if (x in (0, L + 1)) or (y in (0, T + 1)) or (1 <= x <= L and 1 <= y <= T):
                pts.append((x, y))
    return [(i + 1, x, y) for i, (x, y) in enumerate(pts)]


def tobit_leds():
    """LED index of each standard Tobit point (serpentine by rows, from LED 20)."""
    rows = {}
    for p, x, y in tobit_points(5, 4):
        rows.setdefault(y, []).append(p)
    led = {}
    k = 20
    for y in sorted(rows):
        pts = rows[y] if y % 2 else list(reversed(rows[y]))
        for p in pts:
            led[p] = k
            k += 1
    return led


def pit_xy(i, geom=COMPACT):
    """(x, y) mm of Toguz pit index i (0..8 South pits 1..9, 9..17 North pits 1..9)."""
    x0, sy, ny, pitch = geom["pits"]
    w = geom["size"][0]
    if i < 9:
        return x0 + pitch * i, sy
    return w - x0 - pitch * (i - 9), ny


def pit_led(i):
    return i if i < 9 else 11 + (17 - i)


KAZAN_LEDS = {18: 10, 19: 9}  # cell: led


def build(geom=COMPACT):
    """The layout dict of a geometry (COMPACT, the default; FULL)."""
    tx0, ty0, tp = geom["tobit"]
    kaz = {18: (KAZAN_LEDS[18], geom["kazans"][0]), 19: (KAZAN_LEDS[19], geom["kazans"][1])}
    std = {p: (x, y) for p, x, y in tobit_points(5, 4)}
    leds = tobit_leds()
    games = {}
    cells = []
    for p, (x, y) in sorted(std.items()):
        cells.append([p, p - 1, leds[p], tx0 + tp * x, ty0 + tp * y, "point"])
    games["tobit"] = cells
    by_xy = {xy: p for p, xy in std.items()}
    cells = []
    for p, x, y in tobit_points(4, 4):
        q = by_xy[(x, y)]
        cells.append([p, q - 1, leds[q], tx0 + tp * x, ty0 + tp * y, "point"])
    games["tobit4"] = cells
    cells = []
    for i in range(18):
        x, y = pit_xy(i, geom)
        cells.append([i, 40 + i, pit_led(i), x, y, "pit"])
    for c, (led, (x, y)) in sorted(kaz.items()):
        cells.append([c, -1, led, x, y, "kazan"])
    games["toguz"] = cells
    cells = []
    # Tihbat g.pos: 0, 1 South pits 1, 2; 2, 3 North pits 1, 2; 4, 5 captures
    for c, toguz_pit in ((0, 4), (1, 5), (2, 12), (3, 13)):
        x, y = pit_xy(toguz_pit, geom)
        cells.append([c, 40 + toguz_pit, pit_led(toguz_pit), x, y, "pit"])
    cells.append([4, -1, kaz[18][0], kaz[18][1][0], kaz[18][1][1], "counter"])
    cells.append([5, -1, kaz[19][0], kaz[19][1][0], kaz[19][1][1], "counter"])
    games["tihbat"] = cells
    out = {
        "name": geom["name"],
        "title": geom["title"],
        "size_mm": list(geom["size"]),
        "n_sensors": 64,
        "n_leds": 58,
        "holes_mm": dict(geom["holes"]),
    }
    if "depth" in geom:
        out["depth_mm"] = dict(geom["depth"])
    if "ball" in geom:
        out["ball_mm"] = geom["ball"]     # the Toguz Kumalak balls the pits are cut for
    out["spare_sensors"] = [38, 39, 58, 59, 60, 61, 62, 63]
    out["games"] = {g: {"cells": c} for g, c in games.items()}
    return out


def dumps(data):
    """The file text: one cell per line, so that diffs stay readable."""
    lines = ["{"]
    keys = [k for k in data if k != "games"]
    for k in keys:
        lines.append("  %s: %s," % (json.dumps(k), json.dumps(data[k])))
    lines.append('  "games": {')
    names = list(data["games"])
    for gi, g in enumerate(names):
        lines.append("    %s: {\"cells\": [" % json.dumps(g))
        cells = data["games"][g]["cells"]
        for ci, c in enumerate(cells):
            lines.append("      %s%s" % (json.dumps(c), "," if ci < len(cells) - 1 else ""))
        lines.append("    ]}%s" % ("," if gi < len(names) - 1 else ""))
    lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def path_of(geom):
    return os.path.join(ROOT, "firmware", "boards", "layout_%s.json" % geom["name"])


def main():
    for geom in (COMPACT, FULL):
        with open(path_of(geom), "w") as f:
            f.write(dumps(build(geom)))
        print("wrote", os.path.relpath(path_of(geom), ROOT))


if __name__ == "__main__":
    main()
