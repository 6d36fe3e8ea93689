"""The in-process rig of the app tests: the real App on the simulated board with a
virtual clock (shared by test_app.py and test_memory.py, kept out of either so
that a test module under MicroPython holds only its own code beside it).
"""
import gc
import sys

from fakeflash import FakeFs
from tlib import is_micropython, use_compiled_firmware


if is_micropython():
    use_compiled_firmware()

from playboard.app.loop import App
from playboard.compat import unload as _unload
from playboard.sim.open import open_board
from playboard.record import Store

_CFG = None


def _cfg():
    global _CFG
    if _CFG is None:
        from playboard.config import load_board
        _CFG = load_board("sim", with_layout=False)
        _unload("playboard.config")  # as main.py does: start-up code, not kept
    return _CFG


class Rig:
    """An App on a simulated board with a virtual clock; ``events`` collects (kind, fields)."""

    def __init__(self, fs=None):
        for name in ("playboard.app.ui", "playboard.games.toguz", "playboard.games.tihbat",
                     "playboard.games.tobit", "playboard.games.tobit_board", "playboard.board.mancala_tracker",
                     "playboard.board.tobit_tracker", "playboard.board.tobit_position"):
            _unload(name)  # a fresh board: no game code loaded yet
        gc.collect()
        self.fs = fs or FakeFs()
        self.cfg = _cfg()
        self.hw = open_board(self.cfg)
        self.events = []
        self.t = 0
        self.store = Store("/games", fs=self.fs)
        self.app = App(self.hw, self.cfg, self.store, think="nodes", tt_size=64,
                       sink=self.sink, clock=lambda: self.t, seed=12345)  # replayable engines
        self.app.start(0)

    def sink(self, kind, fields):
        if fields and "fen" in fields:  # keep the test's own heap small
            fields = dict(fields)
            del fields["fen"]
        self.events.append((kind, fields))

    def adv(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t += 10
            self.hw.tick(self.t)
            self.app.frame(self.t)

    def begun(self, limit_ms=3000):
        """Run frames until the game being begun has begun (gamestart.begin: a share a
        frame), then its first frame of play (the board scanned); the ms it
        took. AssertionError past ``limit_ms``."""
        t0 = self.t
        while self.app._pending is not None:
            assert self.t - t0 < limit_ms, ("not begun", self.app._pending, self.app._begin_tries)
            self.adv(10)
        self.adv(10)
        return self.t - t0

    def kinds(self):
        return [k for k, f in self.events]

    def sensor(self, game, cell):
        return self.app.load_layout(game).sensor_of(cell)

    def tap(self, game, cell, ms=150):
        s = self.sensor(game, cell)
        v = self.hw.sensors[s]
        self.hw.set_sensor(s, 1 - v)
        self.adv(ms)
        self.hw.set_sensor(s, v)
        self.adv(300)

    def press(self, game, cell, ms=1000):
        """A deliberate press: held ``ms`` (past HOLD_MS), let go, 600 ms to the next."""
        self.tap(game, cell, ms)
        self.adv(300)

    def lit(self):
        return self.hw.lit()


def _moves(rig):
    return [f["move"] for k, f in rig.events if k == "move"]


def _play_tihbat(r, pits):
    """Tap each pit (0-based for the mover) and wait for the sowing to be confirmed."""
    g = r.app.game
    for p in pits:
        r.tap("tihbat", p + g.turn * 2, 150)
        r.adv(2800)


def _first_half(fs):
    r = Rig(fs)
    r.app.choose("tihbat", "two")
    r.app.new_game(r.t)
    r.begun()
    _play_tihbat(r, [0, 1, 0])
    played = _moves(r)
    assert len(played) == 3, r.events
    rec = r.store.read(1)
    assert rec.moves == played and not rec.finished
    return played, r.app.game.fen()
