"""Guided placement test: "put a White piece on point 17", then each LED colour in turn.

>>> g = GuidedTest(board, sensor_leds(layout_data, board.n_sensors), colour=True)
>>> while g.step(time.ticks_ms()) != DONE: ...
>>> g.summary()   # {"pass": False, "checked": 56, "ok": 53, "swapped": [[17, 18], [18, 17]],
...               #  "inverted": [5], "dead": [], "stuck": [], "dark": [[12, "g"]], ...}

What the free self-test (playboard.hw.selftest) cannot see, found by asking the
builder for one point at a time (the host names it: ``target``):

- CLEAR (``clear_ms``): the board empty; a sensor active all that time is ``stuck``
  and left out.
- PLACE: for each sensor with an LED above it, in LED order, that LED lights white:
  the builder puts a White piece (north pole down) on that point and lifts it. The
  first sensor that reads a piece for ``settle_ms`` is the answer: the target itself
  reading White is ``ok``; reading Black is ``inverted`` (a hall sensor mounted upside
  down: only with ``colour``, a reed reads no colour); another sensor is ``swapped``
  (its wires crossed with the target's, or the board file's mapping wrong: the pair
  [target, sensor read] is kept); nothing within ``place_ms`` is ``dead``.
- COLOUR: every tested LED lights red, then green, then blue (``colour_ms`` each):
  the builder puts a piece on each point whose LED does not show that colour (dark,
  or another colour) and lifts it; that LED's channel is ``dark`` (a dead die in the
  LED, a cracked joint). The press is read through the mapping PLACE found, so a
  swapped pair still names the right LED.
- DONE: each tested LED green (ok), red (swapped), magenta (inverted), blue (dead,
  stuck), amber (a dark channel); the LEDs without a sensor green on a pass, else red.

Every frame goes through the LED current cap (playboard.board.lights.cap_leds,
``budget_ma``). Nothing allocates per step until DONE (``summary`` allocates).
"""
from playboard.compat import const
from playboard.hw.ledcap import beside_leds, blank, paint, paint_rest, set_cap, show

CLEAR = const(0)
PLACE = const(1)
COLOUR = const(2)
DONE = const(3)
OK = const(0)
SWAPPED = const(1)
INVERTED = const(2)
DEAD = const(3)
STUCK = const(4)
UNTESTED = const(5)
_NONE = const(255)
_MASK = const(0x3FFFFFFF)
CHANNELS = "rgb"
_LISTED = const(48)   # numbers a summary lists at most (the rest counted in "more")
# DONE's colour of each verdict (r, g, b) in quarters of ``level``
_SHOW = ((0, 4, 0), (4, 0, 0), (4, 0, 4), (0, 0, 4), (0, 0, 4), (0, 0, 0))
_DARK = (4, 2, 0)         # an LED with a dark channel beside a sensor that passed


