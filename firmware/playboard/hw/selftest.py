"""Self-test mode: light each LED in turn, then light the LED above every active sensor.

>>> st = SelfTest(board, sensor_leds(layout_data, board.n_sensors))
>>> while True: st.step(time.ticks_ms())

Phase CHASE lights LED 0, 1, 2, ... one at a time (red, green, blue, white in turn,
``step_ms`` each) so that a broken or swapped LED in the chain shows at once; phase
SENSORS then lights, every call, the LED above each sensor that reads non-zero
(green for 1 / White, blue for 2 / Black); ``active`` counts the active sensors
and ``unmapped`` those with no LED above them (spare inputs, buttons). Nothing
allocates per step.
"""
from playboard.compat import const

CHASE = const(0)
SENSORS = const(1)
_NONE = const(255)
_MASK = const(0x3FFFFFFF)


def sensor_leds(layout_data, n_sensors):
    """bytearray(n_sensors): the LED above each sensor over every game of a layout (255 none).

    ``layout_data`` is a parsed layout file (playboard.board.layout.read_layout_file).
    """
    out = bytearray(b"\xff" * n_sensors)
    for g in layout_data["games"].values():
        for cell, s, led, _x, _y, _k in g["cells"]:
            if 0 <= s < n_sensors and led >= 0:
                out[s] = led
    return out


class SelfTest:
    """Drive ``hw`` (a playboard.hw Board) through the self-test; call step(now_ms) often.

    sensor_led: bytearray, LED index above each sensor (255 none); step_ms: time per
    LED in the chase; level: LED level 0..255 (kept low: one LED at a time in the
    chase, at most all in the sensor phase).
    """

    def __init__(self, hw, sensor_led, step_ms=120, level=48):
        self.hw = hw
        self.sensor_led = sensor_led
        self.step_ms = step_ms
        self.level = level
        self.raw = bytearray(hw.n_sensors)
        self.phase = CHASE
        self.active = 0
        self.unmapped = 0
        self._t0 = -1

    def restart(self):
        """Start again from the chase."""
        self.phase = CHASE
        self._t0 = -1

    def step(self, now_ms):
        """Advance the self-test to ``now_ms``, update and show the LEDs; return the phase."""
        hw = self.hw
        if self._t0 < 0:
            self._t0 = now_ms
        leds = hw.leds
        for j in range(len(leds)):
            leds[j] = 0
        lv = self.level
        if self.phase == CHASE:
            k = ((now_ms - self._t0) & _MASK) // self.step_ms
            if k < hw.n_leds:
                c = k & 3
                j = 3 * k
                if c == 0 or c == 3:
                    leds[j] = lv
                if c == 1 or c == 3:
                    leds[j + 1] = lv
                if c == 2 or c == 3:
                    leds[j + 2] = lv
                hw.show()
                return CHASE
            self.phase = SENSORS
        raw = self.raw
        hw.read(raw)
        sl = self.sensor_led
        active = 0
        unmapped = 0
        for s in range(hw.n_sensors):
            v = raw[s]
            if v:
                active += 1
                led = sl[s]
                if led == _NONE or led >= hw.n_leds:
                    unmapped += 1
                elif v == 2:
                    leds[3 * led + 2] = lv
                else:
                    leds[3 * led + 1] = lv
        self.active = active
        self.unmapped = unmapped
        hw.show()
        return SENSORS
