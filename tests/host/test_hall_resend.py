"""The hall never sends a board the pairing its own game already carries. It sends each
board its pairing again at every connection (a board that lost power forgot the one it
kept); but a board coming back with the pairing's game in play (a power cut, a cable, the
hall itself started again mid-round) was told the same pairing for its *next* game: once
that game ended the board showed "waiting for Aru (White) and Bek (Black)" to the players
who had just played it, and a press began a second game carrying it."""
import pytest

from hall_harness import Cable, Notes, begin_paired, duel_event, duel_hall, resign, toguz_move, wait_for
from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")

SENT = "board 1: round 1.1, Aru (White) - Bek (Black) sent: its next game\n"


def test_a_board_back_with_the_pairings_game_in_play_is_not_sent_it_again(tmp_path):
    from playboard.games.registry import new_game

    db = duel_event(tmp_path)
    console = Notes()
    out = console.lines
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="duel")
        cable = Cable(b.port)
        hall = duel_hall(db, console, cable=cable)
        g = new_game("toguz")
        try:
            assert wait_for(lambda: SENT in out), out
            begin_paired(b)
            toguz_move(b, g, 0)
            toguz_move(b, g, 1)
            assert "ready" not in b.status()  # the pairing went into the game's header
            # the power cut and back: the game resumed, carrying the pairing
            b.kill()
            assert wait_for(lambda: any("drop 1" in n for n in out)), out
            b.restart()
            assert wait_for(lambda: "board 1 back (toguz, 2 moves, in play)\n" in out), out
            b.advance(2000)
            assert wait_for(lambda: False, seconds=1.5) is None  # (time for a send)
            assert out.count(SENT) == 1, out
            st = b.status()
            assert (st["state"], st["ply"]) == ("play", 2) and "ready" not in st, st
        finally:
            hall.stop()
        # the hall started again mid-round (the arbiter's PC restarted)
        hall = duel_hall(db, console, cable=cable)
        try:
            assert wait_for(lambda: any("Duel" in str(x.get("carries")) for x in hall.state()["boards"])), out
            assert wait_for(lambda: False, seconds=1.5) is None
            assert out.count(SENT) == 1, out
            assert "ready" not in b.status()
            toguz_move(b, g, 2)
            resign(b, 1)  # Black resigns: the game ends, its result is taken
            assert wait_for(lambda: any("Aru - Bek: Aru won (1-0" in n for n in out)), out
            b.advance(3000)
            st = b.status()
            assert st["state"] == "over" and "ready" not in st, st  # no pairing waits on the board
        finally:
            hall.stop()
        assert out.count(SENT) == 1, out
    finally:
        b.stop()
