"""What the LEDs show: layers composed under a brightness, gamma and current cap.

Layers, lowest to highest priority (a higher layer hides the ones below on an LED):

====== ============================================================
LEGAL    legal targets (mark 1) and the selected piece / pit (mark 2)
LAST     the last move (1: from, 2: to)
SOWING   the sowing path (1: each pit that receives, 2: the last one)
ENGINE   the engine's move to make on the board (1: from, 2: to)
CAPTURE  pieces to remove (1), a tuzdyk made (2)
ERROR    something wrong on the board (1: red; 3: blinking); put a piece here
         (2: White's, steady mint; 4: Black's, blinking mint)
USER     self-test, menus, attract mode (any colour via set_colour)
====== ============================================================

Each LED of a layer holds a mark: 0 off, 1 the layer's colour, 2 its accent
colour, 3 the colour blinking, 4 the accent blinking (every ``blink_ms``; in the
off half the layers below show through). Colours go through the gamma table, then the global
``brightness`` (0..255: it scales the gamma-corrected output, so a colour keeps its
hue when dimmed), then the current cap: the WS2812 current is estimated at
``ma_per_led`` / 3 per channel at full duty (60 mA full white) plus ``idle_ma`` per
LED; when a frame would draw more than ``budget_ma`` every channel is scaled down
by one factor so that the sum stays within it (integer floor scaling: it never
goes over). ``frame(now_ms)`` renders and shows at most once per ``frame_ms``
and only when something changed. Nothing allocates per frame.
"""
from array import array

from playboard.compat import micropython, const, ptr8, ptr16  # noqa: F401

LEGAL = const(0)
LAST = const(1)
SOWING = const(2)
ENGINE = const(3)
CAPTURE = const(4)
ERROR = const(5)
USER = const(6)
N_LAYERS = const(7)

OFF = const(0)
ON = const(1)
ACCENT = const(2)
BLINK = const(3)
ACCENT_BLINK = const(4)

_MASK = const(0x3FFFFFFF)
_TAB = const(256)  # colours start after the 256-byte gamma table

# (colour, accent colour) per layer, at full brightness before gamma (the hue is
# kept when dimmed: brightness scales the gamma-corrected output). Every colour of
# layers LEGAL..ERROR differs from every other by CIEDE2000 >= 20 as the LEDs show
# them at the default brightness (tests/host/test_led_palette.py: the reasoning).
DEFAULT_COLOURS = (
    ((0, 160, 0), (0, 40, 200)),      # LEGAL: green targets, blue selection
    ((220, 180, 255), (255, 255, 255)),  # LAST: lavender from, white to (a kazan that grows)
    ((60, 220, 255), (0, 140, 255)),  # SOWING: sky-blue path, azure last ball
    ((220, 0, 255), (255, 100, 140)),  # ENGINE: purple from, rose to
    ((255, 180, 60), (255, 255, 60)),  # CAPTURE: orange take off, yellow tuzdyk
    ((255, 0, 0), (0, 255, 140)),     # ERROR: red error / extra piece, mint "put a piece here"
    ((255, 255, 255), (0, 0, 255)),   # USER: white, blue (menus, self-test, count display)
)


def shown_colour(colour, brightness, gamma=2.2):
    """What the LED chain receives for a layer ``colour`` (r, g, b, 0..255) at
    ``brightness`` (0..255), before the current cap: the same arithmetic as a frame
    (gamma table, then brightness). For host tools that name or draw LED colours."""
    br = brightness + 1
    return tuple((int(255 * (v / 255) ** gamma + 0.5) * br) >> 8 for v in colour)


