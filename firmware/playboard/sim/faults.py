"""The simulated board with the wiring faults a builder can make, for the guided test
(playboard.hw.guided): crossed sensor wires, an upside-down hall sensor, a dead LED
colour. A module of its own so that the plain simulated board stays as small as it was.

>>> b = FaultyBoard(64, 58)
>>> b.swap(17, 18)      # a piece on point 17 reads as sensor 18 and one on 18 as 17
>>> b.invert(5)         # sensor 5 upside down: a White piece reads Black
>>> b.kill(12, 1)       # LED 12's green never lights
"""
from array import array

from playboard.sim.hw import SimBoard


class FaultyBoard(SimBoard):
    """A :class:`playboard.sim.hw.SimBoard` whose ``sensors`` are the points (where the
    pieces are) and whose ``read`` goes through the faulty wiring; ``shown`` what the
    LEDs really show."""

    def __init__(self, n_sensors, n_leds, order="GRB", script_len=64):
        SimBoard.__init__(self, n_sensors, n_leds, order, script_len)
        self._wire = array("H", range(n_sensors))  # the point wired to each input
        self._inverted = bytearray(n_sensors)
        self._dark = bytearray(n_leds)             # bit c: channel c never lights

    def swap(self, a, b):
        """Cross sensors a and b's wires: a piece on a reads as b and one on b as a."""
        w = self._wire
        w[a], w[b] = w[b], w[a]

    def invert(self, i):
        """Mount sensor i upside down (a hall sensor): White reads Black and back."""
        self._inverted[i] = 1

    def kill(self, led, channel):
        """Leave channel ``channel`` (0 r, 1 g, 2 b) of LED ``led`` dark whatever is sent."""
        self._dark[led] |= 1 << channel

    def read(self, buf):
        """Fill buf[0:n_sensors]: input i reads the point wired to it (forced ones read
        their forced value, an inverted sensor swaps White and Black)."""
        s = self.sensors
        f = self._forced
        w = self._wire
        inv = self._inverted
        self.reads += 1
        for i in range(self.n_sensors):
            p = w[i]
            v = s[p]
            if v and inv[p]:
                v = 3 - v
            buf[i] = v if f[i] == 0 else f[i] - 1

    def show(self):
        """Latch the LED buffer; ``shown`` without the dead channels."""
        SimBoard.show(self)
        d = self._dark
        for i in range(self.n_leds):
            if d[i]:
                for c in range(3):
                    if d[i] & (1 << c):
                        self.shown[3 * i + c] = 0
