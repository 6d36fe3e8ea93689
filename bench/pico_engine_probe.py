"""The engine's speed on the emulated Pico (run there by bench/py_pico_engine.py, at the
REPL after Ctrl-C, the firmware frozen or as .mpy files): prints one line ``PICO {json}``.

For each game, from its middle game (benchlib.middle): perft leaves/s; the top level's
nodes/s in a 300-node search by the engine's own (Python) search and by the native one
(``Engine.native``: Tobit's and Toguz Kumalak's; Tihbat has none: the same search); the
nodes of a 2 s search (the chip's budget for a move) by each.
"""
import gc
import json
import time

from playboard.games.registry import new_game
try:
    from playboard.games.perft import perft
except ImportError:  # a frozen image: perft is not frozen, staged as /perft.mpy
    from perft import perft
from playboard.engine.search import Engine, levels_of
import playboard.engine.tobit_native  # noqa: F401 (native code: imported first, as onboard does)
import playboard.engine.toguz_native  # noqa: F401

from benchlib import middle

GAMES = (("toguz", 3), ("tobit", 3), ("tobit4", 3), ("tihbat", 4))
out = {}
for name, depth in GAMES:
    g = new_game(name)
    gc.collect()
    t0 = time.ticks_us()
    n = perft(g, depth)
    out["perft_" + name] = [n, time.ticks_diff(time.ticks_us(), t0)]
    g = None
for name, _ in GAMES:
    for nat in (0, 1):
        e = None
        gc.collect()
        e = Engine(tt_size=1024)
        e.native = bool(nat)
        top = len(levels_of(name, e.native)) - 1
        g = new_game(name, middle(name))
        e.think(g, top, nodes=1, table=False)  # (the native buffers made)
        gc.collect()
        t0 = time.ticks_us()
        e.think(g, top, nodes=300, table=False)
        out["nps_%s_%d" % (name, nat)] = [e.nodes, time.ticks_diff(time.ticks_us(), t0)]
        gc.collect()
        e.think(g, top, ms=2000, table=False)
        out["two_s_%s_%d" % (name, nat)] = [e.nodes, e.depth]
        out["ran_%s_%d" % (name, nat)] = e._g is None and getattr(e, "_native_search", None) is not None
e = g = None
print("PICO " + json.dumps(out))
