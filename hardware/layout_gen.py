"""Generate firmware/boards/layout_default.json: the default physical board (docs/hardware.md).

Run ``python hardware/layout_gen.py`` after changing the geometry below; a host test
checks that the committed file equals what this script makes.

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


def pit_xy(i):
    """(x, y) mm of Toguz pit index i (0..8 South pits 1..9, 9..17 North pits 1..9)."""
    if i < 9:
        return 40 + PITCH * i, SOUTH_Y
    return 400 - 40 - PITCH * (i - 9), NORTH_Y


def pit_led(i):
    return i if i < 9 else 11 + (17 - i)


KAZANS = {18: (10, (110, KAZAN_Y)), 19: (9, (290, KAZAN_Y))}  # cell: (led, xy)


def build():
    std = {p: (x, y) for p, x, y in tobit_points(5, 4)}
    leds = tobit_leds()
    games = {}
    cells = []
    for p, (x, y) in sorted(std.items()):
        cells.append([p, p - 1, leds[p], TOBIT_X0 + PITCH * x, TOBIT_Y0 + PITCH * y, "point"])
    games["tobit"] = cells
    by_xy = {xy: p for p, xy in std.items()}
    cells = []
    for p, x, y in tobit_points(4, 4):
        q = by_xy[(x, y)]
        cells.append([p, q - 1, leds[q], TOBIT_X0 + PITCH * x, TOBIT_Y0 + PITCH * y, "point"])
    games["tobit4"] = cells
    cells = []
    for i in range(18):
        x, y = pit_xy(i)
        cells.append([i, 40 + i, pit_led(i), x, y, "pit"])
    for c, (led, (x, y)) in sorted(KAZANS.items()):
        cells.append([c, -1, led, x, y, "kazan"])
    games["toguz"] = cells
    cells = []
    # Tihbat g.pos: 0, 1 South pits 1, 2; 2, 3 North pits 1, 2; 4, 5 captures
    for c, toguz_pit in ((0, 4), (1, 5), (2, 12), (3, 13)):
        x, y = pit_xy(toguz_pit)
        cells.append([c, 40 + toguz_pit, pit_led(toguz_pit), x, y, "pit"])
    cells.append([4, -1, KAZANS[18][0], KAZANS[18][1][0], KAZANS[18][1][1], "counter"])
    cells.append([5, -1, KAZANS[19][0], KAZANS[19][1][0], KAZANS[19][1][1], "counter"])
    games["tihbat"] = cells
    return {
        "name": "default",
        "title": "Playboard default: Tobit 7 x 6 grid above a Toguz Kumalak 2 x 9 panel",
        "size_mm": [400, 460],
        "n_sensors": 64,
        "n_leds": 58,
        "holes_mm": {"point": 16, "pit": 32, "kazan": [120, 30], "counter": [120, 30],
                     "led": 5},
        "spare_sensors": [38, 39, 58, 59, 60, 61, 62, 63],
        "games": {g: {"cells": c} for g, c in games.items()},
    }


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


def main():
    text = dumps(build())
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote", os.path.relpath(OUT, ROOT))


if __name__ == "__main__":
    main()
