"""`playboard import-games` on a damaged file: one game's broken tag line, or a download
cut short in its last game, is that game skipped in one line; every whole game of the
file is imported (it refused the whole file, importing none)."""
import pytest

from playboard_host import cli
from playboard_host.library import Library

GAME = ('[Event "Club"]\n[Date "2026.05.0%d"]\n[White "%s"]\n[Black "Bek"]\n[Result "*"]\n'
        '[Variant "Togyzkumalak"]\n\n1. g1d2 a2h1 *\n\n')


def _file(tmp_path, text):
    f = tmp_path / "games.pgn"
    f.write_text(text, encoding="utf-8")
    return str(f)


def _import(tmp_path, capsys, text):
    db = str(tmp_path / "lib.sqlite")
    code = cli.main(["import-games", _file(tmp_path, text), "--library", db])
    out, err = capsys.readouterr()
    lib = Library(db)
    whites = sorted(g.tags.get("White") for g in lib.games())
    lib.close()
    return code, out, err, whites


def test_a_broken_tag_line_skips_its_game_only(tmp_path, capsys):
    text = GAME % (1, "Aru") + (GAME % (2, "Dina")).replace('[White "Dina"]', '[White "Dina]') + GAME % (3, "Gul")
    code, out, err, whites = _import(tmp_path, capsys, text)
    assert (code, err) == (0, "")
    assert whites == ["Aru", "Gul"]
    assert "skipped game 2: line 12: tag White: value must be in double quotes: '[White \"Dina]'\n" in out
    assert out.endswith("imported 2 new games, 1 skipped into %s\n" % (tmp_path / "lib.sqlite"))


def test_a_download_cut_short_keeps_its_whole_games(tmp_path, capsys):
    text = GAME % (1, "Aru") + GAME % (2, "Dina")
    cut = text[:text.index('[Date "2026.05.02"]') + 9]  # in game 2's Date tag
    code, out, err, whites = _import(tmp_path, capsys, cut)
    assert (code, err) == (0, "")
    assert whites == ["Aru"]
    assert "skipped game 2: line 11: tag line does not end with ']': '[Date \"20'\n" in out


@pytest.mark.parametrize("text, why", [
    ("1. g1d2 a2h1 *\n", "game 1, line 1: movetext before any tag (not a game record?): '1. g1d2 a2h1 *'"),
    ('[Event "x"]\n\n1. g1d2 {a comment never closed\n', "game 1, line 3: unterminated {comment}"),
])
def test_a_file_with_no_game_to_read_is_refused_in_one_line(tmp_path, capsys, text, why):
    code, out, err, whites = _import(tmp_path, capsys, text)
    assert code == 2 and whites == [] and out == ""
    assert err == "playboard: %s is not a PGN file: %s\n" % (tmp_path / "games.pgn", why)


def test_a_file_in_another_encoding_is_named_so_and_read_with_encoding(tmp_path, capsys):
    """A PGN saved by a Windows program in Cyrillic (cp1251; PGN's own standard says
    Latin-1): it was "not a PGN file: 'utf-8' codec can't decode byte 0xc0 ..."."""
    f = tmp_path / "cyr.pgn"
    f.write_bytes((GAME % (1, "Алия")).encode("cp1251"))
    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["import-games", str(f), "--library", db]) == 2
    out, err = capsys.readouterr()
    assert err == ("playboard: %s is not UTF-8 text (byte 0xc0 on line 3): give its encoding, e.g. "
                   "--encoding cp1251 (Cyrillic Windows) or --encoding latin-1 (PGN's own)\n" % f)
    assert cli.main(["import-games", str(f), "--library", db, "--encoding", "cp1251"]) == 0
    assert cli.main(["import-games", str(f), "--library", db, "--encoding", "klingon"]) == 2
    out, err = capsys.readouterr()
    assert err == "playboard: --encoding klingon: no such text encoding\n"
    lib = Library(db)
    (g,) = lib.games()
    lib.close()
    assert g.tags["White"] == "Алия"


@pytest.mark.parametrize("tag, line", [("White", 12), ("Event", 10)])
def test_a_tag_line_missing_its_bracket_is_one_damaged_tag_of_its_game(tmp_path, capsys, tag, line):
    """It split its game: the tags before it were a game of bad moves (skipped), the rest
    imported as a game without Event, Date, White; a first tag's line was read as the
    last game's moves. Now: the game whole, its tag read, one line naming it."""
    damaged = '%s "%s"]' % (tag, "Dina" if tag == "White" else "Club")
    text = GAME % (1, "Aru") + (GAME % (2, "Dina")).replace("[" + damaged, damaged) + GAME % (3, "Gul")
    assert damaged in text.splitlines()[line - 1]
    code, out, err, whites = _import(tmp_path, capsys, text)
    assert (code, err) == (0, "")
    assert whites == ["Aru", "Dina", "Gul"]
    assert out == ("game 2: line %d: tag line without its '[': %r, read as tag %s\n"
                   "imported 3 new games into %s\n" % (line, damaged, tag, tmp_path / "lib.sqlite"))
    lib = Library(str(tmp_path / "lib.sqlite"))
    try:
        dina = [g for g in lib.games() if g.tags.get("White") == "Dina"][0]
        assert (dina.tags["Event"], dina.tags["Date"], dina.tags["Black"]) == ("Club", "2026.05.02", "Bek")
        assert len(dina.moves) == 2
    finally:
        lib.close()
