"""Toguz Kumalak selections on the real firmware (``SimBoard`` on the model of the
chip, lift selection): nothing a player does with the pits is silently
ignored or silently played. Two pits at once play nothing; the opponent's pit, an
empty pit, another pit while one is being sown and a pit other than the engine's
each flash red with their reason (the ``error`` event's ``why``, and what else is
lit), and the game is unchanged (docs/tracker.md "Selections that go wrong")."""
import pytest

from playboard.board.layout import load_layout
from playboard.board.mancala_tracker import LIFT_MS
from playboard.games.registry import new_game
from playboard_host.simboard import micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")

LAY = load_layout("toguz")


def _start(b, tmp_path, mode="two", fen=None):
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.new_game("toguz", mode)
    b.advance(300)
    b.events()


def _led(b, cell):
    return b.leds()[LAY.led_of(cell)]


def _red(c):
    return c[0] > 0 and c[1] == 0 and c[2] == 0


def _green(c):
    return c[1] > 0 and c[0] == 0 and c[2] == 0


def _purple(c):
    return c[0] > 0 and c[1] == 0 and c[2] > 0


def _blue(c):
    return c[0] == 0 and c[2] > 0


def _sees(b, cell, test, ms=800):
    """True if ``cell``'s LED passes ``test`` in a sample within ``ms`` (blinking)."""
    for _ in range(ms // 50):
        if test(_led(b, cell)):
            return True
        b.advance(50)
    return False


def _lift(b, cell, hold=200):
    """The balls of ``cell`` lifted (the sensor reads 1 while touched, 0 at rest: as
    SimBoard.tap) for ``hold`` ms, then the debounce's 60 ms and the LIFT_MS a lift must
    hold before it counts (``lift_ms``: one put back sooner is no move)."""
    b.tap(cell, hold)
    b.advance(hold + 60 + LIFT_MS)


def _errors(ev):
    return [(e["cell"], e["why"]) for e in ev if e["ev"] == "error"]


def test_two_pits_at_once_play_nothing_and_both_flash(board, tmp_path):
    b = board()
    _start(b, tmp_path)
    s3, s6 = LAY.sensor_of(2), LAY.sensor_of(5)
    b.set_sensor(s3, 1)  # a hand on South pits 3 and 6, 40 ms apart
    b.advance(40)
    b.set_sensor(s6, 1)
    b.advance(200)
    b.set_sensor(s3, 0)
    b.advance(30)
    b.set_sensor(s6, 0)
    b.advance(60 + LIFT_MS)  # (debounced, and held lift_ms)
    assert _sees(b, 2, _red) and _sees(b, 5, _red)
    ev = b.events()
    assert sorted(_errors(ev)) == [(2, 3), (5, 3)], ev
    st = b.status()
    assert st["ply"] == 0 and st["fen"] == new_game("toguz").fen(), st
    b.advance(3000)  # nothing left pending: the next lift plays that pit
    _lift(b, 5)
    b.advance(3000)
    g = new_game("toguz")
    g.push(5)
    assert [e["move"] for e in b.events() if e["ev"] == "move"] == [g.move_text(5)]
    assert b.status()["fen"] == g.fen()


def test_the_opponents_pit_and_an_empty_pit_flash_with_their_reason(board, tmp_path):
    b = board()
    _start(b, tmp_path)
    g = new_game("toguz")
    _lift(b, 12)  # North pit 4: not South's
    ev = b.events()
    assert _errors(ev) == [(12, 2)], ev
    assert _sees(b, 12, _red) and _green(_led(b, 0))  # South's pits still offered
    b.advance(1000)
    # South pit 1 (9 balls: the first back into it), North pit 1, South pit 1 again
    # (its 1 ball), North pit 1 again: South pit 1 is empty
    for cell in (0, 9, 0, 9):
        _lift(b, cell)
        b.advance(3000)
        g.push(0)
    assert g.pos[0] == 0 and g.turn == 0 and b.status()["fen"] == g.fen()
    b.events()
    _lift(b, 0)  # South pit 1: empty
    ev = b.events()
    assert _errors(ev) == [(0, 1)], ev
    assert _sees(b, 0, _red) and _green(_led(b, 1))
    assert b.status()["fen"] == g.fen()


def test_another_pit_while_one_is_being_sown_flashes_with_the_sown_pit(board, tmp_path):
    b = board()
    _start(b, tmp_path)
    _lift(b, 3)  # South pit 4: its sowing view
    b.advance(500)
    _lift(b, 7)  # South pit 8 lifted while pit 4 is still being sown
    ev = b.events()
    assert _errors(ev) == [(7, 4)], ev
    assert _sees(b, 7, _red) and _blue(_led(b, 3))
    b.advance(3000)
    g = new_game("toguz")
    g.push(3)
    st = b.status()
    assert st["ply"] == 1 and st["fen"] == g.fen()  # pit 4 stands, pit 8 was not played


def test_a_pit_other_than_the_engines_is_signalled_at_once_and_its_pit_shown(board, tmp_path):
    b = board()
    _start(b, tmp_path, mode="white")  # the player South, the engine North
    _lift(b, 4)
    b.advance(3000)
    eng = []
    for _ in range(100):
        eng = [e for e in b.events() if e["ev"] == "engine"]
        if eng:
            break
        b.advance(100)
    assert eng, b.status()
    g = new_game("toguz")
    g.push(4)
    pit = g.parse_move(eng[0]["move"]) + 9  # the engine's pit (North)
    b.advance(100)
    assert _purple(_led(b, pit))  # the engine's pit to play
    wrong = 9 if pit != 9 else 10
    _lift(b, wrong)  # the player lifts another North pit for the engine
    ev = b.events()
    assert _errors(ev) == [(wrong, 5)], ev
    assert _sees(b, wrong, _red) and _purple(_led(b, pit))
    b.advance(1000)
    assert _purple(_led(b, pit)) and not _red(_led(b, wrong))  # shown again
    _lift(b, pit)  # the right pit: the view is confirmed after the sowing
    b.advance(3000)
    g.push(pit - 9)
    st = b.status()
    assert st["ply"] == 2 and st["fen"] == g.fen() and st["turn"] == 0
    assert _green(_led(b, 0)) or _green(_led(b, 1))
