"""Fakes of the RP2040's hardware modules for the backend tests (CPython and MicroPython).

``World`` models the wiring: GPIO levels driven by the firmware, a reed-switch diode
matrix, a 74HC165 chain, hall sensors behind CD74HC4067 multiplexers, and logs every
operation in order. Time passes only in ``sleep_us`` (``now_us``); with
``hall_settle_us`` set, an ADC behind a multiplexer moves from the voltage it held
towards the newly connected sensor's linearly over that many microseconds after the
switch (a DRV5053 sources 300 uA into the mux and ADC capacitance: 13-25 us). ``fake_machine(world)`` gives a ``machine``-like namespace whose
``Pin`` subclasses ``machine.PinBase`` on the MicroPython unix port; ``fake_neopixel``
and ``fake_time`` the other two modules.
"""
try:
    from machine import PinBase as _PinBase
except ImportError:  # CPython
    _PinBase = object

SIO_GPIO_IN = 0xD0000004


class _Sink:
    def append(self, item):
        pass


class World:
    """The board's wiring as seen from the GPIOs."""

    def quiet(self):
        """Stop logging (long runs on a small heap)."""
        self.log = _Sink()

    def __init__(self):
        self.mode = {}        # pin -> "in" / "out"
        self.level = {}       # pin -> level driven (outputs)
        self.pull = {}
        self.log = []
        # matrix: set of (row_pin, col_pin) with a closed switch
        self.closed = set()
        self.sensed = {}      # input pin -> level driven from outside (supply sense lines)
        # 74HC165 chain
        self.load_pin = None
        self.chain = []       # per chip: 8 input levels, A..H
        self.latched = []
        # hall
        self.sel_pins = []
        self.muxes = []       # list of (adc_pin, en_pin or None)
        self.hall = {}        # (mux, channel) -> read_u16 value
        self.hall_default = 19859
        self.now_us = 0
        self.hall_settle_us = 0
        self._node = {}       # adc pin -> [value held at the switch, source, switch time]

    # -- driven by the fakes
    def set_mode(self, pin, mode, pull):
        self.mode[pin] = mode
        self.pull[pin] = pull
        self.log.append(("mode", pin, mode))

    def drive(self, pin, v):
        v = 1 if v else 0
        old = self.level.get(pin)
        self.level[pin] = v
        self.log.append(("drive", pin, v))
        if pin == self.load_pin and v == 0 and old != 0:
            self.latched = [list(c) for c in self.chain]
        if self.muxes and old != v:
            self._switch()

    def _source(self, adc_pin):
        """16 * mux + channel connected to an ADC pin now, or -1 (no allocation)."""
        ch = 0
        for b, p in enumerate(self.sel_pins):
            ch |= self.level.get(p, 0) << b
        for m, (a, en) in enumerate(self.muxes):
            if a == adc_pin and (en is None or self.level.get(en, 1) == 0):
                return 16 * m + ch
        return -1

    def _voltage(self, adc_pin):
        """The ADC node's value now (read_u16 units), settling towards its source."""
        node = self._node.get(adc_pin)
        if node is None:
            return self.hall_default
        held, src, t = node
        if src < 0:
            return held
        target = self.hall.get((src >> 4, src & 15), self.hall_default)
        dt = self.now_us - t
        if dt >= self.hall_settle_us:
            return target
        return held + (target - held) * dt // self.hall_settle_us

    def _switch(self):
        # updates the nodes in place: the fakes must not break up a small heap
        for m in range(len(self.muxes)):
            a = self.muxes[m][0]
            src = self._source(a)
            node = self._node.get(a)
            if node is None:
                self._node[a] = [self._voltage(a), src, self.now_us]
            elif node[1] != src:
                node[0] = self._voltage(a)
                node[1] = src
                node[2] = self.now_us

    def read(self, pin):
        if self.mode.get(pin) == "out":
            return self.level.get(pin, 0)
        if pin in self.sensed:
            return self.sensed[pin]   # a line another circuit drives (VBUS, adapter sense)
        for (r, c) in self.closed:
            if c == pin and self.mode.get(r) == "out" and self.level.get(r, 1) == 0:
                return 0          # through the switch and its diode to the low row
        return 1                  # pull-up

    def bank(self):
        v = 0
        for p in range(30):
            v |= self.read(p) << p
        return v

    def shift_out(self, n):
        """Bytes of the latched chain as an SPI read (MSB first: input H first)."""
        out = []
        for k in range(n):
            chip = self.latched[k] if k < len(self.latched) else [1] * 8
            b = 0
            for j in range(8):
                b |= chip[j] << j
            out.append(b)
        return out

    def adc(self, adc_pin):
        ch = 0
        for b, p in enumerate(self.sel_pins):
            ch |= self.level.get(p, 0) << b
        val = None
        for m, (a, en) in enumerate(self.muxes):
            if a != adc_pin:
                continue
            if en is None or self.level.get(en, 1) == 0:
                if val is not None:
                    raise AssertionError("two multiplexers drive ADC GP%d at once" % adc_pin)
                val = self._voltage(adc_pin)
                self.log.append(("adc", adc_pin, m, ch))
        if val is None:
            raise AssertionError("ADC GP%d read with no multiplexer enabled" % adc_pin)
        return val


