"""No leak: games back to back on the in-process rig leave the heap flat.

A module of its own, so that under MicroPython (tests/test_micropython.py: one
process per rig test) the heap holds the app and a minimal driver (this module,
apprig, fakeflash, tlib, the runner) and not test_memory's fault-injection harness.
"""
import gc

from tlib import SkipTest, is_micropython
from apprig import Rig
from playboard.app.state import RESERVE


def test_games_back_to_back_leave_the_heap_flat():
    """24 games in one session (make bench: 200, every game and mode): the heap after
    each game, collected, within 2 KB of the same mode's first (after a first round)."""
    if not is_micropython():
        raise SkipTest("heap figures need MicroPython's gc.mem_alloc")
    gc.collect()
    r = Rig()
    app = r.app
    modes = ("two", "demo", "white", "black")
    allocs = []
    for i in range(24):
        app.link_set_game({"game": "tihbat", "mode": modes[i % 4], "level": 1, "force": True})
        r.begun()
        assert app.game is not None and app.game.name == "tihbat", (i, app.memory_errors)
        r.adv(1500)
        app.link_set_game({"resign": 0})  # White resigns (the link, as a button would)
        r.adv(20)
        app.open_menu(r.t)
        r.adv(20)
        for k in list(r.fs.files):  # the finished games are on flash, not in this heap
            if k.endswith(".rec") and k != "/games/g%d.rec" % (i + 1):
                del r.fs.files[k]
        r.events = []  # (the rig's own list)
        gc.collect()
        # the menu's reserve (state.RESERVE, kept whole for the next game's code) is
        # there when the heap had a block that size once the game was gone, which
        # depends on where the game's last objects lay: room held, not a leak
        allocs.append(gc.mem_alloc() - (RESERVE if app._reserve is not None else 0))
    spread = 0
    for j in range(4):
        xs = allocs[4 + j::4]
        spread = max(spread, max(xs) - min(xs))
    assert spread <= 2048, (spread, allocs)
    assert not app.pending and app.memory_errors == 0, (app.pending, app.memory_errors)
