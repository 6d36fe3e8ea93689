"""Tobit moves the rules refuse, on the real firmware (``SimBoard`` on the model of the
chip) with a player's timing: the piece lifted, held, then put down where it may not
go. The board's ``correction`` event says why in the rules' terms (its ``why``,
``playboard.board.tobit_why``), the host's words (``words.event_words``) say what to do,
and the LEDs light the point to put the piece back on and the one to take it off
(issue 34; RULES.md 2.4-2.8)."""
import pytest

from enginewait import engine_move

from playboard.board import tobit_why as W
from playboard.board.layout import load_layout
from playboard_host.simboard import micropython_binary
from playboard_host.words import event_words

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")

LAY = load_layout("tobit")


def _start(b, tmp_path, moves=(), mode="two"):
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.new_game("tobit", mode)
    b.advance(300)
    b.set_up()
    b.advance(600)
    for text in moves:
        a, z = (int(x) for x in text.split("-"))
        _move(b, a, z)
    st = b.status()
    assert st["ply"] == len(moves), st
    b.events()


def _move(b, a, z, hold=700, settle=700):
    """A player's hand: the piece lifted from ``a``, held ``hold`` ms (a thought; the
    tracker sees the lift alone), put down on ``z``, then ``settle`` ms."""
    b.lift(a)
    b.advance(hold)
    b.place(z)
    b.advance(settle)


def _correction(b, ms=4000):
    evs = []
    for _ in range(ms // 250):
        evs += b.events()
        got = [e for e in evs if e["ev"] == "correction"]
        if got:
            return got[0], evs
        b.advance(250)
    raise AssertionError("no correction event: %r" % evs)


def _lit(b, point):
    return b.leds()[LAY.led_of(point)]


@pytest.mark.parametrize("moves, frm, to, why, fields, words", [
    # 7-14 28-21: White must capture 14:28 (over 21); 8 lifted (held: the lift alone is
    # already refused), then put on 15
    (("7-14", "28-21"), 8, 15, W.WHY_CAPTURE, {"move": "14:28", "over": [21], "to": 0},
     "refused: a capture is compulsory: 14:28 takes the piece on point 21 (RULES.md 2.7); the man on point 8 "
     "cannot capture, so it may not move. What to do: put it back on point 8, then capture: 14:28"),
    # the first move, made by Black
    ((), 30, 23, W.WHY_TURN, {"to": 0},
     "refused: it is White's move: Black's piece on point 30 may not move now. What to do: put it back on "
     "point 30; White plays first (e.g. "),
    # 7-14 30-23: White's man on 14 stepped back to 7
    (("7-14", "30-23"), 14, 7, W.WHY_BACK, {"to": 7, "ends": [13, 15, 21]},
     "refused: a man never moves backwards (RULES.md 2.4): point 14 to point 7 is a step back. What to do: "
     "take it off point 7 and put it back on point 14; it may go to points 13, 15 or 21"),
    # a man put two points away
    ((), 7, 20, W.WHY_DEST, {"to": 20, "ends": [14]},
     "refused: the man on point 7 cannot go to point 20: a man steps to the next free point along a line, "
     "forward, left or right (RULES.md 2.4). What to do: take it off point 20 and put it back on point 7; "
     "it may go to point 14 (e.g. 7-14)"),
])
def test_a_wrong_tobit_move_says_why_and_what_to_do(board, tmp_path, moves, frm, to, why, fields, words):
    b = board()
    _start(b, tmp_path, moves)
    turn = b.status()["turn"]
    _move(b, frm, to)
    ev, evs = _correction(b)
    assert ev["why"] == why and ev["point"] == frm, ev
    for k, v in fields.items():
        assert (sorted(ev[k]) if k == "ends" else ev[k]) == v, ev
    assert [e["ev"] for e in evs if e["ev"] in ("lift", "place", "correction")][:1] == ["lift"]
    line = event_words(ev, "tobit", turn)
    assert words in line and "why" not in line, line
    # the LEDs: the piece's point asks for it back (mint), the wrong point to be cleared (red)
    b.advance(300)
    assert _lit(b, frm) != (0, 0, 0) and _lit(b, to)[0] > 0, (_lit(b, frm), _lit(b, to))
    # put right: the board says so, and nothing was played
    b.lift(to)
    b.advance(200)
    b.place(frm)
    b.advance(700)
    assert "resolved" in [e["ev"] for e in b.events()]
    assert b.status()["ply"] == len(moves)


def test_another_move_while_the_engines_is_shown_says_to_make_the_engines(board, tmp_path):
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.new_game("tobit", "black", 1)  # the engine plays White
    b.advance(300)
    b.set_up()
    shown = engine_move(b, limit_ms=10000, step_ms=250)  # the engine's move, shown
    frm = int(shown.replace(":", "-").split("-")[0])
    other = 8 if frm != 8 else 9
    _move(b, other, 15 if other == 8 else 16)
    ev, evs = _correction(b)
    assert (ev["why"], ev["point"], ev["move"]) == (W.WHY_ENGINE, other, shown), ev
    line = event_words(ev, "tobit", 0)
    assert ("refused: the engine's move %s is shown (its points lit): only that move is accepted now. What to "
            "do: put it back on point %d, then make the engine's move %s" % (shown, other, shown)
            ) in line, line
