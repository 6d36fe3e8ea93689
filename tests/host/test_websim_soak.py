"""A slice of the web simulator's 8-hour soak (issue 30; the whole 8 hours is
bench/py_websim_soak.py): 45 virtual minutes on the page's Session, every game and mode,
20 New games, a sync and a live follower every 10 minutes, takebacks, the engine at
its top level; and the defects the soak found, each by name."""
import tempfile

import pytest

from playboard.games.registry import new_game
from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def test_45_board_minutes_on_the_page_lose_nothing_and_sync_every_game_once():
    from playboard_host.websim import soak

    c = soak.run(minutes=45, new_games=20, sync_min=10, seed=30)
    assert c["alive"] and c["board_minutes"] >= 45
    assert c["new_games"] == 20
    assert all(c["games_" + g] == 5 for g in soak.GAMES)
    assert [c["modes_" + m] for m in soak.MODES] == [8, 4, 4, 4]  # the sixteen in turn, then 4 more
    assert c["top_level_games"] == 12  # the first round of 16: each engine mode at the top level
    assert c["syncs"] == 5 and c["live_attaches"] == 5  # at 10, 20, 30, 40 minutes and the last
    assert c["live_events"] > 0  # the follower saw the game played on while attached
    assert c["takebacks"] > 10 and c["player_moves"] > 200 and c["engine_moves"] > 50
    assert c["refused"] == 0, c["refusals"]
    assert c["memory_errors"] == 0
    assert c["restarts"] == 0
    assert c["played"] == 20
    assert c["library_games"] == c["played"] and c["missing"] == 0 and c["extra"] == 0 and c["twice"] == 0


# the Tihbat game the soak played (seed 30, game 8): after South's last move North's pits
# are empty, so North passes at once (Tihbat 3.4); played here by two players, so that no
# engine's draw decides the moves
TIHBAT_PASS = ['2', '1', '2', '1', '1', '2', '1', '1', '1', '1', '1', '2', '1']


def test_a_takeback_of_a_forced_tihbat_pass_takes_back_the_move_before_it_too():
    """Found by the soak: the takeback button after a forced pass took back the pass
    alone; against the engine it then showed "pass" every frame and the game stood still
    (a pass needs no hand on the board). A forced pass is no choice: the takeback takes
    it back with the move before it, and the game goes on from there."""
    from playboard_host.websim.session import BOARD_DEF, board_buttons

    with SimBoard() as b:
        b.start(BOARD_DEF, fs_dir=tempfile.mkdtemp(prefix="playboard-pass-"), think="nodes")
        b.new_game("tihbat", "two")
        b.advance(500)
        g = new_game("tihbat")
        for t in TIHBAT_PASS:
            m = g.parse_move(t)
            b.tap(g.turn * g.n_pits + m)
            b.advance(2600)
            g.push(m)
        b.advance(3000)
        assert [e.get("move") for e in b.events() if e.get("ev") == "move"][-1:] == ["pass"]  # by itself
        assert b.status()["ply"] == 14
        sen = board_buttons(BOARD_DEF)["takeback"]
        b.set_sensor(sen, 1)
        b.advance(100)
        b.set_sensor(sen, 0)
        b.advance(3000)
        assert [e["ply"] for e in b.events() if e["ev"] == "undo"] == [13, 12]  # two plies back, one press
        st = b.status()
        assert st["ply"] == 12 and st["turn"] == 0
        # South plays its last move again; North passes again by itself
        last = g.pop()  # (the test's game: 13 moves, the pass not pushed)
        b.tap(g.turn * g.n_pits + last)
        g.push(last)
        b.advance(2600)
        b.advance(3000)
        assert [e.get("move") for e in b.events() if e.get("ev") == "move"] == [TIHBAT_PASS[-1], "pass"]
        g.push(g.parse_move("pass"))
        assert b.status()["ply"] == 14 and b.status()["fen"] == g.fen()
