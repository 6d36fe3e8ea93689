"""Scan + debounce time per frame for 64 sensors (simulated board) under MicroPython.

Target: one frame's debounce and change detection for 64 sensors under 0.01 ms on
the unix port (about 2 ms on the RP2040 at x200). Also reports the simulated
board's read (a Python copy loop, stands in for the GPIO scan) and the lights
compose of 58 LEDs.
"""
import sys

sys.path.insert(0, "firmware")
sys.path.insert(0, "bench")

from benchlib import now_us, elapsed_us, report, RP2040_FACTOR  # noqa: E402
from playboard.board.debounce import Debouncer  # noqa: E402
from playboard.hw.sim import SimBoard  # noqa: E402

N = 64
FRAMES = 20000


def bench_debounce():
    b = SimBoard(N, 58)
    d = Debouncer(N, stable_ms=40, max_on_ms=5000)
    d.set_momentary(range(40, 58))
    raw = bytearray(N)
    b.read(raw)
    d.update(raw, 0)
    # a piece placed every 50 frames somewhere, so changes happen too
    upd = d.update
    t = 0
    t0 = now_us()
    for k in range(FRAMES):
        if k % 50 == 0:
            raw[k % 37] ^= 1
        upd(raw, t)
        t += 10
    us = elapsed_us(t0) / FRAMES
    ms = us / 1000
    report("debounce + change detection, 64 sensors, per frame", ms, "ms",
           "< 0.01 ms", ms < 0.01, "%.2f ms" % (ms * RP2040_FACTOR))
    t0 = now_us()
    rd = b.read
    for k in range(FRAMES // 10):
        rd(raw)
    ms = elapsed_us(t0) / (FRAMES // 10) / 1000
    report("sim board read, 64 sensors, per frame", ms, "ms", None, None,
           "%.2f ms" % (ms * RP2040_FACTOR))


def bench_lights():
    try:
        from playboard.board.lights import Lights, LEGAL, LAST, ERROR
    except ImportError:
        return
    b = SimBoard(N, 58)
    li = Lights(b)
    for i in range(0, 58, 3):
        li.mark(LEGAL, i)
    li.mark(LAST, 5)
    li.mark(ERROR, 9, 3)
    t = 0
    n = 2000
    t0 = now_us()
    for k in range(n):
        li.render(t)
        t += 20
    ms = elapsed_us(t0) / n / 1000
    report("lights compose + gamma + current cap, 58 LEDs, per frame", ms, "ms",
           "< 0.05 ms", ms < 0.05, "%.2f ms" % (ms * RP2040_FACTOR))


bench_debounce()
bench_lights()
