"""The engine's levels on the board: each game's top (9; Tobit's 11; on a native board Tobit's 13 and
Toguz Kumalak's 10; docs/engine.md
"Levels"), the menu's way past level 8 (the level-8 pad pressed again), its lights,
and every way a level reaches a game (menu, link, settings, a resumed record) kept
within the game's levels."""
import gc

from apprig import Rig
from tlib import SkipTest, is_micropython, raises
from playboard.app.state import GAMES, top_level, MENU_GAME, MENU_MODE, MENU_LEVEL, MENU_START
from playboard.board.lights import LAST, ON, ACCENT, ACCENT_BLINK
from playboard.engine.search import Engine, levels_of
from playboard.games.registry import new_game


class _Menu:
    """An app as ``ui.offered`` sees it: its settings, chosen game and board definition."""

    def __init__(self, game, native):
        self.settings = {}
        self.game_name = game
        self.cfg = {"engine": {"native": native}}


def test_each_games_top_level_is_its_engine_table():
    from playboard.app.ui import offered
    for native, tops in ((False, [9, 11, 11, 9]), (True, [10, 13, 13, 9])):
        assert [len(levels_of(g, native)) - 1 for g in GAMES] == tops
        assert [offered(_Menu(g, native))[2] for g in GAMES] == tops
        assert [top_level(g, {"engine": {"native": native}}) for g in GAMES] == tops  # (the link's too)
    eng = Engine(tt_size=0)
    raises(ValueError, eng.start, new_game("toguz"), 0, None, 100)
    # above the game's top (a record's level from another game): the top, no share
    for name, top in (("toguz", 9), ("tobit", 11)):
        g = None
        gc.collect()  # (under the simulator's model, the chip's heap: tests/test_micropython.py)
        g = new_game(name)
        m = eng.think(g, top + 2, nodes=300)
        assert eng.nodes == 300
        assert m == eng.think(g, top, nodes=300)
    for name in ("tobit", "tobit4"):
        g = None
        gc.collect()
        g = new_game(name)
        m = eng.think(g, 11, nodes=300)
        assert m in g.legal_moves() and eng.nodes == 300


def test_the_links_level_check_follows_each_games_engine_top():
    """``request.check_choice`` (the link's and the menu's check, museum limits too)
    allows each game up to its engine's top (its levels table) where no ``max_level``
    is set, locked or not, and never a number of its own: a top that changes (faked by
    a ``top_level`` 4 higher), the check follows it."""
    from playboard.app import request
    for native in (False, True):
        for g in GAMES:
            top = len(levels_of(g, native)) - 1
            for settings in ({}, {"locked": True}, {"locked": True, "max_level": top - 1}):
                app = _Menu(g, native)
                app.settings = settings
                cap = settings.get("max_level", top)
                assert request.check_choice(g, None, cap, app) == cap
                over = str(raises(ValueError, request.check_choice, g, None, cap + 1, app))
                assert ("above max_level %d" % cap if cap < top else "1..%d, got" % top) in over, over
    real = request.top_level
    try:
        request.top_level = lambda game, cfg: real(game, cfg) + 4  # the engine's tops grown
        app = _Menu("tobit", True)
        app.settings = {"locked": True}
        assert request.check_choice("tobit", None, 17, app) == 17
        assert request.check_choice("toguz", None, None, app) == 14  # (native: 10 + 4)
    finally:
        request.top_level = real


def _level_marks(r):
    li = r.app.lights
    lay = r.app.menu_lay
    return [li.marks[LAST * li.n + lay.led_of(c)] for c in MENU_LEVEL]


