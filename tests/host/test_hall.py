"""The live hall against simulated boards (the real firmware under MicroPython, each on its
own pseudo-terminal): boards followed at once, one plugged in later picked up, moves
and results shown with the event's players, alerts (disconnected, a long correction,
a result contradicting the pairing), the live PGN-style file of each round."""
import json
import urllib.request

import pytest

from hall_harness import Notes, begin_paired, board_by_label, duel_event, duel_hall, resign, wait_for
from hall_harness import toguz_move as harness_move
from playboard.games.registry import new_game
from playboard.pgn import read_games
from playboard_host.library import Library
from playboard_host.simboard import SimBoard, micropython_binary
from playboard_host.tournament import hall as hall_mod
from playboard_host.tournament.event import Event
from playboard_host.tournament.hall_server import make_server
from playboard_host.websim import server as srv

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def toguz_move(b, g, k=0):
    return harness_move(b, g, k, ms=3000)


@pytest.fixture
def room(tmp_path):
    """3 simulated boards (ids hall-1..3), an event on them with 6 players, round 1 paired."""
    boards = []
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Cup", "toguz", boards=["%d=hall-%d" % (k, k) for k in (1, 2, 3)])
    for n in ("Aru", "Bek", "Dina", "Erlan", "Gul", "Nurlan"):
        e.add_entrant(n)
    e.pair_next()
    lib.close()
    try:
        for k in range(3):
            b = SimBoard()
            b.start("sim", fs_dir=str(tmp_path / ("flash%d" % k)), board_id="hall-%d" % (k + 1))
            b.new_game("toguz", "two")  # a game nobody began: the pairing sent takes its place
            b.advance(100)
            boards.append(b)
        yield boards, str(tmp_path / "lib.sqlite")
    finally:
        for b in boards:
            b.stop()


def test_hall_follows_every_board_with_alerts_and_live_files(room, tmp_path):
    boards, db = room
    ports = [boards[0].port, boards[1].port]
    live = tmp_path / "live"
    live.mkdir()
    hub = srv.Hub()
    hall = hall_mod.Hall(lambda: list(ports), hub, hall_mod.event_pairings(db, "Cup"), "Cup", str(live),
                         rescan_s=0.2, correction_s=1.0, refresh_s=0.3)
    hall.start()
    try:
        assert wait_for(lambda: sum(b["connected"] and b["waiting"] is not None for b in hall.state()["boards"]) == 2)
        st = hall.state()
        assert [(b["label"], b["round"], b["table"], b["white"], b["black"]) for b in st["boards"]] == [
            ("1", 1, "1", "Aru", "Nurlan"), ("2", 1, "2", "Bek", "Gul")]
        # whose side is where, as the board lights it (White's half white, Black's blue)
        assert [b["sides"] for b in st["boards"]] == [
            "Aru: White, South (white lights) - Nurlan: Black, North (blue lights)",
            "Bek: White, South (white lights) - Gul: Black, North (blue lights)"]
        # the games begun on the boards before (no move made) gave way to the pairings: no
        # position shown until the players begin the pairing's game
        assert [(b["position"], b["moves"], b["waiting"]) for b in st["boards"]] == [
            (None, 0, "waiting for Aru (White) and Nurlan (Black)"), (None, 0, "waiting for Bek (White) and Gul (Black)")]
        assert st["alerts"] == []
        for b in boards[:2]:
            begin_paired(b)
        assert wait_for(lambda: all(b["position"] for b in hall.state()["boards"]))
        assert hall.state()["boards"][0]["position"]["rows"] == [[9] * 9, [9] * 9]
        # a board plugged in later is picked up
        ports.append(boards[2].port)
        assert wait_for(lambda: (board_by_label(hall, "3") or {}).get("white"))
        assert board_by_label(hall, "3")["connected"] and board_by_label(hall, "3")["black"] == "Erlan"
        begin_paired(boards[2])
        # moves on every board reach the hall
        games = [new_game("toguz") for _ in boards]
        texts = [[], [], []]
        for rnd in range(2):
            for k, b in enumerate(boards):
                texts[k].append(toguz_move(b, games[k], rnd))
        for k in range(3):
            label = str(k + 1)
            b = wait_for(lambda: (lambda x: x if x["moves"] == 2 else None)(board_by_label(hall, label)))
            assert b["last_move"] == texts[k][-1]
            assert b["position"]["rows"][1] == [games[k].pos[i] for i in range(9)]
            assert b["position"]["stores"] == [games[k].pos[18], games[k].pos[19]]
        # the live file of round 1 holds every board's moves so far
        # (rewritten every refresh_s: the hall may have seen the moves a moment before)
        def live_games():
            with open(str(live / "round-1.pgn"), encoding="utf-8") as f:
                return [(r.tags["Board"], r.tags["White"], r.tags["Result"], r.moves)
                        for r in read_games(f)]
        want = [("1", "Aru", "*", texts[0]), ("2", "Bek", "*", texts[1]), ("3", "Dina", "*", texts[2])]
        wait_for(lambda: live_games() == want)
        assert live_games() == want
        # the arbiter entered a result for table 2 by hand; the board then ends otherwise: alert
        lib = Library(db)
        Event(lib, "Cup").set_result(1, "2", "1-0", "reported early by the players")
        lib.close()
        resign(boards[1], 0)  # White resigns on board 2 (its pad pressed deliberately twice)
        a = wait_for(lambda: [x for x in hall.state()["alerts"] if x["kind"] == "contradiction"])
        assert a[0]["text"] == "board 2 ended: Gul won (0-1), but round 1 table 2 has Bek won (1-0) by hand"
        # the page: the board's result in words (the players its game carries), the result
        # for programs in the notation
        assert (board_by_label(hall, "2")["result"], board_by_label(hall, "2")["result_words"]) == (
            "0-1", "Gul won")
        # a board unplugged: alert
        boards[2].stop()
        ports.remove(boards[2].port)
        a = wait_for(lambda: [x for x in hall.state()["alerts"] if x["kind"] == "disconnected"])
        assert a[0]["board"] == "3" and a[0]["text"].startswith("board 3 disconnected")
        # the page's server serves the same state and the live file
        httpd = make_server(hall, hub, "127.0.0.1", 0)
        srv.serve_in_thread(httpd)
        try:
            url = "http://127.0.0.1:%d" % httpd.server_address[1]
            got = json.loads(urllib.request.urlopen(url + "/api/state", timeout=5).read())
            assert [b["label"] for b in got["boards"]] == ["1", "2", "3"]
            text = urllib.request.urlopen(url + "/live/round-1.pgn", timeout=5).read().decode()
            assert '[Board "2"]' in text and '[Result "0-1"]' in text
            assert b"<title>Playboard hall</title>" in urllib.request.urlopen(url + "/", timeout=5).read()
        finally:
            srv.stop(httpd, hub)
    finally:
        hall.stop()


