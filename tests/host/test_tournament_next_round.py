"""Tournament day, the next round (issue 32, a new user's findings): the hall shows a
round's table only with the game carrying its pairing (the live files' Round the
table form of the event PGN), a board with a game of no move goes to the pairing
sent, the web simulator's page names the players, and ``playboard live`` says the
pairing and who is ready. The real firmware on SimBoard, at human pace."""
import os

import pytest

from hall_harness import Notes, begin_paired, resign, toguz_move, wait
from playboard_host import cli
from playboard_host.library import Library
from playboard_host.serial_link import BoardLink, open_port
from playboard_host.simboard import SimBoard, micropython_binary
from playboard_host.tournament.event import Event

needs_mp = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def _live_records(path):
    from playboard.pgn import read_games
    with open(path, encoding="utf-8") as f:
        return list(read_games(f))


@needs_mp
def test_the_hall_shows_a_new_round_without_the_last_rounds_game(tmp_path):
    from playboard.games.registry import new_game
    from playboard_host.tournament import hall as hall_mod
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    e = Event.create(lib, "Spring", "toguz", boards=["1=spring-1"])
    for name in ("Aru", "Bek", "Erlan"):  # one table a round, one player's bye
        e.add_entrant(name)
    _, first = e.pair_next()
    lib.close()
    p1 = [p for p in first if p.black is not None][0]
    console = Notes()
    live = str(tmp_path / "live")
    os.makedirs(live)
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="spring-1")
        hall = hall_mod.Hall(lambda: [b.port], None, hall_mod.event_pairings(db, "Spring"), "Spring",
                             live_dir=live, rescan_s=0.2, refresh_s=0.3, retry_s=0.3, timeout=0.5,
                             keepalive_s=1.0, sync_library=db, out=console)
        hall.start()

        def board():
            return hall.state()["boards"][0]
        try:
            wait(lambda: console.said("sent: its next game"), "round 1's pairing sent")
            begin_paired(b)
            g = new_game("toguz")
            played = [toguz_move(b, g, k) for k in range(2)]
            resign(b, 1)  # Black resigns: White won round 1
            wait(lambda: console.said("round 1 table %s on board 1" % p1.match) and board()["result"] == "1-0",
                 "round 1's result taken")
            w1 = board()["white"]
            r1 = _live_records(os.path.join(live, "round-1.pgn"))
            assert [(r.tags["Round"], r.tags["White"], r.tags["Result"], r.moves) for r in r1] == [
                ("1.%s" % p1.match, w1, "1-0", played)]
            # round 2 paired while the hall runs: board 1's new table shows no game yet
            lib = Library(db)
            _, second = Event(lib, "Spring").pair_next()
            names = Event(lib, "Spring").names_by_id()
            lib.close()
            p2 = [p for p in second if p.black is not None][0]
            w2, b2 = names[p2.white], names[p2.black]
            wait(lambda: board()["round"] == 2 and board()["waiting"], "round 2's pairing on the board")
            shown = board()
            assert (shown["table"], shown["white"], shown["black"]) == (p2.match, w2, b2), shown
            assert (shown["moves"], shown["last_move"], shown["result"], shown["result_words"],
                    shown["position"]) == (0, None, None, None, None), shown
            assert shown["waiting"] == "waiting for %s (White) and %s (Black)" % (w2, b2), shown
            assert shown["other_game"] == "toguz, 2 moves, %s won" % names[p1.white], shown
            assert shown["alerts"] == [], hall.state()["alerts"]
            path2 = os.path.join(live, "round-2.pgn")
            wait(lambda: os.path.exists(path2), "round-2.pgn written")
            r2 = _live_records(path2)
            assert [(r.tags["Round"], r.tags["White"], r.tags["Black"], r.tags["Result"], r.moves)
                    for r in r2] == [("2.%s" % p2.match, w2, b2, "*", [])], [r.tags for r in r2]
            assert [r.tags["Result"] for r in _live_records(os.path.join(live, "round-1.pgn"))] == ["1-0"]
            # round 2's game begins: its moves, and nothing of round 1's
            begin_paired(b)
            g = new_game("toguz")
            m = toguz_move(b, g, 3)
            wait(lambda: board()["moves"] == 1, "round 2's first move on the page")
            shown = board()
            assert (shown["last_move"], shown["result"], shown["other_game"]) == (m, None, None), shown
            wait(lambda: [r.moves for r in _live_records(path2)] == [[m]], "round 2's move in its live file")
            assert _live_records(path2)[0].tags["Round"] == "2.%s" % p2.match
        finally:
            hall.stop()
    finally:
        b.stop()