@micropython.viper
def _compose(marks: ptr8, tab: ptr8, out: ptr8, p: ptr16) -> int:
    n = int(p[0])
    nl = int(p[1])
    br = int(p[2]) + 1
    blink = int(p[3])
    total = 0
    for i in range(n):
        r = 0
        g = 0
        b = 0
        layer = nl - 1
        while layer >= 0:
            m = int(marks[layer * n + i])
            if m != 0 and (m < 3 or blink != 0):
                c = 256 + layer * 6
                if (m & 1) == 0:  # 2, 4: the accent
                    c += 3
                r = int(tab[c])
                g = int(tab[c + 1])
                b = int(tab[c + 2])
                break
            layer -= 1
        # gamma first (a colour keeps its hue at any brightness), then brightness
        r = (int(tab[r]) * br) >> 8
        g = (int(tab[g]) * br) >> 8
        b = (int(tab[b]) * br) >> 8
        out[3 * i] = r
        out[3 * i + 1] = g
        out[3 * i + 2] = b
        total += r + g + b
    return total


@micropython.viper
def _scale(out: ptr8, n3: int, s: int) -> int:
    total = 0
    for j in range(n3):
        v = (int(out[j]) * s) >> 8
        out[j] = v
        total += v
    return total


class Lights:
    """Compose the layers into ``hw.leds`` and show them on ``hw`` (a playboard.hw Board).

    budget_ma: total LED current allowed (mA, default 1500); ma_per_led: draw of one
    LED at full white (mA, default 60); idle_ma: draw of a dark LED (mA);
    brightness 0..255; gamma > 0 (1.0 = none); frame_ms: shortest time between shows;
    blink_ms: blink period. ValueError if the budget cannot even feed the dark LEDs.
    """

    def __init__(self, hw, budget_ma=1500, ma_per_led=60, idle_ma=1, brightness=160,
                 gamma=2.2, frame_ms=20, blink_ms=500):
        n = hw.n_leds
        self.hw = hw
        self.n = n
        if budget_ma <= idle_ma * n:
            raise ValueError("lights: budget %d mA cannot feed %d LEDs idling at %d mA"
                             % (budget_ma, n, idle_ma))
        if ma_per_led <= 0 or gamma <= 0:
            raise ValueError("lights: ma_per_led and gamma must be > 0")
        self.budget_ma = budget_ma
        self.ma_per_led = ma_per_led
        self.idle_ma = idle_ma
        # channel units (0..255 per channel) the budget allows above idle
        self._max_units = (budget_ma - idle_ma * n) * 765 // ma_per_led
        self.marks = bytearray(N_LAYERS * n)
        self._tab = bytearray(_TAB + 6 * N_LAYERS)
        self._p = array("H", [n, N_LAYERS, 0, 1])
        self.frame_ms = frame_ms
        self.blink_ms = blink_ms
        self.units = 0        # channel units of the last frame after the cap
        self.capped = False   # whether the last frame was scaled down
        self.shows = 0
        self._dirty = True
        self._blinking = 0
        self._last_show = 0
        self._phase = 1
        self._held = 0  # ms the last show stays (show_now's hold_ms), from _held_at
        self._held_at = 0
        self.set_gamma(gamma)
        self.set_brightness(brightness)
        for layer in range(N_LAYERS):
            c, a = DEFAULT_COLOURS[layer]
            self.set_colour(layer, c[0], c[1], c[2])
            self.set_colour(layer, a[0], a[1], a[2], True)

    def set_budget(self, budget_ma):
        """Cap the LEDs at ``budget_ma`` (mA, the whole chain's) from the next frame on,
        which is shown at once (the power source changed: playboard.app); allocates
        nothing. ValueError if the budget cannot even feed the dark LEDs."""
        if budget_ma <= self.idle_ma * self.n:
            raise ValueError("lights: budget %d mA cannot feed %d LEDs idling at %d mA"
                             % (budget_ma, self.n, self.idle_ma))
        self.budget_ma = budget_ma
        self._max_units = (budget_ma - self.idle_ma * self.n) * 765 // self.ma_per_led
        self._dirty = True
        self._last_show = (self._last_show - self.frame_ms) & _MASK   # due at once

    def set_gamma(self, gamma):
        """Rebuild the gamma table (gamma > 0; 1.0 = linear)."""
        t = self._tab
        for i in range(256):
            t[i] = int(255 * (i / 255) ** gamma + 0.5)
        self._dirty = True

    def set_brightness(self, level):
        """Global brightness 0..255 (scales the gamma-corrected colours). ValueError outside."""
        if not 0 <= level <= 255:
            raise ValueError("brightness must be 0..255, got %r" % (level,))
        self._p[2] = level
        self.brightness = level
        self._dirty = True

    def set_colour(self, layer, r, g, b, accent=False):
        """Set a layer's colour (or accent colour), 0..255 per channel."""
        j = _TAB + 6 * layer + (3 if accent else 0)
        t = self._tab
        t[j] = r
        t[j + 1] = g
        t[j + 2] = b
        self._dirty = True

    def mark(self, layer, led, value=ON):
        """Set the mark (OFF/ON/ACCENT/BLINK/ACCENT_BLINK) of LED ``led`` in ``layer``.

        A negative led (a cell with no LED) is ignored; IndexError past the chain.
        """
        if led < 0:
            return
        if led >= self.n:
            raise IndexError("LED %r out of range 0..%d" % (led, self.n - 1))
        k = layer * self.n + led
        m = self.marks
        old = m[k]
        if old != value:
            if old >= BLINK:
                self._blinking -= 1
            if value >= BLINK:
                self._blinking += 1
            m[k] = value
            self._dirty = True

    def clear(self, layer=-1):
        """Turn every LED of one layer off (all layers when layer < 0)."""
        m = self.marks
        n = self.n
        lo = 0 if layer < 0 else layer * n
        hi = len(m) if layer < 0 else lo + n
        for k in range(lo, hi):
            if m[k]:
                if m[k] >= BLINK:
                    self._blinking -= 1
                m[k] = 0
                self._dirty = True

    def render(self, now_ms=0):
        """Compose every layer into ``hw.leds`` under the cap; return the estimated mA."""
        p = self._p
        if self.blink_ms:
            p[3] = 1 if ((now_ms & _MASK) % self.blink_ms) < (self.blink_ms >> 1) else 0
        units = _compose(self.marks, self._tab, self.hw.leds, p)
        self.capped = False
        if units > self._max_units:
            s = self._max_units * 256 // units
            units = _scale(self.hw.leds, 3 * self.n, s)
            self.capped = True
        self.units = units
        self._phase = p[3]
        self._dirty = False
        return self.current_ma()

    def current_ma(self):
        """Estimated current (mA) of the last rendered frame: idle plus each channel's duty."""
        return self.idle_ma * self.n + self.units * self.ma_per_led // 765

    def show_now(self, now_ms, hold_ms=0):
        """Render and show at once (whatever ``frame_ms``), then keep what is shown for
        ``hold_ms`` (ms): ``frame`` shows nothing new till then, whatever is marked
        meanwhile (a sign the player must see: a fault's, docs/app.md "Containment")."""
        self.render(now_ms)
        self.hw.show()
        self._last_show = now_ms
        self._held = hold_ms
        self._held_at = now_ms

    def frame(self, now_ms):
        """Render and show if ``frame_ms`` passed and something changed (not while a
        ``show_now`` holds); True if shown."""
        if self._held:
            if ((now_ms - self._held_at) & _MASK) < self._held:
                return False
            self._held = 0
            self._dirty = True
        if ((now_ms - self._last_show) & _MASK) < self.frame_ms and self.shows:
            return False
        if not self._dirty:
            if not self._blinking or not self.blink_ms:
                return False
            ph = 1 if ((now_ms & _MASK) % self.blink_ms) < (self.blink_ms >> 1) else 0
            if ph == self._phase:
                return False
        self.render(now_ms)
        self.hw.show()
        if self.shows < 0x3FFFFFFF:  # saturate: stays a small int on the RP2040
            self.shows += 1
        self._last_show = now_ms
        return True
