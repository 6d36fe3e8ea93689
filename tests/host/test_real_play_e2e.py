"""Real play on the real firmware (``SimBoard``, the model of the chip), issue 10:
people are fast. Toguz Kumalak (lift selection), two people: each reply made 0.1-2.4 s
after the move, while its sowing view still shows, is played (it confirms the view);
a selection is withdrawn by its balls put back. Tobit against the engine: the engine's
move put on the board and the reply begun 0-300 ms later are two plies, never a
correction (docs/tracker.md "Timing"). Deliberate controls: START pressed three
times never resigns; staff filling the menu's pits start nothing (docs/app.md)."""
import random

import pytest

from enginewait import engine_move

from playboard.board.layout import load_layout
from playboard.games.registry import new_game
from playboard_host.simboard import micropython_binary
from playboard_host.gestures import physical_actions

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")


def _moves(ev):
    return [e["move"] for e in ev if e["ev"] == "move"]


def test_toguz_replies_made_during_the_sowing_view_are_never_lost(toguz_two):
    rng = random.Random(10)
    b = toguz_two
    b.events()
    g = new_game("toguz")
    want = []
    ev = []
    delays = [100, 400, 700, 1100, 1500, 1900, 2400, 100, 2400, 300, 900, 2000]
    for d in delays:
        pit = rng.choice(g.legal_moves())
        want.append(g.move_text(pit))
        b.tap(pit + 9 * g.turn, 200)  # the pit's balls lifted (the sensor flips back)
        b.advance(200 + 60)  # the selection (after the debounce's 40 ms)
        b.advance(d)  # the reply begun d ms after it, while its view still shows
        g.push(pit)
        ev += b.events()  # (the simulator keeps the last few dozen events)
    b.advance(3000)
    ev += b.events()
    assert _moves(ev) == want, ev[-12:]
    assert [e for e in ev if e["ev"] in ("error", "undo")] == []
    assert sum(1 for e in ev if e["ev"] == "move") == len(delays)
    st = b.status()
    assert st["fen"] == g.fen() and st["ply"] == len(delays), st


def test_toguz_a_selection_is_withdrawn_by_its_balls_put_back(toguz_two):
    b = toguz_two
    lay = load_layout("toguz")
    g = new_game("toguz")
    for pit in (0, 0):  # South pit 1 (one ball stays in it), North pit 1
        b.tap(pit + 9 * g.turn, 200)
        b.advance(2900)
        g.push(pit)
    assert b.status()["fen"] == g.fen()
    b.events()
    s = lay.sensor_of(0)
    b.set_sensor(s, 1)
    b.advance(200)
    b.set_sensor(s, 0)  # South pit 1's ball lifted: selected (held LIFT_MS), its sowing shown
    b.advance(700)
    b.set_sensor(s, 1)  # put back: withdrawn (a single ball is never sown into its pit)
    b.advance(300)
    ev = b.events()
    assert [e["ev"] for e in ev if e["ev"] in ("move", "undo", "error")] == ["move", "undo"], ev
    assert b.status()["fen"] == g.fen()
    b.advance(3000)
    assert b.status()["fen"] == g.fen()  # nothing confirmed, nothing played
    b.tap(4, 200)  # South pit 5 instead
    b.advance(3000)
    g.push(4)
    assert _moves(b.events()) == [_text_after(g)]
    assert b.status()["fen"] == g.fen()


def test_toguz_a_move_and_its_reply_lifted_in_one_scan_are_both_recorded_in_order(toguz_two, tmp_path):
    # both players lift at the same moment (South its pit 1, North its pit 5): the
    # tracker's two commits came in one update and the app recorded North's move twice
    # (one commit an update now: the reply is played at the next frame)
    b = toguz_two
    lay = load_layout("toguz")
    g = new_game("toguz")
    b.events()
    south, north = lay.sensor_of(0), lay.sensor_of(9 + 4)
    for v in (1, 0):  # (as tap does: the sensor flips, and flips back as the balls leave)
        b.set_sensor(south, v)
        b.set_sensor(north, v)  # in the same scan
        b.advance(200)
    b.advance(3000)
    want = []
    for pit in (0, 4):
        want.append(g.move_text(pit))
        g.push(pit)
    ev = b.events()
    assert _moves(ev) == want, ev
    assert [e for e in ev if e["ev"] in ("error", "undo")] == []
    assert b.status()["fen"] == g.fen()
    # the record on the board's flash: South resigns (its pad, deliberately twice), synced
    from playboard_host import cli
    from playboard_host.gestures import PAD_WHITE_RESIGN, press_pad
    from playboard_host.library import Library

    press_pad(b, "toguz", PAD_WHITE_RESIGN)
    press_pad(b, "toguz", PAD_WHITE_RESIGN)
    assert b.status()["state"] == "over"

    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["sync", "--port", b.port, "--library", db, "-q"]) == 0
    lib = Library(db, create=False)
    recs = lib.games_from("sim")
    lib.close()
    assert [r.moves for r in recs] == [want], [(r.game, r.moves) for r in recs]


