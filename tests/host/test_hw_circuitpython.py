"""The CircuitPython backend under CPython, with fake ``keypad``/``microcontroller``/``board``/
``digitalio``/``neopixel_write`` modules in sys.modules: the right pins, key numbers
mapped to sensors, and the bytes that reach the strip through CircuitPython's built-in
``neopixel_write`` (the backend needs no Adafruit ``neopixel.py`` on the drive)."""
import sys
import types

import pytest

from playboard.config import load_board, validate_board


class FakePin:
    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return "GPIO%d" % self.n


class Event:
    def __init__(self, key_number=0, pressed=True):
        self.key_number = key_number
        self.pressed = pressed


class EventQueue:
    def __init__(self):
        self.items = []
        self.overflowed = False

    def get_into(self, ev):
        if not self.items:
            return False
        k, p = self.items.pop(0)
        ev.key_number = k
        ev.pressed = p
        return True

    def clear(self):
        self.items = []
        self.overflowed = False


class Scanner:
    made = []

    def __init__(self, **kw):
        self.kw = kw
        self.events = EventQueue()
        self.resets = 0
        Scanner.made.append(self)

    def reset(self):
        self.resets += 1

    def deinit(self):
        pass


class KeyMatrix(Scanner):
    pass


class ShiftRegisterKeys(Scanner):
    pass


@pytest.fixture
def cp(monkeypatch):
    """Install the fake CircuitPython modules; yield (keypad, neopixel_write, microcontroller,
    digitalio, writes)."""
    writes = []
    keypad = types.ModuleType("keypad")
    keypad.KeyMatrix = KeyMatrix
    keypad.ShiftRegisterKeys = ShiftRegisterKeys
    keypad.Event = Event
    mc = types.ModuleType("microcontroller")
    mc.pin = types.SimpleNamespace(**{"GPIO%d" % i: FakePin(i) for i in range(30)})
    mc.Pin = FakePin
    board = types.ModuleType("board")
    digitalio = types.ModuleType("digitalio")

    class DigitalInOut:
        """A pin of a diode matrix: a column reads low where a row driven low meets a
        switch in ``DigitalInOut.closed`` ((row pin, column pin) pairs)."""
        closed = set()
        low = set()  # row pins driven low now

        def __init__(self, pin):
            self.pin = pin
            self.direction = None
            self.switches = 0

        def switch_to_output(self, value=False):
            assert value is False
            DigitalInOut.low.add(self.pin.n)
            self.switches += 1

        def switch_to_input(self, pull=None):
            assert pull == "up"
            DigitalInOut.low.discard(self.pin.n)

        @property
        def value(self):
            return not any((r, self.pin.n) in DigitalInOut.closed for r in DigitalInOut.low)

        def deinit(self):
            pass

    digitalio.DigitalInOut = DigitalInOut
    digitalio.Direction = types.SimpleNamespace(OUTPUT="out", INPUT="in")
    digitalio.Pull = types.SimpleNamespace(UP="up", DOWN="down")
    nw = types.ModuleType("neopixel_write")

    def neopixel_write(dio, buf):
        assert dio.direction == "out"
        writes.append((dio.pin.n, bytes(buf)))

    nw.neopixel_write = neopixel_write
    for name, mod in (("keypad", keypad), ("microcontroller", mc), ("board", board),
                      ("digitalio", digitalio), ("neopixel_write", nw)):
        monkeypatch.setitem(sys.modules, name, mod)
    Scanner.made = []
    yield keypad, nw, mc, digitalio, writes


def open_cp(cfg, cp):
    import playboard.hw.circuitpython as mod
    from playboard.hw.open import open_board
    mod.keypad, mod.neopixel_write, mod.microcontroller, mod.digitalio, _ = cp
    return open_board(cfg)


def test_key_matrix_pins_and_events(cp):
    cfg = load_board("feather-matrix-cp")
    b = open_cp(cfg, cp)
    km = Scanner.made[0]
    assert isinstance(km, KeyMatrix)
    assert [p.n for p in km.kw["row_pins"]] == cfg["sensor"]["rows"]
    assert [p.n for p in km.kw["column_pins"]] == cfg["sensor"]["cols"]
    assert km.kw["columns_to_anodes"] is True
    km.events.items = [(0, True), (9, True), (63, True), (9, False)]
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [0, 63]
    b.read(buf)                     # state holds without new events
    assert [i for i in range(64) if buf[i]] == [0, 63]


def test_event_overflow_resets_the_scanner(cp):
    b = open_cp(load_board("feather-matrix-cp"), cp)
    km = Scanner.made[0]
    km.events.items = [(5, True)]
    buf = bytearray(64)
    b.read(buf)
    km.events.overflowed = True
    km.events.items = [(6, True)]   # lost: the scanner re-reports from scratch
    b.read(buf)
    assert km.resets == 1 and sum(buf) == 0


def test_shift_register_keys_map_to_sensor_numbers(cp):
    cfg = validate_board({
        "name": "cp165", "backend": "circuitpython", "module": "rp2040", "n_sensors": 64,
        "sensor": {"kind": "shift_register", "chain": 8, "load": 13, "clk": 14, "data": 12},
        "leds": {"pin": 22, "count": 58}})
    b = open_cp(cfg, cp)
    sk = Scanner.made[0]
    assert isinstance(sk, ShiftRegisterKeys)
    assert (sk.kw["clock"].n, sk.kw["data"].n, sk.kw["latch"].n) == (14, 12, 13)
    assert sk.kw["key_count"] == 64 and sk.kw["value_when_pressed"] is False
    # key 0 is the first bit out: chip 0 input H = sensor 7; key 15: chip 1 input A = 8
    sk.events.items = [(0, True), (15, True), (56, True)]
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [7, 8, 63]


def test_neopixel_bytes(cp):
    writes = cp[4]
    b = open_cp(load_board("feather-matrix-cp"), cp)
    b.set_led(0, 10, 20, 30)
    b.set_led(57, 255, 128, 1)
    b.show()
    assert len(writes) == 1
    pin, data = writes[0]
    assert pin == 28 and len(data) == 58 * 3
    assert data[:3] == bytes([20, 10, 30])          # GRB on the wire
    assert data[-3:] == bytes([128, 255, 1])
    assert data[3:-3] == bytes(56 * 3)


def test_row_scan_reads_the_matrix_through_digitalio(cp):
    """``sensor.reader: "scan"``: no keypad scanner; each row driven low in turn, a closed
    switch read as its sensor (row * n_cols + col), every row let go after its read."""
    cfg = load_board("feather-matrix-cp")
    cfg["sensor"]["reader"] = "scan"
    dio = cp[3].DigitalInOut
    rows, cols = cfg["sensor"]["rows"], cfg["sensor"]["cols"]
    dio.closed = {(rows[0], cols[0]), (rows[1], cols[7]), (rows[7], cols[3])}
    b = open_cp(cfg, cp)
    assert Scanner.made == []
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [0, 15, 59]
    assert dio.low == set()
    dio.closed = set()
    b.read(buf)
    assert sum(buf) == 0


def test_config_refuses_an_unknown_matrix_reader():
    cfg = load_board("feather-matrix-cp")
    cfg["sensor"]["reader"] = "bitbang"
    # (the class by name: the app's start-up drops playboard.config from sys.modules, so
    # after another test a fresh import's ConfigError is not validate_board's)
    with pytest.raises(Exception, match="sensor.reader: 'bitbang' not keypad or scan") as e:
        validate_board(cfg)
    assert type(e.value).__name__ == "ConfigError"
