"""The CircuitPython backend (RP2040 boards under CircuitPython): ``keypad`` scanning, ``neopixel_write``.

- ``sensor.kind: matrix`` -> ``keypad.KeyMatrix`` (diode anodes on the columns,
  ``columns_to_anodes=True``); key number = row * n_cols + col = our sensor index.
- ``sensor.kind: shift_register`` -> ``keypad.ShiftRegisterKeys`` on a 74HC165
  chain; keypad numbers keys in the order the bits come out (chip 0's input H
  first), so key k is our sensor 8 * (k // 8) + 7 - k % 8 (input A = 0, as the rp2
  backend).

``read(buf)`` drains the key events into a state bytearray with one preallocated
``keypad.Event`` (no allocation). keypad reports changes only: the scanner is reset
once made, so that the keys already down (the pieces on the board at power-up) come
as presses; on an event-queue overflow (its ``max_events``, at least the key count,
full: keypad drops the newer events) the queue is emptied and the scanner reset,
which re-reports every key down at once, within the same read. LEDs: CircuitPython's built-in ``neopixel_write``
on a ``digitalio`` output, from one preallocated bytearray in the strip's byte order
(no Adafruit ``neopixel.py`` to compile into the heap; our Lights layer does
brightness and the current cap).

The modules ``keypad``, ``microcontroller``, ``digitalio`` and ``neopixel_write`` are
this module's globals, imported at load (type-checked against circuitpython-stubs);
off the board they are None and tests assign fakes to them.
:func:`watchdog` is the board's watchdog (``microcontroller.watchdog``).
"""
from playboard.hw.base import Board, ORDERS, reorder

try:
    import digitalio
    import keypad
    import microcontroller
    import neopixel_write
except ImportError:  # not under CircuitPython: tests put fakes here
    digitalio = keypad = microcontroller = neopixel_write = None  # type: ignore[assignment]


def _pin(n):
    try:
        # microcontroller.pin (GPIO0..GPIO29 on every RP2040 build) is missing from
        # circuitpython-stubs, hence getattr
        return getattr(getattr(microcontroller, "pin"), "GPIO%d" % n)
    except AttributeError:
        raise ValueError("this board has no GPIO%d" % n)


