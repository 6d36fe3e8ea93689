"""The firmware's heap in play against the engine at each game's top level, measured the
same way on the simulator's model (build/micropython-board, run by bench/py_model.py) and
on the frozen image on the emulated Pico (at the REPL after Ctrl-C): prints one line
``HEAP {json}``.

The app is built as the board builds it (``playboard.app.onboard.run``: the board
definition - pico-matrix on the chip, sim on the model: the same layout -, the layouts,
Tobit's native search where the firmware is frozen, the record store, a link), then for
each game (Toguz Kumalak, Tobit, Tobit 4x4, Tihbat) a game against the engine at its top
level is begun over the link's ``G`` (the frames until begun), the link asked for its
status, and the app's engine searches a middle game of it at that level (300 nodes: its
tables and buffers made and kept). Free heap and the largest free block (the largest
bytearray that can be made) after each step; the worst of them per game.
"""
import gc
import json
import sys
import time

ON_CHIP = sys.platform == "rp2"

from playboard.config import load_board  # noqa: E402
from playboard.compat import unload  # noqa: E402

if ON_CHIP:
    from playboard.hw.open import open_board
    cfg = load_board("pico-matrix", with_layout=False)
else:
    from playboard.sim.hw import open_board
    cfg = load_board("sim", with_layout=False)
hw = open_board(cfg)
from playboard.app.gamestart import read_layouts  # noqa: E402
layouts = read_layouts(cfg, hw)
from playboard.app.loop import App  # noqa: E402
unload("playboard.app.gamestart")
from playboard.app.onboard import load_native  # noqa: E402
NATIVE = load_native(cfg)
from playboard.record import Store  # noqa: E402
from playboard import link  # noqa: E402


class Quiet:
    """The link's transport: one request at a time, answers swallowed."""

    def __init__(self):
        self.data = b""

    def read_into(self, buf):
        n = min(len(buf), len(self.data))
        buf[0:n] = self.data[0:n]
        self.data = self.data[n:]
        return n

    def ready(self):
        return len(self.data) > 0

    def write(self, data):
        pass


t = Quiet()
app = App(hw, cfg, Store("/heapprobe" if ON_CHIP else "heapprobe"), transport=t, wdt=None, layouts=layouts)
del layouts
gc.collect()


def frames(n):
    for _ in range(n):
        app.frame(time.ticks_ms())


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


def heap():
    gc.collect()
    return [gc.mem_free(), largest_block()]


out = {"native": NATIVE, "total": gc.mem_free() + gc.mem_alloc()}
app.start(time.ticks_ms())
frames(30)
out["menu"] = heap()
from benchlib import middle  # noqa: E402

for name in ("toguz", "tobit", "tobit4", "tihbat"):
    top = 13 if (name[:5] == "tobit" and NATIVE) else (11 if name[:5] == "tobit" else 9)
    app.link_set_game({"game": name, "mode": "white", "level": top, "start": True})
    n = 0
    while app._pending is not None and n < 200:
        frames(1)
        n += 1
    frames(20)
    got = {"level": top, "begun": heap()}
    t.data = link.encode_frame(1, "S", b"")  # the link in use: a status request
    frames(5)
    got["status"] = heap()
    from playboard.games.registry import new_game
    g = new_game(name, middle(name))
    unload("playboard.games.registry")
    try:
        app.engine.think(g, top, nodes=300, table=False)
        got["nodes"] = app.engine.nodes
    except MemoryError:
        got["nodes"] = -1
    g = None
    got["searched"] = heap()
    got["memory_errors"] = app.memory_errors
    out[name] = got
    app.link_set_game({"menu": True, "start": False})
    frames(10)
print("HEAP " + json.dumps(out))
