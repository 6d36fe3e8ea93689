"""Engine figures under MicroPython: heap during search, speed, depth in the RP2040's 2 s.

Run from the repository root on the simulator's model (``make bench``
does): ``MICROPYPATH=.frozen:bench build/micropython-board -X heapsize=242k bench/mp_engine.py``.

Per game (its top level, 9 or Tobit's 11; Tihbat searched without its table, and by the table):
- peak heap used during a search: the live heap (after gc.collect) at every
  slice boundary of a 1,500-node search in slices of 5 nodes, minus the heap
  before the engine was made; it counts the engine (search stack, a 1024-entry
  transposition table), the game copy it searches on, and the move lists.
  Target < 48 KB.
- nodes per second (a 2,000-node search, unix port); the emulated Pico's beside it
  (measured by bench/py_pico.py).
- the depth completed in a 2 s RP2040 budget: the node count of 2 s at the rate
  measured on an emulated Pico (``CHIP_NODES_PER_S``: Toguz Kumalak 1,187
  nodes/s, Tobit 607, Tobit 4 x 4 659), from the start and from a middle game (20 seeded random plies in),
  with one engine whose game copy already exists. Node budgets: the figure
  repeats on any machine.
- the time of a Tihbat move by the table (a seek and a 2-byte read per move).

The unix-port figures vary with the machine's load; run on a quiet machine.
"""
import gc
import sys
import time

try:  # the simulator's model has the firmware frozen in, as on the board: that one
    import playboard.frozen_files  # noqa: F401
except ImportError:
    sys.path.insert(0, "firmware")

from benchlib import middle, report  # noqa: E402
from playboard.engine.search import Engine, levels_of  # noqa: E402
from playboard.games.registry import new_game  # noqa: E402

# nodes/s of the engine on an emulated RP2040 (playboard_host.match.CHIP_NODES_PER_S)
CHIP_NODES_PER_S = {"toguz": 1187, "tobit": 607, "tobit4": 659, "tihbat": 1500}


TT = 1024


def peak_heap(name):
    gc.collect()
    g = new_game(name)
    gc.collect()
    base = gc.mem_alloc()
    e = Engine(tt_size=TT)
    e.start(g, len(levels_of(name)) - 1, nodes=1500, table=False)
    peak = 0
    while True:
        done = e.step(nodes=5)
        gc.collect()
        used = gc.mem_alloc() - base
        if used > peak:
            peak = used
        if done:
            break
    return peak, e.depth


def speed(e, name):
    g = new_game(name, middle(name))
    top = len(levels_of(name)) - 1
    e.think(g, top, nodes=1, table=False)  # the engine's game copy is made once, outside the timing
    gc.collect()
    t0 = time.ticks_us()
    e.think(g, top, nodes=2000, table=False)
    us = time.ticks_diff(time.ticks_us(), t0)
    return e.nodes * 1000000 // us, us


def depth_in(e, name, fen, nodes):
    g = new_game(name, fen)
    top = len(levels_of(name)) - 1
    e.think(g, top, nodes=1, table=False)  # as the app does: one engine, its copy made once
    gc.collect()
    e.start(g, top, nodes=nodes, table=False)
    while not e.step(nodes=20):
        pass
    return e.depth, e.nodes


def table_move_us():
    g = new_game("tihbat")
    e = Engine()
    e.think(g, 9, nodes=10)  # opens the table file (level 9, the top, plays by it)
    t0 = time.ticks_us()
    n = 0
    while not g.is_game_over() and n < 40:
        m = e.think(g, 9, nodes=10)
        g.push(m)
        n += 1
    return time.ticks_diff(time.ticks_us(), t0) // max(1, n)


def main():
    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        peak, d = peak_heap(name)
        report("engine %s: peak heap during a search (TT %d)" % (name, TT), peak // 1024, "KB",
               "< 48 KB", peak < 48 * 1024)
        gc.collect()
        e = Engine(tt_size=TT)
        nps, us = speed(e, name)
        report("engine %s: nodes per second, middle game" % name, nps, "nodes/s", None, None,
               "emulated Pico %d nodes/s (py_pico)" % CHIP_NODES_PER_S[name])
        chip = 2 * CHIP_NODES_PER_S[name]
        gc.collect()
        d0, n0 = depth_in(e, name, None, chip)
        report("engine %s: depth in the RP2040's 2 s (%d nodes), start" % (name, chip), d0, "plies",
               None, None, "%d nodes searched" % n0)
        gc.collect()
        d1, n1 = depth_in(e, name, middle(name), chip)
        report("engine %s: depth in the RP2040's 2 s (%d nodes), middle game" % (name, chip), d1,
               "plies", None, None, "%d nodes searched" % n1)
        e = None
        gc.collect()
    us = table_move_us()
    report("engine tihbat level 9 (the top): a move by the table (seeks)", us, "us")


if __name__ == "__main__":
    main()
