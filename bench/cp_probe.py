"""The rules cores and the engine under CircuitPython (run as ``code.py`` on the emulated
Pico's CIRCUITPY drive by tests/rp2/test_circuitpython.py and bench/py_pico_cp.py; under
CPython by the same test, for the expected counts). Prints one line ``PICO {json}``.

Run as ``import cp_probe; cp_probe.main(NODES)``. CircuitPython has no native emitter: the viper kernels (``*_native`` modules) are staged
with their decorators blanked and run as plain Python, the path CPython runs too. For
each game, from its start and from its middle game (benchlib.middle): perft leaves and
us; the top level's search in ``nodes`` nodes by the engine's own search and by the "native"
one (``Engine.native``: Tobit's and Toguz Kumalak's NativeSearch, here plain Python;
Tihbat has none) as [best move, score, nodes, depth, us], us 0 under CPython (only the
counts are compared there). ``heap`` after the probe's imports: free bytes.
"""
import gc
import json
import sys
import time

from playboard.games.registry import new_game
from playboard.games.perft import perft
from playboard.engine.search import Engine, levels_of

from benchlib import middle

CP = sys.implementation.name == "circuitpython"
GAMES = (("toguz", 3), ("tobit", 3), ("tobit4", 3), ("tihbat", 4))


def now_us():
    """Emulated us on CircuitPython (its clock), 0 elsewhere (the counts are compared)."""
    return time.monotonic_ns() // 1000 if CP else 0


def probe(nodes=300):
    """{figure: value} (see the module text)."""
    out = {}
    gc.collect()
    out["heap"] = gc.mem_free() if hasattr(gc, "mem_free") else 0
    for name, depth in GAMES:
        for where, g in (("start", new_game(name)), ("middle", new_game(name, middle(name)))):
            gc.collect()
            t0 = now_us()
            n = perft(g, depth if where == "start" else depth - 1)
            out["perft_%s_%s" % (name, where)] = [n, now_us() - t0]
    for name, _ in GAMES:
        for nat in (0, 1):
            if nat and name == "tihbat":
                continue
            e = None
            gc.collect()
            e = Engine(tt_size=1024)
            e.native = bool(nat)
            top = len(levels_of(name, e.native)) - 1
            g = new_game(name, middle(name))
            gc.collect()
            t0 = now_us()
            e.think(g, top, nodes=nodes, table=False)
            us = now_us() - t0
            out["search_%s_%d" % (name, nat)] = [g.move_text(e.best_move), e.score, e.nodes, e.depth, us]
    return out


def main(nodes=300):
    """Probe with searches of ``nodes`` nodes; print the figures when the host listens."""
    out = probe(nodes)
    if CP:
        import supervisor
        t = time.monotonic()
        while not supervisor.runtime.serial_connected and time.monotonic() - t < 30:
            time.sleep(0.1)  # (printed before the host opens the port, the line is lost)
    print("PICO " + json.dumps(out))