def test_the_level_8_pad_goes_on_past_8_in_tobit_and_the_pads_show_it():
    r = Rig()
    r.adv(50)
    r.press("toguz", MENU_GAME[1])  # Tobit
    r.press("toguz", MENU_MODE[1])  # against the engine
    r.press("toguz", MENU_LEVEL[7])
    assert (r.app.game_name, r.app.mode, r.app.level) == ("tobit", "white", 8)
    assert _level_marks(r) == [ON] * 7 + [ACCENT]
    seen = []
    for _ in range(4):
        r.press("toguz", MENU_LEVEL[7])
        seen.append(r.app.level)
        if r.app.level == 10:
            # above 8: pad 8 blinks white, the pads up to level - 8 are white
            assert _level_marks(r) == [ACCENT, ACCENT] + [ON] * 5 + [ACCENT_BLINK]
    assert seen == [9, 10, 11, 8]  # from the top back to 8
    assert [f["level"] for k, f in r.events if k == "menu"][-4:] == [9, 10, 11, 8]
    r.press("toguz", MENU_LEVEL[2])
    assert r.app.level == 3 and _level_marks(r) == [ON, ON, ACCENT] + [0] * 5
    # Toguz Kumalak has 9: a Tobit level above 9 comes down to 9, its pad 8 goes 8, 9, 8
    for _ in range(3):
        r.press("toguz", MENU_LEVEL[7])
    assert r.app.level == 10
    r.press("toguz", MENU_GAME[0])
    assert (r.app.game_name, r.app.level) == ("toguz", 9)
    assert _level_marks(r) == [ACCENT] + [ON] * 6 + [ACCENT_BLINK]
    r.press("toguz", MENU_LEVEL[7])
    assert r.app.level == 8 and _level_marks(r) == [ON] * 7 + [ACCENT]
    r.press("toguz", MENU_LEVEL[7])
    assert r.app.level == 9


def test_a_tobit_game_at_level_11_begins_records_its_level_and_the_engine_replies():
    if is_micropython():
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    r = Rig()
    r.adv(50)
    r.press("toguz", MENU_GAME[1])
    r.press("toguz", MENU_MODE[2])  # the player Black: the engine moves first
    for _ in range(4):
        r.press("toguz", MENU_LEVEL[7])
    assert r.app.level == 11
    r.press("toguz", MENU_START)
    r.begun()
    assert r.app.game.name == "tobit" and r.app.level == 11
    rec = r.store.read(r.store.current)
    assert rec.tags["Level"] == "11" and rec.tags["White"] == "Playboard L11"
    # the pieces on their points: the set-up is done, the engine (White) thinks
    g = r.app.game
    for p in range(1, g.n_points + 1):
        if g.board[p]:
            r.hw.set_sensor(r.sensor("tobit", p), 1)
    r.adv(3000)
    assert ("thinking", {"side": 0, "level": 11}) in r.events
    for _ in range(200):
        if any(k == "engine" for k, f in r.events):
            break
        r.adv(100)
    assert any(k == "engine" for k, f in r.events), r.kinds()[-10:]


def test_a_level_above_the_games_top_never_reaches_its_engine():
    r = Rig()
    r.adv(50)
    # the link: refused for the game chosen (Toguz Kumalak), taken for Tobit
    assert "1..9, got 10" in str(raises(ValueError, r.app.choose, None, None, 10))
    assert "1..9, got 11" in str(raises(ValueError, r.app.choose, "tihbat", None, 11))
    r.app.choose(game="tobit", mode="white", level=11)
    assert r.app.level == 11
    # a setting of 11 (any game's top) shown with Toguz Kumalak chosen: its top
    r.app.choose(game="toguz")
    r.app.settings["level"] = 11
    r.app.link_settings({"level": 11})
    assert r.app.level == 9
    # the link choosing a game with fewer levels: the level comes down to its top
    r.app.choose(game="tobit", level=11)
    r.app.link_set_game({"game": "tihbat", "mode": "white", "start": True})
    r.begun()
    assert r.app.game.name == "tihbat" and r.app.level == 9
    rec = r.store.read(r.store.current)
    assert rec.tags["Level"] == "9"


def test_a_board_with_tobits_native_search_offers_13_tobit_levels():
    # (docs/engine.md: levels 1-11 as on any board, at about the same nodes; 12 and 13
    # above them)
    if is_micropython():
        raise SkipTest("the native search's rig: CPython only (tests/firmware/test_app_native.py)")
    from test_app_native import _rig
    from playboard.engine.search import TOBIT_LEVELS, TOBIT_NATIVE_LEVELS
    assert len(levels_of("tobit", True)) - 1 == 13 and len(levels_of("toguz", True)) - 1 == 10
    assert TOBIT_NATIVE_LEVELS[:9] == TOBIT_LEVELS[:9]  # (the engine's own search: the same)
    for k in (9, 10, 11):  # the native search, about 8 times the nodes: 1/8 of the share
        assert TOBIT_NATIVE_LEVELS[k][2] == 8 * TOBIT_LEVELS[k][2]
    r = _rig(True)
    r.adv(50)
    r.press("toguz", MENU_GAME[1])
    r.press("toguz", MENU_MODE[1])
    for _ in range(6):
        r.press("toguz", MENU_LEVEL[7])
    assert r.app.level == 13 and _level_marks(r) == [ACCENT] * 5 + [ON] * 2 + [ACCENT_BLINK]
    r.press("toguz", MENU_LEVEL[7])
    assert r.app.level == 8
    r.app.choose(level=13)
    assert r.app.level == 13
    assert "1..10, got 13" in str(raises(ValueError, r.app.choose, "toguz", None, 13))
    r.app.choose(game="toguz")  # a game with fewer levels: its top
    assert r.app.level == 10
    # a board without it: Tobit's 11
    r = _rig(False)
    assert "1..11, got 12" in str(raises(ValueError, r.app.choose, "tobit", None, 12))


