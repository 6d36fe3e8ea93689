"""Self-test: light each LED in turn, show every sensor live, then judge every sensor.

>>> st = SelfTest(board, sensor_leds(layout_data, board.n_sensors), sense_ms=20000)
>>> while st.step(time.ticks_ms()) != DONE: ...
>>> st.summary()   # {"pass": False, "checked": 56, "ok": 54, "stuck": [3], "dead": [], "noisy": [17]}

Phase CHASE lights LED 0, 1, 2, ... one at a time (red, green, blue, white in turn,
``step_ms`` each) so that a broken or swapped LED in the chain shows at once; phase
SENSORS then lights, every call, the LED above each sensor that reads non-zero
(green for 1 / White, blue for 2 / Black); ``active`` counts the active sensors
and ``unmapped`` those with no LED above them (spare inputs, buttons). The tester
starts with an empty board and puts a piece on every point and pit once.

With ``sense_ms`` > 0 the SENSORS phase ends after that long (phase DONE) and every
sensor with an LED above it gets a verdict (``verdict``, a bytearray):

- ``STUCK``: active in every frame of the phase (a shorted switch, a wire to ground,
  a hall sensor at a rail or far off its zero, a piece left on the board);
- ``DEAD``: never active (an open switch or wire, a sensor without supply; or no
  piece was put there: the tester must visit every sensor);
- ``NOISY``: changed more than ``noisy_flips`` times (a chattering reed, a hall
  sensor near its threshold; a person lifts and places a piece a few times);
- ``OK`` otherwise.

DONE shows the verdicts on the LEDs above the sensors (green ok, red stuck, blue
dead, amber noisy) and the result on the LEDs that have no sensor (the kazans):
green pass, red fail. Nothing allocates per step until DONE.

Every frame goes through the LED current cap (playboard.board.lights.cap_leds at
``budget_ma``; playboard.hw.pads.check_led_budget gives the builder's checks the
USB-only cap whatever the board file says): ``max_ma`` is the highest estimate shown.
"""
from playboard.compat import const
from playboard.hw.ledcap import beside_leds, blank, paint, paint_rest, set_cap, show

CHASE = const(0)
SENSORS = const(1)
DONE = const(2)
OK = const(0)
STUCK = const(1)
DEAD = const(2)
NOISY = const(3)
VERDICTS = ("ok", "stuck", "dead", "noisy")
_NONE = const(255)
_MASK = const(0x3FFFFFFF)
# LED colour of each verdict: (r, g, b) as fractions of ``level`` in quarters
_SHOW = ((0, 4, 0), (4, 0, 0), (0, 0, 4), (4, 2, 0))


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
    chase, at most all in the sensor phase); sense_ms: length of the sensor phase
    (0: it never ends); noisy_flips: changes of one sensor above which it is noisy;
    budget_ma, ma_per_led, idle_ma: the LED current cap every frame is shown under.
    """

    def __init__(self, hw, sensor_led, step_ms=120, level=48, sense_ms=0, noisy_flips=24,
                 budget_ma=100, ma_per_led=60, idle_ma=1):
        self.hw = hw
        set_cap(self, budget_ma, ma_per_led, idle_ma)
        self.sensor_led = sensor_led
        self.step_ms = step_ms
        self.level = level
        self.sense_ms = sense_ms
        self.noisy_flips = noisy_flips
        n = hw.n_sensors
        self.raw = bytearray(n)
        self.prev = bytearray(n)
        self.seen = bytearray(n)      # active in some frame
        self.always = bytearray(n)    # active in every frame so far
        self.flips = bytearray(n)     # changes, up to 255
        self.verdict = bytearray(n)
        self.frames = 0
        self.phase = CHASE
        self.active = 0
        self.unmapped = 0
        self._t0 = -1
        self._t_sense = -1

    def _show(self):
        show(self)

    def restart(self):
        """Start again from the chase."""
        self.phase = CHASE
        self._t0 = -1
        self._t_sense = -1
        self.frames = 0

    def step(self, now_ms):
        """Advance the self-test to ``now_ms``, update and show the LEDs; return the phase."""
        hw = self.hw
        if self._t0 < 0:
            self._t0 = now_ms
        if self.phase == DONE:
            return DONE
        leds = hw.leds
        blank(leds)
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
                self._show()
                return CHASE
            self.phase = SENSORS
            self._t_sense = now_ms
        raw = self.raw
        hw.read(raw)
        sl = self.sensor_led
        prev = self.prev
        seen = self.seen
        always = self.always
        flips = self.flips
        first = self.frames == 0
        active = 0
        unmapped = 0
        for s in range(hw.n_sensors):
            v = raw[s]
            if first:
                prev[s] = v
                seen[s] = 0
                always[s] = 1
                flips[s] = 0
            elif v != prev[s]:
                prev[s] = v
                if flips[s] < 255:
                    flips[s] += 1
            if v:
                seen[s] = 1
                active += 1
                led = sl[s]
                if led == _NONE or led >= hw.n_leds:
                    unmapped += 1
                elif v == 2:
                    leds[3 * led + 2] = lv
                else:
                    leds[3 * led + 1] = lv
            else:
                always[s] = 0
        self.frames += 1
        self.active = active
        self.unmapped = unmapped
        if self.sense_ms and ((now_ms - self._t_sense) & _MASK) >= self.sense_ms:
            self._judge()
            self.phase = DONE
            return DONE
        self._show()
        return SENSORS

    def _judge(self):
        hw = self.hw
        sl = self.sensor_led
        leds = hw.leds
        blank(leds)
        mapped = bytearray(hw.n_leds)
        ok = True
        for s in range(hw.n_sensors):
            led = sl[s]
            if led == _NONE or led >= hw.n_leds:
                self.verdict[s] = OK
                continue
            if self.always[s]:
                v = STUCK
            elif not self.seen[s]:
                v = DEAD
            elif self.flips[s] > self.noisy_flips:
                v = NOISY
            else:
                v = OK
            self.verdict[s] = v
            if v != OK:
                ok = False
            mapped[led] = 1
            paint(leds, led, self.level, _SHOW[v])
        paint_rest(leds, hw.n_leds, mapped, self.level, ok)
        self._show()

    def summary(self):
        """The verdict as a dict (after DONE): ``pass`` (bool), ``checked`` (sensors with an
        LED above them), ``ok`` (how many passed), ``stuck``/``dead``/``noisy`` (lists of
        sensor indices), ``frames`` (sensor frames read), ``leds`` (LEDs chased)."""
        out = {"checked": 0, "ok": 0, "stuck": [], "dead": [], "noisy": [],
               "frames": self.frames, "leds": self.hw.n_leds}
        for s in beside_leds(self.sensor_led, self.hw.n_sensors, self.hw.n_leds):
            out["checked"] += 1
            v = self.verdict[s]
            if v == OK:
                out["ok"] += 1
            else:
                out[VERDICTS[v]].append(s)
        out["pass"] = self.phase == DONE and out["ok"] == out["checked"]
        return out
