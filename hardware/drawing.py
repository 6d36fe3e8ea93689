"""The schematic as a drawing: each part a box, each pin a stub with its net's name.

Drawn here from the SKiDL circuit (hardware/schematic.py) rather than through KiCad
(a Debian package of some hundreds of MB, and its schematic would be a second source
to keep equal to the code) or netlistsvg (npm and a Yosys netlist in between): in the
net-label style of a large schematic, two pins with the same label are joined. The
parts come in sheets, in the order a builder solders them: the power input, the Pico
and its logic, the LED chain, the sensors; repeated parts (58 LEDs, 56 sensors) each
drawn, so that every net is on the drawing.

``svg(board, circ)`` returns the SVG text (mm). Every pin's label is a ``<text
class="net" data-ref=... data-pin=...>`` (tests/host/test_hardware.py reads them).
"""

BOX_W = 34
PIN_H = 4.2
COL_W = 92
SHEETS = (("power", "1. Power input: jack, fuse, reverse and over-voltage switches, USB"),
          ("logic", "2. The Pico, the level shifter, the sensor logic"),
          ("leds", "3. The LED chain (on the panel)"),
          ("sensors", "4. The sensors (on the panel)"))


def _sheet(p):
    if p.fields.get("Stage") == "power":
        return "power"
    kind = p.fields.get("Kind")
    if kind == "WS2812B" or (kind == "C" and p.fields.get("Mount") == "panel"
                             and any(pin.net is not None and pin.net.name == "+5V" for pin in p.pins)):
        return "leds"
    if p.fields.get("Mount") == "panel":
        return "sensors"
    return "logic"


def _esc(t):
    return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _refkey(ref):
    i = len(ref)
    while i and ref[i - 1].isdigit():
        i -= 1
    return ref[:i], int(ref[i:] or 0)


def svg(board, circ):
    """SVG text of ``board``'s schematic: sheets side by side in columns of boxes."""
    parts = [p for p in circ.parts if not p.ref.startswith("#FLG")]
    sheets = {k: [] for k, _ in SHEETS}
    for p in parts:
        sheets[_sheet(p)].append(p)
    body = []
    y0 = 14
    width = 0
    for key, title in SHEETS:
        ps = sorted(sheets[key], key=lambda p: _refkey(p.ref)) if key != "power" else sheets[key]
        if not ps:
            continue
        body.append('<text class="sheet" x="6" y="%g" font-size="6" font-weight="bold">%s</text>'
                    % (y0, _esc(title)))
        y = y0 + 6
        x = 6
        row_h = 0
        per_row = 12
        for i, p in enumerate(ps):
            if i and i % per_row == 0:
                x = 6
                y += row_h + 8
                row_h = 0
            pins = sorted(p.pins, key=lambda q: (str(q.num).isdigit() is False,
                                                 int(q.num) if str(q.num).isdigit() else 0,
                                                 str(q.num)))
            half = (len(pins) + 1) // 2
            h = max(half, 1) * PIN_H + 8
            bx = x + 26
            body.append('<g class="part" id="sym-%s">' % p.ref)
            body.append('<rect x="%g" y="%g" width="%g" height="%g" fill="#fffbe6" stroke="black" '
                        'stroke-width="0.35"/>' % (bx, y, BOX_W, h))
            body.append('<text x="%g" y="%g" font-size="3" font-weight="bold">%s</text>'
                        % (bx + 1.5, y + 3.5, _esc(p.ref)))
            val = p.value if len(p.value) <= 18 else p.fields.get("MPN", "")
            body.append('<text x="%g" y="%g" font-size="2.4">%s</text>'
                        % (bx + 1.5, y + h - 1.5, _esc(val)))
            for k, pin in enumerate(pins):
                left = k < half
                py = y + 6 + (k if left else k - half) * PIN_H + 1
                net = "NC" if pin.net is None or pin.net.name == "__NOCONNECT" else pin.net.name
                if left:
                    body.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="black" stroke-width="0.3"/>'
                                % (bx - 4, py, bx, py))
                    body.append('<text x="%g" y="%g" font-size="2.2">%s</text>'
                                % (bx + 1, py + 0.8, _esc(str(pin.name))))
                    body.append('<text class="net" data-ref="%s" data-pin="%s" x="%g" y="%g" '
                                'font-size="2.2" text-anchor="end" fill="#a00">%s</text>'
                                % (p.ref, pin.num, bx - 4.5, py + 0.8, _esc(net)))
                else:
                    body.append('<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="black" stroke-width="0.3"/>'
                                % (bx + BOX_W, py, bx + BOX_W + 4, py))
                    body.append('<text x="%g" y="%g" font-size="2.2" text-anchor="end">%s</text>'
                                % (bx + BOX_W - 1, py + 0.8, _esc(str(pin.name))))
                    body.append('<text class="net" data-ref="%s" data-pin="%s" x="%g" y="%g" '
                                'font-size="2.2" fill="#a00">%s</text>'
                                % (p.ref, pin.num, bx + BOX_W + 4.5, py + 0.8, _esc(net)))
            body.append('</g>')
            row_h = max(row_h, h)
            x += COL_W
            width = max(width, x)
        y0 = y + row_h + 16
    w, h = max(width, 300) + 6, y0
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%dmm" height="%dmm" viewBox="0 0 %d %d">'
           % (w, h, w, h),
           '<title>Playboard schematic: %s (from hardware/schematic.py; pins with the same red '
           'label are joined)</title>' % board,
           '<rect x="0" y="0" width="%d" height="%d" fill="white"/>' % (w, h),
           '<text x="6" y="7" font-size="4">Playboard %s schematic, generated from '
           'hardware/schematic.py: pins with the same red net label are joined.</text>' % board]
    return "\n".join(out + body + ['</svg>']) + "\n"
