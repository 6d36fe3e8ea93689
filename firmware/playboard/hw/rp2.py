"""The RP2040 backend (MicroPython): diode matrix, 74HC165 chain (PIO or SPI), hall sensors.

Built by :func:`open_rp2` from a validated board definition (playboard.config).
The hardware modules ``machine``, ``neopixel``, ``rp2`` and ``time`` are this
module's globals, imported at load (so the type checker reads every call against
the MicroPython RP2040 stubs); where they do not exist (CPython, the unix port)
they are None and tests assign fakes to them (tests/firmware/hwfakes.py).

- :class:`MatrixBoard`: rows driven low one at a time (``machine.Pin`` outputs, idle
  high), columns inputs with pull-ups, a diode per switch (anode to the column).
  With ``bank_read`` the columns are read together from the SIO ``GPIO_IN`` register
  (one ``mem32`` read per row) instead of one ``Pin.value()`` per column.
  Sensor index = row * n_cols + col; a closed switch reads 1.
- :class:`ShiftRegisterBoard`: a 74HC165 chain; ``load`` low latches the inputs,
  then ``clk`` shifts them out of chip 0's QH, input H first. Read by the PIO
  program :func:`hc165_program` (the state machine does the whole frame) or by
  ``SPI.readinto`` after the latch pulse. Sensor index = 8 * chip + input (A = 0).
- :class:`HallBoard`: analog hall sensors (DRV5053-class, bipolar) behind
  CD74HC4067 multiplexers into the ADC; per sensor a zero-field reading, a
  threshold and a polarity turn the reading into 0 empty / 1 White / 2 Black.
  Each read: select the channel, enable one multiplexer, wait ``settle_us``
  (a DRV5053 sources only 300 uA into the mux and ADC capacitance: 13-25 us), read,
  disable. The zero-field reading is each sensor's own (the datasheet allows
  0.9-1.15 V): from the calibration file, else taken at start-up (``calibrated``
  stays False so that the app runs the guided calibration).

LEDs: MicroPython's ``neopixel.NeoPixel``; ``show()`` writes ``leds`` (RGB) into its
``buf`` in the strip's byte order and calls ``write()``. No allocation per frame.
"""
from array import array

import time

from playboard.compat import const
from playboard.hw.base import Board, ORDERS, reorder
from playboard.hw.bits import unpack_bank, unpack_chain

try:
    import machine
    import neopixel
    import rp2
except ImportError:  # not on an RP2040: tests put fakes here
    machine = neopixel = rp2 = None  # type: ignore[assignment]

_SIO_GPIO_IN = const(0xD0000004)


class _Rp2Board(Board):
    """Common part: the LED chain on MicroPython's neopixel module."""

    kind = "rp2"

    def __init__(self, cfg):
        if machine is None or neopixel is None:
            raise ValueError("rp2 backend: machine/neopixel not available (not an RP2040)")
        Board.__init__(self, cfg["n_sensors"], cfg["leds"]["count"])
        leds = cfg["leds"]
        self._order = ORDERS[leds["order"]]
        self._sleep_us = time.sleep_us
        self._np = None
        if self.n_leds:
            pin = machine.Pin(leds["pin"], machine.Pin.OUT)
            self._np = neopixel.NeoPixel(pin, self.n_leds)
            self._np_buf = self._np.buf

    def show(self):
        """Send ``leds`` to the chain (reordered into the strip's byte order)."""
        if self._np is not None:
            reorder(self.leds, self._np_buf, self._order, self.n_leds)
            self._np.write()

    def close(self):
        """Turn the LEDs off."""
        self.fill(0, 0, 0)
        self.show()


class MatrixBoard(_Rp2Board):
    """A diode matrix of reed switches on GPIOs (see the module docstring)."""

    def __init__(self, cfg):
        _Rp2Board.__init__(self, cfg)
        s = cfg["sensor"]
        P = machine.Pin
        self._rows = [P(p, P.OUT, value=1) for p in s["rows"]]
        self._cols = [P(p, P.IN, P.PULL_UP) for p in s["cols"]]
        self._colpins = bytearray(s["cols"])
        self._settle = s["settle_us"]
        self._bank = s["bank_read"]
        self._mem32 = machine.mem32

    def read(self, buf):
        """Scan every row; buf[row * n_cols + col] = 1 where the switch is closed."""
        rows = self._rows
        cols = self._cols
        colpins = self._colpins
        nc = len(cols)
        n = self.n_sensors
        settle = self._settle
        bank = self._bank
        k = 0
        for r in range(len(rows)):
            row = rows[r]
            row.value(0)
            if settle:
                self._sleep_us(settle)
            if bank:
                if k < n:
                    v = self._mem32[_SIO_GPIO_IN]
                    unpack_bank(buf, k, v, colpins, nc if k + nc <= n else n - k)
                k += nc
            else:
                for c in range(nc):
                    if k < n:
                        buf[k] = cols[c].value() ^ 1
                    k += 1
            row.value(1)


