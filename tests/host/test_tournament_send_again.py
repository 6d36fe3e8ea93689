"""`tournament send` run again (after a board's power cut, or to be sure) while the board's
game carrying the pairing is in play, or ended and not yet collected: the pairing is not
sent again. It was: the board kept it for its next game, showed "waiting for Aru (White)
and Bek (Black)" to the players who had just played, and a press began a second game
carrying it."""
import pytest

from hall_harness import begin_paired, resign, toguz_move
from playboard_host import cli
from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def test_send_again_leaves_a_board_whose_game_carries_the_pairing_alone(tmp_path, capsys):
    from playboard.games.registry import new_game

    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]

    def run(*argv):
        code = cli.main(list(argv))
        return code, capsys.readouterr().out

    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="duel")
        assert run(*T, "create", "Duel", "--game", "toguz", "--board", "1=duel")[0] == 0
        assert run(*T, "add", "Duel", "Aru", "Bek")[0] == 0
        assert run(*T, "pair", "Duel")[0] == 0
        assert run(*T, "send", "Duel", "--port", b.port) == (
            0, "board 1: round 1.1, Aru (White) - Bek (Black): its next game\n")
        begin_paired(b)
        g = new_game("toguz")
        toguz_move(b, g, 0)
        toguz_move(b, g, 1)
        b.kill()  # the power cut and back: the game resumed
        b.restart()
        again = "board 1: round 1.1, Aru (White) - Bek (Black) is its game (%s): not sent again\n"
        assert run(*T, "send", "Duel", "--port", b.port) == (0, again % "in play, 2 moves")
        b.advance(500)
        assert "ready" not in b.status()
        toguz_move(b, g, 2)
        resign(b, 1)
        b.advance(3000)
        assert run(*T, "send", "Duel", "--port", b.port) == (0, again % "ended, Aru won (1-0)")
        st = b.status()
        assert st["state"] == "over" and "ready" not in st, st
        assert run("sync", "--port", b.port, "--library", db, "-q")[0] == 0
        assert run(*T, "collect", "Duel")[1] == "round 1 table 1 on board 1: Aru - Bek: Aru won (1-0, game 1)\n"
        assert run(*T, "send", "Duel", "--port", b.port) == (0, "board 1 (%s): no pairing to play\n" % b.port)
    finally:
        b.stop()
