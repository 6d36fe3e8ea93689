"""Tournament day (issue 32): every board its own id (two with one id refused), each
board told its pairing over the link and writing it into the game's header, results
taken only from the game carrying the pairing (the real firmware on SimBoard), the
arbiter's tools, and every output through any console."""
import json
import os
import subprocess
import sys

import pytest

from hall_harness import Cable, Notes, begin_paired, duel_event, duel_hall, resign, toguz_move, wait_for
from playboard_host import cli
from playboard_host.library import Library
from playboard_host.serial_link import BoardLink, LinkError, open_port
from playboard_host.simboard import SimBoard, micropython_binary
from playboard_host.tournament.event import Event, TournamentError
from playboard_host.tournament.results import pairing_request, take_results

needs_mp = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def _cli(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---- 1. one id a board ---------------------------------------------------------------

def test_two_boards_with_one_id_are_refused_in_one_line(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    code, out, err = _cli(capsys, *T, "create", "Spring", "--game", "toguz", "--board", "1=sim", "--board", "2=sim")
    assert code != 0 and err.strip().count("\n") == 0, err
    assert "boards 1 and 2 both answer id sim: each board needs its own id" in err
    assert _cli(capsys, *T, "list")[1] == ""  # nothing made
    code, out, err = _cli(capsys, *T, "create", "Spring", "--game", "toguz", "--board", "1=a", "--board", "1=b")
    assert code != 0 and "board 1 is given twice" in err
    assert _cli(capsys, *T, "create", "Spring", "--game", "toguz", "--board", "1=a", "--board", "2=b")[0] == 0
    code, out, err = _cli(capsys, *T, "board", "Spring", "3", "--id", "a")
    assert code != 0 and "boards 1 and 3 both answer id a" in err
    code, out, err = _cli(capsys, *T, "board", "Spring", "2", "--id", "c")
    assert code != 0 and "Spring has a board 2 already (id b)" in err
    lib = Library(db)
    e = Event(lib, "Spring")
    assert e.settings["boards"] == {"1": "a", "2": "b"}
    # an event written before the check, with one id twice: collect refuses it
    e.settings["boards"]["2"] = "a"
    with lib.db:
        e._save_settings()
    with pytest.raises(TournamentError, match="boards 1 and 2 both answer id a"):
        take_results(Event(lib, "Spring"), lib)
    lib.close()


# ---- 2. the pairing on the board -------------------------------------------------------

def _play_and_resign(b, moves=2, loser=1):
    """A Toguz Kumalak game on board ``b`` (begun already): ``moves`` pits sown, then
    ``loser`` (0 White, 1 Black) resigns by its pad (Tobit points 5 / 38, twice)."""
    from playboard.games.registry import new_game
    g = new_game("toguz")
    for k in range(moves):
        toguz_move(b, g, k)
    resign(b, loser)
    assert b.status()["state"] == "over"


@needs_mp
def test_the_board_writes_its_pairing_into_the_next_game_only(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="e6613852aa")
        assert _cli(capsys, *T, "create", "Весна 2026", "--game", "toguz", "--board", "1=e6613852aa")[0] == 0
        assert _cli(capsys, *T, "add", "Весна 2026", "Әлия", "王芳")[0] == 0
        assert _cli(capsys, *T, "pair", "Весна 2026")[0] == 0
        code, out, err = _cli(capsys, *T, "send", "Весна 2026", "--port", b.port)
        assert code == 0 and out == "board 1: round 1.1, Әлия (White) - 王芳 (Black): its next game\n", (out, err)
        link = BoardLink(open_port(b.port), timeout=3.0)
        try:  # bad pairings refused whole, in one line, nothing changed
            for bad, msg in (({"event": "x", "round": "1.1", "white": "a"}, "pairing black must be a text"),
                             ({"event": "x", "round": "1.1", "white": "a", "black": "b", "seat": 1},
                              "unknown pairing field 'seat'"),
                             ({"event": "x" * 41, "round": "1.1", "white": "a", "black": "b"}, "1..40"),
                             ("x", "pairing takes")):
                with pytest.raises(LinkError, match=msg):
                    link.set_game(pairing=bad)
            with pytest.raises(LinkError, match="a pairing takes only game beside it, not 'mode'"):
                link.set_game(pairing={"event": "x", "round": "1", "white": "a", "black": "b"}, mode="white")
        finally:
            link.close()
        b.new_game("toguz", "two")  # the players begin it at the board
        b.advance(100)
        _play_and_resign(b, 3, loser=1)
        b.new_game("toguz", "two")  # then a friendly game: no pairing in its header
        b.advance(100)
        _play_and_resign(b, 2, loser=0)
        assert _cli(capsys, "sync", "--port", b.port, "--library", db, "-q")[0] == 0
        code, out, err = _cli(capsys, *T, "collect", "Весна 2026")
        assert out.splitlines() == [
            "round 1 table 1 on board 1: Әлия - 王芳: Әлия won (1-0, game 1)",
            "board 1: game 2 (Player - Player, 0-1) carries no pairing of Весна 2026: listed for the arbiter,"
            " not taken"], out
        lib = Library(db)
        g1, g2 = lib.games()
        assert {k: g1.tags[k] for k in ("Event", "Round", "White", "Black")} == {
            "Event": "Весна 2026", "Round": "1.1", "White": "Әлия", "Black": "王芳"}
        assert "Round" not in g2.tags and g2.tags["White"] == "Player"
        lib.close()
    finally:
        b.stop()


def _sides_lit(b, game):
    """{cell: "white" | "blue" | "off" | other (r, g, b)} of ``game``'s cells on board ``b``'s LEDs now."""
    from playboard.board.layout import load_layout
    lay = load_layout(game)
    leds = b.leds()
    out = {}
    for c in lay.cells:
        r, g, bl = leds[lay.led_of(c)]
        out[c] = ("off" if r == g == bl == 0 else "white" if r == g == bl else
                  "blue" if r == g == 0 < bl else (r, g, bl))
    return out


def _seen(b, game, ms=250):
    """{cell: "white" | "blue" | "off" | ... (steady), or "white blinking" / "blue blinking"}
    of ``game``'s cells on board ``b``: its LEDs read twice, half a blink period apart."""
    one = _sides_lit(b, game)
    b.advance(ms)
    two = _sides_lit(b, game)
    return {c: one[c] if one[c] == two[c] else "%s blinking" % (one[c] if one[c] != "off" else two[c])
            for c in one}


def _rows(seen):
    """The Toguz Kumalak pits' looks (``_seen``) row by row: (South's, North's), each a
    set (one look for a row lit as one side)."""
    return set(seen[c] for c in range(9)), set(seen[c] for c in range(9, 18))


@needs_mp
def test_the_board_shows_whose_side_is_where_until_both_are_ready(tmp_path, capsys):
    from playboard.app.state import MENU_GAME, MENU_START
    from playboard.board.layout import load_layout
    from playboard_host.gestures import press_sensor
    menu = load_layout("toguz")
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="side-1")
        b.advance(300)
        assert b.status()["state"] == "menu"
        assert "white" not in _sides_lit(b, "tobit").values()  # the menu: no sides shown
        link = BoardLink(open_port(b.port), timeout=3.0)
        try:
            pair = {"event": "Spring", "round": "1.1", "white": "Aru", "black": "Bek"}
            st = link.set_game(game="tobit", pairing=pair)
            assert st["ready"] == 0 and st["state"] == "menu"
            b.advance(200)
            # Tobit: White's half of the points (1-19) white, Black's (20-38) blue, both
            # blinking (nobody ready); the Toguz pits where each side says it is ready:
            # South White's, North Black's; the game and mode pads are gone
            lit = _seen(b, "tobit")
            assert [c for c in lit if lit[c] == "white blinking"] == list(range(1, 20)), lit
            assert [c for c in lit if lit[c] == "blue blinking"] == list(range(20, 39)), lit
            assert _rows(_seen(b, "toguz")) == ({"white blinking"}, {"blue blinking"})
            assert link.status()["pairing"] == {"Event": "Spring", "Round": "1.1", "White": "Aru",
                                                "Black": "Bek"}
            # Toguz Kumalak: South's pits and kazan (White's) white, North's blue, START among them
            link.set_game(game="toguz", pairing=pair)
            b.advance(200)
            pits = _seen(b, "toguz")
            assert [c for c in pits if pits[c] == "white blinking"] == list(range(0, 9)) + [18], pits
            assert [c for c in pits if pits[c] == "blue blinking"] == list(range(9, 18)) + [19], pits
            assert all(v == "off" for v in _sides_lit(b, "tobit").values())
            link.close()
            # playboard live says it too, and who the board waits for
            sides = "Spring, round 1.1: Aru: White, South (white lights) - Bek: Black, North (blue lights)"
            code, out, err = _cli(capsys, "live", "--port", b.port, "--seconds", "0.3", "--no-picture")
            assert code == 0 and out.endswith("the next game's pairing: " + sides +
                                              "\nwaiting for Aru (White) and Bek (Black)\n"), (out, err)
            # a game pad (South pit 1) is White's "ready" now (the host chose the game), while
            # playboard live follows: its ready event said with the names; White's half
            # steady, Black's still blinking
            import threading
            def white_ready():  # once live follows the board's events
                wait_for(lambda: b.status()["link_live"], 10)
                press_sensor(b, menu.sensor_of(MENU_GAME[0]))
            white = threading.Thread(target=white_ready)
            white.start()
            code, out, err = _cli(capsys, "live", "--port", b.port, "--seconds", "3", "--no-picture")
            white.join()
            assert code == 0 and out.endswith("\nwaiting for Aru (White) and Bek (Black)\nwaiting for Bek (Black)\n"), \
                (out, err)
            st = b.status()
            assert st["game"] == "toguz" and st["state"] == "menu" and st["ready"] == 1, st
            pits = _seen(b, "toguz")
            assert [c for c in pits if pits[c] == "white"] == list(range(0, 9)) + [18], pits
            assert [c for c in pits if pits[c] == "blue blinking"] == list(range(9, 18)) + [19], pits
            link = BoardLink(open_port(b.port), timeout=3.0)
            # Black's START (a pit of its row) begins the game, which takes the pairing: the
            # sides' lights go
            press_sensor(b, menu.sensor_of(MENU_START))
            b.advance(500)
            st = link.status()
            assert st["state"] == "play" and "pairing" not in st and "ready" not in st, st
            assert "blue" not in _sides_lit(b, "toguz").values()
            link.close()
            # the game in play carries it; Black resigns while live follows: the result in words
            resigns = threading.Timer(1.0, lambda: resign(b, 1))
            resigns.start()
            code, out, err = _cli(capsys, "live", "--port", b.port, "--seconds", "4", "--no-picture")
            resigns.join()
            lines = out.splitlines()
            assert code == 0 and lines[1] == sides and lines[-1] == "Spring, round 1.1: Aru won", (out, err)
            link = BoardLink(open_port(b.port), timeout=3.0)
            # forgotten ("pairing": null) before a game: the menu's pads again
            link.set_game(pairing=pair)
            link.set_game(pairing=None)
            st = link.status()
            assert "pairing" not in st
        finally:
            link.close()
    finally:
        b.stop()


@needs_mp
def test_the_game_begins_when_both_sides_are_ready_at_human_pace(tmp_path):
    """People at a board (virtual time): touches that are no press ready nobody, White
    ready and Black three minutes late (the board gone to its attract lights meanwhile),
    the pairing sent again on a reconnection keeps who is ready, a pairing replaced
    before both were ready starts over, and the game begun carries the pairing."""
    from playboard.board.layout import load_layout
    from playboard_host.gestures import press_sensor
    menu, tobit = load_layout("toguz"), load_layout("tobit")
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="ready-1")
        b.advance(300)
        link = BoardLink(open_port(b.port), timeout=3.0)
        try:
            pair = {"event": "Spring", "round": "2.1", "white": "Aru", "black": "Bek"}
            assert link.set_game(game="toguz", pairing=pair)["ready"] == 0
            b.advance(400)
            b.events()
            # stray touches: a brief one (150 ms, under the 0.8 s hold), a Tobit point held, two
            # pits of both rows at once (a hand across the board), a pit held 5 s (filled, not pressed)
            b.tap(12, 150)
            b.advance(600)
            press_sensor(b, tobit.sensor_of(20))
            s1, s2 = menu.sensor_of(2), menu.sensor_of(14)
            b.set_sensor(s1, 1)
            b.advance(100)
            b.set_sensor(s2, 1)
            b.advance(1000)
            b.set_sensor(s1, 0)
            b.set_sensor(s2, 0)
            b.advance(600)
            b.set_sensor(menu.sensor_of(5), 1)
            b.advance(5000)
            b.set_sensor(menu.sensor_of(5), 0)
            b.advance(4000)
            st = b.status()
            assert st["state"] == "menu" and st["ready"] == 0, st
            assert [e for e in b.events() if e["ev"] == "ready"] == []
            # White sits down and says so (South pit 7); pressing again changes nothing
            press_sensor(b, menu.sensor_of(6))
            assert b.status()["ready"] == 1
            press_sensor(b, menu.sensor_of(8))
            assert [(e["side"], e["ready"]) for e in b.events() if e["ev"] == "ready"] == [(0, 1)]
            # the hall reconnects (its hello first) and sends the same pairing: White stays ready
            link.close()
            link = BoardLink(open_port(b.port), timeout=3.0)
            link.hello()
            assert link.set_game(game="toguz", pairing=pair)["ready"] == 1
            # Black is three minutes late: the menu turns into the attract lights after 120 s,
            # a touch brings the menu back (no press), White still ready
            b.advance(180000)
            assert b.status()["state"] == "attract"
            b.tap(10, 150)
            b.advance(500)
            st = b.status()
            assert st["state"] == "menu" and st["ready"] == 1, st
            # the round is re-paired before Black came: the new pairing starts over
            pair2 = dict(pair, black="Dina")
            assert link.set_game(game="toguz", pairing=pair2)["ready"] == 0
            b.advance(300)
            press_sensor(b, menu.sensor_of(16))  # Dina (Black) first this time
            st = b.status()
            assert st["state"] == "menu" and st["ready"] == 2, st
            press_sensor(b, menu.sensor_of(0))  # then Aru (White): the game begins
            b.advance(300)
            st = link.status()
            assert st["state"] == "play" and st["ply"] == 0 and "ready" not in st, st
            assert [(e["side"], e["ready"]) for e in b.events() if e["ev"] == "ready"] == [(1, 2), (0, 3)]
            rec = link.fetch_game(st["current"])[0]
            assert {k: rec.tags[k] for k in ("Event", "Round", "White", "Black")} == {
                "Event": "Spring", "Round": "2.1", "White": "Aru", "Black": "Dina"}
            # the same pairing sent again during the game (a reconnection) is kept for the next
            # game, nobody ready for it
            assert link.set_game(game="toguz", pairing=pair2)["ready"] == 0
            link.set_game(pairing=None)
            assert "ready" not in link.status()
        finally:
            link.close()
    finally:
        b.stop()


