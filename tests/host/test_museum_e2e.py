"""Museum mode end to end on the simulated board (whole firmware, chip's heap): a Tobit
game begun by setting the pieces' start position (docs/museum.md), with human timing."""
import contextlib
import io
import random

import pytest

from playboard.board.layout import load_layout
from playboard_host import cli
from playboard_host.simboard import micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")

WHITE = range(1, 13)  # Tobit's start: White on points 1..12, Black on 27..38
BLACK = range(27, 39)


def _settings(b, *words):
    """``playboard settings WORDS`` on board ``b``'s link; what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["settings"] + list(words) + ["--port", b.port, "--timeout", "5"]) == 0
    return out.getvalue()


def _put(b, rng, s, v):
    """A piece put on (v 1) or taken off (v 0) sensor ``s`` with 0-3 contact bounces."""
    for _ in range(rng.randint(0, 3)):
        b.set_sensor(s, v)
        b.advance(3)
        b.set_sensor(s, 1 - v)
        b.advance(2)
    b.set_sensor(s, v)


def _set_pieces(b, rng, points, slip=True):
    """Put a piece on each of ``points`` in a shuffled order, 0.3-1.5 s apart; with
    ``slip`` one piece first goes on a middle point and is moved to its own."""
    lay = load_layout("tobit")
    pts = list(points)
    rng.shuffle(pts)
    for i, p in enumerate(pts):
        if slip and i == len(pts) // 2:
            wrong = lay.sensor_of(rng.randrange(13, 27))
            _put(b, rng, wrong, 1)
            b.advance(rng.randint(300, 900))
            _put(b, rng, wrong, 0)
            b.advance(rng.randint(200, 600))
        _put(b, rng, lay.sensor_of(p), 1)
        b.advance(rng.randint(300, 1500))


def test_setting_the_tobit_start_position_begins_a_game_in_locked_mode(board, tmp_path):
    rng = random.Random(7)
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    _settings(b, "--profile", "museum")  # locked: toguz, tobit, tihbat; two, white
    b.advance(500)
    b.events()
    assert b.status()["state"] in ("menu", "attract")
    # all but the last piece: nothing begins, whatever the order and the slips
    _set_pieces(b, rng, list(WHITE) + list(BLACK)[:-1])
    st = b.status()
    assert st["state"] == "menu" and st["store"]["current"] is None, st
    # the last piece: a Tobit game begins, its set-up already done (the pieces are there)
    _put(b, rng, load_layout("tobit").sensor_of(38), 1)
    b.advance(1500)
    st = b.status()
    assert st["state"] == "play" and st["game"] == "tobit" and st["ply"] == 0, st
    assert st["mode"] == "two" and st["store"]["current"] is not None, st
    ev = b.events()
    assert any(e["ev"] == "menu" and e.get("set") for e in ev), ev
    # taking a piece off and putting it back in play begins nothing new
    gid = st["store"]["current"]
    s = load_layout("tobit").sensor_of(5)
    _put(b, rng, s, 0)
    b.advance(800)
    _put(b, rng, s, 1)
    b.advance(1500)
    st = b.status()
    assert st["state"] == "play" and st["store"]["current"] == gid, st


def test_the_start_position_begins_nothing_when_tobit_is_not_offered(board, tmp_path):
    rng = random.Random(11)
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    _settings(b, "set", "locked", "true", "lock_link", "false", "games", "toguz,tihbat")
    b.advance(500)
    _set_pieces(b, rng, list(WHITE) + list(BLACK), slip=False)
    b.advance(1500)
    st = b.status()
    assert st["state"] == "menu" and st["store"]["current"] is None, st
    # offered again (the link unlocked): a piece lifted and put back completes it
    _settings(b, "set", "games", "toguz,tobit,tihbat")
    s = load_layout("tobit").sensor_of(30)
    _put(b, rng, s, 0)
    b.advance(700)
    _put(b, rng, s, 1)
    b.advance(1500)
    st = b.status()
    assert st["state"] == "play" and st["game"] == "tobit", st


def test_a_game_against_the_engine_begins_after_the_museum_profile_on_a_littlefs_board(board, tmp_path):
    # The museum profile set over the link, then a game against the engine chosen on the
    # menu pads at once: no restart (issue 30: the lock's restart, which interned names
    # on a whole heap, is gone), the game begins beside the link's code
    from playboard.app.state import MENU_GAME, MENU_LEVEL, MENU_MODE, MENU_START
    from playboard_host.gestures import press_sensor

    b = board()
    b.start("sim", image=str(tmp_path / "flash.img"), blocks=64)  # littlefs, as the board's
    _settings(b, "--profile", "museum")
    b.advance(5000)
    assert b.restarts == 0
    st = b.status()
    assert st["state"] in ("menu", "attract"), st
    lay = load_layout("toguz")
    for c in (MENU_GAME[0], MENU_MODE[1], MENU_LEVEL[1], MENU_START):  # Toguz, White v the engine, level 2
        press_sensor(b, lay.sensor_of(c))
        b.advance(700)
    b.advance(3000)
    st = b.status()
    assert st["state"] == "play" and st["mode"] == "white" and not st.get("memory_errors"), st
    assert b.restarts == 0


def _menu_game(b, pad, mode=0, level=0):
    """Choose game ``pad`` and mode ``mode`` (level ``level`` against the engine) by
    deliberate presses and press START; the board's status after."""
    from playboard.app.state import MENU_GAME, MENU_LEVEL, MENU_MODE, MENU_START
    from playboard_host.gestures import press_sensor
    lay = load_layout("toguz")
    if b.status()["state"] == "attract":  # a touch wakes the menu
        press_sensor(b, lay.sensor_of(4))
    b.advance(700)
    cells = [MENU_GAME[pad], MENU_MODE[mode]] + ([MENU_LEVEL[level - 1]] if mode else []) + [MENU_START]
    for c in cells:
        press_sensor(b, lay.sensor_of(c))
        b.advance(700)
    b.advance(3000)
    return b.status()


