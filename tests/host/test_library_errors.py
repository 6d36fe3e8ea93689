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
