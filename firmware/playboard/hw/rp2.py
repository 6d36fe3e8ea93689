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
- ``HallBoard`` (:mod:`playboard.hw.hall`, loaded only for a hall board): analog hall
  sensors behind CD74HC4067 multiplexers into the ADC.

LEDs: MicroPython's ``neopixel.NeoPixel``; ``show()`` writes ``leds`` (RGB) into its
``buf`` in the strip's byte order and calls ``write()``. No allocation per frame.
"""
import time

from playboard.compat import const
from playboard.hw.base import ADAPTER, USB, Board, ORDERS, reorder
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
        # the power source (leds.supply "sense"): the Pico's VBUS sense (GPIO24, high
        # while USB is plugged in) and the adapter's own sense line, if wired
        self._vbus = self._adapter = None
        if leds.get("supply") == "sense":
            self._vbus = machine.Pin(leds["vbus_pin"], machine.Pin.IN)
            if leds.get("adapter_pin") is not None:
                self._adapter = machine.Pin(leds["adapter_pin"], machine.Pin.IN)

    def source(self):
        """ADAPTER while the adapter's sense line is high (it feeds the rail through
        its ideal diode, whatever USB does), else USB while VBUS is up, else ADAPTER
        (the board runs, and not on USB). Without an adapter line, USB and the adapter
        together read USB: the lower cap. Reads one or two pins; allocates nothing."""
        a = self._adapter
        if a is not None and a.value():
            return ADAPTER
        v = self._vbus
        if v is not None and v.value():
            return USB
        return ADAPTER

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


def open_rp2(cfg):
    """Build the rp2 backend for a validated board definition (its ``sensor.kind``).

    ValueError for a sensor kind this backend cannot read, or off an RP2040. (A hall
    board, ``hall_mux``, is built by playboard.hw.hall.HallBoard: playboard.hw.open.)
    """
    kind = cfg["sensor"]["kind"]
    if kind == "matrix":
        return MatrixBoard(cfg)
    if kind == "shift_register":
        return ShiftRegisterBoard(cfg)
    raise ValueError("rp2 backend: no reader for sensor kind %r" % (kind,))
