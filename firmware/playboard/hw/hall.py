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
from playboard.hw import rp2 as R
from playboard.hw.hallzero import HallZero
from playboard.hw.rp2 import _Rp2Board


class HallBoard(HallZero, _Rp2Board):
    """Analog hall sensors through CD74HC4067 multiplexers (see the module docstring);
    the per-sensor calibration (``zero``, ``threshold``, ``polarity``, the file) is
    :class:`playboard.hw.hallzero.HallZero`'s."""

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
        self.init_zero(s)

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