def test_a_locked_board_begins_every_game_syncs_and_opens_the_staff_menu_after_a_power_up(board, tmp_path):
    """The soak's syncs refused, staff visits failed and games not begun (issue 14): after
    a power-up the museum's games (Toguz Kumalak, Tobit, Tihbat, the engine) begin one
    after the other, the sync is answered, the staff gesture opens the staff menu."""
    from playboard_host.gestures import staff_gesture
    b = board()
    b.start("sim", image=str(tmp_path / "flash.img"), blocks=64)
    _settings(b, "--profile", "museum")
    b.restart()  # switched off and on after the profile (docs/museum.md): no link loaded
    b.advance(500)
    begun = 0
    for pad, mode, name in ((0, 0, "toguz"), (1, 0, "tobit"), (3, 0, "tihbat"), (0, 1, "toguz")):
        st = _menu_game(b, pad, mode, 2)  # Toguz Kumalak, Tobit, Tihbat, the engine
        begun += st["state"] in ("setup", "play") and st["game"] == name
        b.menu()  # (the visitor walks away: the board's menu)
        b.advance(500)
        b.mem()  # (a collection, as the heap is read at each closing)
    b.events()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        code = cli.main(["sync", "--port", b.port, "--library", str(tmp_path / "lib.sqlite"), "-q"])
    assert code == 0, err.getvalue()
    assert begun == 4
    staff_gesture(b)  # the four corners held 3.2 s, twice
    st = b.status()
    assert st["state"] == "staff" and not st.get("memory_errors"), st
    b.menu()
    b.advance(500)


