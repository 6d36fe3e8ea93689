"""Helpers for bench scripts (MicroPython and CPython): timing and the BENCH line."""
import json
import time

# (no RP2040 estimate from the unix port's times: bench/py_pico.py measures the
# firmware on the emulated Pico, docs/pico.md)

try:
    _ticks_us = time.ticks_us
    _ticks_diff = time.ticks_diff

    def now_us():
        return _ticks_us()

    def elapsed_us(t0):
        return _ticks_diff(_ticks_us(), t0)
except AttributeError:  # CPython: CPU time of this process, so that other work on the
    # machine (tests, other benches) does not count against the figure
    def now_us():
        return time.process_time_ns() // 1000

    def elapsed_us(t0):
        return now_us() - t0


def report(name, value, unit, target=None, met=None, rp2040=None):
    """Print one figure for `make bench` (see playboard_host.bench)."""
    print("BENCH " + json.dumps({"name": name, "value": value, "unit": unit,
                                 "target": target, "met": met, "rp2040": rp2040}))


MIDDLE_PLIES = 20  # a middle game: this many seeded random plies from the start


def middle(name):
    """The position text after MIDDLE_PLIES seeded random plies (same on every run)."""
    from playboard.games.registry import new_game
    g = new_game(name)
    x = 12345
    for _ in range(MIDDLE_PLIES):
        ms = g.legal_moves()
        if not ms:
            break
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        g.push(ms[(x >> 8) % len(ms)])
    while g.is_game_over() or len(g.legal_moves()) < 2:
        g.pop()
    return g.fen()
