"""The demo's board-free parts: the bundled record, record loading errors, terminal pictures."""
import os

import pytest

from playboard import pgn
from playboard.games import new_game
from playboard_host import demo
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
    assert demo.led_name((0, 0, 0)) is None
    for br in (48, 160, 255):
        assert demo.led_name(demo.shown_colour(DEFAULT_COLOURS[LEGAL][0], br), br)[1] == "green"
        assert demo.led_name(demo.shown_colour(DEFAULT_COLOURS[LEGAL][1], br), br)[2] == "selected"
        assert demo.led_name(demo.shown_colour(DEFAULT_COLOURS[CAPTURE][0], br), br)[2] == "capture"
        assert demo.led_name(demo.shown_colour(DEFAULT_COLOURS[CAPTURE][1], br), br)[2] == "tuzdyk"
        assert demo.led_name(demo.shown_colour(DEFAULT_COLOURS[ENGINE][0], br), br)[2] == "engine from"
        if br >= 160:  # at 48 the strip gets (6, 0, 0) for both capture orange and error red
            assert demo.led_name(demo.shown_colour(DEFAULT_COLOURS[ERROR][0], br), br)[1] == "red"
        assert demo.led_name(demo.shown_colour(DEFAULT_COLOURS[SOWING][1], br), br)[2] == "last ball"
    # the board's default brightness 48: the selected piece's blue reaches the strip as (0, 0, 4)
    assert demo.shown_colour(DEFAULT_COLOURS[LEGAL][1]) == (0, 0, 4)
    assert demo.led_name((0, 0, 4))[2] == "selected"


def test_display_colours_show_each_led_in_its_lights_colour():
    out = demo.display_colours([(0, 0, 0), (0, 1, 0), (0, 0, 4)])
    assert out == [(0, 0, 0), (0, 255, 0), (0, 51, 255)]


def _leds(n=58):
    return [(0, 0, 0)] * n


def test_toguz_picture_places_pits_by_the_layout():
    g = new_game("toguz")
    g.push_text("98")
    pic = demo.Picture("toguz")
    leds = _leds()
    lay = pic.layout
    leds[lay.led_of(0)] = (0, 1, 0)  # South pit 1 lit green (brightness 48)
    text = pic.render(demo.contents_of(g), leds, colour=False)
    lines = text.splitlines()
    assert len(lines) == 3  # North pits, kazans, South pits
    assert lines[1].split() == ["K:10", "K:0"]
    south = lines[2].split()
    assert south == ["9g"] + ["9"] * 7 + ["1"]  # pit 1's LED is green
    # North's pit 9 on the left, pit 1 on the right; pit 8 captured
    assert lines[0].split() == ["9", "0"] + ["10"] * 7
    assert "\x1b[" not in text
    coloured = pic.render(demo.contents_of(g), leds, colour=True)
    assert "\x1b[48;5;" in coloured and coloured.count("\x1b[0m") == 1
    assert pic.legend(leds) == "LEDs: g green = legal"


def test_tobit_picture_shows_pieces_and_lifted_points():
    g = new_game("tobit")
    pic = demo.Picture("tobit")
    occ = dict((p, 1 if g.board[p] else 0) for p in range(1, 39))
    occ[7] = 0  # White's man on 7 is in the hand
    text = pic.render(demo.contents_of(g, occ), _leds(), colour=False)
    lines = text.splitlines()
    assert len(lines) == 6
    assert lines[0].split() == ["b"] * 5
    assert lines[4].split() == ["w", "_", "w", "w", "w", "w", "w"]
    assert lines[2].split() == ["."] * 7


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
