"""The app's state machine on the simulated board, in-process, with a virtual clock.

Each test builds the real App (board definition "sim", the default layout) over a
``playboard.sim.hw.SimBoard`` and a record store on the record tests' FakeFs, and
drives it frame by frame: menu pads, a game played through the sensors, resume
after a restart, resignation and agreed draw by the pads, game over lights.
The whole firmware in a subprocess (link, flash, kills) is tests/host/test_app_e2e.py.
"""
import gc
import sys

from fakeflash import FakeFs
from tlib import ROOT, SkipTest, is_micropython, raises


def _compiled_firmware():
    """Under MicroPython: put the firmware compiled by mpy-cross (build/simfw, made fresh
    by the host's builder) first on the path. The whole firmware compiled from source
    does not fit a 192 KB heap (the compiler's peak); on the board it is frozen."""
    import os
    py = ROOT + "/.venv/bin/python"
    try:
        os.stat(py)
    except OSError:
        raise SkipTest("no .venv/bin/python to build the compiled firmware (make setup)")
    code = os.system("%s -c 'import sys; sys.path.insert(0, \"%s/host_tools\"); "
                     "from playboard_host.simboard import build_firmware; build_firmware()'" % (py, ROOT))
    if code != 0:
        raise SkipTest("building the compiled firmware failed (%d)" % code)
    path = ROOT + "/build/simfw"
    if path not in sys.path:
        sys.path.insert(0, path)
    for k in list(sys.modules):
        if k.startswith("playboard"):
            del sys.modules[k]


if is_micropython():
    _compiled_firmware()

from playboard.app.loop import App
from playboard.app.state import MENU_START, MENU_GAME, MENU_MODE, PADS_ON_TOBIT
from playboard.compat import unload as _unload
from playboard.sim.hw import open_board
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
                     "playboard.games.tobit", "playboard.board.mancala_tracker",
                     "playboard.board.tobit_tracker"):
            _unload(name)  # a fresh board: no game code loaded yet
        gc.collect()
        self.fs = fs or FakeFs()
        self.cfg = _cfg()
        self.hw = open_board(self.cfg)
        self.events = []
        self.t = 0
        self.store = Store("/games", fs=self.fs)
        self.app = App(self.hw, self.cfg, self.store, think="nodes", tt_size=64,
                       sink=self.sink, clock=lambda: self.t)
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

    def lit(self):
        return self.hw.lit()


def _moves(rig):
    return [f["move"] for k, f in rig.events if k == "move"]


def test_start_lights_the_board_and_opens_the_menu():
    r = Rig()
    assert r.hw.shows >= 1 and r.hw.lit()  # lit at the first frame
    assert r.app.state == 0 and r.kinds()[:2] == ["boot", "menu"]
    r.adv(50)
    menu = r.app.menu_lay
    lit = r.lit()
    for c in (MENU_START,) + MENU_GAME + MENU_MODE:
        assert menu.led_of(c) in lit


def test_menu_pads_choose_game_and_mode_and_start():
    r = Rig()
    r.adv(50)
    r.tap("toguz", MENU_GAME[3])  # Tihbat
    r.tap("toguz", MENU_MODE[0])  # two players
    assert r.app.game_name == "tihbat" and r.app.mode == "two"
    r.tap("toguz", MENU_START)
    assert r.app.state == 2 and r.app.game.name == "tihbat"
    assert ("game", {"game": "tihbat", "mode": "two", "level": 3, "id": 1}) in r.events
    assert r.store.current == 1


def test_letting_go_of_start_is_not_a_press_of_the_pad_under_it():
    # START (North pit 9) is Black's resign pad during Tobit: the game begins while
    # START is still held, and letting it go must not arm a resignation.
    if is_micropython():
        # the Tobit rig beside this harness does not fit 192 KB (as below)
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    r = Rig()
    r.adv(50)
    r.tap("toguz", MENU_GAME[1])  # Tobit
    r.tap("toguz", MENU_MODE[0])  # two players
    s = r.sensor("toguz", MENU_START)
    v = r.hw.sensors[s]
    r.hw.set_sensor(s, 1 - v)
    r.adv(400)  # held across the frames in which the game begins
    assert r.app.game is not None and r.app.game.name == "tobit"
    r.hw.set_sensor(s, v)
    r.adv(300)
    assert not [f for k, f in r.events if k == "arm"]
    # and a real press of the pad afterwards still arms it
    r.tap("toguz", MENU_START)
    assert ("arm", {"what": "resign", "side": 1}) in r.events


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
    r.adv(100)
    _play_tihbat(r, [0, 1, 0])
    played = _moves(r)
    assert len(played) == 3, r.events
    rec = r.store.read(1)
    assert rec.moves == played and not rec.finished
    return played, r.app.game.fen()


