"""Analog hall sensors (DRV5053-class, bipolar) behind CD74HC4067 multiplexers into the
ADC, on the RP2040 backend (:mod:`playboard.hw.rp2` builds it for ``sensor.kind``
``hall_mux``; a module of its own so that the other boards never hold its code).

Per sensor a zero-field reading, a threshold and a polarity turn the reading into
0 empty / 1 White / 2 Black. Each read: select the channel, enable one multiplexer,
wait ``settle_us`` (a DRV5053 sources only 300 uA into the mux and ADC capacitance:
13-25 us), read, disable. The zero-field reading is each sensor's own (the datasheet
allows 0.9-1.15 V): from the calibration file, else taken at start-up (``calibrated``
stays False so that the app runs the guided calibration).

The hardware modules are :mod:`playboard.hw.rp2`'s globals (``R.machine``), read when a
board is built, so that tests' fakes put there serve this module too.
"""
from array import array

from playboard.hw import rp2 as R
from playboard.hw.rp2 import _Rp2Board


class HallBoard(_Rp2Board):
    """Analog hall sensors through CD74HC4067 multiplexers (see the module docstring).

    ``zero``, ``threshold`` (array 'H', read_u16 units) and ``polarity`` (bytearray,
    1 or 255 for -1) hold the per-sensor calibration: a sensor reads White when its
    reading minus its own zero-field reading (times the polarity) is above its
    threshold, Black when below minus the threshold. :meth:`calibrate`,
    :meth:`save_calibration` and :meth:`load_calibration` manage it; ``calibrated``
    is True once a calibration file was loaded or saved.
    """

    MID = 19859      # DRV5053 at 3.3 V: 1.0 V typical at zero field, in read_u16 units
    ZERO_LO = 17873  # 0.90 V: the datasheet's lowest zero-field output
    ZERO_HI = 22838  # 1.15 V: its highest
    RAIL = 3000      # within 0.15 V of a rail: no working sensor there

    def __init__(self, cfg):
        _Rp2Board.__init__(self, cfg)
        s = cfg["sensor"]
        machine = R.machine
        P = machine.Pin
        n = self.n_sensors
        self._sel = [P(p, P.OUT, value=0) for p in s["select"]]
        self._en = []
        self._adc = []
        adcs = {}
        for m in s["muxes"]:
            en = m["en"]
            self._en.append(P(en, P.OUT, value=1) if en is not None else None)
            if m["adc"] not in adcs:
                adcs[m["adc"]] = machine.ADC(P(m["adc"]))
            self._adc.append(adcs[m["adc"]])
        self._nmux = len(self._adc)
        self._settle = s.get("settle_us", 25)
        self.base_threshold = s["threshold"]
        self.zero = array("H", [self.MID] * n)
        self.threshold = array("H", [s["threshold"]] * n)
        self.polarity = bytearray([1 if s["polarity"] > 0 else 255] * n)
        self.last = array("H", bytes(2 * n))   # the raw readings of the last frame
        # the calibration file (sensor.calibration; a relative name is taken from the
        # working folder, "/" on the board) is loaded when it exists
        self.calibration_path = s["calibration"]
        self.calibrated = False
        self.calibration_error = None  # why the calibration file could not be used
        try:
            open(self.calibration_path).close()
            found = True
        except OSError:
            found = False
        if found:
            try:
                self.load_calibration(self.calibration_path)
                self.calibrated = True
            except ValueError as e:
                # a broken file never stops the board: it starts as if uncalibrated
                # (the guided calibration at boot writes a good one)
                self.calibration_error = str(e)
        if not self.calibrated:
            # no calibration yet: each sensor's own reading now (inside the datasheet's
            # zero-field window) is its provisional zero, never one fixed 1.0 V for all
            self.calibrate(frames=4)

    def read(self, buf):
        """buf[16 * mux + channel] = 0 empty, 1 White, 2 Black (readings kept in ``last``).

        Per channel: the select lines, then each multiplexer enabled alone, ``settle_us``
        waited with it enabled (the sensor charges the mux and ADC capacitance), read,
        disabled. 64 sensors at 25 us: 1.6 ms a frame."""
        sel = self._sel
        ens = self._en
        adcs = self._adc
        zero = self.zero
        thr = self.threshold
        pol = self.polarity
        last = self.last
        n = self.n_sensors
        settle = self._settle
        for ch in range(16):
            sel[0].value(ch & 1)
            sel[1].value((ch >> 1) & 1)
            sel[2].value((ch >> 2) & 1)
            sel[3].value((ch >> 3) & 1)
            for m in range(self._nmux):
                i = 16 * m + ch
                if i >= n:
                    continue
                en = ens[m]
                if en is not None:
                    en.value(0)
                if settle:
                    self._sleep_us(settle)
                v = adcs[m].read_u16()
                if en is not None:
                    en.value(1)
                last[i] = v
                d = v - zero[i]
                if pol[i] != 1:
                    d = -d
                t = thr[i]
                buf[i] = 1 if d > t else (2 if d < -t else 0)

    def sample(self, frames=8):
        """Read ``frames`` frames; return (mean, spread): arrays 'H' of each sensor's mean
        raw reading and its max - min (noise), in read_u16 units. Allocates: not for play."""
        from playboard.hw.calibrate import Stats
        st = Stats(self.n_sensors)
        tmp = bytearray(self.n_sensors)
        for _ in range(frames):
            self.read(tmp)
            st.add(self.last)
        return st.result()

    def calibrate(self, frames=8, noise_factor=4):
        """Take each sensor's zero-field reading (the board empty!) as its mean over
        ``frames``; blocking (``frames`` reads): the app uses the non-blocking
        playboard.hw.calibrate.GuidedCalibration. Returns :meth:`set_zero`'s list."""
        mean, spread = self.sample(frames)
        return self.set_zero(mean, spread, noise_factor)

    def set_zero(self, mean, spread, noise_factor=4, only=None):
        """Take ``mean`` (each sensor's zero-field reading) as its zero and
        max(sensor.threshold, noise_factor * ``spread``) as its threshold, for every
        sensor or those where ``only[s]`` is true.

        Returns the sensor indices refused: a mean outside the datasheet's zero-field
        window 0.90-1.15 V (a piece or magnet still near: the sensor keeps its previous
        zero) or at a rail (no sensor, no supply, a short: it is switched off, its
        threshold out of reach, so that it never shows a phantom piece)."""
        bad = []
        for i in range(self.n_sensors):
            if only is not None and not only[i]:
                continue
            z = mean[i]
            if self.ZERO_LO <= z <= self.ZERO_HI:
                self.zero[i] = z
                self.threshold[i] = min(65535, max(self.base_threshold, noise_factor * spread[i]))
                continue
            bad.append(i)
            if z < self.RAIL or z > 65535 - self.RAIL:
                self.zero[i] = self.MID
                self.threshold[i] = 65535
        return bad

    def save_calibration(self, path=None):
        """Write zero, threshold and polarity to a JSON file (default: sensor.calibration):
        first to ``path + ".new"``, then renamed over it, so that a power cut while
        writing leaves the previous file whole. OSError if it cannot be written."""
        if path is None:
            path = self.calibration_path
        import json
        import os
        tmp = path + ".new"
        with open(tmp, "w") as f:
            json.dump({"zero": list(self.zero), "threshold": list(self.threshold),
                       "polarity": [1 if p == 1 else -1 for p in self.polarity]}, f)
        os.rename(tmp, path)
        self.calibrated = True
        self.calibration_error = None

    def load_calibration(self, path):
        """Read a file written by save_calibration; ValueError if it does not fit the board."""
        import json
        try:
            with open(path) as f:
                d = json.load(f)
        except ValueError as e:
            raise ValueError("hall calibration %s is not valid JSON: %s" % (path, e))
        n = self.n_sensors
        for key in ("zero", "threshold", "polarity"):
            if len(d.get(key, ())) != n:
                raise ValueError("hall calibration %s: %s needs %d values" % (path, key, n))
        for i in range(n):
            self.zero[i] = d["zero"][i]
            self.threshold[i] = d["threshold"][i]
            self.polarity[i] = 1 if d["polarity"][i] > 0 else 255
