"""The simulated hall board: analog hall sensors under the points, as ``pico-hall``'s
DRV5053s read through the ADC, so that the simulator calibrates as a hall board does
(board ``sim-hall``; docs/build.md, step 8: ``playboard calibrate``).

Each sensor has its own zero-field output, fixed by its index inside the datasheet's
0.90-1.15 V window (as parts differ), a few counts of noise, and a piece's magnet
moves it by ``FIELD`` counts: up for White (or a stylus), down for Black; a sensor
mounted upside down (:meth:`FaultyBoard.invert`) moves the other way. The readings
become empty / White / Black through the board's own calibration
(:class:`playboard.hw.hallzero.HallZero`), so an uncalibrated board starts with the
guided calibration, and a sensor whose zero is out of the window (``offset``) is
refused by it, as on the board.

>>> b = SimHallBoard(64, 58, {"threshold": 2500, "polarity": 1, "calibration": "cal.json"})
>>> b.set_sensor(3, 1); buf = bytearray(64); b.read(buf); buf[3]
1
"""
from array import array

from playboard.hw.hallzero import HallZero
from playboard.sim.faults import FaultyBoard

FIELD = 9000    # a piece's magnet at the sensor, read_u16 counts (about 0.45 V)
NOISE = 24      # peak-to-peak noise, counts


class SimHallBoard(HallZero, FaultyBoard):
    """A :class:`playboard.sim.faults.FaultyBoard` whose sensors are analog hall
    sensors: ``sensors`` are the pieces (0 none, 1 White, 2 Black), ``last`` the raw
    readings of the last frame, ``true_zero`` each sensor's own zero-field output
    (read_u16 units). ``s``: the board definition's ``sensor`` object (``threshold``,
    ``polarity``, ``calibration`` as ``hall_mux``'s)."""

    kind = "sim_hall"

    def __init__(self, n_sensors, n_leds, s, order="GRB", script_len=64):
        FaultyBoard.__init__(self, n_sensors, n_leds, order, script_len)
        self.true_zero = array("H", [18600 + (i * 2654435761 >> 7) % 3400 for i in range(n_sensors)])
        self._pieces = bytearray(n_sensors)
        self._noise = 12345
        self.init_zero(s)

    @classmethod
    def from_config(cls, cfg):
        """Build from a validated board definition (``sensor.kind`` ``sim_hall``)."""
        leds = cfg["leds"]
        return cls(cfg["n_sensors"], leds["count"], cfg["sensor"], leds.get("order", "GRB"))

    def offset(self, i, zero):
        """Give sensor i the zero-field output ``zero`` (read_u16 counts): out of the
        window 17873-22838 a faulty part or a short (0: a dead sensor at the rail)."""
        self.true_zero[i] = zero

    def read(self, buf):
        """buf[i] = 0 empty, 1 White, 2 Black through the calibration; raw readings in
        ``last`` (pieces through the faulty wiring, a forced input reads its value's field)."""
        p = self._pieces
        FaultyBoard.read(self, p)
        zero = self.zero
        thr = self.threshold
        pol = self.polarity
        tz = self.true_zero
        last = self.last
        r = self._noise
        for i in range(self.n_sensors):
            r = (r * 1103515245 + 12345) & 0x3FFFFFFF
            z = tz[i]
            v = z + (r >> 8) % NOISE - NOISE // 2 if z else 0
            if v and p[i]:
                v += FIELD if p[i] == 1 else -FIELD
            last[i] = v if v > 0 else 0
            d = v - zero[i]
            if pol[i] != 1:
                d = -d
            t = thr[i]
            buf[i] = 1 if d > t else (2 if d < -t else 0)
        self._noise = r
