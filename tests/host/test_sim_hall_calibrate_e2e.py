"""docs/build.md step 9 on the page's simulated hall board (`playboard sim --board
sim-hall`), as a new user did it (report item 3): after the first-start calibration the
page shows a Toguz game nobody has begun; `playboard calibrate --port ...` must work
as the guide says, not be refused ("a game is being played"). A game with a move made
is still refused."""
import pytest

from playboard_host import checks, cli
from playboard_host.simboard import micropython_binary
from playboard_host.websim.session import Session

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def test_calibrate_as_the_guide_says_after_the_pages_first_start_then_refused_once_a_move_is_made(
        tmp_path, monkeypatch, capsys):
    s = Session(None, game="toguz", pump=False, board_def="sim-hall", flash_dir=str(tmp_path / "flash"))
    try:
        assert s.board.status()["state"] in ("setup", "play")  # the page's game, no move made
        monkeypatch.setattr(checks, "sleep", lambda seconds: s.board.advance(int(seconds * 1000)))
        port = ["--port", s.board.port, "--timeout", "3"]
        status = cli.main(["calibrate"] + port)
        out, err = capsys.readouterr()
        assert status == 0 and "56 sensors calibrated, 0 refused, saved: yes" in out, (out, err)
        assert out.rstrip().endswith("PASS")
        s.board.advance(6000)  # the verdict on show 5 s, then the menu
        assert s.board.status()["state"] == "menu"
        s.new("toguz", "two", 3)
        s.act({"op": "click", "cell": 4})  # South pit 5 sown: a move made
        s.advance(1500)
        assert s.board.status()["ply"] == 1
        status = cli.main(["calibrate"] + port)
        out, err = capsys.readouterr()
        assert status != 0 and "a game is being played: resign or go to the menu first" in err, (out, err)
        assert len(err.strip().splitlines()) == 1 and s.board.status()["ply"] == 1
    finally:
        s.close()