def _text_after(g, back=1):
    """The text of the move ``back`` plies from the end of ``g``."""
    ms = [g.pop() for _ in range(back)]
    t = g.move_text(ms[-1])
    for m in reversed(ms):
        g.push(m)
    return t


def test_tobit_the_engines_move_and_a_fast_reply_are_two_plies(board, tmp_path):
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.new_game("tobit", "black", 2)  # the engine plays White
    b.advance(100)
    b.set_up()
    b.advance(1000)
    assert b.status()["state"] == "play"
    lay = load_layout("tobit")
    g = new_game("tobit")
    rng = random.Random(3)
    ev = b.events()
    for delay in (0, 120, 250, 300, 0, 200):
        m = g.parse_move(engine_move(b, ev))
        for what, p in physical_actions(g, m):  # the engine's move, made by the player
            b.set_sensor(lay.sensor_of(p), 0 if what == "lift" else 1)
            b.advance(150)
        g.push(m)
        b.advance(delay)  # the reply begun 0-300 ms after the engine's move stands
        r = rng.choice([x for x in g.legal_moves() if not g.captured_points(x)] or g.legal_moves())
        for what, p in physical_actions(g, r):
            b.set_sensor(lay.sensor_of(p), 0 if what == "lift" else 1)
            b.advance(200)
        g.push(r)
        b.advance(600)
        ev = b.events()
        assert [e["ev"] for e in ev if e["ev"] == "correction"] == [], (delay, ev)
        assert _moves(ev) == [_text_after(g, 2), _text_after(g, 1)], (delay, ev)
        st = b.status()
        assert st["ply"] == g.ply, (delay, st)
        if not st["thinking"]:
            assert st["fen"] == g.fen(), (delay, st, g.fen())


def _press(b, sensor, hold=1000, rest=0):
    """A deliberate press of a menu pit or pad: away from its rest value for ``hold`` ms."""
    b.set_sensor(sensor, 1 - rest)
    b.advance(hold)
    b.set_sensor(sensor, rest)
    b.advance(600)


def test_menu_filling_the_pits_starts_nothing_and_start_is_never_a_resign_pad(board, tmp_path):
    from playboard.app.state import MENU_GAME, MENU_MODE, MENU_START, PADS_ON_TOGUZ
    lay = load_layout("toguz")
    # Tobit, two players, START pressed three times (an impatient visitor): the game
    # begins, nobody resigns (START is never a play pad); Black's resign pad does
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.advance(300)
    b.events()
    for c in (MENU_GAME[1], MENU_MODE[0], MENU_START, MENU_START, MENU_START):
        _press(b, lay.sensor_of(c))
    ev = b.events()
    st = b.status()
    assert st["game"] == "tobit" and st["state"] in ("setup", "play"), st
    assert not [e for e in ev if e["ev"] in ("arm", "over")], ev
    assert MENU_START not in PADS_ON_TOGUZ
    _press(b, lay.sensor_of(PADS_ON_TOGUZ[3]))
    _press(b, lay.sensor_of(PADS_ON_TOGUZ[3]))
    st = b.status()
    assert st["state"] == "over" and st["result"] == "1-0", st
    # staff fill pit after pit (0.3-2.5 s apart), each sensor bouncing as the balls
    # drop, START among them: nothing is chosen, no game starts
    rng = random.Random(5)
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash2"))
    b.advance(300)
    b.events()
    for c in list(range(18)) + [MENU_START, 5]:
        s = lay.sensor_of(c)
        for _ in range(rng.randint(1, 3)):
            b.set_sensor(s, 1)
            b.advance(rng.randint(20, 59))
            b.set_sensor(s, 0)
            b.advance(rng.randint(10, 39))
        b.set_sensor(s, 1)
        b.advance(rng.randint(300, 2499))
    b.advance(6000)
    ev = b.events()
    st = b.status()
    assert st["state"] == "menu" and st["game"] == "toguz" and st["mode"] == "two", st
    assert not [e for e in ev if e["ev"] == "game"] and st["store"]["games"] == 0, (st, ev[-5:])
