"""The firmware's heap in play against the engine at each game's top level, measured the
same way on the simulator's model (build/micropython-board, run by bench/py_model.py) and
on the frozen image on the emulated Pico (at the REPL after Ctrl-C): prints one line
``HEAP {json}``.

The app is built as the board builds it (``playboard.app.onboard.run``: the board
definition - pico-matrix on the chip, sim on the model: the same layout -, the layouts,
Tobit's native search where the firmware is frozen, the record store with the record's
journal - the product image's region on the chip, a file as the simulated board's on
the model -, a link) over the games the runner put in the store's folder (``heapprobe``:
200 games, bench/py_model.py), then for each game (Toguz Kumalak, Tobit, Tobit 4x4,
Tihbat) a game against the engine at its top level is begun over the link's ``G`` (the
frames until begun), the link used (a status, a page of the games' list, a game's
fetch: the folder of 200 games read through), and the app's engine searches a middle
game of it at that level (300 nodes: its tables and buffers made and kept). Free heap
and the largest free block (the largest bytearray that can be made) after each step;
the worst of them per game.
"""
import gc
import json
import sys
import time

ON_CHIP = sys.platform == "rp2"

from playboard.compat import unload  # noqa: E402
from playboard import link  # noqa: E402
from benchlib import board_app, largest_block, middle  # noqa: E402


class Quiet:
    """The link's transport: requests given in ``data``; of the answers only the type of
    each frame is kept (``kinds``, the last 32: "s", "l", "f", "!" an error)."""

    def __init__(self):
        self.data = b""
        self.kinds = bytearray()

    def read_into(self, buf):
        n = min(len(buf), len(self.data))
        buf[0:n] = self.data[0:n]
        self.data = self.data[n:]
        return n

    def ready(self):
        return len(self.data) > 0

    def write(self, data):  # (one frame a call: its start byte, seq, type, ...)
        if len(self.kinds) < 32 and len(data) > 2:
            self.kinds.append(data[2])


if ON_CHIP:
    from playboard.record.journal import find
    journal = find()  # (the product image's; None on the stock image)
else:
    from playboard.record.journal import Journal
    from playboard.sim.flash import NorFile
    journal = Journal(NorFile("heapprobe.journal", 4))
t = Quiet()
app, NATIVE = board_app("/heapprobe" if ON_CHIP else "heapprobe", t, journal)
st = app.store
del journal
gc.collect()


def frames(n):
    for _ in range(n):
        app.frame(time.ticks_ms())


def heap():
    gc.collect()
    return [gc.mem_free(), largest_block()]


out = {"native": NATIVE, "total": gc.mem_free() + gc.mem_alloc(), "games": st.count + st.synced,
       "journal": st.journal is not None}
app.start(time.ticks_ms())
frames(30)
out["menu"] = heap()
for name in ("toguz", "tobit", "tobit4", "tihbat"):
    top = 13 if (name[:5] == "tobit" and NATIVE) else (11 if name[:5] == "tobit" else 9)
    app.link_set_game({"game": name, "mode": "white", "level": top, "start": True})
    n = 0
    while app._pending is not None and n < 200:
        frames(1)
        n += 1
    frames(20)
    got = {"level": top, "begun": heap()}
    # the link in use: a status, the first page of the games' list, a game's first bytes
    t.kinds[:] = b""
    # (seqs 65-67: no byte of the replies' start escaped: their type is the frame's third byte)
    t.data = (link.encode_frame(65, "S", b"") + link.encode_frame(66, "L", b'{"from": 0}')
              + link.encode_frame(67, "F", b'{"id": 1, "off": 0}'))
    frames(10)
    got["status"] = heap()
    got["replies"] = bytes(t.kinds).decode()  # "slf": each answered
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
