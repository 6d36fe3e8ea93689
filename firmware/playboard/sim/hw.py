"""The simulated board: sensors set by a script, a test or the simulator; LEDs read back.

>>> b = SimBoard(64, 58)
>>> b.set_sensor(3, 1)          # a piece on sensor 3
>>> b.schedule(100, 3, 0)       # lifted at t = 100 ms (applied by b.tick(now_ms))
>>> b.set_led(0, 255, 0, 0); b.show(); b.shown_led(0)
(255, 0, 0)

``sensors`` is the live bytearray (write it directly if you like); ``force(i, v)``
makes a sensor read ``v`` whatever is set (a stuck or broken contact), ``release(i)``
undoes it. ``shown`` holds the RGB colours of the last ``show()``, ``wire`` the bytes
as a real strip of that ``order`` would have received them, ``shows`` counts calls.
"""
from playboard.hw.base import ADAPTER, USB, Board, ORDERS, reorder

_NONE = 255


class SimBoard(Board):
    """A board in memory: ``n_sensors`` raw sensors, ``n_leds`` LEDs in byte ``order``."""

    kind = "sim"

    def __init__(self, n_sensors, n_leds, order="GRB", script_len=64):
        Board.__init__(self, n_sensors, n_leds)
        if order not in ORDERS:
            raise ValueError("unknown LED order %r" % (order,))
        self.order = ORDERS[order]
        self.sensors = bytearray(n_sensors)
        self._forced = bytearray(n_sensors)  # 0 = not forced, else value + 1
        self._n_forced = 0
        self.shown = bytearray(3 * n_leds)
        self.wire = bytearray(3 * n_leds)
        self.shows = 0
        self.reads = 0
        # the script: (time ms, sensor, value) events, applied in time order by tick()
        self._times = [0] * script_len
        self._events = bytearray(2 * script_len)
        self._n_script = 0
        self.power = ADAPTER   # the source the board reads (set_source; the simulator's "power")

    @classmethod
    def from_config(cls, cfg):
        """Build from a validated board definition (playboard.config)."""
        leds = cfg["leds"]
        return cls(cfg["n_sensors"], leds["count"], leds.get("order", "GRB"))

    def set_source(self, source):
        """Power the board from ``source``: ADAPTER (0; the adapter, with USB or not)
        or USB (1; USB alone); ValueError for anything else."""
        if source not in (ADAPTER, USB):
            raise ValueError("source must be %d (adapter) or %d (usb), got %r"
                             % (ADAPTER, USB, source))
        self.power = source

    def source(self):
        """The source set by set_source (ADAPTER at start)."""
        return self.power

    def set_sensor(self, i, value):
        """Set sensor i's raw value (0 empty, 1 occupied / White, 2 Black)."""
        if not 0 <= i < self.n_sensors:
            raise IndexError("sensor %r out of range 0..%d" % (i, self.n_sensors - 1))
        self.sensors[i] = value

    def set_all(self, values):
        """Set every sensor from a sequence of n_sensors values."""
        if len(values) != self.n_sensors:
            raise ValueError("need %d values, got %d" % (self.n_sensors, len(values)))
        for i in range(self.n_sensors):
            self.sensors[i] = values[i]

    def force(self, i, value):
        """Make sensor i read ``value`` regardless of set_sensor (a stuck contact)."""
        if not self._forced[i]:
            self._n_forced += 1
        self._forced[i] = value + 1

    def release(self, i):
        """Undo force(i)."""
        if self._forced[i]:
            self._n_forced -= 1
        self._forced[i] = 0

    def schedule(self, t_ms, i, value):
        """Queue ``set_sensor(i, value)`` for the first tick(now_ms) with now_ms >= t_ms.

        Events keep their order; IndexError when the script (script_len) is full.
        """
        k = self._n_script
        if k >= len(self._times):
            raise IndexError("sim script full (%d events)" % k)
        self._times[k] = t_ms
        self._events[2 * k] = i
        self._events[2 * k + 1] = value
        self._n_script = k + 1

    def bounce(self, t_ms, i, final, flips=4, step_ms=2):
        """Schedule a bouncing contact at t_ms: ``flips`` toggles ``step_ms`` apart, then ``final``."""
        v = 1 - final if final <= 1 else 0
        for k in range(flips):
            self.schedule(t_ms + k * step_ms, i, final if k % 2 == 0 else v)
        self.schedule(t_ms + flips * step_ms, i, final)

    def tick(self, now_ms):
        """Apply every scheduled event due at now_ms; return how many were applied."""
        n = self._n_script
        k = 0
        while k < n and self._times[k] <= now_ms:
            self.sensors[self._events[2 * k]] = self._events[2 * k + 1]
            k += 1
        if k:
            # shift the rest down (rare; no allocation)
            for j in range(k, n):
                self._times[j - k] = self._times[j]
                self._events[2 * (j - k)] = self._events[2 * j]
                self._events[2 * (j - k) + 1] = self._events[2 * j + 1]
            self._n_script = n - k
        return k

    def pending(self):
        """Number of scheduled events not yet applied."""
        return self._n_script

    def read(self, buf):
        """Fill buf[0:n_sensors] with the sensors (forced ones read their forced value)."""
        s = self.sensors
        self.reads += 1
        if not self._n_forced:
            buf[0:self.n_sensors] = s      # a slice copy: no allocation
            return
        f = self._forced
        for i in range(self.n_sensors):
            v = f[i]
            buf[i] = s[i] if v == 0 else v - 1

    def show(self):
        """Latch the LED buffer: ``shown`` (RGB) and ``wire`` (strip order) are updated."""
        self.shown[:] = self.leds
        reorder(self.leds, self.wire, self.order, self.n_leds)
        self.shows += 1

    def shown_led(self, i):
        """(r, g, b) of LED i as last shown."""
        j = 3 * i
        return (self.shown[j], self.shown[j + 1], self.shown[j + 2])

    def lit(self):
        """List of indices of LEDs that were not black at the last show()."""
        s = self.shown
        return [i for i in range(self.n_leds) if s[3 * i] or s[3 * i + 1] or s[3 * i + 2]]