@needs_mp
def test_the_hall_follows_one_of_two_boards_answering_one_id_and_says_why(tmp_path):
    from playboard_host.tournament import hall as hall_mod
    boards = []
    try:
        for k in range(2):
            b = SimBoard()
            b.start("sim", fs_dir=str(tmp_path / ("flash%d" % k)))  # both left at "sim"
            boards.append(b)
        ports = [b.port for b in boards]
        hall = hall_mod.Hall(lambda: ports, None, rescan_s=0.2, retry_s=0.5)
        hall.start()
        try:
            wait_for(lambda: (lambda st: any(a["kind"] == "duplicate" for a in st["alerts"]) and
                              any(b["connected"] for b in st["boards"]))(hall.state()), 30)
            st = hall.state()
        finally:
            hall.stop()
        on = [b for b in st["boards"] if b["connected"]]
        off = [b for b in st["boards"] if not b["connected"]]
        assert len(on) == 1 and on[0]["label"] == "sim" and len(off) == 1 and off[0]["label"] == off[0]["port"]
        dup = [a for a in st["alerts"] if a["kind"] == "duplicate"]
        assert dup == [{"kind": "duplicate", "board": off[0]["port"], "text": "board on %s not followed: the board on"
                        " %s answers id sim too: each board needs its own id (a simulated board's: playboard sim"
                        " --board-id ID)" % (off[0]["port"], on[0]["port"])}]
    finally:
        for b in boards:
            b.stop()


