"""The controller on perfboard: where each part goes and which holes each net joins.

Why perfboard (2.54 mm, through-hole parts and breakouts) and not a PCB: a maker can
buy every part in one order and build it with a soldering iron in an evening, with no
fabrication house, no SMD soldering and no design-rule check to trust; the schematic
(hardware/schematic.py) is the one source, this file places its parts.

``place(circ)`` puts every part the schematic marks ``controller`` on the smallest
perfboard of ``BOARDS`` (160 x 100 mm for the reed matrix with its lines' clamps, a
233 x 160 mm double Eurocard for the shift registers' or the hall multiplexers' chips
with their lines' ESD arrays) in shelves, largest first, a free row and
column between parts; ``pins(placed)`` gives each pin's hole. ``svg(board)`` draws
it (controller-<board>.svg: each part's outline, reference, value and pin 1; the holes
of each net joined on the copper side as the wire list says) and ``wirelist(board)``
lists, net by net, the holes to join and the wires that leave the board (to the
panel, the jack, the USB socket). Units: holes (column, row) from the top left; 1
hole = 2.54 mm.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

PITCH = 2.54
# the perfboards on sale: (mm, holes); the smallest that takes the parts is used (the
# last a double Eurocard: the 165 and hall boards with 14 ESD arrays and their 1 k)
BOARDS = (((100, 80), (39, 31)), ((160, 100), (62, 39)), ((233, 160), (91, 62)))

# footprint -> (columns, rows, {pin number: (column, row)} or a rule)
def _dip(n, wide):
    """A DIP-n: pins 1..n/2 down the left column, the rest up the right one."""
    half = n // 2
    pos = {}
    for i in range(half):
        pos[i + 1] = (0, i)
        pos[n - i] = (wide, i)
    return wide + 1, half, pos


def _inline(n, step=1, rows=1):
    return (n - 1) * step + 1, rows, {i + 1: (i * step, 0) for i in range(n)}


FOOTPRINTS = {
    "Module:RaspberryPi_Pico_Common_THT": (9, 20, "pico"),
    "Package_DIP:DIP-14_W7.62mm": _dip(14, 3),
    "Package_DIP:DIP-16_W7.62mm": _dip(16, 3),
    "Package_DIP:DIP-24_W15.24mm": _dip(24, 6),
    "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal": _inline(2, 4),
    "Resistor_THT:R_Array_SIP9": _inline(9),
    "Resistor_THT:R_Array_SIP8": _inline(8),
    "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm": _inline(2, 2),
    "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm": (4, 4, {1: (0, 1), 2: (2, 1)}),
    "Capacitor_THT:CP_Radial_D5.0mm_P2.00mm": (2, 2, {1: (0, 0), 2: (1, 0)}),
    "Diode_THT:D_DO-41_SOD81_P10.16mm_Horizontal": _inline(2, 4),
    "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal": _inline(2, 3),
    "Diode_THT:D_DO-15_P10.16mm_Horizontal": _inline(2, 4),
    "Diode_THT:D_DO-201AD_P15.24mm_Horizontal": (7, 2, {1: (0, 0), 2: (6, 0)}),
    "Package_TO_SOT_THT:TO-92_Inline": (3, 2, {1: (0, 0), 2: (1, 0), 3: (2, 0)}),
    "Package_TO_SOT_THT:TO-220-3_Vertical": (3, 2, {1: (0, 0), 2: (1, 0), 3: (2, 0)}),
    # breakouts with 2.54 mm pins: the SOT-23's 3 pins in a row, the SOT-23-6's two rows
    "Package_TO_SOT_SMD:SOT-23": (3, 2, {1: (0, 0), 2: (1, 0), 3: (2, 0)}),
    "Package_TO_SOT_SMD:SOT-23-6": (3, 3, {1: (0, 0), 2: (0, 1), 3: (0, 2), 4: (2, 2),
                                          5: (2, 1), 6: (2, 0)}),
    # a TO-252 (DPAK) breakout: about 10 x 10 mm, G D S in a row
    "Package_TO_SOT_SMD:TO-252-2": (3, 3, {1: (0, 0), 2: (1, 0), 3: (2, 0)}),
    # JST XH vertical headers: n pins in a row, the body 5.75 mm deep
    **{"Connector_JST:JST_XH_B%dB-XH-A_1x%02d_P2.50mm_Vertical" % (n, n):
       (n, 3, {i + 1: (i, 0) for i in range(n)}) for n in range(2, 9)},
    # the MF-R250's two leads 5.1 mm apart: two holes apart
    "Fuse:Fuse_Bourns_MF-R250": (3, 2, {1: (0, 0), 2: (2, 0)}),
}


def controller_parts(circ):
    """The parts the schematic places on the controller (field Mount), schematic order."""
    return [p for p in circ.parts if p.fields.get("Mount", "").startswith("controller")]


def _pin_pos(p):
    cols, rows, rule = FOOTPRINTS[p.footprint]
    out = {}
    if rule == "pico":
        for pin in p.pins:
            n = pin.num
            if str(n).startswith("TP"):
                out[str(n)] = None          # a pad under the Pico: a wire soldered to it
            else:
                n = int(n)
                out[str(n)] = (0, n - 1) if n <= 20 else (8, 40 - n)
        return out
    for pin in p.pins:
        out[str(pin.num)] = rule[int(pin.num)]
    return out


def board_size(circ):
    """((width, height) mm, (columns, rows) holes) of the smallest perfboard that takes
    the controller's parts. ValueError if none does."""
    for mm, holes in BOARDS:
        try:
            place(circ, holes)
            return mm, holes
        except ValueError:
            pass
    raise ValueError("the controller's parts fit no perfboard of %s" % (BOARDS,))


