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


def largest_block():
    """The largest bytearray the heap can give now (bytes), found by halving, a
    collection before and after (MicroPython: ``gc.mem_free``)."""
    import gc
    gc.collect()
    lo, hi = 0, gc.mem_free()
    while lo < hi:
        mid = (lo + hi + 1) // 2
        try:
            b = bytearray(mid)
            del b
            lo = mid
        except MemoryError:
            hi = mid - 1
    gc.collect()
    return lo


def board_app(root, transport, journal):
    """``(app, native)``: the app as ``playboard.app.onboard.run`` builds it, for the
    probes that run on the chip or the simulator's model (bench/pico_probe.py,
    bench/heap_probe.py): the board definition (pico-matrix on the chip; sim elsewhere,
    the same layout), its layouts, Tobit's native search where the board asks or the
    firmware is frozen (before the App, as the board does; ``native`` says if loaded),
    a record ``Store`` of folder ``root`` with ``journal`` (a record.journal.Journal or
    None), the link over ``transport``; no watchdog. MicroPython only."""
    import gc
    import sys
    from playboard.compat import unload
    from playboard.config import load_board
    if sys.platform == "rp2":
        from playboard.hw.open import open_board
        cfg = load_board("pico-matrix", with_layout=False)
    else:
        from playboard.sim.open import open_board
        cfg = load_board("sim", with_layout=False)
    hw = open_board(cfg)
    from playboard.app.startup import read_layouts
    layouts = read_layouts(cfg, hw)
    from playboard.app.loop import App
    unload("playboard.app.startup")
    from playboard.app.onboard import load_native
    native = load_native(cfg)
    from playboard.record import Store
    app = App(hw, cfg, Store(root, journal=journal), transport=transport, wdt=None, layouts=layouts)
    del layouts
    gc.collect()
    return app, native