# ---- 4. the hall after faults ------------------------------------------------------------

@needs_mp
def test_the_hall_tells_the_truth_after_link_drops_and_a_power_cut(tmp_path):
    from playboard.games.registry import new_game
    from playboard.pgn import read_games
    db = duel_event(tmp_path)
    console = Notes()
    out = console.lines
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="duel")
        cable = Cable(b.port)
        os.makedirs(str(tmp_path / "live"))
        hall = duel_hall(db, console, cable=cable, live_dir=str(tmp_path / "live"))
        g = new_game("toguz")
        played = []

        def move(k):
            played.append(toguz_move(b, g, k))

        def board():
            return hall.state()["boards"][0]
        try:
            assert wait_for(lambda: "board 1: round 1.1, Aru (White) - Bek (Black) sent: its next game\n" in out)
            begin_paired(b)
            move(0)
            move(1)
            assert wait_for(lambda: board()["moves"] == 2 and board()["carries"] == {
                "Event": "Duel", "Round": "1.1", "White": "Aru", "Black": "Bek"}), board()
            # 1. the cable pulled for a while; a move made meanwhile
            cable.out = True
            assert wait_for(lambda: any("board 1 disconnected" in n and "drop 1" in n for n in out)), out
            assert "disconnected" in board()["alerts"]
            move(2)
            cable.out = False
            assert wait_for(lambda: "board 1 back (toguz, 3 moves, in play)\n" in out), out
            assert board()["moves"] == 3 and board()["connected"] and board()["alerts"] == []
            # 2. the power cut and back: the game resumed, its moves whole from the board's record
            b.kill()
            assert wait_for(lambda: any("drop 2" in n for n in out)), out
            b.restart()
            assert wait_for(lambda: out.count("board 1 back (toguz, 3 moves, in play)\n") == 2), out
            move(3)
            assert wait_for(lambda: board()["moves"] == 4)
            # 3. the game ends while the cable is out: after it, the real result, stored and taken once
            cable.out = True
            assert wait_for(lambda: any("drop 3" in n for n in out)), out
            resign(b, 1)  # Black resigns
            cable.out = False
            assert wait_for(lambda: "board 1 back (toguz, 4 moves, Aru won)\n" in out), out
            assert wait_for(lambda: any("Aru - Bek: Aru won (1-0" in n for n in out)), out
            assert board()["result"] == "1-0" and board()["moves"] == 4
            cable.out = True  # and once more: nothing stored or taken twice
            assert wait_for(lambda: any("drop 4" in n for n in out)), out
            cable.out = False
            assert wait_for(lambda: sum("back" in n for n in out) == 4), out
        finally:
            hall.stop()
        assert sum("game stored" in n for n in out) == 1, out
        assert sum("Aru - Bek: Aru won (1-0" in n for n in out) == 1, out
        lib = Library(db)
        games = lib.games()
        p = Event(lib, "Duel").pairings(1)[0]
        assert len(games) == 1 and (p.result, p.library_game) == ("1-0", games[0].id)
        assert games[0].moves == played and len(played) == 4
        lib.close()
        with open(str(tmp_path / "live" / "round-1.pgn"), encoding="utf-8") as f:
            recs = list(read_games(f))
        assert len(recs) == 1 and recs[0].moves == games[0].moves and recs[0].tags["Result"] == "1-0"
    finally:
        b.stop()


