"""The demo's board-free parts: the bundled record, record loading errors, terminal pictures."""
import os

import pytest

from playboard import pgn
from playboard.games.registry import new_game
from playboard_host import demo
from playboard_host import leds as led_colours
from playboard_host.cli import main


def test_bundled_record_replays_to_its_tags():
    rec, g = demo.load_record(demo.demo_record_path())
    assert rec.tags["Game"] == "toguz"
    assert g.is_game_over()
    assert g.result() == rec.tags["Result"] == "1-0"
    assert g.termination == rec.tags["Termination"]
    assert g.fen() == rec.tags["FinalPosition"]
    assert g.kazans() == (82, 53)
    # it shows what the demo is for: captures, two tuzdyks, a game of a few dozen moves
    assert sum(m.endswith("x") for m in rec.moves) == 2
    assert 40 <= len(rec.moves) <= 120


def test_make_demo_record_is_a_replayable_engine_game():
    text = demo.make_demo_record(seeds=(3, 4), levels=(2, 1), nodes=200)
    recs = list(pgn.read_games(text.splitlines()))
    assert len(recs) == 1
    g, res = pgn.replay(recs[0])
    assert g.is_game_over() and res == recs[0].tags["Result"] and res != "*"
    assert recs[0].tags["FinalPosition"] == g.fen()
    # seeded: the same arguments make the same game
    assert demo.make_demo_record(seeds=(3, 4), levels=(2, 1), nodes=200) == text