def hc165_program():
    """The PIO program that reads a 74HC165 chain, assembled with ``rp2.asm_pio``.

    Pins: ``set`` = load (PL, idle high), side-set = clk (idle low), ``in`` = data
    (chip 0's QH). The CPU puts ``n_bits - 1``; the program pulses load low
    (parallel load), then for each bit samples QH with clk low and raises clk
    (the next bit moves to QH). Autopush every 8 bits, shifting left: each word is
    one chip, input H in bit 7 ... input A in bit 0. Two PIO cycles per bit.
    """
    PIO = rp2.PIO

    @rp2.asm_pio(set_init=PIO.OUT_HIGH, sideset_init=PIO.OUT_LOW,
                 in_shiftdir=PIO.SHIFT_LEFT, autopush=True, push_thresh=8,
                 fifo_join=PIO.JOIN_RX)
    def hc165():  # noqa: F821 - the names below are PIO assembler, given by asm_pio
        pull(block).side(0)           # type: ignore[name-defined]  # noqa: F821
        mov(x, osr).side(0)           # type: ignore[name-defined]  # noqa: F821
        set(pins, 0).side(0)[1]       # type: ignore[name-defined, call-overload]  # noqa: F821
        set(pins, 1).side(0)          # type: ignore[name-defined, call-overload]  # noqa: F821
        label("bit")                  # type: ignore[name-defined]  # noqa: F821
        in_(pins, 1).side(0)          # type: ignore[name-defined]  # noqa: F821
        jmp(x_dec, "bit").side(1)     # type: ignore[name-defined]  # noqa: F821

    return hc165


class ShiftRegisterBoard(_Rp2Board):
    """A 74HC165 chain read by PIO (``reader: pio``) or SPI (``reader: spi``)."""

    def __init__(self, cfg, sm_id=0):
        _Rp2Board.__init__(self, cfg)
        s = cfg["sensor"]
        P = machine.Pin
        self.chain = s["chain"]
        self._bytes = bytearray(self.chain)
        self._invert = 0xFF if s["active_low"] else 0
        self.reader = s["reader"]
        if self.reader == "pio":
            if rp2 is None:
                raise ValueError("rp2 backend: the PIO reader needs the rp2 module")
            self._sm = rp2.StateMachine(sm_id, hc165_program(), freq=2 * s["baud"],
                                        in_base=P(s["data"], P.IN), set_base=P(s["load"]),
                                        sideset_base=P(s["clk"]))
            self._sm.active(1)
        else:
            self._load = P(s["load"], P.OUT, value=1)
            self._spi = machine.SPI(s["spi_id"], baudrate=s["baud"], polarity=0, phase=0,
                                    bits=8, firstbit=machine.SPI.MSB,
                                    sck=P(s["clk"]), mosi=P(s["mosi"]), miso=P(s["data"]))

    def read_bytes(self):
        """Latch and shift the chain into ``self._bytes`` (one byte per chip, H = bit 7)."""
        b = self._bytes
        if self.reader == "pio":
            sm = self._sm
            sm.put(8 * self.chain - 1)
            for k in range(self.chain):
                b[k] = sm.get() & 0xFF
        else:
            self._load.value(0)
            self._load.value(1)
            self._spi.readinto(b, 0xFF)
        return b

    def read(self, buf):
        """buf[8 * chip + input] = 1 where the input is active (low, with active_low)."""
        unpack_chain(buf, self.read_bytes(), self.chain, self._invert, self.n_sensors)


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
        try:
            open(self.calibration_path).close()
            found = True
        except OSError:
            found = False
        if found:
            self.load_calibration(self.calibration_path)
            self.calibrated = True
        else:
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
        """Write zero, threshold and polarity to a JSON file (default: sensor.calibration)."""
        if path is None:
            path = self.calibration_path
        import json
        with open(path, "w") as f:
            json.dump({"zero": list(self.zero), "threshold": list(self.threshold),
                       "polarity": [1 if p == 1 else -1 for p in self.polarity]}, f)
        self.calibrated = True

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


def open_rp2(cfg):
    """Build the rp2 backend for a validated board definition (its ``sensor.kind``).

    ValueError for a sensor kind this backend cannot read, or off an RP2040.
    """
    kind = cfg["sensor"]["kind"]
    if kind == "matrix":
        return MatrixBoard(cfg)
    if kind == "shift_register":
        return ShiftRegisterBoard(cfg)
    if kind == "hall_mux":
        return HallBoard(cfg)
    raise ValueError("rp2 backend: no reader for sensor kind %r" % (kind,))