def fake_machine(world):
    """A ``machine``-like object bound to ``world``."""

    class Pin(_PinBase):
        IN = "in"
        OUT = "out"
        PULL_UP = "up"
        PULL_DOWN = "down"

        def __init__(self, id, mode=None, pull=None, value=None):
            self.id = id
            self.init(mode, pull, value)

        def init(self, mode=None, pull=None, value=None):
            if value is not None:
                world.drive(self.id, value)
            if mode is not None:
                world.set_mode(self.id, mode, pull)

        def value(self, v=None):
            if v is None:
                world.log.append(("read", self.id))
                return world.read(self.id)
            world.drive(self.id, v)
            return None

    class Mem32:
        def __getitem__(self, addr):
            assert addr == SIO_GPIO_IN, hex(addr)
            world.log.append(("bank",))
            return world.bank()

    class SPI:
        MSB = 0
        LSB = 1

        def __init__(self, id, baudrate=0, polarity=0, phase=0, bits=8, firstbit=0, sck=None,
                     mosi=None, miso=None):
            self.args = (id, baudrate, polarity, phase, bits, firstbit,
                         sck.id if sck else None, miso.id if miso else None,
                         mosi.id if mosi else None)
            world.log.append(("spi",) + self.args)

        def readinto(self, buf, write=0):
            world.log.append(("spi_read", len(buf)))
            data = world.shift_out(len(buf))
            for i in range(len(buf)):
                buf[i] = data[i]

    class ADC:
        def __init__(self, pin):
            self.pin = pin.id

        def read_u16(self):
            return world.adc(self.pin)

    class M:
        pass

    m = M()
    m.Pin = Pin
    m.SPI = SPI
    m.ADC = ADC
    m.mem32 = Mem32()
    return m


def fake_neopixel(world):
    """A MicroPython ``neopixel``-like module whose writes land in world.log."""

    class NeoPixel:
        ORDER = (1, 0, 2, 3)

        def __init__(self, pin, n, bpp=3, timing=1):
            self.pin = pin
            self.n = n
            self.buf = bytearray(n * bpp)
            self.writes = []
            pin.init(pin.OUT)

        def write(self):
            world.log.append(("np_write", self.pin.id, bytes(self.buf)))
            self.writes.append(bytes(self.buf))

    class M:
        pass

    m = M()
    m.NeoPixel = NeoPixel
    return m


def fake_time(world):
    """A ``time``-like module with sleep_us logged."""

    class M:
        @staticmethod
        def sleep_us(us):
            world.log.append(("sleep_us", us))
            world.now_us += us

    return M()


def install_rp2(world, rp2=None):
    """Point playboard.hw.rp2's hardware modules at fakes bound to ``world``; return the module."""
    import playboard.hw.rp2 as mod
    mod.machine = fake_machine(world)
    mod.neopixel = fake_neopixel(world)
    mod.time = fake_time(world)
    mod.rp2 = rp2
    return mod


def install_quiet_rp2():
    """Fakes that neither log nor allocate, to hold the backends' read() to no allocation."""
    import playboard.hw.rp2 as mod

    class Pin(_PinBase):
        IN = "in"
        OUT = "out"
        PULL_UP = "up"

        def __init__(self, id, mode=None, pull=None, value=None):
            self.id = id
            self.v = 1

        def init(self, mode=None, pull=None, value=None):
            pass

        def value(self, v=None):
            if v is None:
                return self.v
            self.v = v
            return None

    class Mem32:
        def __getitem__(self, addr):
            return 0x3FFFFFF0        # GPIO 4..29 high: no switch closed on the columns

    class SPI:
        MSB = 0

        def __init__(self, *a, **kw):
            pass

        def readinto(self, buf, write=0):
            for i in range(len(buf)):
                buf[i] = 0xFE

    class ADC:
        def __init__(self, pin):
            pass

        def read_u16(self):
            return 30000

    class M:
        pass

    m = M()
    m.Pin = Pin
    m.SPI = SPI
    m.ADC = ADC
    m.mem32 = Mem32()
    mod.machine = m

    class NeoPixel:
        def __init__(self, pin, n, bpp=3):
            self.buf = bytearray(n * bpp)

        def write(self):
            pass

    np = M()
    np.NeoPixel = NeoPixel
    mod.neopixel = np

    class T:
        @staticmethod
        def sleep_us(us):
            pass

    mod.time = T()
    mod.rp2 = None
    return mod
