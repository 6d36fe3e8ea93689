"""The simulated hall board (``sim-hall``, playboard.sim.hall) at power-up, as a hall
board with no calibration behaves: the guided calibration before the menu, never over
a game resumed after a power cut (it needs an empty board), nor a game started over
it from the link; what the link's status says meanwhile. A person's hands: contact
bounce, a human hold and reply (tests/host/hands.py)."""
import os

import pytest

from hands import Hands
from playboard.board.layout import load_layout
from playboard_host.serial_link import BoardLink, open_port
from playboard_host.simboard import SimBoard, SimError, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def _checks(b):
    return [(e.get("check"), e.get("saved")) for e in b.events() if e["ev"] == "check"]


def test_a_game_resumed_on_an_uncalibrated_hall_board_plays_on_and_it_calibrates_at_the_next_empty_power_up(tmp_path):
    flash = tmp_path / "flash"
    b = SimBoard()
    try:
        b.start("sim-hall", fs_dir=str(flash))
        st = b.status()
        assert st["check"] == "calibrate" and st["state"] == "menu"   # the first power-up
        with pytest.raises(SimError, match="a calibrate is running"):  # no game over it
            b.new_game("toguz", "two", 3)
        b.advance(10000)
        assert _checks(b) == [("calibrate", None), ("calibrate", True)]
        assert "check" not in b.status() and (flash / "hall_cal.json").exists()
        os.remove(flash / "hall_cal.json")  # as if it had never been saved
        b.new_game("toguz", "two", 3)
        b.advance(500)
        hands = Hands(b, 1)
        hands.reply()
        hands.press(load_layout("toguz").sensor_of(0))  # South pit 1 touched with the stylus
        b.advance(1500)
        assert b.status()["ply"] == 1  # sown
        b.kill()  # the power cut
        b.restart()
        st = b.status()
        assert st["state"] == "play" and st["ply"] == 1 and "check" not in st, st  # plays on
        b.advance(2000)
        assert _checks(b) == []
        link = BoardLink(open_port(b.port, timeout=0.05), timeout=10)
        link.set_game(resign=1)  # the game ended (North resigns): none to resume next time
        link.close()
        b.kill()
        b.restart()
        b.advance(10000)
        assert _checks(b) == [("calibrate", None), ("calibrate", True)]
        assert (flash / "hall_cal.json").exists()
    finally:
        b.stop()


def test_the_page_runs_the_simulated_hall_board_after_its_first_calibration(tmp_path, capsys):
    """`playboard sim --board sim-hall` (the page's session on that board): the first
    power-up calibrates (the board clear), then the game is played; an unknown board
    definition is refused in one line before anything starts."""
    from playboard_host import cli
    from playboard_host.websim.session import Session

    assert cli.main(["sim", "--board", "no-such-board", "--flash", str(tmp_path / "f0")]) == 2
    err = capsys.readouterr().err
    assert "board definition" in err and "no-such-board" in err and len(err.strip().splitlines()) == 1
    s = Session(None, game="toguz", pump=False, board_def="sim-hall", flash_dir=str(tmp_path / "flash"))
    try:
        assert (tmp_path / "flash" / "hall_cal.json").exists()
        st = s.state()
        assert st["app_state"] in ("setup", "play") and st["game"] == "toguz", st["app_state"]
        s.act({"op": "click", "cell": 4})  # South pit 5 touched with the stylus
        s.advance(1500)
        assert s.state()["moves"] == ["54"]
    finally:
        s.close()