class CircuitPythonBoard(Board):
    """Sensors through ``keypad``, LEDs through ``neopixel_write`` (see the module docstring)."""

    kind = "circuitpython"

    def __init__(self, cfg):
        if keypad is None or neopixel_write is None or microcontroller is None or digitalio is None:
            raise ValueError("circuitpython backend: keypad/neopixel_write/microcontroller/digitalio not available")
        Board.__init__(self, cfg["n_sensors"], cfg["leds"]["count"])
        s = cfg["sensor"]
        n = self.n_sensors
        kind = s["kind"]
        self._scan = None  # type: RowScan | None
        self._keys = None  # type: keypad.KeyMatrix | keypad.ShiftRegisterKeys | None
        if kind == "matrix":
            rows = [_pin(p) for p in s["rows"]]
            cols = [_pin(p) for p in s["cols"]]
            n_keys = len(rows) * len(cols)
            self._map = bytearray(range(n_keys))
            if s.get("reader") == "scan":
                self._scan = RowScan(rows, cols)
            else:
                self._keys = keypad.KeyMatrix(
                    row_pins=rows, column_pins=cols, columns_to_anodes=True, interval=0.005,
                    max_events=max(64, n_keys))
        elif kind == "shift_register":
            n_keys = 8 * s["chain"]
            self._keys = keypad.ShiftRegisterKeys(
                clock=_pin(s["clk"]), data=_pin(s["data"]),
                latch=_pin(s["load"]), value_to_latch=True, key_count=n_keys,
                value_when_pressed=not s["active_low"], interval=0.005,
                max_events=max(64, n_keys))
            self._map = bytearray(8 * (k // 8) + 7 - k % 8 for k in range(n_keys))
        else:
            raise ValueError("circuitpython backend: no reader for sensor kind %r" % (kind,))
        if self._keys is not None:
            # keypad reports changes only, and its first scan (when made) takes the keys
            # down as they are: the pieces already on the board would never be seen.
            # reset() assumes all released and scans at once: a press event each.
            self._keys.reset()
        self._event = keypad.Event()
        self._state = bytearray(n)
        self._pin = None
        if self.n_leds:
            leds = cfg["leds"]
            self._pin = digitalio.DigitalInOut(_pin(leds["pin"]))
            self._pin.direction = digitalio.Direction.OUTPUT
            self._order = ORDERS[leds["order"]]
            self._wire = bytearray(3 * self.n_leds)

    def read(self, buf):
        """Apply pending key events; buf[i] = 1 for each pressed (occupied) sensor."""
        keys = self._keys
        if keys is None:
            if self._scan is not None:
                self._scan.read(buf, self.n_sensors)
            return
        q = keys.events
        ev = self._event
        st = self._state
        n = self.n_sensors
        if q.overflowed:
            q.clear()
            for i in range(n):
                st[i] = 0
            keys.reset()
        while q.get_into(ev):
            i = self._map[ev.key_number]
            if i < n:
                st[i] = 1 if ev.pressed else 0
        for i in range(n):
            buf[i] = st[i]

    def show(self):
        """Write ``leds`` to the strip (reordered into its byte order; no allocation)."""
        if self._pin is None:
            return
        reorder(self.leds, self._wire, self._order, self.n_leds)
        neopixel_write.neopixel_write(self._pin, self._wire)

    def close(self):
        """Stop scanning and turn the LEDs off."""
        if self._keys is not None:
            self._keys.deinit()
        if self._scan is not None:
            self._scan.deinit()
        if self._pin is not None:
            self.fill(0, 0, 0)
            self.show()
            self._pin.deinit()
            self._pin = None


class RowScan:
    """A diode matrix read by Python, row by row (``sensor.reader: "scan"``): each row
    driven low in turn through ``digitalio``, the columns read (pulled up; low = a
    closed switch), the row let go again. About 2 ms a frame for 8 x 8, where
    ``keypad``'s background scanning costs none; kept for where keypad cannot run (the
    emulated Pico's tests chose it before rp2040js's masked sleep was fixed there:
    docs/pico.md). ``rows``, ``cols``: pins."""

    def __init__(self, rows, cols):
        self._up = digitalio.Pull.UP
        self._rows = [digitalio.DigitalInOut(p) for p in rows]
        self._cols = [digitalio.DigitalInOut(p) for p in cols]
        for d in self._rows + self._cols:
            d.switch_to_input(pull=self._up)

    def read(self, buf, n):
        """buf[row * n_cols + col] = 1 where that switch is closed (the first n)."""
        up = self._up
        k = 0
        for r in self._rows:
            r.switch_to_output(value=False)
            for c in self._cols:
                if k < n:
                    buf[k] = 0 if c.value else 1
                k += 1
            r.switch_to_input(pull=up)

    def deinit(self):
        for d in self._rows + self._cols:
            d.deinit()


def open_circuitpython(cfg):
    """Build the CircuitPython backend for a validated board definition."""
    return CircuitPythonBoard(cfg)


def watchdog(timeout_s):
    """Start the chip's watchdog (``microcontroller.watchdog``, reset mode) with
    ``timeout_s`` seconds (float; at most 8.3 on the RP2040) and return it: an object
    with ``feed()``, as ``machine.WDT``. ValueError if it cannot be started."""
    from watchdog import WatchDogMode
    w = microcontroller.watchdog
    if w is None:
        raise ValueError("this board has no watchdog")
    w.timeout = timeout_s
    w.mode = WatchDogMode.RESET
    w.feed()
    return w


def stop_watchdog():
    """Stop the chip's watchdog (Ctrl-C: the REPL must be safe): its mode set to None
    (CircuitPython's way; its ``deinit`` is absent on the RP2040)."""
    w = microcontroller.watchdog
    if w is not None:
        w.mode = None
