"""A hall board's per-sensor calibration: each sensor's zero-field reading, threshold
and polarity, how a reading becomes empty / White / Black, and the calibration file
(``sensor.calibration``). Shared by the board's analog hall sensors
(:class:`playboard.hw.hall.HallBoard`) and the simulated hall board
(:class:`playboard.sim.hall.SimHallBoard`), so that the simulator calibrates exactly as
the board does (docs/build.md, step 8).

Readings are in ``machine.ADC.read_u16`` units (0-65535 over 0-3.3 V).
"""
from array import array


class HallZero:
    """Mixin: the calibration of ``n_sensors`` analog hall sensors (a board class that
    has ``n_sensors`` and ``read(buf)`` filling ``last`` with raw readings).

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
    n_sensors = 0    # (the board class's)

    def init_zero(self, s):
        """Set up the calibration from the sensor definition ``s`` (its ``threshold``,
        ``polarity`` and ``calibration`` file): the file is loaded when it exists; a
        broken one (``calibration_error`` says why) or none leaves ``calibrated``
        False, each sensor's power-up reading its provisional zero (the app then runs
        the guided calibration: playboard.app.check.first_boot)."""
        n = self.n_sensors
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

    def sample(self, frames=8):
        """Read ``frames`` frames; return (mean, spread): arrays 'H' of each sensor's mean
        raw reading and its max - min (noise), in read_u16 units. Allocates: not for play."""
        from playboard.hw.calibrate import Stats
        st = Stats(self.n_sensors)
        tmp = bytearray(self.n_sensors)
        for _ in range(frames):
            self.read(tmp)  # type: ignore[attr-defined]  # (the board class's)
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