@pytest.mark.parametrize("content, words", [
    (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", "binary"),
    (b"hello, this is a letter\nnot a game\n", "not a game record"),
    (b"", "no [Tag"),
    (b"\xff\xfe\xfa bad", "UTF-8"),
    (b'[Game "chess"]\n\n1. e4 e5 *\n', "unknown game"),
    (b'[Game "toguz"]\n\n1. 77 *\n', "ply 1"),
    (b'[Game "toguz"]\n[Result "*"]\n\n*\n', "no moves"),
    (b'[Game "toguz"\n\n1. 76 *\n', "tag line"),
])
def test_load_record_refuses_what_is_not_a_game_record(tmp_path, content, words):
    p = tmp_path / "x.pgn"
    p.write_bytes(content)
    with pytest.raises(demo.DemoError) as e:
        demo.load_record(str(p))
    assert words in str(e.value)
    assert "x.pgn" in str(e.value)


def test_load_record_missing_file_and_game_number(tmp_path):
    with pytest.raises(demo.DemoError, match="can't read record file"):
        demo.load_record(str(tmp_path / "none.pgn"))
    with pytest.raises(demo.DemoError, match="holds 1 game, no game 2"):
        demo.load_record(demo.demo_record_path(), 2)


def test_demo_command_gives_a_clear_message_for_a_bad_record(tmp_path, capsys):
    p = tmp_path / "notes.txt"
    p.write_text("shopping list\n- milk\n")
    assert main(["demo", "--record", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("playboard: ") and "notes.txt is not a game record" in err
    assert "Traceback" not in err


def test_led_names_follow_the_lights_colours():
    from playboard.board.lights import DEFAULT_COLOURS, LEGAL, CAPTURE, ENGINE, ERROR, SOWING
    assert led_colours.led_name((0, 0, 0)) is None
    for br in (48, 160, 255):
        assert led_colours.led_name(led_colours.shown_colour(DEFAULT_COLOURS[LEGAL][0], br), br)[1] == "green"
        assert led_colours.led_name(led_colours.shown_colour(DEFAULT_COLOURS[LEGAL][1], br), br)[2] == "selected"
        assert led_colours.led_name(led_colours.shown_colour(DEFAULT_COLOURS[CAPTURE][0], br), br)[2] == "capture, take off"
        assert led_colours.led_name(led_colours.shown_colour(DEFAULT_COLOURS[CAPTURE][1], br), br)[2] == "tuzdyk"
        assert led_colours.led_name(led_colours.shown_colour(DEFAULT_COLOURS[ENGINE][0], br), br)[2] == "engine's move from"
        assert led_colours.led_name(led_colours.shown_colour(DEFAULT_COLOURS[ERROR][0], br), br)[1] == "red"
        assert led_colours.led_name(led_colours.shown_colour(DEFAULT_COLOURS[SOWING][1], br), br)[2] == "last ball"
    # the board's default brightness 48: the selected piece's blue (0, 40, 200) is gamma
    # corrected to (0, 4, 149), then scaled by 49/256: (0, 0, 28)
    assert led_colours.shown_colour(DEFAULT_COLOURS[LEGAL][1]) == (0, 0, 28)
    assert led_colours.led_name((0, 0, 28))[2] == "selected"
    # capture orange and error red stay apart when dimmed (gamma before brightness)
    assert led_colours.shown_colour(DEFAULT_COLOURS[CAPTURE][0]) != led_colours.shown_colour(DEFAULT_COLOURS[ERROR][0])


def test_display_colours_show_each_led_in_its_lights_colour():
    from playboard.board.lights import DEFAULT_COLOURS, LEGAL
    out = led_colours.display_colours([(0, 0, 0), led_colours.shown_colour(DEFAULT_COLOURS[LEGAL][0]), (0, 0, 28)])
    assert out == [(0, 0, 0), (0, 255, 0), (0, 51, 255)]


def _leds(n=58):
    return [(0, 0, 0)] * n


def test_toguz_picture_places_pits_by_the_layout():
    g = new_game("toguz")
    g.push_text("98")
    pic = demo.Picture("toguz")
    leds = _leds()
    lay = pic.layout
    leds[lay.led_of(0)] = (0, 17, 0)  # South pit 1 lit green (brightness 48)
    text = pic.render(demo.contents_of(g), leds, colour=False)
    lines = text.splitlines()
    assert len(lines) == 3  # North pits, kazans, South pits
    assert lines[1].split() == ["kazans", "S:10", "N:0"]  # which kazan is whose
    south = lines[2].split()
    assert south == ["South", "9g"] + ["9"] * 7 + ["1"]  # pit 1's LED is green
    # North's pit 9 on the left, pit 1 on the right; pit 8 captured
    assert lines[0].split() == ["North", "9", "0"] + ["10"] * 7
    assert "\x1b[" not in text
    coloured = pic.render(demo.contents_of(g), leds, colour=True)
    assert "\x1b[48;5;" in coloured and coloured.count("\x1b[0m") == 1
    assert pic.legend(leds) == "LEDs: g green = legal"
    from playboard.board.lights import DEFAULT_COLOURS, LAST
    leds[lay.led_of(18)] = led_colours.shown_colour(DEFAULT_COLOURS[LAST][1])  # the LAST accent on a kazan
    assert pic.legend(leds) == "LEDs: g green = legal; h white = kazan grows"


def test_tobit_picture_shows_pieces_and_lifted_points():
    g = new_game("tobit")
    pic = demo.Picture("tobit")
    occ = dict((p, 1 if g.board[p] else 0) for p in range(1, 39))
    occ[7] = 0  # White's man on 7 is in the hand
    text = pic.render(demo.contents_of(g, occ), _leds(), colour=False)
    lines = text.splitlines()
    assert len(lines) == 6
    # each row, then the numbers of its points (as the moves write them: RULES.md 2.2)
    assert lines[0].split() == ["b"] * 5 + ["points", "34-38"]
    assert lines[4].split() == ["w", "_", "w", "w", "w", "w", "w", "points", "6-12"]
    assert lines[2].split() == ["."] * 7 + ["points", "20-26"]
    assert len({ln.index("points") for ln in lines}) == 1  # in one column


def test_colour_wanted(monkeypatch):
    class Tty:
        def isatty(self):
            return True

    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert demo.colour_wanted(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not demo.colour_wanted(Tty())
    assert demo.colour_wanted(Tty(), "always")
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not demo.colour_wanted(Tty())
    assert not demo.colour_wanted(open(os.devnull, "w"), "auto")


# --- the whole demo on the real firmware -------------------------------------------------------
def _need_micropython():
    from playboard_host.simboard import micropython_binary

    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")


def test_demo_plays_the_bundled_record_and_tobit_then_syncs_and_exports(tmp_path, capsys):
    _need_micropython()
    lib = tmp_path / "lib.sqlite"
    out = tmp_path / "export.pgn"
    assert main(["demo", "--library", str(lib), "--export", str(out), "--color", "never"]) == 0
    text = capsys.readouterr().out
    rec, final = demo.load_record(demo.demo_record_path())
    # every move of the record, as the board committed it, in order
    lines = [ln for ln in text.splitlines()
             if ln[:4].strip().rstrip(".").isdigit() and (" South " in ln or " North " in ln)]
    assert [ln.split()[2] for ln in lines] == rec.moves
    # the announcement says what the board records: the record's game, made by hand in a
    # game for two (the engine's names are the record's, not the board's)
    assert ("== toguz: the recorded game %s - %s, its moves made by hand on the board"
            % (rec.tags["White"], rec.tags["Black"])) in text
    assert "(the board records it as a game for two: Player - Player)" in text
    assert "Final kazans on the board 82 : 53; the record's 82 : 53: equal" in text
    assert ("Result 1-0: South won 82 to 53 in the kazans (South 82, North 53) - a kazan reached 82"
            in text)
    # a sowing that feeds the opponent's tuzdyk says whose kazan grew; the game is explained
    assert "13... North 78        +1 to South's kazan (its tuzdyk)" in text
    flat = " ".join(text.split())
    assert "You win with 82 balls in your kazan" in flat and "You win when your opponent has no piece" in flat
    # pictures with the LED colours named (plain text: no escapes), the sowing shown
    assert "\x1b[" not in text and "s sky blue = sowing" in text and "y yellow = tuzdyk" in text
    # the Tobit game against the board's engine ended with a result
    assert "== tobit against the board's engine" in text
    assert "the board's engine shows" in text and "q rose = engine's move to" in text
    tobit_result = [ln for ln in text.splitlines() if ln.startswith("Result ") and "plies" in ln]
    assert len(tobit_result) == 1 and tobit_result[0].split()[1] in ("1-0:", "0-1:", "1/2-1/2:")
    # synced into the library and exported: the same moves, byte for byte
    assert "synced 2 new games" in text
    recs = list(pgn.read_games(out.read_text().splitlines()))
    assert [r.tags["Game"] for r in recs] == ["toguz", "tobit"]
    assert recs[0].moves == rec.moves and recs[0].tags["Result"] == "1-0"
    assert (recs[0].tags["White"], recs[0].tags["Black"], recs[0].tags["Mode"]) == ("Player", "Player", "two")
    g, res = pgn.replay(recs[1])
    assert res + ":" == tobit_result[0].split()[1]
    assert "The exported toguz game's 79 moves are equal to the record's." in text
    from playboard_host.library import Library

    lb = Library(str(lib))
    assert lb.count() == 2
    lb.close()


def test_demo_plays_a_master_game_from_the_cases(capsys):
    _need_micropython()
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "..", "shared", "cases", "toguz-masters-2018.pgn")
    if not os.path.exists(path):
        pytest.skip("../shared/cases is absent")
    assert main(["demo", "--record", path, "--number", "3", "--no-tobit", "--quiet"]) == 0
    text = capsys.readouterr().out
    rec, final = demo.load_record(path, 3)
    n = 2 * 9
    want = "Final kazans on the board %d : %d; the record's %d : %d: equal" % (
        final.pos[n], final.pos[n + 1], final.pos[n], final.pos[n + 1])
    assert want in text
    assert "The exported toguz game's %d moves are equal to the record's." % len(rec.moves) in text


def test_demo_follows_a_plugged_in_board_live_and_falls_back_to_the_simulated_one(tmp_path):
    """`make demo` runs the board: a board plugged in (its USB id) is followed live; one
    that does not answer as a Playboard, or none, gives the simulated board (a line says
    which). The plugged-in board here is a simulated one on its pseudo-terminal."""
    import io
    from playboard_host.cli import CommandError
    from playboard_host.commands import demo as demo_cmd, live
    from playboard_host.simboard import SimBoard, micropython_binary

    out = io.StringIO()
    assert demo_cmd.attached_board(out, ports=lambda: [{"port": "/dev/ttyS0", "board": False}]) is None
    assert out.getvalue() == ""

    def unplugged(args):
        raise CommandError("no answer to hello on /dev/ttyACM0")
    out = io.StringIO()
    assert demo_cmd.attached_board(out, ports=lambda: [{"port": "/dev/ttyACM0", "board": True}],
                                   follow=unplugged) is None
    assert "did not answer as a Playboard (no answer to hello" in out.getvalue()

    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")
    with SimBoard() as b:
        b.start("sim", fs_dir=str(tmp_path / "flash"))
        b.new_game("tihbat", "two", 3)
        b.advance(500)
        seen = {}

        def follow(args):
            seen["port"] = args.port
            args.seconds = 1.5
            return live.run(args)
        out = io.StringIO()
        import contextlib
        with contextlib.redirect_stdout(out):
            code = demo_cmd.attached_board(out, ports=lambda: [{"port": b.port, "board": True}], follow=follow)
        assert code == 0 and seen["port"] == b.port, out.getvalue()
        text = out.getvalue()
        assert ("a board on %s: following it live" % b.port) in text
        assert "game: tihbat" in text, text