class GuidedTest:
    """Drive ``hw`` (a playboard.hw Board) through the guided test; call step(now_ms) often.

    sensor_led: bytearray, the LED above each sensor (255 none); colour: the sensors
    tell White from Black (hall): an inverted one is found; level: LED level 0..255;
    clear_ms, settle_ms, place_ms (the longest wait for one point), colour_ms: times;
    budget_ma, ma_per_led, idle_ma: the LED current cap.
    """

    def __init__(self, hw, sensor_led, colour=False, level=96, clear_ms=1500, settle_ms=300,
                 place_ms=30000, colour_ms=15000, budget_ma=100, ma_per_led=60, idle_ma=1):
        self.hw = hw
        self.sensor_led = sensor_led
        self.colour = colour
        self.level = level
        self.clear_ms = clear_ms
        self.settle_ms = settle_ms
        self.place_ms = place_ms
        self.colour_ms = colour_ms
        set_cap(self, budget_ma, ma_per_led, idle_ma)
        n = hw.n_sensors
        self.raw = bytearray(n)
        self.verdict = bytearray(b"\x05" * n)     # UNTESTED until judged
        self.found = bytearray(b"\xff" * n)       # the sensor that answered each target
        self.led_at = bytearray(b"\xff" * n)      # the LED a press on each sensor names
        self.dark = bytearray(hw.n_leds)          # bit 0 r, 1 g, 2 b: channels reported dark
        self.always = bytearray(n)                # CLEAR: active in every frame so far
        self.phase = CLEAR
        self.target = -1                          # the sensor to put a piece on (PLACE)
        self.channel = -1                         # the colour shown (COLOUR): 0 r, 1 g, 2 b
        self._t0 = -1
        self._t_phase = 0
        self._cand = -1                           # the sensor read active, since _t_cand
        self._t_cand = 0
        self._lifted = True                       # the board clear since the last answer
        self._k = -1                              # the target's LED (PLACE walks LED order)

    # -- helpers ---------------------------------------------------------------

    def _show(self):
        show(self)

    def _blank(self):
        blank(self.hw.leds)

    def _active(self):
        """(the lowest non-stuck sensor reading a piece or -1, its value)."""
        raw = self.raw
        for s in range(self.hw.n_sensors):
            if raw[s] and self.verdict[s] != STUCK:
                return s, raw[s]
        return -1, 0

    def _next_target(self, now_ms):
        """Move PLACE to the sensor under the next LED in chain order; COLOUR when done."""
        sl = self.sensor_led
        n_leds = self.hw.n_leds
        k = self._k + 1
        while k < n_leds:
            for s in range(self.hw.n_sensors):
                if sl[s] == k and self.verdict[s] == UNTESTED:
                    self._k = k
                    self.target = s
                    self._t_phase = now_ms
                    self._cand = -1
                    return
            k += 1
        self.target = -1
        self.phase = COLOUR
        self.channel = 0
        self._t_phase = now_ms
        self._cand = -1

    # -- the steps -------------------------------------------------------------

    def step(self, now_ms):
        """Advance to ``now_ms``: read one frame, judge it, show the LEDs of the (new)
        phase; return the phase."""
        if self.phase == DONE:
            return DONE
        hw = self.hw
        if self._t0 < 0:
            self._t0 = now_ms
            self._t_phase = now_ms
            for s in range(hw.n_sensors):
                self.always[s] = 1
        hw.read(self.raw)
        raw = self.raw
        sl = self.sensor_led
        if self.phase == CLEAR:
            for s in range(hw.n_sensors):
                if not raw[s]:
                    self.always[s] = 0
            if ((now_ms - self._t_phase) & _MASK) >= self.clear_ms:
                for s in range(hw.n_sensors):
                    if self.always[s] and sl[s] != _NONE:
                        self.verdict[s] = STUCK
                self.phase = PLACE
                self._next_target(now_ms)
        elif self.phase == PLACE:
            t = self.target
            s, v = self._active()
            if s < 0:
                self._lifted = True
                self._cand = -1
            elif self._lifted:
                if s != self._cand:
                    self._cand = s
                    self._t_cand = now_ms
                elif ((now_ms - self._t_cand) & _MASK) >= self.settle_ms:
                    self._answer(t, s, v)
                    self._lifted = False        # the piece must come off before the next
                    self._next_target(now_ms)
            if self.phase == PLACE and self.target == t and \
                    ((now_ms - self._t_phase) & _MASK) >= self.place_ms:
                self.verdict[t] = DEAD
                self._next_target(now_ms)
        else:   # COLOUR
            ch = self.channel
            s, v = self._active()
            if s < 0:
                self._cand = -1
                self._lifted = True
            elif not self._lifted:
                pass                            # a piece from before this colour: lift it first
            elif s != self._cand:
                self._cand = s
                self._t_cand = now_ms
            elif ((now_ms - self._t_cand) & _MASK) >= self.settle_ms:
                led = self.led_at[s]
                if led != _NONE:
                    self.dark[led] |= 1 << ch
            if ((now_ms - self._t_phase) & _MASK) >= self.colour_ms:
                self.channel = ch + 1
                self._t_phase = now_ms
                self._cand = -1
                self._lifted = s < 0
                if self.channel > 2:
                    self.channel = -1
                    self.phase = DONE
                    self._show_result()
                    return DONE
        self._render()
        return self.phase

    def _render(self):
        hw = self.hw
        sl = self.sensor_led
        self._blank()
        leds = hw.leds
        lv = self.level
        if self.phase == PLACE:
            j = 3 * sl[self.target]
            leds[j] = lv
            leds[j + 1] = lv
            leds[j + 2] = lv
        elif self.phase == COLOUR:
            ch = self.channel
            for s in range(hw.n_sensors):
                v = self.verdict[s]
                if v != STUCK and v != UNTESTED and sl[s] != _NONE:
                    leds[3 * sl[s] + ch] = lv
        self._show()

    def _answer(self, t, s, v):
        self.found[t] = s
        self.led_at[s] = self.sensor_led[t]
        if s != t:
            self.verdict[t] = SWAPPED
        elif self.colour and v == 2:
            self.verdict[t] = INVERTED
        else:
            self.verdict[t] = OK

    def _show_result(self):
        hw = self.hw
        self._blank()
        leds = hw.leds
        sl = self.sensor_led
        ok = self._passed()
        mapped = bytearray(hw.n_leds)
        for s in range(hw.n_sensors):
            led = sl[s]
            if led == _NONE or led >= hw.n_leds:
                continue
            mapped[led] = 1
            v = self.verdict[s]
            paint(leds, led, self.level, _DARK if v == OK and self.dark[led] else _SHOW[v])
        paint_rest(leds, hw.n_leds, mapped, self.level, ok)
        self._show()

    def _passed(self):
        sl = self.sensor_led
        for s in range(self.hw.n_sensors):
            if sl[s] != _NONE and sl[s] < self.hw.n_leds and self.verdict[s] != OK:
                return False
        for led in range(self.hw.n_leds):
            if self.dark[led]:
                return False
        return True

    def status(self):
        """What the builder is asked now: {"phase", "target" (sensor or -1), "colour"
        ("r" / "g" / "b" or None)} (allocates: for the link, not the scan loop)."""
        return {"phase": self.phase, "target": self.target,
                "colour": CHANNELS[self.channel] if self.channel >= 0 else None}

    def summary(self):
        """The verdict (after DONE): ``pass`` (bool), ``checked`` (sensors with an LED),
        ``ok``, ``swapped`` ([[target, sensor read], ...]), ``inverted``, ``dead``,
        ``stuck`` (sensor lists), ``dark`` ([[LED, "r" | "g" | "b"], ...]); at most 48
        numbers listed in all (the link's reply stays under its 480 bytes), ``more``
        counting the faults left out when there are more."""
        out = {"checked": 0, "ok": 0, "swapped": [], "inverted": [], "dead": [], "stuck": [],
               "dark": [], "more": 0}
        room = [_LISTED]      # numbers listed at most: the link's reply stays short

        def put(key, item, cost):
            if room[0] >= cost:
                out[key].append(item)
                room[0] -= cost
            else:
                out["more"] += 1
        for s in beside_leds(self.sensor_led, self.hw.n_sensors, self.hw.n_leds):
            out["checked"] += 1
            v = self.verdict[s]
            if v == OK:
                out["ok"] += 1
            elif v == SWAPPED:
                put("swapped", [s, self.found[s]], 2)
            elif v == INVERTED:
                put("inverted", s, 1)
            elif v == STUCK:
                put("stuck", s, 1)
            else:
                put("dead", s, 1)
        for led in range(self.hw.n_leds):
            for ch in range(3):
                if self.dark[led] & (1 << ch):
                    put("dark", [led, CHANNELS[ch]], 2)
        if not out["more"]:
            del out["more"]
        out["pass"] = self.phase == DONE and self._passed()
        return out
