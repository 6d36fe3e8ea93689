"""The board under memory and flash pressure: nothing committed is ever lost.

A MemoryError (and an OSError) is injected at every place of the record write
(the store's file calls, the record's encoding) and of the frame that commits a
move or hands the turn to the engine (the move's text, the queue, the events,
the engine's start and its press), one place per committed move, in games the
engine plays against itself on the in-process rig (test_app's ``Rig``). After
each game the record replays to the board's position, ply for ply (no lost move,
no gap, no double), the record queue is empty and the game went on to its end
or its ply budget (no stall). Under MicroPython the commit frames are also run
on a heap squeezed to a few hundred bytes, a different amount each time, so
that the real allocations fail wherever they fall.
"""
import gc

from fakeflash import FakeFs
from tlib import SkipTest, is_micropython
from apprig import Rig

from playboard.record import Store
from playboard.record.read import read_game_file


class Faults:
    """Arms one failure: the ``k``-th call (from 1) of a wrapped function after
    ``arm`` raises ``exc`` instead of running; counts every call."""

    def __init__(self):
        self.k = 0
        self.exc = None
        self.fired = 0
        self.calls = 0

    def arm(self, k, exc):
        self.k = k
        self.exc = exc
        self.calls = 0

    def hit(self):
        self.calls += 1
        if self.exc is not None and self.calls == self.k:
            e = self.exc
            self.exc = None
            self.fired += 1
            raise e("injected")

    def wrap(self, obj, name):
        real = getattr(obj, name)
        faults = self

        def wrapped(*a, **kw):
            faults.hit()
            return real(*a, **kw)

        setattr(obj, name, wrapped)


class FaultFs(FakeFs):
    """A FakeFs whose file writes (open for append, write, flush) can be made to fail."""

    def __init__(self, faults):
        FakeFs.__init__(self)
        self.faults = faults

    def open(self, path, mode):
        if "r" not in mode:
            self.faults.hit()
        f = FakeFs.open(self, path, mode)
        if "r" not in mode:
            faults = self.faults
            w = f.write
            fl = f.flush

            def write(b):
                faults.hit()
                return w(b)

            def flush():
                faults.hit()
                return fl()

            f.write = write
            f.flush = flush
        return f


def _game1(st):
    """Game 1 of store ``st`` as on flash (a GameRecord with its moves), read with the
    reader imported with this module: after a game on a squeezed heap, the heap is in
    pieces too small for the store's cold modules (``st.read`` imports them; the
    link's reading may then fail with a MemoryError, and is asked again)."""
    return read_game_file(st, 1, True)


def _replays(rec, game):
    """True if the record's moves, replayed by a new rules core, give ``game``'s position."""
    from playboard.games.registry import new_game
    g = new_game(game.name)
    for t in rec.moves:
        g.push_text(t)
    return g.ply == game.ply and g.fen() == game.fen()


# ---- the store alone: every failing call of one append ---------------------------------

def _store(fs):
    return Store("/games", fs=fs, date=None)


def test_a_failed_append_is_retried_without_gap_or_double():
    for exc in (MemoryError, OSError):
        faults = Faults()
        fs = FaultFs(faults)
        st = _store(fs)
        st.new_game("toguz")
        want = []
        k = 1
        while True:
            text = "%d%d" % (k % 9 + 1, (k * 5) % 9 + 1)
            faults.arm(k, exc)  # the k-th file call of this append fails
            tries = 0
            while not st.add_move(text):  # the app's queue: the same record again
                tries += 1
                assert st.error and tries < 3, st.error
            want.append(text)
            if faults.exc is not None:  # the append needed fewer calls: all were tried
                break
            k += 1
        assert k >= 3  # open, write, flush (and the repair's after a torn write)
        assert _store(fs).resume().moves == want, exc
        assert faults.fired == k - 1


