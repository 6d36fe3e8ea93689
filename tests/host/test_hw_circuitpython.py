"""The CircuitPython backend under CPython, with fake ``keypad``/``microcontroller``/``board``/
``digitalio``/``neopixel_write`` modules in sys.modules: the right pins, key numbers
mapped to sensors, and the bytes that reach the strip through CircuitPython's built-in
``neopixel_write`` (the backend needs no Adafruit ``neopixel.py`` on the drive).

:class:`TrueKeyMatrix` scans switches as CircuitPython 10.2.1's ``keypad`` does
(its documentation and ``shared-module/keypad``): it reports changes only, a key
already down when the scanner is made is no change (its first scan takes the keys
as they are, silently: only ``reset()`` assumes all released and reports the keys
down as presses), and a full queue drops the new event and sets ``overflowed``."""
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


class TrueQueue:
    """keypad.EventQueue as CircuitPython 10.2.1 keeps it: at most ``max_events``
    (key, pressed) pairs; one more is dropped and sets ``overflowed``."""

    def __init__(self, max_events):
        self.max_events = max_events
        self.items = []
        self.overflowed = False

    def record(self, key, pressed):
        if len(self.items) >= self.max_events:
            self.overflowed = True
        else:
            self.items.append((key, pressed))

    get_into = EventQueue.get_into
    clear = EventQueue.clear


class TrueKeyMatrix:
    """keypad.KeyMatrix over the fake matrix (``DigitalInOut.closed``: (row pin, column
    pin) pairs; key = row * n_cols + col). Made, it scans once and reports nothing (the
    keys down then are taken as they are); :meth:`scan` is one background scan (every
    ``interval`` on the board): an event for each key that changed; :meth:`reset`
    assumes every key released and scans at once (as ``keypad_scan_now`` does)."""

    made = []

    def __init__(self, row_pins, column_pins, columns_to_anodes=True, interval=0.02,
                 max_events=64, debounce_threshold=1):
        assert columns_to_anodes is True  # rows driven low, columns pulled up
        self.kw = dict(row_pins=row_pins, column_pins=column_pins, interval=interval,
                       max_events=max_events)
        self.pairs = [(r.n, c.n) for r in row_pins for c in column_pins]
        self.key_count = len(self.pairs)
        self.events = TrueQueue(max_events)
        self.down = [self._down(k) for k in range(self.key_count)]
        self.resets = 0
        TrueKeyMatrix.made.append(self)

    def _down(self, k):
        import digitalio
        return self.pairs[k] in digitalio.DigitalInOut.closed

    def scan(self):
        for k in range(self.key_count):
            now = self._down(k)
            if now != self.down[k]:
                self.down[k] = now
                self.events.record(k, now)

    def reset(self):
        self.resets += 1
        self.down = [False] * self.key_count
        self.scan()

    def deinit(self):
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
    assert sk.resets == 1 and sk.kw["max_events"] >= 64  # (the keys down at start reported)
    # key 0 is the first bit out: chip 0 input H = sensor 7; key 15: chip 1 input A = 8
    sk.events.items = [(0, True), (15, True), (56, True)]
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [7, 8, 63]


def _true_matrix(cp, closed):
    """pico-matrix-cp opened over TrueKeyMatrix with ``closed`` (row, col) switches down
    before it starts: (board, its scanner, the fake digitalio class, rows, cols)."""
    cp[0].KeyMatrix = TrueKeyMatrix
    TrueKeyMatrix.made = []
    cfg = load_board("pico-matrix-cp")
    rows, cols = cfg["sensor"]["rows"], cfg["sensor"]["cols"]
    dio = cp[3].DigitalInOut
    dio.closed = {(rows[r], cols[c]) for r, c in closed}
    b = open_cp(cfg, cp)
    return b, TrueKeyMatrix.made[0], dio, rows, cols


def _on(buf):
    return [i for i in range(len(buf)) if buf[i]]


def test_keys_down_at_start_are_read(cp):
    """The pieces on the board when it starts (Toguz Kumalak's balls in their pits) are
    switches already closed when the scanner is made: keypad reports only changes, so
    the board must ask for them (``reset()``) or it reads an empty board until each
    is lifted and put back."""
    b, km, dio, rows, cols = _true_matrix(cp, [(0, 0), (1, 7), (7, 3)])
    buf = bytearray(64)
    b.read(buf)
    assert _on(buf) == [0, 15, 59]
    km.scan()                       # nothing changed: the state holds
    b.read(buf)
    assert _on(buf) == [0, 15, 59]
    dio.closed.discard((rows[1], cols[7]))   # a lift, then a piece put on an empty square
    dio.closed.add((rows[2], cols[2]))
    km.scan()
    b.read(buf)
    assert _on(buf) == [0, 18, 59]
    assert not km.events.overflowed and km.events.items == []


def test_a_full_event_queue_loses_no_piece(cp):
    """More changes between two reads than keypad's queue holds (a frame held up while
    40 pieces are lifted and put back): the queue drops the rest and says so; the read
    after that gives the board as it is now, in that same read, no frame of an empty
    board between."""
    down = [(r, c) for r in range(5) for c in range(8)]  # sensors 0..39
    b, km, dio, rows, cols = _true_matrix(cp, down)
    assert km.kw["max_events"] >= km.key_count  # (a reset's re-report always fits)
    buf = bytearray(64)
    b.read(buf)
    assert _on(buf) == list(range(40))
    resets = km.resets
    dio.closed.clear()
    km.scan()                                  # 40 releases
    dio.closed.update((rows[r], cols[c]) for r, c in down if (r, c) != (0, 3))
    dio.closed.add((rows[7], cols[4]))
    km.scan()                                  # 40 presses more: past the queue's 64
    assert km.events.overflowed
    b.read(buf)
    assert _on(buf) == [i for i in range(40) if i != 3] + [60]
    assert km.resets == resets + 1 and not km.events.overflowed and km.events.items == []
    km.scan()
    b.read(buf)
    assert _on(buf) == [i for i in range(40) if i != 3] + [60]


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