def place(circ, holes=None):
    """{ref: (column, row, columns, rows)}: every controller part on a board of
    ``holes`` (default: the smallest that takes them), shelves of the tallest parts
    first, one free hole around each. ValueError if they do not fit."""
    if holes is None:
        holes = board_size(circ)[1]
    parts = controller_parts(circ)
    order = sorted(parts, key=lambda p: (-FOOTPRINTS[p.footprint][1], -FOOTPRINTS[p.footprint][0],
                                         p.ref))
    W, H = holes
    x = y = 1
    shelf = 0
    out = {}
    for p in order:
        w, h = FOOTPRINTS[p.footprint][:2]
        if x + w > W - 1:
            x = 1
            y += shelf + 1
            shelf = 0
        if y + h > H - 1:
            raise ValueError("the controller's parts do not fit %d x %d holes (at %s)" % (W, H, p.ref))
        out[p.ref] = (x, y, w, h)
        x += w + 1
        shelf = max(shelf, h)
    return out


def pins(circ, placed):
    """{(ref, pin number): (column, row) or None (a pad under the Pico)} of the placed parts."""
    out = {}
    by_ref = {p.ref: p for p in circ.parts}
    for ref, (x, y, w, h) in placed.items():
        for num, pos in _pin_pos(by_ref[ref]).items():
            out[(ref, num)] = None if pos is None else (x + pos[0], y + pos[1])
    return out


def nets(circ, placed):
    """[(net name, [(ref, pin, hole or None)] on the board, [(ref, pin, mount)] off it)]
    for every net with a pin on the controller, by name."""
    on = set(placed)
    holes = pins(circ, placed)
    out = []
    for n in sorted(circ.nets, key=lambda n: n.name):
        if n.name == "__NOCONNECT":
            continue                         # pins left open
        here, away = [], []
        for pin in sorted(n.pins, key=lambda q: (_refkey(q.part.ref), str(q.num))):
            ref = pin.part.ref
            if ref.startswith("#FLG"):
                continue
            if ref in on:
                here.append((ref, str(pin.num), holes[(ref, str(pin.num))]))
            else:
                away.append((ref, str(pin.num), pin.part.fields.get("Mount", "")))
        if here:
            out.append((n.name, here, away))
    return out