def test_a_tobit_set_up_nobody_has_begun_is_left_by_start_pressed_again_for_the_menu(board, tmp_path):
    """The soak's "other game" visitors (issue 14; docs/museum-reference.md, "What visitors can
    do"): a Tobit game begun by its pieces leaves Tobit chosen in the menu; the pieces
    swept off, the next visitor's game press begun 75 ms after a stray touch is no press
    (QUIET_MS), so START begins the menu's choice: Tobit's set-up. START pressed
    deliberately again, before the set-up stands (no piece played), closes that game
    as abandoned (no move) and opens the menu, the last choices kept; the visitor then
    chooses their game. A brief touch of START does nothing, and once the set-up stands
    START does nothing either (the resign pads end a game)."""
    from playboard.app.state import MENU_GAME, MENU_MODE, MENU_START
    from playboard_host.gestures import press_sensor
    rng = random.Random(14)
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    _settings(b, "--profile", "museum")
    b.advance(500)
    tg, tb = load_layout("toguz"), load_layout("tobit")
    _set_pieces(b, rng, list(WHITE) + list(BLACK), slip=False)
    b.advance(1500)
    st = b.status()
    assert st["state"] == "play" and st["game"] == "tobit", st
    b.menu()  # (the visitor walks away: its game closed, the menu)
    b.advance(500)
    for p in list(WHITE) + list(BLACK):  # the pieces swept off
        _put(b, rng, tb.sensor_of(p), 0)
        b.advance(rng.randint(40, 200))
    b.advance(1500)
    st = b.status()
    assert st["state"] == "menu" and st["game"] == "tobit", st  # (Tobit still chosen)
    # a stray touch, then Tihbat pressed 75 ms after it: no press; two players, START
    b.set_sensor(tg.sensor_of(12), 1)
    b.advance(200)
    b.set_sensor(tg.sensor_of(12), 0)
    b.advance(75)
    press_sensor(b, tg.sensor_of(MENU_GAME[3]))
    assert b.status()["game"] == "tobit"
    b.advance(600)
    for c in (MENU_MODE[0], MENU_START):
        press_sensor(b, tg.sensor_of(c))
        b.advance(600)
    st = b.status()
    assert st["state"] == "setup" and st["game"] == "tobit" and st["ply"] == 0, st
    gid = st["store"]["current"]
    b.events()
    # a brief touch of START (0.3 s) and a deliberate press of the Tihbat pit do nothing
    b.set_sensor(tg.sensor_of(MENU_START), 1)
    b.advance(300)
    b.set_sensor(tg.sensor_of(MENU_START), 0)
    b.advance(600)
    press_sensor(b, tg.sensor_of(MENU_GAME[3]))
    b.advance(600)
    assert b.status()["state"] == "setup"
    # START pressed deliberately: the set-up's game closed as abandoned, the menu
    press_sensor(b, tg.sensor_of(MENU_START))
    b.advance(600)
    st = b.status()
    assert st["state"] == "menu" and st["store"]["current"] is None and st["game"] == "tobit", st
    ev = b.events()
    assert {"ev": "abandoned", "ply": 0} in [{k: e[k] for k in ("ev", "ply") if k in e} for e in ev], ev
    assert not [e for e in ev if e["ev"] == "over"], ev  # (no result: nobody resigned)
    for c in (MENU_GAME[0], MENU_MODE[0], MENU_START):
        press_sensor(b, tg.sensor_of(c))
        b.advance(600)
    st = b.status()
    assert st["state"] == "play" and st["game"] == "toguz" and st["store"]["current"] != gid, st
    # Tobit again, its set-up made to stand (the pieces set): START does nothing now
    b.menu()
    b.advance(500)
    for c in (MENU_GAME[1], MENU_START):
        press_sensor(b, tg.sensor_of(c))
        b.advance(600)
    assert b.status()["state"] == "setup"
    _set_pieces(b, rng, list(WHITE) + list(BLACK), slip=False)
    b.advance(1500)
    assert b.status()["state"] == "play"
    press_sensor(b, tg.sensor_of(MENU_START))
    b.advance(600)
    st = b.status()
    assert st["state"] == "play" and st["game"] == "tobit" and st["ply"] == 0, st


def _resigned_toguz(board, tmp_path):
    """A board whose Toguz Kumalak game (two players, chosen on the menu by deliberate
    presses) White has just resigned (the resign pad pressed twice); returns it."""
    from playboard.app.state import MENU_GAME, MENU_MODE, MENU_START
    from playboard_host.gestures import PAD_WHITE_RESIGN, press_pad, press_sensor
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.advance(500)
    tg = load_layout("toguz")
    for c in (MENU_GAME[0], MENU_MODE[0], MENU_START):
        press_sensor(b, tg.sensor_of(c))
        b.advance(500)
    press_pad(b, "toguz", PAD_WHITE_RESIGN)
    press_pad(b, "toguz", PAD_WHITE_RESIGN)
    return b


def test_the_staff_gesture_opens_the_staff_menu_after_a_finished_games_result_went_back_to_the_menu(board, tmp_path):
    """The soak's failed staff visits (issue 14): each the morning after a day whose last
    game finished. The result, its rest taken when it shows, never took the "board at
    rest" of REST_MS (``App._settled`` left False), and the menu it went back to kept
    that: the gesture's four corners held 3 s were taken as the board's new rest, the
    gesture lost. Not memory (42 KB free)."""
    from playboard_host.gestures import staff_gesture
    b = _resigned_toguz(board, tmp_path)
    b.advance(3000)
    assert b.status()["state"] == "over"
    b.advance(125000)  # attract_s (120 s): the result goes back to the menu by itself
    assert b.status()["state"] == "menu"
    staff_gesture(b)
    assert b.status()["state"] == "staff"


def test_the_staff_gesture_opens_the_staff_menu_from_a_finished_games_result(board, tmp_path):
    """The staff gesture made while a finished game's result shows (before the menu),
    as staff finding a visitor's game over would: the result takes the board as it
    stands for its rest when it shows (2.5 s after the last move); the four corners held
    3 s were then taken for the board's new rest (REST_MS) as on an unsettled board,
    and the gesture lost. The result's rest now settles the board, as the menu's does."""
    from playboard_host.gestures import staff_gesture
    b = _resigned_toguz(board, tmp_path)
    b.advance(3000)  # the result shows
    st = b.status()
    assert st["state"] == "over" and st["result"] == "0-1", st
    staff_gesture(b)
    assert b.status()["state"] == "staff"
    b.advance(61000)  # the staff menu closes by itself: the menu
    assert b.status()["state"] == "menu"
