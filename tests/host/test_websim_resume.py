"""The simulator page started again on a kept flash (``playboard sim --flash``) after a
power cut or a Ctrl-C in the middle of a game: the board resumes its game, as a real
board does at power-up, and the page goes on with it instead of starting a new one
over it (which left the game unfinished, a tournament's pairing with it)."""
import pytest

from playboard_host.simboard import micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def _play(s, cells):
    for cell in cells:
        s.act({"op": "click", "cell": cell})
        s.advance(3000)  # past the sowing view (about 2.5 s)


def test_the_page_goes_on_with_the_game_the_board_resumed_after_a_power_cut(tmp_path):
    from playboard_host.websim.session import Session

    flash = str(tmp_path / "flash")
    s = Session(None, game="toguz", pump=False, flash_dir=flash)
    try:
        _play(s, (2, 11, 4))  # South 3, North 3, South 5
        before = s.state()
        assert before["moves"] == ["32", "32", "55"], before["moves"]
        s.board.kill()  # the power goes between two frames
    finally:
        s.close()
    s = Session(None, game="tobit", pump=False, flash_dir=flash)  # (--game is for a new game)
    try:
        s.advance(500)
        st = s.state()
        assert (st["game"], st["app_state"], st["ply"], st["turn"]) == ("toguz", "play", 3, 1), st["events"]
        assert st["counts"] == before["counts"]
        assert st["events"][-1].endswith("game resumed after a restart: toguz"), st["events"]
        assert s.board.status()["ply"] == 3
        _play(s, (13,))  # North 5: the game goes on
        assert s.board.status()["ply"] == 4 and s.state()["ply"] == 4
    finally:
        s.close()


def test_with_no_game_to_resume_the_page_starts_the_game_asked_for(tmp_path):
    from playboard_host.websim.session import Session

    s = Session(None, game="tihbat", pump=False, flash_dir=str(tmp_path / "flash"))
    try:
        s.advance(300)
        st = s.state()
        assert (st["game"], st["app_state"], st["ply"]) == ("tihbat", "play", 0)
        assert s.board.status()["game"] == "tihbat"
    finally:
        s.close()