class HallClock:
    """The hall's clock in a test (``Hall(clock=...)``): it moves only when the test says,
    as the simulated board's does, so "in correction for more than ``correction_s``" is
    decided by the test, not by how fast a loaded machine runs (the alert used to be
    timed on the wall clock: 0.5 s of it against a 5 s wait)."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def _corrections(hall):
    return [a for a in hall.state()["alerts"] if a["kind"] == "correction"]


def test_a_board_in_correction_too_long_raises_an_alert(tmp_path):
    b = SimBoard()
    clock = HallClock()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="solo")
        b.new_game("tobit", "two")
        b.set_up()
        b.advance(800)
        hall = hall_mod.Hall(lambda: [b.port], None, rescan_s=0.2, correction_s=30, clock=clock)
        hall.start()
        try:
            assert wait_for(lambda: hall.state()["boards"] and hall.state()["boards"][0]["connected"])
            assert hall.state()["boards"][0]["position"]["rows"][4] == ["w"] * 7
            b.place(20)  # a stray piece on an empty point: the board asks for a correction
            b.advance(3000)
            assert wait_for(lambda: hall.state()["boards"][0]["in_correction"])
            clock.t += 30  # 30 s in correction: not yet more than correction_s
            assert _corrections(hall) == []
            clock.t += 1
            assert _corrections(hall) == [{"kind": "correction", "board": "solo",
                                           "text": "board solo in correction for 31 s"}]
            b.lift(20)
            b.advance(3000)
            assert wait_for(lambda: not hall.state()["boards"][0]["in_correction"])
            assert _corrections(hall) == []
        finally:
            hall.stop()
    finally:
        b.stop()


def test_a_board_already_in_correction_when_the_hall_comes_is_shown_so(tmp_path):
    # its correction event went to nobody (no live events then, as during a link drop):
    # the hall takes it from the board's status when it connects
    b = SimBoard()
    clock = HallClock()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="solo")
        b.new_game("tobit", "two")
        b.set_up()
        b.advance(800)
        b.place(20)  # a stray piece: the board asks for a correction
        b.advance(3000)
        assert b.status()["correcting"] is True
        hall = hall_mod.Hall(lambda: [b.port], None, rescan_s=0.2, correction_s=30, clock=clock)
        hall.start()
        try:
            assert wait_for(lambda: hall.state()["boards"] and hall.state()["boards"][0]["connected"])
            assert hall.state()["boards"][0]["in_correction"] and _corrections(hall) == []
            clock.t += 45  # (counted from when the hall came: when it began is not known)
            assert [a["text"] for a in _corrections(hall)] == ["board solo in correction for 45 s"]
            b.lift(20)
            b.advance(3000)
            assert wait_for(lambda: not hall.state()["boards"][0]["in_correction"])
            assert _corrections(hall) == []
            assert "correcting" not in b.status()
        finally:
            hall.stop()
    finally:
        b.stop()


def test_a_board_outside_the_event_is_flagged(tmp_path):
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    Event.create(lib, "Cup", "toguz", boards=["1=b-one"])
    lib.close()
    pairings = hall_mod.event_pairings(db, "Cup")
    assert pairings("stranger") is None
    assert pairings("b-one") == {"label": "1", "none": True, "game": "toguz"}
    st = hall_mod.BoardState("/dev/x")
    st.board_id = "stranger"
    st.connected = True
    st.start("toguz")
    h = hall_mod.Hall(lambda: [], pairings=pairings, event_name="Cup")
    h.boards["/dev/x"] = st
    h.refresh()
    assert [a["text"] for a in h.state()["alerts"]] == ["board stranger (id stranger) is not a board of Cup"]


def test_playboard_hall_command_follows_a_board_and_says_bad_input_in_one_line(tmp_path, capsys):
    from playboard_host import cli

    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["hall", "--event", "Nope", "--library", db, "--seconds", "0.1"]) == 2
    assert capsys.readouterr().err == "playboard: no library at %s (playboard sync makes one)\n" % db
    Library(db).close()
    assert cli.main(["hall", "--event", "Nope", "--library", db, "--seconds", "0.1"]) == 2
    assert capsys.readouterr().err == "playboard: no event named 'Nope' in %s (no events yet)\n" % db
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="solo")
        b.new_game("toguz", "two")
        b.advance(100)
        live = str(tmp_path / "live")
        # the board goes away while the hall follows it: one alert line on the console (it is
        # stopped once the hall has it, its live file written: a fixed delay let a loaded
        # machine's hall connect after it, and then no drop was there to say)
        import os
        import threading

        def unplug():
            f = os.path.join(live, "live.pgn")
            wait_for(lambda: os.path.exists(f) and os.path.getsize(f) > 0)  # (its game in it)
            b.stop()
        threading.Thread(target=unplug, daemon=True).start()
        assert cli.main(["hall", "--port", b.port, "--seconds", "8", "--http-port", "0", "--live-dir", live]) == 0
        out = capsys.readouterr().out
        assert out.startswith("Playboard hall on http://localhost:") and "live files in %s" % live in out
        assert out.count("ALERT board solo disconnected") == 1, out
    finally:
        b.stop()


def test_the_hall_syncs_a_finished_game_and_takes_its_result(tmp_path):
    db = duel_event(tmp_path)
    b = SimBoard()
    console = Notes()
    out = console.lines
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="duel")
        hall = duel_hall(db, console, lambda: [b.port])
        try:
            assert wait_for(lambda: (board_by_label(hall, "1") or {}).get("white") == "Aru")
            # the hall sends the board its pairing; the game begun next carries it, once both
            # players say they are ready (the hall says whom the board waits for)
            assert wait_for(lambda: "board 1: round 1.1, Aru (White) - Bek (Black) sent: its next game\n" in out)
            assert wait_for(lambda: board_by_label(hall, "1")["waiting"] == "waiting for Aru (White) and Bek (Black)")

            def white_ready():
                assert wait_for(lambda: board_by_label(hall, "1")["waiting"] == "waiting for Bek (Black)")
            begin_paired(b, between=white_ready)
            assert wait_for(lambda: board_by_label(hall, "1")["waiting"] is None)  # the game in play
            g = new_game("toguz")
            moves = [toguz_move(b, g, k) for k in range(3)]
            resign(b, 1)  # Black (North) resigns: its pad pressed deliberately twice
            assert wait_for(lambda: any("Aru - Bek: Aru won (1-0" in n for n in hall.state()["notices"]))
        finally:
            hall.stop()
        assert "board 1: 1 game stored\n" in out  # the event's label, as on the page (not the id duel)
        lib = Library(db)
        p = Event(lib, "Duel").pairings(1)[0]
        assert (p.result, p.source) == ("1-0", "board") and lib.games(ids=[p.library_game])[0].moves == moves
        # the board's health counters were taken with its game (docs/museum.md)
        h = lib.health("duel")
        assert h["power_ups"] == 1 and [b["board"] for b in lib.boards()] == ["duel"], h
        lib.close()
        assert b.status()["store"]["games"] == 0  # acknowledged: the board's flash is free again
    finally:
        b.stop()
