"""Guided calibration of a hall-sensor board: clear the board, hold still, measure, save.

>>> cal = GuidedCalibration(board, sensor_leds(layout_data, board.n_sensors))
>>> while cal.step(time.ticks_ms()) != DONE: ...
>>> cal.summary()   # {"saved": True, "checked": 56, "bad": []}

``hw`` is a playboard.hw.hall.HallBoard (or anything with its ``read``, ``last``,
``ZERO_LO``/``ZERO_HI``, ``set_zero`` and ``save_calibration``). Only the sensors
with an LED above them (``sensor_led``) are calibrated; spare channels are left.

- WAIT: the LEDs above the sensors blink amber ("clear the board, hands off");
  a sensor whose reading is outside the DRV5053's zero-field window (0.90-1.15 V:
  a piece still there, a magnet or a hand near) shows red. When every sensor has
  been inside the window for ``quiet_ms`` (or ``timeout_ms`` has passed) ...
- MEASURE: ``frames`` frames are read, one per step (never blocking), each sensor's
  mean becomes its zero and its noise widens its threshold (``HallBoard.set_zero``);
  the calibration file is written only when every sensor was accepted and the board
  was clear before the timeout: a timed-out or refused calibration is not saved (the
  board stays uncalibrated and calibrates again at the next power-up).
- DONE: green above every sensor calibrated, red above those refused; the LEDs with
  no sensor (the kazans) green when all passed, else red. ``summary()`` says the same.

Nothing allocates per step except the one step that ends MEASURE. Every frame goes
through the LED current cap (playboard.board.lights.cap_leds at ``budget_ma``).
"""
from array import array

from playboard.compat import const
from playboard.hw.ledcap import blank, paint_rest, set_cap, show

WAIT = const(0)
MEASURE = const(1)
DONE = const(2)
_NONE = const(255)
_MASK = const(0x3FFFFFFF)


class Stats:
    """Each sensor's sum, lowest and highest raw reading over the frames ``add``ed
    (``n`` sensors; preallocated: ``add`` allocates nothing)."""

    def __init__(self, n):
        self.n = n
        self.acc = [0] * n
        self.lo = array("H", [65535] * n)
        self.hi = array("H", bytes(2 * n))
        self.k = 0

    def reset(self):
        for s in range(self.n):
            self.acc[s] = 0
            self.lo[s] = 65535
            self.hi[s] = 0
        self.k = 0

    def add(self, last):
        """Count one frame of raw readings ``last`` (a sequence of n ints)."""
        acc = self.acc
        lo = self.lo
        hi = self.hi
        for s in range(self.n):
            v = last[s]
            acc[s] += v
            if v < lo[s]:
                lo[s] = v
            if v > hi[s]:
                hi[s] = v
        self.k += 1

    def result(self):
        """(mean, spread): arrays 'H' of each sensor's mean and max - min (allocates)."""
        k = self.k or 1
        return (array("H", [a // k for a in self.acc]),
                array("H", [self.hi[s] - self.lo[s] for s in range(self.n)]))


class GuidedCalibration:
    """Drive a hall board through the guided calibration; call step(now_ms) often.

    sensor_led: bytearray, LED index above each sensor (255 none); level: LED level;
    frames: frames averaged; quiet_ms: how long every sensor must stay inside the
    zero-field window before measuring; timeout_ms: measure anyway after this long
    (the sensors still outside are reported bad, nothing is saved); save: write the
    calibration file; budget_ma, ma_per_led, idle_ma: the LED current cap.
    """

    def __init__(self, hw, sensor_led, level=48, frames=16, quiet_ms=2000, timeout_ms=60000,
                 save=True, budget_ma=100, ma_per_led=60, idle_ma=1):
        self.hw = hw
        set_cap(self, budget_ma, ma_per_led, idle_ma)
        self.timed_out = False
        self.sensor_led = sensor_led
        self.level = level
        self.frames = frames
        self.quiet_ms = quiet_ms
        self.timeout_ms = timeout_ms
        self.save = save
        n = hw.n_sensors
        self.raw = bytearray(n)
        self.only = bytearray(n)
        for s in range(n):
            if sensor_led[s] != _NONE and sensor_led[s] < hw.n_leds:
                self.only[s] = 1
        self.stats = Stats(n)
        self.phase = WAIT
        self.bad = []
        self.saved = False
        self.error = None
        self._t0 = -1
        self._t_quiet = -1

    def step(self, now_ms):
        """Advance to ``now_ms``: read one frame, update and show the LEDs; return the phase."""
        if self.phase == DONE:
            return DONE
        hw = self.hw
        if self._t0 < 0:
            self._t0 = now_ms
        hw.read(self.raw)
        last = hw.last
        only = self.only
        n = hw.n_sensors
        if self.phase == WAIT:
            leds = hw.leds
            blank(leds)
            blink = ((now_ms - self._t0) & _MASK) % 1000 < 500
            lv = self.level
            inside = True
            lo = hw.ZERO_LO
            hi = hw.ZERO_HI
            sl = self.sensor_led
            for s in range(n):
                if not only[s]:
                    continue
                j = 3 * sl[s]
                v = last[s]
                if lo <= v <= hi:
                    if blink:
                        leds[j] = lv
                        leds[j + 1] = lv >> 1
                else:
                    inside = False
                    leds[j] = lv
            self._show()
            if not inside:
                self._t_quiet = -1
            elif self._t_quiet < 0:
                self._t_quiet = now_ms
            waited = (now_ms - self._t0) & _MASK
            quiet = self._t_quiet >= 0 and ((now_ms - self._t_quiet) & _MASK) >= self.quiet_ms
            if quiet or waited >= self.timeout_ms:
                self.timed_out = not quiet
                self.phase = MEASURE
                self.stats.reset()
            return self.phase
        self.stats.add(last)
        if self.stats.k < self.frames:
            return MEASURE
        mean, spread = self.stats.result()
        self.bad = hw.set_zero(mean, spread, only=only)
        if self.save and not self.bad and not self.timed_out:
            try:
                hw.save_calibration()
                self.saved = True
            except OSError as e:
                self.error = str(e)
        self._show_result()
        self.phase = DONE
        return DONE

    def _show_result(self):
        hw = self.hw
        leds = hw.leds
        blank(leds)
        mapped = bytearray(hw.n_leds)
        for s in range(hw.n_sensors):
            if self.only[s]:
                led = self.sensor_led[s]
                mapped[led] = 1
                leds[3 * led + (0 if s in self.bad else 1)] = self.level
        ok = not self.bad and self.error is None and not self.timed_out
        paint_rest(leds, hw.n_leds, mapped, self.level, ok)
        self._show()

    def _show(self):
        show(self)

    def summary(self):
        """``{"saved": bool, "checked": sensors calibrated or refused, "bad": [sensor
        indices refused], "pass": bool}`` plus ``"error"`` when the file could not be
        written and ``"timed_out": True`` when the board was never clear in time
        (nothing saved)."""
        out = {"saved": self.saved, "checked": sum(self.only), "bad": list(self.bad),
               "pass": (self.phase == DONE and not self.bad and self.error is None
                        and not self.timed_out)}
        if self.timed_out:
            out["timed_out"] = True
        if self.error is not None:
            out["error"] = self.error
        return out
