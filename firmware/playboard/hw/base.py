"""Hardware backends: raw sensor values in, LED colours out. Nothing here knows a game.

Every backend is a subclass of :class:`Board` with the same small interface:

- ``n_sensors`` / ``n_leds``: counts fixed at construction.
- ``read(buf)``: fill ``buf[0:n_sensors]`` (a preallocated ``bytearray``) with the
  raw value of each sensor: 0 empty, 1 occupied (for hall sensors 1 = White piece,
  2 = Black piece). Allocates nothing; call it once per scan frame.
- ``leds``: a ``bytearray(3 * n_leds)`` of colours in R, G, B order that callers
  write (``set_led(i, r, g, b)``, ``fill(r, g, b)`` or directly);
  ``show()`` sends it to the LEDs in the strip's own byte order. Allocates nothing.
- ``close()``: release pins (optional).
- ``source()``: which source powers the board, :data:`ADAPTER` or :data:`USB` (a board
  file's ``leds.supply`` "sense": the firmware caps the LEDs by it; a backend that
  cannot tell says ADAPTER).

Backends: ``rp2`` (MicroPython on RP2040, :mod:`playboard.hw.rp2`),
``circuitpython`` (:mod:`playboard.hw.circuitpython`) and, for the simulated board
only, ``sim`` (:mod:`playboard.sim.hw`). :func:`playboard.hw.open.open_board` builds
the one a validated board definition (:mod:`playboard.config`) asks for.
"""

EMPTY = 0
WHITE = 1
BLACK = 2

# The board's power source (Board.source): the adapter in the DC jack, or USB alone
ADAPTER = 0
USB = 1

# Byte order names for LED strips: index of R, G, B inside each pixel's 3 bytes.
ORDERS = {"RGB": (0, 1, 2), "GRB": (1, 0, 2), "BRG": (1, 2, 0), "RBG": (0, 2, 1),
          "GBR": (2, 0, 1), "BGR": (2, 1, 0)}


class Board:
    """Base of every hardware backend: holds the LED colour buffer.

    ``n_sensors`` (int, 1..255) and ``n_leds`` (int, 0..1024) are fixed here;
    ``ValueError`` for counts outside those ranges.
    """

    kind = "base"

    def __init__(self, n_sensors, n_leds):
        if not 0 < n_sensors <= 255:
            raise ValueError("n_sensors must be 1..255, got %r" % (n_sensors,))
        if not 0 <= n_leds <= 1024:
            raise ValueError("n_leds must be 0..1024, got %r" % (n_leds,))
        self.n_sensors = n_sensors
        self.n_leds = n_leds
        self.leds = bytearray(3 * n_leds)

    def read(self, buf):
        """Fill buf[0:n_sensors] with raw sensor values (0 empty, 1/2 occupied)."""
        raise NotImplementedError

    def show(self):
        """Send ``self.leds`` (R, G, B per LED) to the LED chain."""
        raise NotImplementedError

    def set_led(self, i, r, g, b):
        """Set LED i (0-based) to r, g, b (0..255 each); shown at the next show()."""
        j = 3 * i
        leds = self.leds
        leds[j] = r
        leds[j + 1] = g
        leds[j + 2] = b

    def led(self, i):
        """Colour (r, g, b) of LED i in the buffer (allocates a tuple: not for the loop)."""
        j = 3 * i
        return (self.leds[j], self.leds[j + 1], self.leds[j + 2])

    def fill(self, r, g, b):
        """Set every LED to one colour."""
        leds = self.leds
        for j in range(0, len(leds), 3):
            leds[j] = r
            leds[j + 1] = g
            leds[j + 2] = b

    def source(self):
        """The power source, ADAPTER or USB: ADAPTER here (a backend that can read the
        supply says which; playboard.hw.rp2 reads the Pico's VBUS sense)."""
        return ADAPTER

    def close(self):
        """Release the hardware (turns LEDs off where it can)."""


def reorder(src, dst, order, n):
    """Copy n RGB pixels from ``src`` into ``dst`` in byte ``order`` (a tuple from ORDERS).

    No allocation; ``dst`` needs 3 * n bytes.
    """
    ir = order[0]
    ig = order[1]
    ib = order[2]
    j = 0
    for _ in range(n):
        dst[j + ir] = src[j]
        dst[j + ig] = src[j + 1]
        dst[j + ib] = src[j + 2]
        j += 3