def test_two_player_tihbat_game_recorded_move_by_move_and_resumed_after_restart():
    fs = FakeFs()
    played, fen = _first_half(fs)
    gc.collect()
    # power cut: a new board on the same flash resumes the game
    r2 = Rig(fs)
    r2.adv(10)  # the first frame replays the record
    assert r2.app.state == 2 and r2.app.game.ply == 3
    assert r2.app.game.fen() == fen
    assert "resumed" in r2.kinds()
    _play_tihbat(r2, [1])
    assert r2.store.read(1).moves == played + _moves(r2)


def test_a_resume_that_meets_a_memory_error_begins_again_and_loses_nothing():
    fs = FakeFs()
    played, fen = _first_half(fs)
    gc.collect()
    r2 = Rig(fs)
    import playboard.app.gamestart as appgame  # the module the first frame will use
    real = appgame.begin
    calls = []

    def broken_up_heap(app, now_ms, resumed=None):
        calls.append(now_ms)
        raise MemoryError("memory allocation failed")

    appgame.begin = broken_up_heap
    r2.adv(10)  # the first attempt fails: the game is not given up
    assert calls and r2.app.game is None and r2.store.current == 1
    assert not r2.store.read(1).finished
    r2.adv(10)  # the next frame begins again, with the real module
    assert appgame.begin is broken_up_heap and real is not broken_up_heap
    assert r2.app.state == 2 and r2.app.game.ply == 3 and r2.app.game.fen() == fen
    assert "resumed" in r2.kinds() and len(calls) == 1


def test_resign_needs_two_presses_of_a_pad_the_game_never_uses():
    r = Rig()
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.adv(100)
    # White's resign pad during Toguz Kumalak is Tobit point 5: one press only arms it
    r.tap("tobit", PADS_ON_TOBIT[1])
    assert r.app.state == 2 and ("arm", {"what": "resign", "side": 0}) in r.events
    r.adv(5000)  # the arming times out
    r.tap("tobit", PADS_ON_TOBIT[1])
    assert r.app.state == 2
    r.tap("tobit", PADS_ON_TOBIT[1])
    assert r.app.state == 3 and r.app.result == "0-1"
    rec = r.store.read(1)
    assert rec.finished and rec.result == "0-1" and rec.termination == "resignation"
    # the result: the winner's (North's) side blinks green after the last move's view
    r.adv(3000)
    lay = r.app.lay
    north = [lay.led_of(c) for c in range(9, 18)]
    south = [lay.led_of(c) for c in range(0, 9)]
    lit = set()
    for _ in range(10):
        r.adv(60)
        lit.update(r.lit())
    assert set(north) <= lit and not (set(south) & lit)
    # then any menu pad opens the menu, the last choices kept
    r.tap("toguz", MENU_GAME[1])
    assert r.app.state == 0 and r.app.game_name == "toguz" and r.app.game is None


def test_draw_is_agreed_by_both_players_pads():
    r = Rig()
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.adv(100)
    r.tap("tobit", PADS_ON_TOBIT[0])  # White offers
    assert r.app.state == 2
    r.tap("tobit", PADS_ON_TOBIT[0])  # the same side again: still an offer
    assert r.app.state == 2
    r.tap("tobit", PADS_ON_TOBIT[2])  # Black accepts
    assert r.app.state == 3 and r.app.result == "1/2-1/2"
    assert r.store.read(1).termination == "agreed draw"


def test_link_set_game_refuses_to_abandon_a_game_without_force():
    r = Rig()
    r.app.link_set_game({"game": "tihbat", "mode": "two"})
    r.adv(100)
    _play_tihbat(r, [0])
    assert raises(ValueError, r.app.link_set_game, {"game": "toguz"})
    assert r.app.game.name == "tihbat"
    assert raises(ValueError, r.app.link_set_game, {"game": "chess"})
    st = r.app.link_set_game({"game": "toguz", "mode": "white", "level": 2, "force": True})
    assert st["game"] == "toguz" and st["mode"] == "white" and st["level"] == 2
    r.adv(10)
    assert r.app.game.name == "toguz" and r.store.read(1).termination == "abandoned"