def _esc(t):
    return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(board, circ):
    """SVG text (1:1, mm) of the controller of ``board``: the perfboard, each part's
    outline with reference and value, its pin 1 (a square), every pin's hole."""
    (wmm, hmm), (W, H) = board_size(circ)
    placed = place(circ, (W, H))
    by_ref = {p.ref: p for p in circ.parts}
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" viewBox="0 0 %d %d">'
           % (wmm + 10, hmm + 20, wmm + 10, hmm + 20),
           '<title>Playboard controller, %s: parts on a %d x %d mm perfboard (component side, 1:1)</title>'
           % (board, wmm, hmm),
           '<g transform="translate(5 5)">',
           '<rect id="perfboard" x="0" y="0" width="%d" height="%d" fill="#f4e7c5" stroke="black" '
           'stroke-width="0.3"/>' % (wmm, hmm)]
    off = ((wmm - (W - 1) * PITCH) / 2, (hmm - (H - 1) * PITCH) / 2)

    def at(c, r):
        return off[0] + c * PITCH, off[1] + r * PITCH
    for ref in sorted(placed, key=lambda r: (r[0], int("".join(ch for ch in r if ch.isdigit()) or 0))):
        x, y, w, h = placed[ref]
        p = by_ref[ref]
        x0, y0 = at(x, y)
        out.append('<g id="part-%s" class="%s" data-col="%d" data-row="%d" data-cols="%d" data-rows="%d">'
                   % (ref, p.fields.get("Kind"), x, y, w, h))
        out.append('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="white" fill-opacity="0.6" '
                   'stroke="navy" stroke-width="0.25"/>' % (x0 - 1.1, y0 - 1.1, (w - 1) * PITCH + 2.2,
                                                            (h - 1) * PITCH + 2.2))
        for num, pos in _pin_pos(p).items():
            if pos is None:
                continue
            cx, cy = at(x + pos[0], y + pos[1])
            if num == "1":
                out.append('<rect x="%.2f" y="%.2f" width="1.4" height="1.4" fill="navy"/>'
                           % (cx - 0.7, cy - 0.7))
            else:
                out.append('<circle cx="%.2f" cy="%.2f" r="0.6" fill="navy"/>' % (cx, cy))
        label = "%s %s" % (ref, p.fields.get("MPN") if p.value.startswith(p.fields.get("Description", "@")) else p.value)
        out.append('<text x="%.2f" y="%.2f" font-size="1.6">%s</text>' % (x0, y0 + 0.6 + (h - 1) * PITCH / 2, _esc(label)))
        out.append('</g>')
    out.append('</g>')
    out.append('<text x="5" y="%d" font-size="2.6">Holes: column, row from the top left '
               '(1 = 2.54 mm); square: pin 1.</text>' % (hmm + 10))
    out.append('<text x="5" y="%d" font-size="2.6">Join each net\'s holes on the copper side '
               'as controller-%s.md lists.</text>' % (hmm + 14, board))
    out.append('</svg>')
    return "\n".join(out) + "\n"


def wirelist(board, circ):
    """Markdown: the part placement (ref, value, hole of pin 1) and, net by net, the
    holes to join on the board and the wires off it."""
    mm, holes = board_size(circ)
    placed = place(circ, holes)
    by_ref = {p.ref: p for p in circ.parts}
    lines = ["# Controller on perfboard: %s" % board, "",
             "Generated by hardware/generate.py (hardware/controller.py) from the schematic. "
             "A %d x %d mm perfboard, 2.54 mm pitch: holes counted (column, row) from the top "
             "left of the component side, 1-based as printed on most boards. The drawing: "
             "controller-%s.svg." % (mm[0], mm[1], board), "",
             "## Parts", "", "| ref | part | value | pin 1 at | size (holes) |", "| --- | --- | --- | --- | --- |"]
    for ref in sorted(placed, key=_refkey):
        x, y, w, h = placed[ref]
        p = by_ref[ref]
        one = _pin_pos(p).get("1")
        lines.append("| %s | %s | %s | %d, %d | %d x %d |" % (
            ref, p.fields.get("Kind"), p.value, x + one[0] + 1, y + one[1] + 1, w, h))
    lines += ["", "## Nets", "", "| net | join these holes | wires off the board |", "| --- | --- | --- |"]
    for name, here, away in nets(circ, placed):
        on = ", ".join("%s.%s (%d,%d)" % (r, n, h[0] + 1, h[1] + 1) if h else
                       "%s.%s (pad under the Pico)" % (r, n) for r, n, h in here)
        off = _away(away)
        lines.append("| %s | %s | %s |" % (name, on, off))
    return "\n".join(lines) + "\n"


def _away(away):
    """Off-board pins, grouped: '58 x LED VDD (panel), J1.1 (wall)'."""
    groups = {}
    for ref, num, mount in away:
        key = ("".join(ch for ch in ref if not ch.isdigit()), num, mount.split(":")[0])
        groups.setdefault(key, []).append(ref)
    parts = []
    for (prefix, num, mount), refs in sorted(groups.items()):
        if len(refs) > 2:
            parts.append("%d x %s pin %s (%s)" % (len(refs), prefix, num, mount or "?"))
        else:
            parts += ["%s.%s (%s)" % (r, num, mount or "?") for r in sorted(refs, key=_refkey)]
    return ", ".join(parts)


def _refkey(ref):
    i = len(ref)
    while i and ref[i - 1].isdigit():
        i -= 1
    return ref[:i], int(ref[i:] or 0)
