"""Measurements on the emulated Pico (run there by bench/py_pico.py, at the REPL after
Ctrl-C, with the firmware's .mpy files on its flash, or a frozen image): prints one line
``PICO {json}`` at the end (one line only: on the emulated chip a second long line of
figures stalled the USB serial's output).

- perft nodes/s per game (leaves counted at a small depth), engine nodes/s per game
  (a middle game, as bench/mp_engine.py), on the Cortex-M0+ at 125 MHz;
- the record on the Pico's littlefs (bench/mp_record.py's figures): each append of a
  300-move game (us), the start-up's scan and resume of it (and with the journal, again
  after a cut inside the next move's page program), the link's idle poll and its
  answer to a fetch of 256 record bytes;
- the app built as main.py builds it (pico-matrix, the link on the USB serial; no
  watchdog) and run frame by frame at its scan period: frame times (us) in the menu;
  a game's request (the link's ``G``) and every frame from it until the game is begun
  (``App._pending`` None: one frame, or one per step where the firmware begins a game
  in steps), for Toguz Kumalak and Tobit against the engine; frames in play (Toguz
  Kumalak against the engine, the player to move, nobody moving), in Tobit's set-up
  view, and in a demo (engine against engine, Toguz Kumalak, its top: 9, 10 on a native board: searches over
  many frames): all its frames, and those in which the engine searched, with the nodes
  searched in those frames and the most nodes of one search;
- free heap and the largest free block (the largest bytearray that can be made) in
  play after a collection, per game (the probe's own code is in the heap too:
  bench/py_pico.py adds back the free heap before the import less ``free_at_top``);
  what ``gc.collect()`` and ``gc.mem_free()`` cost in play (us);
- last, Tobit's native search (its code's and buffers' heap, nodes/s, a 2 s search's
  nodes), once the probe has let go of the app, its modules and its own first imports
  (the free heap and largest block after each step: ``native_heap``); a MemoryError
  there (no room: the .mpy deploy's limit) is kept as ``native_error`` (the step, the
  bytes asked, the free heap and largest block then), its figures left out, and the
  probe goes on to print the others.
"""
import gc

gc.collect()
FREE_AT_TOP = gc.mem_free()  # bench/py_pico.py's free heap before the import, less this:
# the probe's own code (not the firmware's), added back to the free heap figures

import json  # noqa: E402
import time  # noqa: E402

from playboard.games.registry import new_game
try:
    from playboard.games.perft import perft
except ImportError:  # a frozen image: perft is not frozen, staged as /perft.mpy
    from perft import perft

from benchlib import middle

PERFT = (("toguz", 3), ("tobit", 3), ("tobit4", 3), ("tihbat", 4))
START_FRAMES = 200  # a game not begun after this many frames is reported as such
out = {"free_at_top": FREE_AT_TOP}


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
import sys  # noqa: E402

# a frozen module's file name (or its absence): how firmware could tell it is frozen
out["search_file"] = getattr(sys.modules["playboard.engine.search"], "__file__", None)
out["main_file"] = getattr(sys.modules["playboard"], "__file__", None)

TOBIT_MIDDLE = middle("tobit")  # (for the app's top-level search below: no registry import then)
e = Engine(tt_size=1024)
for name, _ in PERFT:
    g = new_game(name, middle(name))
    top = 11 if name[:5] == "tobit" else 9  # the game's top level (engine.search.levels_of)
    e.think(g, top, nodes=1, table=False)
    gc.collect()
    t0 = time.ticks_us()
    e.think(g, top, nodes=300, table=False)
    out["engine_" + name] = [e.nodes, time.ticks_diff(time.ticks_us(), t0)]
del e, g, name, depth, n, us, t0
gc.collect()


class Quiet:
    """A transport with nothing to read that swallows what is written (bench/mp_record.py)."""

    def read_into(self, buf):
        return 0

    def write(self, data):
        pass


class One:
    """A transport holding one request."""

    def __init__(self, data):
        self.data = data

    def read_into(self, buf):
        n = min(len(buf), len(self.data))
        buf[0:n] = self.data[0:n]
        self.data = self.data[n:]
        return n

    def write(self, data):
        pass


# the record on the Pico's own littlefs (bench/mp_record.py's figures, on flash), with
# the record's journal where the image has one (the product's; as playboard.app.onboard
# opens the store): a 300-move game appended move by move, then the start-up's scan and
# resume of it, the link's idle poll and its answer to a fetch of that game
from playboard import record  # noqa: E402
from playboard import link  # noqa: E402
from playboard.record.journal import find  # noqa: E402

JOURNAL = find()  # (None on the stock image: the .mpy deploy's files only)
out["journal"] = JOURNAL is not None
st = record.Store("/bench", journal=JOURNAL)
st.new_game("toguz", {"White": "Ann", "Black": "Playboard L3"})
ts = []
for i in range(300):
    t0 = time.ticks_us()
    st.add_move("%d%d" % (i % 9 + 1, (i * 5) % 9 + 1))
    ts.append(time.ticks_diff(time.ticks_us(), t0))
