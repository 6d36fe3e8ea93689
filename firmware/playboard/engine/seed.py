"""Each game's own seed for the engine's low levels (docs/engine.md "Seeds"). Cold: the
app loads it at a game's first search and drops it after (``App._next_turn``)."""
import time

from playboard.compat import const

_SEEDED = const(0x3FFFFFFF)  # ``Engine._mood`` of an engine seeded, its game not yet searched
FRESH = const(0x40000000)  # ``Engine._mood`` of an engine that never searched (1 << 30)


def draw_seed():
    """A seed for one game (int in 1..2**30 - 1): ``os.urandom`` (on the RP2040 the ring
    oscillator's random bit, on the unix port the system's), else the clock."""
    try:
        import os
        b = os.urandom(4)
        return (b[0] | b[1] << 8 | b[2] << 16 | (b[3] & 0x3F) << 24) or 1
    except (ImportError, AttributeError, OSError, NotImplementedError):
        t = time.ticks_us() if hasattr(time, "ticks_us") else int(time.time() * 1000000)
        return (t & 0x3FFFFFFF) or 1


def seeded(eng):
    """True once ``eng`` (a ``playboard.engine.search.Engine``) was seeded or searched."""
    return eng._mood != FRESH


def seed_game(eng, seed=None):
    """Seed ``eng``'s random draws (the careless game, the blunders: ``Engine._rand``)
    for the game about to be searched: ``seed`` any int, None to draw one
    (:func:`draw_seed`). Its next search is a new game's (the careless draw is made)."""
    if seed is None:
        seed = draw_seed()
    eng._rand = (seed & 0x3FFFFFFF) or 1
    eng._mood = _SEEDED
