"""The app's state machine on the simulated board, in-process, with a virtual clock.

Each test builds the real App (board definition "sim", the default layout) over a
``playboard.sim.hw.SimBoard`` and a record store on the record tests' FakeFs, and
drives it frame by frame: menu pads, a game played through the sensors, resume
after a restart, resignation and agreed draw by the pads, game over lights.
The whole firmware in a subprocess (link, flash, kills) is tests/host/test_app_e2e.py.
"""
import gc

from fakeflash import FakeFs
from tlib import Rng, SkipTest, is_micropython, raises

from apprig import Rig, _first_half, _moves, _play_tihbat
from playboard.app.state import (MENU_START, MENU_GAME, MENU_MODE, PADS_ON_TOBIT,
                                 PADS_ON_TOGUZ, HOLD_MS, RELEASE_MS, REST_MS,
                                 OVER_DELAY_MS, STAFF_CORNERS)


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
    r.press("toguz", MENU_GAME[3])  # Tihbat
    r.press("toguz", MENU_MODE[0])  # two players
    assert r.app.game_name == "tihbat" and r.app.mode == "two"
    r.press("toguz", MENU_START)
    assert r.app.state == 2 and r.app.game.name == "tihbat"
    assert ("game", {"game": "tihbat", "mode": "two", "level": 3, "id": 1}) in r.events
    assert r.store.current == 1


def test_start_is_never_a_play_pad_pressing_it_three_times_never_resigns():
    # START (North pit 9) was Black's resign pad during Tobit: START pressed three
    # times (an impatient visitor) began the game and then resigned it. Now the second
    # press leaves the set-up nobody has begun for the menu (no result) and the third
    # begins Tobit again (tests/host/test_museum_e2e.py).
    assert MENU_START not in PADS_ON_TOGUZ
    r = Rig()
    r.adv(50)
    r.press("toguz", MENU_GAME[1])  # Tobit
    r.press("toguz", MENU_MODE[0])  # two players
    for _ in range(3):
        r.press("toguz", MENU_START)
    assert r.app.game is not None and r.app.game.name == "tobit"
    assert r.app.state == 1 and not [f for k, f in r.events if k in ("arm", "over")]
    # Black's resign pad (North pit 8) pressed deliberately twice does resign
    r.press("toguz", PADS_ON_TOGUZ[3])
    assert ("arm", {"what": "resign", "side": 1}) in r.events and r.app.state == 1
    r.press("toguz", PADS_ON_TOGUZ[3])
    assert r.app.state == 3 and r.app.result == "1-0"