ts.sort()
out["rec_append"] = [ts[len(ts) // 2], ts[-1]]  # median, worst (us)
st.close()
st = ts = None
gc.collect()
t0 = time.ticks_us()
st = record.Store("/bench", journal=JOURNAL)
r = st.resume()
out["rec_resume"] = [time.ticks_diff(time.ticks_us(), t0), len(r.moves) if r is not None else -1]
r = None
if JOURNAL is not None and st.journal.pos:
    # the power cut inside the next move's page program: its first bytes on flash, and
    # the start-up again (the record cut short voided, the game gone on past it)
    st.journal.program(st.journal.pos, b"M\x0511")
    st.close()
    st = None
    gc.collect()
    t0 = time.ticks_us()
    st = record.Store("/bench", journal=JOURNAL)
    r = st.resume()
    out["rec_resume_torn"] = [time.ticks_diff(time.ticks_us(), t0), len(r.moves) if r is not None else -1]
    r = None
lk = link.Link(Quiet(), st)
t0 = time.ticks_us()
for _ in range(100):
    lk.poll()
out["link_poll"] = time.ticks_diff(time.ticks_us(), t0) // 100
lk.t = One(link.encode_frame(1, "F", b'{"id": 1, "off": 0}'))
t0 = time.ticks_us()
lk.poll()
out["link_fetch"] = time.ticks_diff(time.ticks_us(), t0)
st.finish("1-0", "")  # (the journal folded and erased: the app's store finds it blank)
st.close()
lk = st = None

from playboard.compat import unload  # noqa: E402

for m in ("playboard.engine.search", "playboard.engine.evaluation", "playboard.engine.tihbat_table",
          "playboard.games.perft", "playboard.games.registry", "playboard.link"):
    unload(m)
gc.collect()
from playboard.app.state import S_MENU, S_SETUP, S_PLAY  # noqa: E402
try:  # the USB serial channel, where main.py takes it
    from playboard.hw.stdio import StdioTransport
except ImportError:
    from playboard.link import StdioTransport
from benchlib import board_app, largest_block  # noqa: E402

app, NATIVE = board_app("/games", StdioTransport(), JOURNAL)
out["native"] = NATIVE


def frame():
    """One frame of the app, paced at its scan period as App.run paces it: its time (us)."""
    now = time.ticks_ms()
    t0 = time.ticks_us()
    app.frame(now)
    us = time.ticks_diff(time.ticks_us(), t0)
    left = app.period_ms - time.ticks_diff(time.ticks_ms(), now)
    if 0 < left <= app.period_ms:
        time.sleep_ms(left)
    return us


def frames(n):
    return [frame() for _ in range(n)]


def request(req):
    """The link's ``G`` request ``req`` (on a board, handled by the link at the end of a
    menu frame) and then the frames until the game is begun (``_pending`` None: one
    frame, or one per step): {"request": us, "frames": [us, ...], "units": [the start's
    unit each frame began at, [gamestart._unit's step, its module or move count], or
    None for a frame that scans], "state", "begun", "memory_errors"}."""
    errors = app.memory_errors
    t0 = time.ticks_us()
    app.link_set_game(req)
    req_us = time.ticks_diff(time.ticks_us(), t0)
    ts = []
    units = []
    while app._pending is not None and len(ts) < START_FRAMES:
        units.append(None if app._start_scan else app._pending[2:5:2])
        ts.append(frame())
    return {"request": req_us, "frames": ts, "units": units, "state": app.state,
            "begun": app._pending is None and app.state in (S_SETUP, S_PLAY),
            "memory_errors": app.memory_errors - errors}


def to_menu():
    """The menu, 10 frames: the longest kept (``to_menu``: in them a game left there is
    ended, record.Store.put_away: its fold's littlefs commits, as at a game's end)."""
    app.link_set_game({"menu": True, "start": False})
    out.setdefault("to_menu", []).append(max(frames(10)))


def heap(key):
    gc.collect()
    out["free_" + key] = gc.mem_free()
    out["largest_" + key] = largest_block()


app.start(time.ticks_ms())
out["menu"] = frames(60)
out["start_toguz"] = request({"game": "toguz", "mode": "white", "level": 3, "start": True})
out["play"] = frames(100)  # the player's turn: nobody moves, the engine waits
heap("toguz")
gcs = []
frees = []
for _ in range(5):
    t0 = time.ticks_us()
    gc.collect()
    gcs.append(time.ticks_diff(time.ticks_us(), t0))
    t0 = time.ticks_us()
    gc.mem_free()
    frees.append(time.ticks_diff(time.ticks_us(), t0))
    frames(2)
out["gc_collect"] = gcs
out["mem_free"] = frees
to_menu()
out["start_tobit"] = request({"game": "tobit", "mode": "white", "level": 3, "start": True})
out["setup"] = frames(30)  # the set-up view: the pieces are not on their points
heap("tobit")
to_menu()
from playboard.app.state import top_level  # (9; 10 where the board's search is native)
out["start_demo"] = request({"game": "toguz", "mode": "demo", "level": top_level("toguz", app.cfg),
                             "start": True})
th = []  # the frames that searched (the engine thinking before or after, or its nodes moved)
demo = []  # every frame of the demo after it began
dn = [0, 0, 0]  # the nodes searched in frames, those frames, the most nodes of a search
for _ in range(400):
    was = app.thinking
    n0 = app.engine.nodes if app.engine is not None else 0
    us = frame()
    demo.append(us)
    n1 = app.engine.nodes if app.engine is not None else 0
    if was or app.thinking or n1 != n0:
        th.append(us)
    if n1 > n0:
        dn[0] += n1 - n0
        dn[1] += 1
        dn[2] = max(dn[2], n1)
out["thinking"] = th
out["demo_nodes"] = dn
out["demo"] = demo
out["demo_state"] = [app.state, app.mode, app.level, app.game.ply if app.game is not None else -1]
out["memory_errors"] = app.memory_errors
th = demo = None
# Tobit against the engine at its top level, 11, or 13 where the board's search is native
# (its levels 9-13 search natively; the keys say "tobit8": the top level's, 8 until
# Tobit had more): the app's engine searches a middle game once (its native buffers
# made and kept), then the free heap in that game
to_menu()
top = 13 if app.cfg.get("engine", {}).get("native") else 11
out["start_tobit8"] = request({"game": "tobit", "mode": "white", "level": top, "start": True})
heap("tobit8_setup")
try:
    g = new_game("tobit", TOBIT_MIDDLE)
    app.engine.think(g, top, nodes=300, table=False)
    out["tobit8_nodes"] = app.engine.nodes
except MemoryError:
    out["tobit8_nodes"] = -1
g = None
heap("tobit8")
# last (the figures above are the default deploy's): Tobit's search in native code
# (a board definition's "engine": {"native": true}): its code's heap, its buffers'
# heap and its nodes/s, measured as the Python search's above. First the probe lets go
# of what it still holds (on the .mpy deploy every module's code is in the heap): the
# app, the record's journal, the app's modules (loaded by board_app, kept in
# sys.modules), and the first search and registry (unloaded before the app, kept alive
# by the names Engine, new_game and perft: a second copy beside the app's); the free
# heap and the largest block after each step are kept ("native_heap")
held = []


def step(what):
    gc.collect()
    held.append([what, gc.mem_free(), largest_block()])


app = JOURNAL = None
step("app dropped")
Engine = new_game = perft = record = link = find = StdioTransport = board_app = None
Quiet = One = None
step("the probe's names dropped")
for m in [k for k in sys.modules if k.startswith("playboard.") or k == "perft"]:
    unload(m)
step("modules unloaded")
from playboard.engine.search import Engine  # noqa: E402 (once more: the native search's)
from playboard.games.registry import new_game  # noqa: E402
step("search and registry imported")
out["native_heap"] = held


def no_room(what, err):
    """The failed step's record, for a MemoryError ``err`` at ``what``: {"at", "asked"
    (bytes, from the error's text; -1 where it does not say), "free", "largest" (bytes,
    after a collection)}."""
    text = str(err)
    i = text.find("allocating ")
    asked = int(text[i + 11:].split()[0]) if i >= 0 and text[i + 11:i + 12].isdigit() else -1
    gc.collect()
    return {"at": what, "asked": asked, "free": gc.mem_free(), "largest": largest_block()}


# a MemoryError in the native search (no room on the .mpy deploy) is recorded
# ("native_error", no_room) and the probe goes on: the figures it got are kept
what = "import"
e = g = None
try:
    gc.collect()
    f0 = gc.mem_free()
    import playboard.engine.tobit_native  # noqa: E402,F401 (kept: never imported again)
    gc.collect()
    out["native_code"] = f0 - gc.mem_free()
    e = Engine(tt_size=1024)
    e.native = True
    for name in ("tobit", "tobit4"):
        what = "search " + name
        g = new_game(name, middle(name))
        gc.collect()
        f0 = gc.mem_free()
        e.think(g, 13, nodes=1, table=False)  # (native: its top, 13)
        gc.collect()
        out.setdefault("native_buffers", f0 - gc.mem_free())
        t0 = time.ticks_us()
        e.think(g, 13, nodes=300, table=False)
        out["native_" + name] = [e.nodes, time.ticks_diff(time.ticks_us(), t0)]
except MemoryError as err:
    e = g = None
    out["native_error"] = no_room(what, err)
# the top level's budget as the chip spends it: the nodes of a 2 s search (Tobit's middle
# game), by the engine's own search and by the native one (None where it had no room)
for name in ("tobit", "tobit4"):
    for nat in (0, 1):
        e = g = None
        key = "two_s_%s_%d" % (name, nat)
        try:
            gc.collect()
            e = Engine(tt_size=1024)
            e.native = bool(nat)
            g = new_game(name, middle(name))
            e.think(g, 13 if nat else 11, ms=2000, table=False)  # (the top: all the 2 s)
            out[key] = e.nodes
        except MemoryError as err:
            e = g = None
            out[key] = None
            out.setdefault("native_error", no_room(key, err))
e = g = None
gc.collect()
print("PICO " + json.dumps(out))