# ---- 4. any console ------------------------------------------------------------------

NAMES = ["Әлия Сәрсенқызы", "王芳", 'Ёжиков "Ёж" <b>&amp;', "O'Brien \\ Жанна"]


def test_names_go_through_every_output_exactly(tmp_path, capsys):
    import csv
    import html
    import io
    from playboard.pgn import read_games
    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    ev = 'Кубок "Алтын" <2026>'
    assert _cli(capsys, *T, "create", ev, "--game", "toguz")[0] == 0
    code, out, err = _cli(capsys, *T, "add", ev, *NAMES)
    assert code == 0 and [ln.split(" (seed")[0] for ln in out.splitlines()] == ["entered " + n for n in NAMES]
    assert _cli(capsys, *T, "pair", ev)[0] == 0
    assert _cli(capsys, *T, "result", ev, "1", "1", "-/-", "--reason", "ни один не пришёл «двойная неявка»")[0] == 0
    assert _cli(capsys, *T, "result", ev, "1", "2", "1-0", "--reason", "报告")[0] == 0
    for what in ("pairings", "standings"):
        got = {}
        for fmt in ("text", "csv", "json", "html"):
            code, out, err = _cli(capsys, *T, what, ev, "-f", fmt)
            assert code == 0, err
            got[fmt] = out
        for n in NAMES:
            assert n in got["text"], (what, n)
            assert html.escape(n) in got["html"] and n not in got["html"].replace(html.escape(n), "")
        rows = list(csv.DictReader(io.StringIO(got["csv"])))
        js = json.loads(got["json"])
        if what == "pairings":
            assert sorted(r["white"] for r in rows) + sorted(r["black"] for r in rows) == \
                sorted(r["white"] for r in js) + sorted(r["black"] for r in js)
            assert set(r["white"] for r in rows) | set(r["black"] for r in rows) == set(NAMES)
        else:
            assert set(r["name"] for r in rows) == set(NAMES) == set(r["name"] for r in js[0]["standings"])
    code, out, err = _cli(capsys, *T, "pgn", ev)
    recs = list(read_games(out.splitlines()))
    assert {(r.tags["White"], r.tags["Black"], r.tags["Result"], r.tags.get("Forfeit")) for r in recs} == {
        (NAMES[0], NAMES[3], "*", "-/-"), (NAMES[1], NAMES[2], "1-0", None)}
    assert all(r.tags["Event"] == ev for r in recs)
    code, out, err = _cli(capsys, *T, "show", ev)
    assert "ни один не пришёл «двойная неявка»" in out and "报告" in out