def test_a_native_board_offers_10_toguz_levels_and_a_board_without_it_9():
    # (docs/engine.md "Levels": 1-7 the engine's own search, 8-10 the native search at
    # 1/40, 1/13 and all of its nodes: 9 is about the old top's nodes, so a 9 saved before
    # plays that strength)
    if is_micropython():
        raise SkipTest("the native search's rig: CPython only (tests/firmware/test_app_native.py)")
    from test_app_native import _rig
    from playboard.engine.search import LEVELS, TOGUZ_NATIVE_LEVELS
    assert TOGUZ_NATIVE_LEVELS[:8] == LEVELS[:8]
    assert [TOGUZ_NATIVE_LEVELS[k][2] for k in (8, 9, 10)] == [40, 13, 1]
    r = _rig(True)
    r.adv(50)
    assert r.app.game_name == "toguz"
    r.press("toguz", MENU_MODE[1])  # against the engine
    r.press("toguz", MENU_LEVEL[7])
    seen = []
    for _ in range(3):  # the level-8 pad pressed at 8 or more, a human's press each
        r.press("toguz", MENU_LEVEL[7])
        seen.append(r.app.level)
        if r.app.level == 10:  # pads 1 and 2 white, pad 8 blinking
            assert _level_marks(r) == [ACCENT, ACCENT] + [ON] * 5 + [ACCENT_BLINK]
    assert seen == [9, 10, 8]  # from the top (10) back to 8
    assert [f["level"] for k, f in r.events if k == "menu"][-3:] == [9, 10, 8]
    # the link: 10 taken, 11 refused
    r.app.choose(game="toguz", mode="white", level=10)
    assert r.app.level == 10
    assert "1..10, got 11" in str(raises(ValueError, r.app.choose, "toguz", None, 11))
    # a board without the native search: 9, the pad goes 8, 9, 8; the link refuses 10
    r = _rig(False)
    r.adv(50)
    r.press("toguz", MENU_MODE[1])
    r.press("toguz", MENU_LEVEL[7])
    seen = []
    for _ in range(2):
        r.press("toguz", MENU_LEVEL[7])
        seen.append(r.app.level)
    assert seen == [9, 8]
    assert "1..9, got 10" in str(raises(ValueError, r.app.choose, "toguz", None, 10))
    r.app.choose(game="toguz", level=9)
    assert r.app.level == 9


def test_the_menu_after_a_resumed_game_above_its_top_on_this_board_offers_the_top():
    # a Tobit game at 13 begun on a board whose search was native, resumed after the
    # board lost it (a files deploy): played at 11 by the engine; the menu after it
    # shows 11 and its START begins 11, not a level 13 the board does not have
    if is_micropython():
        raise SkipTest("the native search's rig: CPython only (tests/firmware/test_app_native.py)")
    import apprig
    from fakeflash import FakeFs

    def rig(native, fs):
        made = apprig._cfg
        cfg = dict(made(), engine={"native": native})
        apprig._cfg = lambda: cfg
        try:
            return Rig(fs)
        finally:
            apprig._cfg = made

    fs = FakeFs()
    r = rig(True, fs)
    r.adv(50)
    r.app.link_set_game({"game": "tobit", "mode": "white", "level": 13})
    r.begun()
    assert r.store.read(r.store.current).tags["Level"] == "13"
    r2 = rig(False, fs)
    r2.begun()
    assert r2.app.game.name == "tobit" and "resumed" in r2.kinds()
    r2.app.link_set_game({"resign": 0})
    r2.app.open_menu(r2.t)
    r2.adv(50)
    assert r2.app.level == 11 and _level_marks(r2) == [ACCENT] * 3 + [ON] * 4 + [ACCENT_BLINK]
    r2.press("toguz", MENU_START)
    r2.begun()
    assert r2.store.read(r2.store.current).tags["Level"] == "11"
