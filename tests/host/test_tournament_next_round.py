"""Tournament day, the next round (issue 32, a new user's findings): the hall shows a
round's table only with the game carrying its pairing (the live files' Round the
table form of the event PGN), a board with a game of no move goes to the pairing
sent, the web simulator's page names the players, and ``playboard live`` says the
pairing and who is ready. The real firmware on SimBoard, at human pace."""
import os

import pytest

from hall_harness import Notes, begin_paired, resign, toguz_move, wait, wait_for
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


def _cli(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@needs_mp
def test_a_pairing_sent_to_a_board_with_a_game_of_no_move_shows_on_the_board_and_page(tmp_path, capsys):
    """``playboard sim --board-id``: the simulator starts straight into a game (no move
    made). A pairing sent goes to the board's ready view (the page names the players and
    who it waits for); the page's clicks ready the sides; a pairing sent during a game
    with a move leaves the game alone."""
    from playboard_host.websim.session import Session
    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    s = Session(None, pump=True, flash_dir=str(tmp_path / "flash"), board_id="club-7")
    try:
        st = s.state()
        assert (st["app_state"], st["ply"], st["pairing"]) == ("play", 0, None)
        assert _cli(capsys, *T, "create", "Spring", "--game", "toguz", "--board", "1=club-7")[0] == 0
        assert _cli(capsys, *T, "add", "Spring", "Aru", "Bek")[0] == 0
        assert _cli(capsys, *T, "pair", "Spring")[0] == 0
        code, out, err = _cli(capsys, *T, "send", "Spring", "--port", s.board.port)
        assert code == 0 and out == "board 1: round 1.1, Aru (White) - Bek (Black): its next game\n", (out, err)
        wait(lambda: s.state()["app_state"] == "menu" and s.state()["pairing"], "the board's ready view")
        st = s.state()
        assert st["pairing"] == {
            "tags": {"Event": "Spring", "Round": "1.1", "White": "Aru", "Black": "Bek"}, "ready": 0,
            "line": "Spring, round 1.1: Aru: White, South (white lights) - Bek: Black, North (blue lights)",
            "waiting": "waiting for Aru (White) and Bek (Black)"}, st["pairing"]
        with s.lock:  # (the page's thread drives the board meanwhile)
            bst = s.board.status()
        assert bst["state"] == "menu" and bst["ready"] == 0 and "current" not in bst, bst
        # the page's click on a pit of White's row (South pit 5): White ready
        s.act({"op": "click", "cell": 4})
        wait(lambda: s.state()["pairing"]["waiting"] == "waiting for Bek (Black)", "White ready on the page")
        s.act({"op": "click", "cell": 13})  # Black's (North pit 5): the game begins, carrying the pairing
        wait(lambda: s.state()["app_state"] == "play" and s.state()["pairing"] is None, "the paired game")
        s.act({"op": "click", "cell": 6})  # South's first move: pit 7
        wait(lambda: s.state()["ply"] == 1, "the first move")
        # a pairing sent during a game with a move: the game is left alone, the pairing kept
        link = BoardLink(open_port(s.board.port), timeout=3.0)
        try:
            assert [g for g in link.list_games() if g["finished"]] == []  # the game of no move: not kept
            rec = link.fetch_game(link.status()["current"])[0]
            assert (rec.tags["Round"], rec.tags["White"], rec.tags["Black"]) == ("1.1", "Aru", "Bek")
            got = link.set_game(game="toguz", pairing={"event": "Spring", "round": "2.1", "white": "Bek",
                                                       "black": "Aru"})
        finally:
            link.close()
        assert (got["state"], got["ply"], got["ready"]) == ("play", 1, 0), got
        wait(lambda: s.state()["pairing"] and s.state()["pairing"]["tags"]["Round"] == "2.1", "the kept pairing")
        assert (s.state()["app_state"], s.state()["ply"]) == ("play", 1)
    finally:
        s.close()


@needs_mp
def test_the_simulators_page_names_the_pairings_players_and_a_click_readies_a_side(tmp_path, capsys):
    """The page of ``playboard sim --board-id`` in Chromium: with a pairing kept, its status
    names the players and who the board waits for, not the menu's choices; a click on a
    pit of a side's row is the board's deliberate press there (docs/player.md): that
    side is ready."""
    from hall_harness import hall_page, skip_without_browser
    from playboard_host.websim import server as srv
    from playboard_host.websim.session import Session
    skip_without_browser()
    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    hub = srv.Hub()
    s = Session(hub, flash_dir=str(tmp_path / "flash"), board_id="club-8")
    httpd = srv.make_server(s, hub, "127.0.0.1", 0)
    srv.serve_in_thread(httpd)
    try:
        assert _cli(capsys, *T, "create", "Spring", "--game", "tihbat", "--board", "1=club-8")[0] == 0
        assert _cli(capsys, *T, "add", "Spring", "Aru", "Bek")[0] == 0
        assert _cli(capsys, *T, "pair", "Spring")[0] == 0
        assert _cli(capsys, *T, "send", "Spring", "--port", s.board.port)[0] == 0
        with hall_page("http://127.0.0.1:%d/" % httpd.server_address[1]) as (page, errors):
            want = ("The next game's pairing: Spring, round 1.1: Aru: White, South (white lights) - Bek: Black,"
                    " North (blue lights); waiting for Aru (White) and Bek (Black) (each player: a deliberate"
                    " press, here a click, on a pit of their own row: White South, Black North)")
            page.wait_for_function("(w) => document.getElementById('status-text').textContent === w",
                                   arg=want, timeout=20000)
            page.click("#cell-4")  # South pit 5: Aru (White)
            page.wait_for_function("() => document.getElementById('status-text').textContent.includes("
                                   "'; waiting for Bek (Black) (')", timeout=20000)
            page.click("#cell-13")  # North pit 5: Bek (Black): the game begins
            page.wait_for_function("() => document.body.getAttribute('data-game') === 'tihbat' && "
                                   "document.getElementById('status-text').textContent === 'South to move'",
                                   timeout=20000)
            assert errors == []
    finally:
        srv.stop(httpd, hub)
        s.close()


@needs_mp
def test_playboard_live_says_the_pairing_and_who_is_ready(tmp_path, capsys):
    """``playboard live``: a Tihbat pairing sent to a board started straight into a game
    (the board goes to the pairing), then live connects and White says it is ready:
    the pairing and each ready said with the names; a pairing kept beside a game in
    play with moves said at the connection, and who is ready after that game ends."""
    import threading
    from playboard.board.layout import load_layout
    from playboard_host.gestures import press_sensor
    from playboard_host.tournament.results import sides_text
    menu = load_layout("toguz")
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="live-1")
        b.new_game("toguz", "two")  # as `playboard sim` starts: a game, no move made
        b.advance(300)
        pair = {"event": "Spring", "round": "1.1", "white": "Aru", "black": "Bek"}
        link = BoardLink(open_port(b.port), timeout=3.0)
        try:
            assert link.set_game(game="tihbat", pairing=pair)["state"] == "menu"
        finally:
            link.close()

        def live_while(action, seconds):
            def run():  # once live follows the board's events
                wait(lambda: b.status()["link_live"], "live following")
                action()
            t = threading.Thread(target=run)
            t.start()
            code, out, err = _cli(capsys, "live", "--port", b.port, "--seconds", str(seconds), "--no-picture")
            t.join()
            assert code == 0, err
            return out.splitlines()

        def white_ready():
            b.advance(3000)
            press_sensor(b, menu.sensor_of(2))  # South pit 3: Aru (White) is ready
        lines = live_while(white_ready, 3)
        assert lines[0].startswith("no game in play") and lines[1:] == [
            "the next game's pairing: Spring, round 1.1: " + sides_text("tihbat", "Aru", "Bek"),
            "waiting for Aru (White) and Bek (Black)", "waiting for Bek (Black)"], lines
        # a friendly game with a move on the board (begun over the link): a pairing sent is kept
        # for after it; live says it at the connection, and White's ready once the game is over
        link = BoardLink(open_port(b.port), timeout=3.0)
        try:
            link.set_game(pairing=None)
            link.set_game(game="toguz", mode="two")
            b.advance(300)
            b.tap(4, 150)
            b.advance(2500)
            assert link.set_game(game="toguz", pairing=pair)["ply"] == 1
        finally:
            link.close()

        def over_then_white():
            resign(b, 1)
            white_ready()
        lines = live_while(over_then_white, 4)
        line = "the next game's pairing: Spring, round 1.1: " + sides_text("toguz", "Aru", "Bek")
        assert lines[0] == "game: toguz; move 1 (1 plies so far), North to move", lines
        assert lines[1:3] == [line, "waiting for Aru (White) and Bek (Black)"], lines
        assert lines[-1] == "waiting for Bek (Black)", lines
    finally:
        b.stop()
