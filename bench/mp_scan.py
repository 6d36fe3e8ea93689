"""Scan + debounce time per frame for 64 sensors (simulated board) under MicroPython.

Target: one frame's debounce and change detection for 64 sensors under 0.01 ms on
the unix port, so that 100 Hz scanning leaves most of each 10 ms frame for the rest
(the RP2040's frames: bench/py_pico.py, on the emulated Pico). Also reports the simulated board's read, the
whole scan step (read + debounce + changes) and the lights compose of 58 LEDs.
Each figure is the best of 5 batches (the machine is shared: the best batch is the
one least disturbed).
"""
import sys

try:  # the simulator's model has the firmware frozen in, as on the board: that one
    import playboard.frozen_files  # noqa: F401
except ImportError:
    sys.path.insert(0, "firmware")
sys.path.insert(0, "bench")

from benchlib import now_us, elapsed_us, report  # noqa: E402
from playboard.board.debounce import Debouncer  # noqa: E402
from playboard.board.scan import Scanner  # noqa: E402
from playboard.sim.hw import SimBoard  # noqa: E402

N = 64
BATCH = 4000
BATCHES = 5


def best_ms(step, n=BATCH):
    """Best per-call time (ms) of ``step(k)`` over BATCHES batches of n calls."""
    best = None
    k = 0
    for _ in range(BATCHES):
        t0 = now_us()
        for _ in range(n):
            step(k)
            k += 1
        us = elapsed_us(t0) / n
        if best is None or us < best:
            best = us
    return best / 1000


def emit(name, ms, target_ms=None):
    met = None if target_ms is None else ms < target_ms
    report(name, ms, "ms", None if target_ms is None else "< %g ms" % target_ms, met)


def bench_scan():
    b = SimBoard(N, 58)
    d = Debouncer(N, stable_ms=40, max_on_ms=5000)
    d.set_momentary(range(40, 58))
    raw = bytearray(N)
    b.read(raw)
    d.update(raw, 0)
    upd = d.update

    def deb_step(k):
        if k % 50 == 0:          # a piece placed or lifted every 50 frames
            raw[k % 37] ^= 1
        upd(raw, 10 * k)

    emit("debounce + change detection, 64 sensors, per frame", best_ms(deb_step), 0.01)
    rd = b.read
    emit("sim board read, 64 sensors, per frame", best_ms(lambda k: rd(raw)))
    sc = Scanner(b, hz=100, stable_ms=40)
    poll = sc.poll
    sens = b.sensors

    def scan_step(k):
        if k % 50 == 0:
            sens[k % 37] ^= 1
        poll(10 * k)

    emit("scan + debounce + changes, 64 sensors (sim), per frame", best_ms(scan_step), 0.01)


def bench_rp2_matrix():
    """The rp2 matrix read (bank mode) on do-nothing Python fakes of machine.Pin / mem32:
    an upper bound, since the real Pin.value() and mem32 are C calls."""
    sys.path.insert(0, "tests/firmware")
    try:
        from hwfakes import install_quiet_rp2
    except ImportError:
        return
    from playboard.config import load_board
    install_quiet_rp2()
    from playboard.hw.rp2 import open_rp2
    cfg = load_board("pico-matrix")
    cfg["sensor"]["settle_us"] = 0
    b = open_rp2(cfg)
    raw = bytearray(N)
    rd = b.read
    emit("rp2 matrix read 8x8 (bank), Python fakes, per frame", best_ms(lambda k: rd(raw), 1000))


def bench_lights():
    from playboard.board.lights import Lights, LEGAL, LAST, ERROR
    b = SimBoard(N, 58)
    li = Lights(b)
    for i in range(0, 58, 3):
        li.mark(LEGAL, i)
    li.mark(LAST, 5)
    li.mark(ERROR, 9, 3)
    render = li.render
    emit("lights compose + gamma + current cap, 58 LEDs, per frame",
         best_ms(lambda k: render(20 * k), 1000), 0.05)


bench_scan()
bench_rp2_matrix()
bench_lights()
