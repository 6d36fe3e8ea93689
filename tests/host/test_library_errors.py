"""Library files that are missing, not libraries, or bad filters: one clear line, nothing written."""
import os
import sqlite3

from playboard_host.cli import main


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_reading_commands_never_create_a_library(capsys, tmp_path):
    path = tmp_path / "no" / "such" / "lib.sqlite"
    for cmd in ("games", "export"):
        status, out, err = run(capsys, cmd, "--library", str(path))
        assert status == 2 and "no library at" in err and "Traceback" not in err
    assert not (tmp_path / "no").exists()
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    status, _, err = run(capsys, "games", "--library", str(empty))
    assert status == 2 and "empty" in err and empty.read_bytes() == b""


def test_files_that_are_not_libraries_are_left_alone(capsys, tmp_path):
    junk = tmp_path / "bin.pgn"
    junk.write_bytes(os.urandom(300))
    before = junk.read_bytes()
    for argv in (("games",), ("export",), ("sync", "--port", "/nonexistent-port")):
        status, _, err = run(capsys, *argv, "--library", str(junk))
        assert status == 2 and "not a Playboard library" in err, argv
    assert junk.read_bytes() == before
    other = tmp_path / "other.db"
    db = sqlite3.connect(str(other))
    db.execute("CREATE TABLE notes (x TEXT)")
    db.commit()
    db.close()
    status, _, err = run(capsys, "games", "--library", str(other))
    assert status == 2 and "another program's database" in err
    tables = sqlite3.connect(str(other)).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("notes",)]
    status, _, err = run(capsys, "export", "--library", str(tmp_path))
    assert status == 2 and "is a folder" in err


def test_bad_filters_and_usb_ids(capsys, tmp_path):
    lib = tmp_path / "lib.sqlite"
    from playboard_host.library import Library
    Library(str(lib)).close()  # an empty library
    status, _, err = run(capsys, "export", "--library", str(lib), "--since", "2026-13-45")
    assert status == 2 and "bad date" in err
    status, out, _ = run(capsys, "export", "--library", str(lib), "--since", "2026.11.30")
    assert status == 0 and out == ""
    status, _, err = run(capsys, "export", "--library", str(lib), "--id", "99")
    assert status == 2 and "no game with id 99" in err
    import pytest
    with pytest.raises(SystemExit):
        main(["sync", "--vid-pid", "zzzz"])
    assert "bad USB id 'zzzz'" in capsys.readouterr().err


def test_a_foreign_games_table_gives_one_line_everywhere(capsys, tmp_path):
    other = tmp_path / "shop.db"
    db = sqlite3.connect(str(other))
    db.execute("CREATE TABLE games (title TEXT, price REAL)")
    db.execute("INSERT INTO games VALUES ('chess set', 20.0)")
    db.commit()
    db.close()
    before = other.read_bytes()
    want = "playboard: %s is another program's database, not a Playboard library (its games table has other " \
           "columns)\n" % other
    for argv in (("games",), ("export",), ("sync", "--port", "/nonexistent-port"), ("demo", "--no-tobit", "-q")):
        status, out, err = run(capsys, *argv, "--library", str(other))
        assert (status, err) == (2, want), argv
    assert other.read_bytes() == before


def test_since_after_until_is_said_not_silently_empty(capsys, tmp_path):
    for cmd in ("games", "export"):
        status, out, err = run(capsys, cmd, "--library", str(tmp_path / "x.sqlite"), "--since", "2026-05-02",
                               "--until", "2026-05-01")
        # the dates are checked before the library is opened
        assert status == 2 and err == "playboard: --since 2026-05-02 is after --until 2026-05-01: no day is in " \
                                      "between\n", cmd


def test_games_json_lists_one_object_per_game(capsys, tmp_path):
    import json

    from playboard.record.read import parse_game  # noqa: F401  (the library reads records)
    from playboard_host.library import Library

    path = str(tmp_path / "lib.sqlite")
    Library(path).close()
    status, out, err = run(capsys, "games", "--json", "--library", path)
    assert (status, out, err) == (0, "", "")
    db = sqlite3.connect(path)
    db.execute("INSERT INTO games (board, uid, board_game, game, result, termination, date, fen, tags, moves, "
               "plies, record, synced_at) VALUES ('b1', 'u1', 3, 'tobit', '1-0', 'resignation', '2026.05.01', "
               "NULL, '{\"White\": \"Aigul\", \"Black\": \"Bolat\"}', '[\"7-14\"]', 1, x'00', '2026-05-01T10:00:00')")
    db.commit()
    db.close()
    status, out, err = run(capsys, "games", "--json", "--library", path)
    assert status == 0
    assert [json.loads(ln) for ln in out.splitlines()] == [
        {"id": 1, "date": "2026.05.01", "game": "tobit", "result": "1-0", "result_text": "Aigul won by resignation",
         "termination": "resignation", "plies": 1, "white": "Aigul", "black": "Bolat", "board": "b1"}]
    status, out, err = run(capsys, "games", "--library", path)  # the table: the result in words
    assert status == 0 and out.splitlines()[1].split()[3:7] == ["Aigul", "won", "by", "resignation"]
    status, out, err = run(capsys, "export", "--json", "--library", path)
    assert status == 0 and [(g["result"], g["moves"]) for g in json.loads(out)] == [("1-0", ["7-14"])]
