"""Rules cores under MicroPython: perft rates, and memory of a game object.

Targets (issue 2): Toguz Kumalak perft(5) from the start (49,078 nodes) in 0.1 s
or less, Tobit perft(5) (14,747 nodes) in 0.15 s or less, on this machine's unix port.
"""
import gc
import sys

try:  # the simulator's model has the firmware frozen in, as on the board: that one
    import playboard.frozen_files  # noqa: F401
except ImportError:
    sys.path.insert(0, "firmware")
sys.path.insert(0, "bench")

from benchlib import report  # noqa: E402
import games_common  # noqa: E402
from playboard.games.registry import new_game  # noqa: E402

games_common.run("MicroPython", {
    "toguz": (5, 0.1, None),
    "tobit": (5, 0.15, None),
    "tobit4": (5, None, None),
    "tihbat": (12, None, None),
})

for name in ("toguz", "tobit", "tobit4", "tihbat"):
    gc.collect()
    before = gc.mem_free()
    g = new_game(name)
    gc.collect()
    used = before - gc.mem_free()
    size = len(g.pos) if hasattr(g, "pos") else len(g.board)
    report("%s position size (bytes)" % name, size, "B")
    report("%s game object with 256-ply undo/history (the model: 32-bit objects)" % name, used, "B")
    del g