def test_undo_and_finish_are_retried_too():
    faults = Faults()
    fs = FaultFs(faults)
    st = _store(fs)
    st.new_game("tihbat")
    assert st.add_move("1") and st.add_move("2")
    faults.arm(2, MemoryError)  # the write of the takeback
    assert not st.undo() and st.undo()
    faults.arm(2, OSError)  # the flush of the end (the file is open: write, flush)
    assert not st.finish("1-0") and st.current is not None and st.finish("1-0")
    r = _game1(_store(fs))
    assert r.moves == ["1"] and r.finished and r.result == "1-0"


# ---- the app: every place of the commit frame and of the turn hand-off -----------------

# the places (object name, method) a fault is put in turn, each for one committed move
PLACES = (("game", "move_text"), ("store", "add_move"), ("fs", None), ("fs", None),
          ("fs", None), ("game", "is_game_over"), ("sink", None), ("tracker", "press"),
          ("engine", "start"), ("engine", "step"), ("game", "fen"), ("queue", None),
          ("lights", "frame"))


class FailingList:
    """The record queue (a list), whose ``append`` can fail (the list growing)."""

    def __init__(self, faults):
        self.q = []
        self.faults = faults

    def append(self, x):
        self.faults.hit()
        self.q.append(x)

    def pop(self, i=-1):
        return self.q.pop(i)

    def __getitem__(self, i):
        return self.q[i]

    def __len__(self):
        return len(self.q)

    def __bool__(self):
        return len(self.q) > 0

    def __repr__(self):
        return repr(self.q)


