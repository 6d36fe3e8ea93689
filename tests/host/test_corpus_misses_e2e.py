"""The human-timed corpus's misses (bench/py_play.py), each replayed on the real
firmware (``SimBoard`` on the model of the chip, lift selection) as the corpus's hands
made it, from a game resumed at the position it came in (the record put on the
board's flash first, as a power cut would leave it):

- Toguz Kumalak, the engine's last move carried out in the result (corpus toguz
  black 101000402): the player lifted the engine's pit 1.7 s after the result came,
  and the sowing's first ball went back into it 0.81 s later, after the result had
  shown (2.5 s): a deliberate press of a menu pit to the board, which opened the
  menu; the result was never seen (and the corpus's menu press found the menu).
- Tihbat, a capture taken off late (corpus tihbat black 102001049): North's 16 balls
  sown into full pits (no sensor changed) took 2.2 s, the view confirmed by itself,
  the engine answered at once, and North's captured pit emptied by hand, just
  before the engine's pit was lifted, was read as North's reply to the engine's move:
  a move nobody made.
"""
import os

import pytest

from playboard.board.layout import load_layout
from playboard.games.registry import new_game
from playboard.record import Store
from playboard_host.simboard import micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")


def _resumed(board, tmp_path, name, tags, moves=(), fen=None):
    """A ``SimBoard`` whose flash holds an unfinished game of ``name`` (``tags``: its
    Mode and Level; from ``fen`` or the start, ``moves`` made), its pits' sensors as
    the position stands (a pit with balls reads 1): the board resumes it at
    power-up. Returns (board, the game as the rules core has it)."""
    fs = tmp_path / "flash"
    os.makedirs(str(fs / "games"))
    st = Store(str(fs / "games"))
    st.new_game(name, tags, fen=fen)
    g = new_game(name, fen=fen)
    for m in moves:
        assert st.add_move(g.move_text(m))
        g.push(m)
    st.close()
    b = board()
    b.start("sim", fs_dir=str(fs), seed=1)
    lay = load_layout(name)
    for c in range(2 * g.n_pits):
        b.set_sensor(lay.sensor_of(c), 1 if g.pos[c] else 0)
    return b, g


def _engine(b, limit_ms=20000):
    """The engine's event (its move shown) and the events read till then and in the
    next frame, the board run 10 ms at a time till it."""
    seen = []
    for _ in range(limit_ms // 10):
        seen += b.events()
        ev = [e for e in seen if e["ev"] == "engine"]
        if ev:
            b.advance(10)
            return ev[-1], seen + b.events()
        b.advance(10)
    raise AssertionError("no engine move: %s" % b.status())


# North (the player, mode black) to move; North 3's one ball into North 4 (full: no
# sensor changes), then South (the engine) has pit 9 alone (3 balls: back into pit 9,
# North 1, North 2): North 2 made even is taken, 80 + 2 = 82 wins (RULES.md 1.6)
TOGUZ_LAST = "11S,11S,11S,12S,12S,12S,1S,1S,8S/8,3S 80 0 N 40"


def test_toguz_the_engines_last_move_carried_out_in_the_result_is_no_menu_press(board, tmp_path):
    b, g = _resumed(board, tmp_path, "toguz", {"Mode": "black", "Level": "1"}, fen=TOGUZ_LAST)
    lay = load_layout("toguz")
    b.advance(500)
    b.set_sensor(lay.sensor_of(11), 0)  # North 3's ball lifted, put into North 4
    e, ev = _engine(b)
    assert [x["move"] for x in ev if x["ev"] == "move"] == ["34", "92"], ev
    assert [x["result"] for x in ev if x["ev"] == "over"] == ["1-0"], ev
    t_over = e["t"]
    # the corpus's hands: the engine's pit lifted 1.69 s after the result came, its
    # sowing's first ball back 0.81 s later (held past HOLD_MS, let go after
    # OVER_DELAY_MS); the next balls fall into full pits (no sensor changes), the
    # capture taken off a second later
    b.advance(t_over + 1690 - b.ping())
    b.set_sensor(lay.sensor_of(8), 0)
    b.advance(810)
    b.set_sensor(lay.sensor_of(8), 1)
    b.advance(1000)
    b.set_sensor(lay.sensor_of(10), 0)  # North 2's two balls to South's kazan
    b.advance(500)
    st = b.status()
    ev = b.events()
    assert st["state"] == "over" and st["result"] == "1-0", (st, ev)
    assert [x for x in ev if x["ev"] == "menu"] == []
    # a deliberate press of a menu pit (North 5's balls lifted 1 s and put back), the
    # board at rest after the last sowing (REST_MS), opens the menu
    b.advance(3500)
    b.set_sensor(lay.sensor_of(13), 0)
    b.advance(1000)
    b.set_sensor(lay.sensor_of(13), 1)
    b.advance(200)
    assert b.status()["state"] == "menu"


def test_tihbat_a_capture_taken_off_after_the_view_confirmed_is_no_reply(board, tmp_path):
    # corpus tihbat black 102001049: South (the engine) 2, North 1, South 2, North 1,
    # South 1; North to move at 3, 5 / 4, 16 (South 1, 2 / North 1, 2)
    b, g = _resumed(board, tmp_path, "tihbat", {"Mode": "black", "Level": "1"}, moves=(1, 0, 1, 0, 0))
    lay = load_layout("tihbat")
    b.advance(500)
    b.events()
    # North 2's 16 balls lifted, the first back in 0.47 s, the other 15 into full pits
    # (no sensor changes) for 2.2 s; North 1's balls are taken (Tihbat 3.3) but the
    # hand is still sowing when the view confirms (2.5 s after the last change)
    n2, n1 = lay.sensor_of(3), lay.sensor_of(2)
    b.set_sensor(n2, 0)
    b.advance(470)
    b.set_sensor(n2, 1)
    g.push(1)
    assert g.pos[2] == 0  # (North 1 taken)
    e, ev0 = _engine(b)
    assert [x["move"] for x in ev0 if x["ev"] == "move"] == ["2", e["move"]], ev0
    m = g.parse_move(e["move"])
    g.push(m)
    assert g.pos[2] and g.is_legal(0)  # the engine's sowing fills North 1: North may play it
    b.advance(60)
    b.set_sensor(n1, 0)  # North 1's captured balls taken off at last, 0.13 s after the engine moved
    b.advance(250)
    s_eng = lay.sensor_of(m)
    b.set_sensor(s_eng, 0)  # the engine's pit lifted to carry its move out
    b.advance(540)
    b.set_sensor(s_eng, 1)  # its first ball back
    b.advance(240)
    b.set_sensor(n1, 1)  # its sowing reaches North 1
    b.advance(200)
    ev = b.events()
    assert [x for x in ev if x["ev"] == "move"] == [], ev  # North 1 emptied is no reply
    assert [(x["cell"], x["why"]) for x in ev if x["ev"] == "error"] == [(2, 5)], ev
    assert [x for x in ev if x["ev"] == "undo"] == []
    # North's real reply, once the engine's sowing is done: North 2 lifted and sown
    b.advance(3000)
    b.events()
    b.set_sensor(n2, 0)
    b.advance(600)
    ev = b.events()
    want = g.move_text(1)
    g.push(1)
    assert [x["move"] for x in ev if x["ev"] == "move"] == [want], ev
    assert b.status()["fen"] == g.fen()
