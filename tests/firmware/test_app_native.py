"""A board definition that asks for Tobit's native search (``"engine": {"native":
true}``): the app's engine plays Tobit's top level (11) with it, the move the engine's own
search finds with the same nodes (docs/engine.md). (On a board ``onboard.run`` imports
its code at power-up; the simulated board's app imports it at the first such search.)"""
from tlib import SkipTest, is_micropython

import apprig
from apprig import Rig


def _rig_of(cfg):
    """A Rig whose app is made with the board definition ``cfg``."""
    made = apprig._cfg
    apprig._cfg = lambda: cfg
    try:
        return Rig()
    finally:
        apprig._cfg = made


def _rig(native):
    return _rig_of(dict(apprig._cfg(), engine={"native": native}))


def _tobit_engine_game(r, level=11):
    r.app.link_set_game({"game": "tobit4", "mode": "black", "level": level})  # the engine: White
    while r.app._pending is not None:
        r.adv(10)
    g = r.app.game
    lay = r.app.lay
    for p in range(1, g.n_points + 1):  # the pieces put on their points: set-up done
        if g.board[p]:
            r.hw.set_sensor(lay.sensor_of(p), 1)
    for _ in range(600):
        r.adv(10)
        if "engine" in r.kinds():
            break
    return g, [f for k, f in r.events if k == "engine"]


def test_tobit_top_level_played_by_the_native_search_in_the_apps_frames():
    # the top level: 13 on a board whose search is native, 11 on another; both search
    # the whole budget, so both play the engine's own search's move at that budget
    if is_micropython():
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    from playboard.engine.search import Engine
    for native in (True, False):
        r = _rig(native)
        g, ev = _tobit_engine_game(r, 13 if native else 11)
        assert r.app.level == (13 if native else 11)
        assert r.app.engine.native is native
        # the native search ran (its node count is the event's) or it did not
        assert (getattr(r.app.engine, "_ts", None) is not None) is native
        want = Engine(tt_size=64)  # the engine's own search, the app's table and budget
        m = want.think(g, 11, nodes=r.app.settings.get("think_nodes", 3000))
        assert ev[0] == {"move": g.move_text(m), "ply": 1, "depth": want.depth, "nodes": want.nodes}
        assert r.app.expecting == m


def test_the_native_search_is_loaded_where_the_firmware_is_frozen_unless_the_board_says_no():
    # onboard.run's choice: frozen code costs no heap, a deployed .mpy's 13.7 KB would
    # take issue 12's room; the board definition's word wins either way. A frozen
    # module's __file__ is the path it was frozen from, no file on the board (measured on
    # a frozen image: docs/pico.md); a deployed one's is its file (here: this test's).
    from playboard.app.onboard import native_wanted
    frozen, deployed = "playboard/app/onboard.py", __file__
    assert native_wanted({}, frozen) is True and native_wanted({}, None) is True
    assert native_wanted({}, deployed) is False
    assert native_wanted({"engine": {"tt_size": 256}}, deployed) is False
    assert native_wanted({"engine": {"native": False}}, frozen) is False
    assert native_wanted({"engine": {"native": True}}, deployed) is True


def test_load_native_makes_the_apps_engine_native_where_the_firmware_is_frozen():
    # onboard.run's own path (load_native, then App): the board definition says nothing;
    # deployed (onboard's __file__ a file, as here) the search stays the engine's own,
    # frozen (its __file__ no file) the app's engine plays level 11 natively. The tests
    # above set the definition's word by hand: without this one, load_native importing
    # the module but not telling the app would pass them all.
    if is_micropython():
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    from playboard.app import onboard
    for frozen in (False, True):
        cfg = dict(apprig._cfg())
        cfg.pop("engine", None)
        saved = onboard.__file__
        if frozen:
            onboard.__file__ = "playboard/app/onboard.py"  # a frozen module's (docs/pico.md)
        try:
            assert onboard.load_native(cfg) is frozen
        finally:
            onboard.__file__ = saved
        r = _rig_of(cfg)
        g, ev = _tobit_engine_game(r)
        assert r.app.engine.native is frozen and len(ev) == 1
        assert (getattr(r.app.engine, "_ts", None) is not None) is frozen
