"""The scan loop's first step: read the sensors at a fixed rate and debounce them.

>>> sc = Scanner.from_config(hw, cfg)          # cfg: playboard.config board definition
>>> while True:
...     if sc.poll(time.ticks_ms()) > 0:
...         for k in range(sc.deb.n_changes): handle(sc.deb.changes[k])

``poll(now_ms)`` reads ``hw`` once every ``1000 // hz`` ms (returns -1 when it was
not yet time) and returns the number of debounced changes; ``deb`` is the
:class:`~playboard.board.debounce.Debouncer` (``stable`` snapshot, ``changes``,
``fault``). Sensors of the pits are momentary when pits are selected with a
stylus (``pit_select: stylus``): see ``Scanner.from_config``. No allocation.
"""
from playboard.board.debounce import Debouncer
from playboard.compat import const

_MASK = const(0x3FFFFFFF)
_HALF = const(0x1FFFFFFF)


class Scanner:
    """Read ``hw`` every ``1000 // hz`` ms into ``raw`` and debounce (``stable_ms``, ``max_on_ms``)."""

    def __init__(self, hw, hz=100, stable_ms=40, max_on_ms=0):
        if not 1 <= hz <= 2000:
            raise ValueError("scan rate must be 1..2000 Hz, got %r" % (hz,))
        self.hw = hw
        self.raw = bytearray(hw.n_sensors)
        self.deb = Debouncer(hw.n_sensors, stable_ms, max_on_ms)
        self.period_ms = 1000 // hz
        self.frames = 0
        self._next = 0

    @classmethod
    def from_config(cls, hw, cfg, momentary=()):
        """Build from a validated board definition; ``momentary``: sensor indices of stylus pads."""
        sc = cfg["scan"]
        stylus = cfg.get("pit_select") == "stylus"
        s = cls(hw, sc["hz"], sc["stable_ms"], sc["max_on_ms"] if stylus else 0)
        if stylus:
            s.deb.set_momentary(momentary)
        return s

    def poll(self, now_ms):
        """Scan if due at ``now_ms``; return the number of stable changes, or -1 if not due."""
        if self.frames and ((now_ms - self._next) & _MASK) > _HALF:
            return -1   # now_ms is before the next due time (wrap-aware)
        self._next = (now_ms + self.period_ms) & _MASK
        if self.frames < 0x3FFFFFFF:  # saturate: stays a small int on the RP2040
            self.frames += 1
        self.hw.read(self.raw)
        return self.deb.update(self.raw, now_ms)