def _demo(game, plies, exc, squeeze=False):
    """An engine v engine game on the rig, a fault at each commit; return the rig."""
    faults = Faults()
    sink_faults = Faults()
    fs = FaultFs(faults)
    r = Rig(fs)
    r.app.slice_nodes = 30
    real_sink = r.app.sink

    def sink(kind, fields):
        if kind in ("move", "engine", "thinking"):
            sink_faults.hit()
        real_sink(kind, fields)

    r.app.sink = sink
    r.app.link_set_game({"game": game, "mode": "demo", "level": 1})
    app = r.app
    r.begun()  # (a broken-up heap: begun again)
    assert app.game is not None and app.game.name == game, (app._pending, app._begin_tries)
    r.f_queue_None = Faults()
    app.pending = FailingList(r.f_queue_None)
    wrapped = set()
    i = 0
    stuck = 0
    while app.state == 2 and app.game.ply < plies:
        obj, meth = PLACES[i % len(PLACES)]
        target = {"game": app.game, "store": app.store, "tracker": app.tracker,
                  "engine": app.engine, "lights": app.lights}.get(obj)
        f = faults
        if obj == "sink":
            f = sink_faults
        elif target is not None and (obj, meth) not in wrapped:
            faults_for = Faults()
            faults_for.wrap(target, meth)
            wrapped.add((obj, meth))
            setattr(r, "f_%s_%s" % (obj, meth), faults_for)
        if target is not None or obj == "queue":
            f = getattr(r, "f_%s_%s" % (obj, meth))
        f.arm(1 + (i // len(PLACES)) % 2, exc if obj == "fs" else MemoryError)
        ply = app.game.ply
        t0 = r.t
        while app.state == 2 and app.game.ply == ply and r.t - t0 < 20000:
            if squeeze and (r.t // 10) % 3 == 0:  # one frame in three (the others let it go on)
                _squeezed_frame(r, 64 + 48 * ((i + r.t // 30) % 24))
            else:
                r.adv(10)
        stuck = stuck if app.game.ply != ply or app.state != 2 else stuck + 1
        assert stuck == 0, (game, i, obj, meth, app.thinking, app.expecting, app.pending)
        i += 1
    r.adv(200)  # the queue is written out
    return r


def _check(r, plies):
    app = r.app
    gc.collect()
    assert app.game.ply >= plies or app.state == 3, (app.game.ply, app.state)
    assert not app.pending, app.pending
    rec = _game1(r.store)
    assert _replays(rec, app.game), (rec.moves, app.game.ply)
    assert rec.finished == (app.state == 3)
    assert app.link_status()["queue"] == 0


def test_a_memory_error_at_every_place_of_the_commit_frame_loses_nothing():
    # (both games under the simulator's model too: its firmware is frozen, the heap the
    # chip's; on the old 192 KB model with code in the heap Toguz Kumalak did not fit)
    for game in ("toguz", "tihbat"):
        gc.collect()
        r = _demo(game, 2 * len(PLACES) + 2, OSError)
        _check(r, 2 * len(PLACES) + 2)
        assert r.app.memory_errors >= len(PLACES) // 2, r.app.memory_errors
        # (no list of the kinds: beside the firmware compiled into this heap, no 1 KB piece
        # is left for one)
        assert any(k == "record-error" for k, f in r.events)
        r = None


def test_the_engine_takes_its_turn_after_a_memory_error_at_its_start():
    gc.collect()
    from playboard.engine.search import Engine
    f = Faults()
    f.arm(1, MemoryError)
    real = Engine.start

    def start(self, *a, **kw):
        f.hit()
        return real(self, *a, **kw)

    Engine.start = start
    try:
        r = Rig()
        r.app.link_set_game({"game": "tihbat", "mode": "black", "level": 1})  # engine: White
        r.adv(3000)
    finally:
        Engine.start = real
    app = r.app
    assert f.fired == 1 and f.calls >= 2 and app.memory_errors == 1
    assert app.game.ply >= 1, (app.game.ply, app.thinking)
    assert _game1(r.store).moves and _replays(_game1(r.store), app.game)


def test_status_shows_the_queue_while_the_flash_fails_and_it_empties_after():
    gc.collect()
    fs = FakeFs()
    r = Rig(fs)
    r.app.link_set_game({"game": "tihbat", "mode": "demo", "level": 1})
    r.begun()
    fs.full_at = fs.total()  # the flash takes nothing more
    app = r.app
    while app.game.ply < 4 and app.state == 2:
        r.adv(100)
    q = app.link_status()["queue"]
    on_flash = len(_game1(r.store).moves)
    assert q + on_flash == app.game.ply and q >= 3, (q, on_flash)  # the LEDs' lead = the queue
    fs.full_at = None
    r.adv(20)
    assert app.link_status()["queue"] == 0
    assert _replays(_game1(r.store), app.game)


def _squeezed_frame(r, leave):
    """One frame of the rig run with only about ``leave`` bytes of heap free."""
    r.t += 10
    r.hw.tick(r.t)
    gc.collect()
    ballast = []
    size = 8192
    while size >= 16:
        try:
            while gc.mem_free() > leave + size:
                ballast.append(bytearray(size - 16))
        except MemoryError:
            pass
        size //= 2
    try:
        r.app.frame(r.t)
    finally:
        ballast = None
        gc.collect()


def test_every_commit_frame_on_a_squeezed_heap_loses_nothing():
    if not is_micropython():
        raise SkipTest("a squeezed heap needs MicroPython's gc.mem_free")
    r = _demo("tihbat", 30, OSError, squeeze=True)
    _check(r, 30)
    assert r.app.memory_errors >= 5


# ---- a nearly full flash -------------------------------------------------------------

def test_a_nearly_full_flash_blinks_on_the_menu_and_shows_in_the_status():
    from playboard.app.state import MENU_FLASH
    gc.collect()
    fs = FakeFs()
    fs.free_bytes = 9000  # the store keeps 8192 free: less than that again is left
    r = Rig(fs)
    led = r.app.menu_lay.led_of(MENU_FLASH)
    seen = set()
    for _ in range(12):
        r.adv(60)
        seen.add(r.hw.shown_led(led))
    assert r.app.link_status()["flash_low"] is True
    assert any(c[0] > 2 * (c[1] + c[2]) for c in seen if c), seen  # red, blinking
    assert (0, 0, 0) in seen or min(seen) != max(seen)
    fs.free_bytes = None  # room again (the games were synced and dropped)
    del r  # switched off and on: one App at a time, as on the board
    gc.collect()
    r2 = Rig(fs)
    r2.adv(200)
    assert r2.app.link_status()["flash_low"] is False
    assert led not in r2.lit()