def test_a_brief_touch_selects_nothing_a_held_press_fills_its_row_then_selects():
    r = Rig()
    r.adv(50)
    r.tap("toguz", MENU_GAME[3], 150)  # brushed: no choice
    r.tap("toguz", MENU_START, 500)  # touched half a second: no game
    assert r.app.game_name == "toguz" and r.app.state == 0 and not r.app._pending
    s = r.sensor("toguz", MENU_GAME[3])
    lay = r.app.menu_lay
    south = [lay.led_of(c) for c in range(9)]
    r.hw.set_sensor(s, 1)
    r.adv(HOLD_MS // 2)  # half way: part of South's row is lit white
    white = [led for led in south if r.hw.shown_led(led)[0] > 0 and r.hw.shown_led(led)[1] > 0]
    assert 3 <= len(white) <= 6, white
    r.adv(HOLD_MS // 2 + 100)  # full: the whole row blue (let go now)
    assert all(r.hw.shown_led(led)[2] > r.hw.shown_led(led)[0] for led in south)
    assert r.app.game_name == "toguz"  # nothing chosen while held
    r.hw.set_sensor(s, 0)
    r.adv(100)
    assert r.app.game_name == "tihbat" and ("menu", {"game": "tihbat", "mode": "two",
                                                     "level": 3}) in r.events


def test_a_press_held_too_long_is_no_press_and_two_pits_at_once_select_nothing():
    r = Rig()
    r.adv(50)
    r.tap("toguz", MENU_START, RELEASE_MS + 200)  # a pit left filled, then emptied
    assert r.app.state == 0 and not r.app._pending
    a, b = r.sensor("toguz", MENU_GAME[1]), r.sensor("toguz", MENU_START)
    r.adv(1000)
    r.hw.set_sensor(a, 1)
    r.adv(200)
    r.hw.set_sensor(b, 1)  # a second pit while the first is held
    r.adv(1000)
    r.hw.set_sensor(a, 0)
    r.hw.set_sensor(b, 0)
    r.adv(300)
    assert r.app.game_name == "toguz" and r.app.state == 0 and not r.app._pending


def _stir(r, rnd, cells, ms):
    """A child stirring the balls: a pit touched every 100-400 ms, each for 0.2-1.5 s,
    so that several are touched at once."""
    sens = [r.sensor("toguz", c) for c in cells]
    ends = {}
    end = r.t + ms
    while r.t < end:
        s = sens[rnd.below(len(sens))]
        if s not in ends:
            r.hw.set_sensor(s, 1 - r.hw.sensors[s])
            ends[s] = r.t + rnd.between(200, 1499)
        step = rnd.between(100, 399)
        stop = r.t + step
        while r.t < stop:
            r.adv(10)
            for k in [k for k in ends if ends[k] <= r.t]:
                r.hw.set_sensor(k, 1 - r.hw.sensors[k])
                del ends[k]
    for k in ends:
        r.hw.set_sensor(k, 1 - r.hw.sensors[k])
    r.adv(100)


def test_a_child_stirring_the_balls_selects_nothing_and_starts_no_game():
    rnd = Rng(7)
    r = Rig()
    r.adv(50)
    for _ in range(3):
        _stir(r, rnd, range(18), 20000)
        assert r.app.state == 0 and not r.app._pending, r.events[-3:]
        assert (r.app.game_name, r.app.mode, r.app.level) == ("toguz", "two", 3)
    assert not [f for k, f in r.events if k == "game"] and r.store.current is None
    r.adv(REST_MS + 100)  # then a deliberate press still works
    r.press("toguz", MENU_MODE[1])
    assert r.app.mode == "white"


def test_staff_filling_the_pits_starts_nothing_then_a_filled_pit_is_pressed_by_its_balls():
    rnd = Rng(3)
    r = Rig()
    r.adv(50)
    # staff put the balls in pit after pit (0.3-2.5 s apart), each pit's sensor
    # bouncing as the balls drop, START among them, adjusting a pit now and then
    for c in list(range(18)) + [MENU_START, 5, 17]:
        s = r.sensor("toguz", c)
        for _ in range(rnd.between(1, 3)):  # bounce
            r.hw.set_sensor(s, 1)
            r.adv(rnd.between(20, 59))
            r.hw.set_sensor(s, 0)
            r.adv(rnd.between(10, 39))
        r.hw.set_sensor(s, 1)
        r.adv(rnd.between(300, 2499))
    r.adv(6000)
    assert r.app.state == 0 and not r.app._pending
    assert "game" not in r.kinds() and r.store.current is None
    # the filled board is now at rest: lifting START's balls for a second and putting
    # them back is a deliberate press
    s = r.sensor("toguz", MENU_START)
    r.hw.set_sensor(s, 0)
    r.adv(1000)
    r.hw.set_sensor(s, 1)
    r.adv(300)
    assert r.app.state == 2 and r.app.game.name == "toguz"


def test_a_brief_touch_of_a_play_pad_does_nothing():
    r = Rig()
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.begun()
    for _ in range(4):
        r.tap("tobit", PADS_ON_TOBIT[1], 200)  # brushed four times
    r.tap("tobit", PADS_ON_TOBIT[0], 200)
    r.tap("tobit", PADS_ON_TOBIT[2], 200)
    assert r.app.state == 2 and not [f for k, f in r.events if k in ("arm", "over")]


def test_two_player_tihbat_game_recorded_move_by_move_and_resumed_after_restart():
    fs = FakeFs()
    played, fen = _first_half(fs)
    gc.collect()
    # power cut: a new board on the same flash resumes the game
    r2 = Rig(fs)
    r2.begun()  # the first frames replay the record (a step a frame)
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
    r2.begun()  # the next frames begin again, with the real module
    assert appgame.begin is broken_up_heap and real is not broken_up_heap
    assert r2.app.state == 2 and r2.app.game.ply == 3 and r2.app.game.fen() == fen
    assert "resumed" in r2.kinds() and len(calls) == 1


def test_resign_needs_two_presses_of_a_pad_the_game_never_uses():
    r = Rig()
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.begun()
    # White's resign pad during Toguz Kumalak is Tobit point 5: one press only arms it
    r.press("tobit", PADS_ON_TOBIT[1])
    assert r.app.state == 2 and ("arm", {"what": "resign", "side": 0}) in r.events
    r.adv(5000)  # the arming times out
    r.press("tobit", PADS_ON_TOBIT[1])
    assert r.app.state == 2
    r.press("tobit", PADS_ON_TOBIT[1])
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
    r.press("toguz", MENU_GAME[1])
    assert r.app.state == 0 and r.app.game_name == "toguz" and r.app.game is None


def test_pits_filled_as_the_result_comes_are_at_rest_once_it_shows():
    # the last sowing goes on into the result (py_play toguz two 1004): a staff corner
    # (North pit 9) filled, then a menu pad (South pit 1) 160 ms later, within QUIET_MS
    # (no press begins). The corner off its rest used to hold off the rest snapshot for
    # good: lifting pit 1's balls read as back at rest, the press did nothing
    r = Rig()
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.begun()
    r.press("tobit", PADS_ON_TOBIT[1])
    r.press("tobit", PADS_ON_TOBIT[1])
    assert r.app.state == 3
    for c, gap in ((STAFF_CORNERS[3], 160), (MENU_GAME[0], 10)):
        s = r.sensor("toguz", c)
        for _ in range(2):  # the balls dropped, bouncing
            r.hw.set_sensor(s, 1)
            r.adv(10)
            r.hw.set_sensor(s, 0)
            r.adv(10)
        r.hw.set_sensor(s, 1)
        r.adv(gap)
    r.adv(OVER_DELAY_MS + 1000)  # the players look at the result
    r.press("toguz", MENU_GAME[0])  # pit 1's balls lifted for a second and put back
    assert r.app.state == 0 and r.app.game is None


def test_the_last_sowing_filling_the_four_corners_in_the_result_is_no_staff_gesture():
    # py_play toguz two 102000326: the last sowing goes on into the result and fills
    # the four staff corners, to the staff watch the gesture's first hold: the board
    # never took its rest, and a menu pad's first press (pit 1, a corner, filled then)
    # did nothing. The result now rests 3 s after the last change, whatever the corners
    r = Rig()
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.begun()
    r.press("tobit", PADS_ON_TOBIT[1])
    r.press("tobit", PADS_ON_TOBIT[1])
    assert r.app.state == 3
    for c in (STAFF_CORNERS[1], STAFF_CORNERS[2], STAFF_CORNERS[3], STAFF_CORNERS[0]):
        s = r.sensor("toguz", c)
        r.hw.set_sensor(s, 1)  # (bouncing)
        r.adv(10)
        r.hw.set_sensor(s, 0)
        r.adv(10)
        r.hw.set_sensor(s, 1)
        r.adv(200)
    assert r.app.sw_phase == 1  # (to the watch, the four corners away together)
    r.adv(OVER_DELAY_MS + 1000)
    r.press("toguz", MENU_GAME[0])  # South pit 1's balls lifted for a second, put back
    assert r.app.state == 0 and r.app.game is None and "staff" not in r.kinds()


def test_draw_is_agreed_by_both_players_pads():
    r = Rig()
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.begun()
    r.press("tobit", PADS_ON_TOBIT[0])  # White offers
    assert r.app.state == 2
    r.press("tobit", PADS_ON_TOBIT[0])  # the same side again: still an offer
    assert r.app.state == 2
    r.press("tobit", PADS_ON_TOBIT[2])  # Black accepts
    assert r.app.state == 3 and r.app.result == "1/2-1/2"
    assert r.store.read(1).termination == "agreed draw"


def test_link_set_game_refuses_to_abandon_a_game_without_force():
    r = Rig()
    r.app.link_set_game({"game": "tihbat", "mode": "two"})
    r.begun()
    _play_tihbat(r, [0])
    assert raises(ValueError, r.app.link_set_game, {"game": "toguz"})
    assert r.app.game.name == "tihbat"
    assert raises(ValueError, r.app.link_set_game, {"game": "chess"})
    st = r.app.link_set_game({"game": "toguz", "mode": "white", "level": 2, "force": True})
    assert st["game"] == "toguz" and st["mode"] == "white" and st["level"] == 2
    r.begun()
    assert r.app.game.name == "toguz"
    r.app.release_game()  # (the test's read below loads the record's cold code: room for it)
    assert r.store.read(1).termination == "abandoned"


def test_a_refused_set_game_changes_nothing():
    r = Rig()
    r.adv(50)

    def seen():
        a = r.app
        return (a.link_status(), a.game_name, a.mode, a.level, a.settings.get("level"),
                a.state, a._pending, r.store.current, len(r.events))

    for bad in ({"game": "tobit", "mode": "fly"}, {"game": "tihbat", "level": 10},
                {"mode": "white", "level": True}, {"game": "tobit", "start": "yes"},
                {"game": "tobit", "colour": "red"}, {"resign": 0}, {"draw": True}):
        before = seen()
        assert raises(ValueError, r.app.link_set_game, bad), bad
        assert seen() == before, bad
    r.app.link_set_game({"game": "tihbat", "mode": "two"})
    r.begun()
    _play_tihbat(r, [0])
    for bad in ({"level": 5, "mode": "white"}, {"game": "toguz", "level": 2},
                {"resign": 2}, {"resign": True}, {"resign": 0, "game": "toguz"},
                {"draw": True, "level": 3}, {"game": "toguz", "force": 1}):
        before = seen()
        assert raises(ValueError, r.app.link_set_game, bad), bad
        assert seen() == before, bad
    assert r.app.game.name == "tihbat" and r.app.level == 3 and r.app.mode == "two"
    # locked (museum) mode: the link changes nothing until the staff unlock it
    r.app.settings["locked"] = True
    before = seen()
    for req in ({"game": "toguz", "force": True}, {"resign": 0}, {"menu": True, "start": False}):
        assert raises(ValueError, r.app.link_set_game, req)
        assert seen() == before
    r.app.unlocked = True
    r.app.link_set_game({"resign": 0})
    assert r.app.state == 3 and r.app.result == "0-1"


def test_engine_plays_its_pit_and_the_board_shows_the_sowing():
    r = Rig()
    # level 7: a search for every move (level 6 plays a random move in 2 of 32: a move
    # without a search, no thinking light to see)
    r.app.link_set_game({"game": "toguz", "mode": "black", "level": 7})  # engine plays White
    r.app.slice_nodes = 4  # a few nodes per frame: the search spans many frames
    r.begun()
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


def test_a_seeded_board_replays_its_engines_moves():
    """App(seed=N): the engine's games replay (the fuzz's seed replays its whole run);
    each game's seed drawn from the last (docs/engine.md "Seeds")."""
    def first_move(seed):
        r = Rig()
        r.app.seed = seed
        r.app.link_set_game({"game": "toguz", "mode": "black", "level": 1})
        r.begun()
        while r.app.thinking or not [k for k, f in r.events if k == "engine"]:
            r.adv(10)
            assert r.t < 20000
        assert r.app.seed == (seed * 69069 + 1) & 0x3FFFFFFF  # the next game's
        return [f["move"] for k, f in r.events if k == "engine"][0]

    seeds = (1, 2, 3, 5, 8, 13, 21, 34)
    moves = [first_move(s) for s in seeds]
    assert [first_move(s) for s in seeds[:3]] == moves[:3]
    assert len(set(moves)) >= 2, moves  # level 1's random moves follow the seed


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
    r.begun()
    _play_tihbat(r, [0, 1])
    assert r.app.game.ply == 2
    for v in (1, 0, 1, 0, 1):  # pressed with a hand's contact bounce (a scan each)
        r.hw.set_sensor(60, v)
        r.adv(10)
    r.adv(250)  # held
    assert r.app.game.ply == 1 and r.kinds().count("undo") == 1  # one press, one ply
    assert r.store.read(1).moves == _moves(r)[:1]
    for v in (0, 1, 0):  # let go, bouncing
        r.hw.set_sensor(60, v)
        r.adv(10)
    r.adv(100)
    assert r.app.game.ply == 1  # letting go is no second press


def test_a_board_with_only_a_takeback_button_keeps_its_resign_pads():
    # (firmware/boards/sim-takeback.json: menu and takeback buttons, no pad buttons)
    r = Rig()
    r.app.buttons = {"menu": 62, "takeback": 63}
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.begun()
    r.press("tobit", PADS_ON_TOBIT[1])
    r.press("tobit", PADS_ON_TOBIT[1])
    assert r.app.state == 3 and r.app.result == "0-1"


def test_bad_buttons_in_a_board_definition_are_refused():
    from playboard.app.startup import buttons as _buttons
    assert _buttons({"buttons": {"menu": 60}}, 64) == {"menu": 60}
    assert raises(ValueError, _buttons, {"name": "x", "buttons": {"menu": 64}}, 64)
    assert raises(ValueError, _buttons, {"name": "x", "buttons": {"fly": 3}}, 64)
    gc.collect()


def test_tobit_setup_move_and_takeback_are_recorded():
    r = Rig()
    r.app.link_set_game({"game": "tobit4", "mode": "two"})
    r.begun()  # the game begins a step a frame
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



def test_tobit_engine_move_made_before_the_search_ends_is_committed_when_it_ends():
    # A player who makes the engine's move on the board while it still thinks (they
    # saw it coming): the board, read again when the search ends, commits it at once,
    # with no other sensor needed to change (issue 10: "blind while it thinks").
    from playboard.engine.search import Engine
    r = Rig()
    r.app.link_set_game({"game": "tobit4", "mode": "black", "level": 2})  # engine: White
    r.begun()
    g = r.app.game
    lay = r.app.lay
    for p in range(1, g.n_points + 1):
        if g.board[p]:
            r.hw.set_sensor(lay.sensor_of(p), 1)
    real = Engine.step
    held = [0]

    def slow(self, *a, **kw):
        done = real(self, *a, **kw)
        if done and held[0] < 40:  # the search is over: 40 more frames before it says so
            held[0] += 1
            return False
        return done

    Engine.step = slow
    try:
        while held[0] == 0 and r.t < 20000:
            r.adv(10)
        assert r.app.thinking and held[0] > 0, (r.app.state, held)
        m = r.app.engine.best_move  # what it will play: made now, by hand, as a player would
        text = g.move_text(m)
        r.hw.set_sensor(lay.sensor_of(m[1]), 0)
        r.adv(120)
        r.hw.set_sensor(lay.sensor_of(m[-1]), 1)
        while r.app.thinking:
            r.adv(10)
        r.adv(1500)  # no sensor changes from here on
    finally:
        Engine.step = real
    assert g.ply == 1 and _moves(r) == [text], (_moves(r), g.ply)
    assert r.app.expecting is None and r.store.read(1).moves == _moves(r)
