"""A person's hands on a ``SimBoard``, in time (issue 10's human timing, for the host
tests that would otherwise press and clear sensors in the same instant): contact
bounce on every change, a piece or a press held a human time, replies 0-3 s after
the last move. The timings are bench/humanlib.py's, written once there; this module
only applies them to a board. Seeded (``Hands(board, seed)``): a test replays.
"""
import os
import random
import sys

_BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)

import humanlib  # noqa: E402 - bench/humanlib.py: the one place the timings are written

HOLD_MS = (150, 600)  # a piece or a pad held: bench/py_play.py's and the fault tests'


class Hands:
    """``b``'s sensors changed by a person: ``put`` / ``lift`` (one change with its contact
    bounce), ``press`` (on, held, off), ``reply`` (the wait before a reply). Each
    returns the board ms it took. ``rng`` is seeded from ``seed`` (int)."""

    def __init__(self, b, seed=0):
        self.b = b
        self.rng = random.Random(seed)

    def set(self, sensor, value):
        """``sensor`` to ``value`` (0/1) with 0-3 contact bounces of 1-5 ms each before it
        (humanlib.bounced), the board's clock moved through them; ms taken."""
        acts, t_end = humanlib.bounced(self.rng, 0, sensor, value)
        t = 0
        for ta, s, v in acts:
            if ta > t:
                self.b.advance(ta - t)
                t = ta
            self.b.set_sensor(s, v)
        return t_end

    def put(self, sensor):
        """A piece put on ``sensor`` (or a pad pressed): it reads 1, bouncing first."""
        return self.set(sensor, 1)

    def lift(self, sensor):
        """The piece on ``sensor`` lifted (or the pad let go): it reads 0, bouncing first."""
        return self.set(sensor, 0)

    def press(self, sensor, hold_ms=None):
        """``sensor`` pressed and let go: put, held ``hold_ms`` (default drawn from
        HOLD_MS), lifted; ms taken."""
        if hold_ms is None:
            hold_ms = self.rng.randint(*HOLD_MS)
        t = self.put(sensor)
        self.b.advance(hold_ms)
        return t + hold_ms + self.lift(sensor)

    def reply(self):
        """The wait before a person's next move: humanlib.reply_ms (0-3 s, a quarter of
        them fast: 0-400 ms); ms waited."""
        ms = humanlib.reply_ms(self.rng)
        if ms:
            self.b.advance(ms)
        return ms