def test_engine_plays_its_pit_and_the_board_shows_the_sowing():
    r = Rig()
    r.app.link_set_game({"game": "toguz", "mode": "black", "level": 6})  # engine plays White
    r.app.slice_nodes = 4  # a few nodes per frame: the search spans many frames
    r.adv(10)
    assert r.app.thinking
    # while it thinks, the engine's kazan light blinks purple
    led = r.app.lay.led_of(18)
    seen = set()
    while r.app.thinking:
        r.adv(10)
        seen.add(r.hw.shown_led(led))
    assert any(c[2] > c[1] and c[0] > c[1] for c in seen), seen
    r.adv(3000)
    assert r.app.game.ply >= 1
    ev = [f for k, f in r.events if k == "engine"]
    assert ev and _moves(r)[0] == ev[0]["move"]
    assert r.store.read(1).moves[0] == ev[0]["move"]


def test_attract_mode_after_idle_and_any_touch_ends_it():
    r = Rig()
    r.app.settings["attract_s"] = 2
    r.adv(2100)
    assert r.app.state == 4 and "attract" in r.kinds()
    a = r.lit()
    r.adv(200)
    assert r.lit() != a  # it moves
    r.hw.set_sensor(r.sensor("tobit", 1), 1)
    r.adv(100)
    assert r.app.state == 0


def test_takeback_button_takes_a_mancala_move_back_on_record():
    r = Rig()
    r.app.buttons = {"takeback": 60}
    r.app.link_set_game({"game": "tihbat", "mode": "two"})
    r.adv(100)
    _play_tihbat(r, [0, 1])
    assert r.app.game.ply == 2
    r.hw.set_sensor(60, 1)
    r.adv(100)
    assert r.app.game.ply == 1 and "undo" in r.kinds()
    assert r.store.read(1).moves == _moves(r)[:1]
    r.hw.set_sensor(60, 0)
    r.adv(100)
    assert r.app.game.ply == 1  # letting go is no second press


def test_bad_buttons_in_a_board_definition_are_refused():
    from playboard.app.ui import buttons as _buttons
    assert _buttons({"buttons": {"menu": 60}}, 64) == {"menu": 60}
    assert raises(ValueError, _buttons, {"name": "x", "buttons": {"menu": 64}}, 64)
    assert raises(ValueError, _buttons, {"name": "x", "buttons": {"fly": 3}}, 64)
    gc.collect()


def test_tobit_setup_move_and_takeback_are_recorded():
    if is_micropython():
        # beside this test harness (compiled from source) the Tobit rig's heap does not
        # fit 192 KB; the whole firmware plays Tobit in 192 KB in test_app_e2e.py
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    r = Rig()
    r.app.link_set_game({"game": "tobit4", "mode": "two"})
    r.adv(100)  # the game begins at the next frame
    g = r.app.game
    lay = r.app.lay
    assert r.app.state == 1  # set-up: the points to fill are lit
    want = sorted(lay.led_of(p) for p in range(1, g.n_points + 1) if g.board[p])
    assert sorted(r.lit()) == want
    for p in range(1, g.n_points + 1):
        if g.board[p]:
            r.hw.set_sensor(lay.sensor_of(p), 1)
    r.adv(600)
    assert r.app.state == 2
    m = g.legal_moves()[0]
    text = g.move_text(m)
    r.hw.set_sensor(lay.sensor_of(m[1]), 0)
    r.adv(150)
    r.hw.set_sensor(lay.sensor_of(m[-1]), 1)
    r.adv(1200)
    assert _moves(r) == [text] and r.store.read(1).moves == [text]
    # the previous position put back: the move is taken back, and recorded so
    r.hw.set_sensor(lay.sensor_of(m[-1]), 0)
    r.adv(150)
    r.hw.set_sensor(lay.sensor_of(m[1]), 1)
    r.adv(1200)
    assert "undo" in r.kinds() and g.ply == 0
    assert r.store.read(1).moves == []

