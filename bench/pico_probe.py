"""Measurements on the emulated Pico (run there by bench/py_pico.py, at the REPL after
Ctrl-C, with the firmware's .mpy files on its flash): prints one line ``PICO {json}``.

- perft nodes/s per game (leaves counted at a small depth), engine nodes/s per game
  (a middle game, as bench/mp_engine.py), on the Cortex-M0+ at 125 MHz;
- the app built as main.py builds it (pico-matrix; no link, no watchdog) and run
  frame by frame at its scan period: frame times (us) in the menu, in a Toguz Kumalak
  game of two players with nobody moving, while the engine thinks (engine against
  engine, Toguz Kumalak), and the frame that starts the game;
- free heap and the largest free block (the largest bytearray that can be made) in
  play, after a collection.
"""
import gc
import json
import time

from playboard.games.registry import new_game
from playboard.games.perft import perft

from benchlib import middle

PERFT = (("toguz", 3), ("tobit", 3), ("tobit4", 3), ("tihbat", 4))
out = {}


for name, depth in PERFT:
    g = new_game(name)
    gc.collect()
    t0 = time.ticks_us()
    n = perft(g, depth)
    us = time.ticks_diff(time.ticks_us(), t0)
    out["perft_" + name] = [n, us]
del g
gc.collect()

from playboard.engine.search import Engine  # noqa: E402

e = Engine(tt_size=1024)
for name, _ in PERFT:
    g = new_game(name, middle(name))
    e.think(g, 8, nodes=1, table=False)
    gc.collect()
    t0 = time.ticks_us()
    e.think(g, 8, nodes=300, table=False)
    out["engine_" + name] = [e.nodes, time.ticks_diff(time.ticks_us(), t0)]
del e, g
gc.collect()

from playboard.config import load_board  # noqa: E402
from playboard.hw.open import open_board  # noqa: E402
from playboard.compat import unload  # noqa: E402

unload("playboard.engine.search")
gc.collect()
cfg = load_board("pico-matrix", with_layout=False)
hw = open_board(cfg)
from playboard.app.gamestart import read_layouts  # noqa: E402
layouts = read_layouts(cfg, hw)
from playboard.app.loop import App  # noqa: E402
unload("playboard.app.gamestart")
from playboard.record import Store  # noqa: E402
app = App(hw, cfg, Store("/games"), transport=None, wdt=None, layouts=layouts)
del layouts
gc.collect()


def frames(n):
    ts = []
    for _ in range(n):
        now = time.ticks_ms()
        t0 = time.ticks_us()
        app.frame(now)
        ts.append(time.ticks_diff(time.ticks_us(), t0))
        left = app.period_ms - time.ticks_diff(time.ticks_ms(), now)
        if 0 < left <= app.period_ms:
            time.sleep_ms(left)
    return ts


def largest_block():
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


app.start(time.ticks_ms())
out["menu"] = frames(60)
app.link_set_game({"game": "toguz", "mode": "two", "start": True})
out["start"] = frames(3)
out["play"] = frames(100)
gc.collect()
out["free"] = gc.mem_free()
out["largest"] = largest_block()
app.link_set_game({"game": "toguz", "mode": "demo", "start": True, "force": True})
frames(5)
th = []
for _ in range(400):
    if app.thinking:
        th += frames(1)
    else:
        frames(1)
    if len(th) >= 60:
        break
out["thinking"] = th
print("PICO " + json.dumps(out))