def test_a_console_that_cannot_print_the_names_gets_one_clear_line(tmp_path):
    db = str(tmp_path / "lib.sqlite")
    exe = [os.path.join(os.path.dirname(sys.executable), "playboard"), "tournament", "--library", db]
    env = dict(os.environ, PYTHONIOENCODING="ascii")

    def run(*argv):
        r = subprocess.run(exe + list(argv), env=env, capture_output=True, timeout=60)
        return r.returncode, r.stdout.decode("ascii"), r.stderr.decode("ascii")
    assert run("create", "Cup", "--game", "toguz")[0] == 0
    code, out, err = run("add", "Cup", *NAMES)
    assert code != 0 and out == "" and "Traceback" not in err and err.count("\n") == 1, err
    assert err == ("playboard: this console (ascii) can't print '\\u04d8' (U+04D8): the add was done; set"
                   " PYTHONIOENCODING=utf-8 (or use a UTF-8 terminal)\n")
    lib = Library(db)
    assert [x.name for x in Event(lib, "Cup").entrants()] == NAMES  # every name entered, nothing lost
    lib.close()
    assert run("pair", "Cup")[0] != 0
    code, out, err = run("standings", "Cup")
    assert code != 0 and out == "" and err.endswith("nothing was printed; set PYTHONIOENCODING=utf-8 (or use a"
                                                    " UTF-8 terminal), or write to a file with -o FILE\n"), err
    code, out, err = run("standings", "Cup", "-o", str(tmp_path / "st.txt"))
    assert code == 0 and err == "written to %s\n" % (tmp_path / "st.txt")
    with open(str(tmp_path / "st.txt"), encoding="utf-8") as f:
        text = f.read()
    assert all(n in text for n in NAMES)


@needs_mp
def test_the_web_simulator_answers_the_board_id_it_is_given(tmp_path):
    from playboard_host.commands import sim as sim_cmd
    from playboard_host.websim.session import Session
    import argparse
    p = argparse.ArgumentParser()
    sim_cmd.add_arguments(p)
    args = p.parse_args(["--board-id", "club-7"])
    assert args.board_id == "club-7"
    s = Session(None, pump=False, flash_dir=str(tmp_path / "flash"), board_id=args.board_id)
    try:
        link = BoardLink(open_port(s.board.port), timeout=3.0)
        try:
            assert link.hello()["board"] == "club-7"
        finally:
            link.close()
    finally:
        s.close()
