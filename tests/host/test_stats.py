"""`playboard stats` and `playboard boards` (docs/museum.md): counts per day, by game
and level, mean lengths, the curator's report with its plots, the boards' health as
synced from the simulated board (whole firmware, the chip's heap)."""
import datetime
import json
import os
import sqlite3
from types import SimpleNamespace

import pytest

from playboard_host import cli
from playboard_host.library import SCHEMA_VERSION, Library
from playboard_host.simboard import SimBoard, micropython_binary
from playboard_host.stats import Stats

T0 = datetime.datetime(2026, 11, 30, 18, 0, 0)

# (board, date, game, mode, level, result, termination, plies)
GAMES = [
    ("hall-a", "2026.11.28", "toguz", "white", "2", "1-0", "normal", 40),
    ("hall-a", "2026.11.28", "toguz", "white", "2", "0-1", "normal", 60),
    ("hall-a", "2026.11.28", "toguz", "white", "2", "*", "abandoned", 7),
    ("hall-a", "2026.11.28", "tobit", "two", None, "1/2-1/2", "agreed", 31),
    ("hall-a", "2026.11.29", "tobit", "two", None, "*", "abandoned", 0),
    ("hall-a", "2026.11.29", "tihbat", "white", "3", "1-0", "normal", 12),
    ("hall-b", "2026.11.29", "toguz", "white", "3", "1-0", "resignation", 21),
    ("hall-b", "2026.11.30", "toguz", "white", "2", "*", "abandoned", 3),
    ("hall-b", "2026.11.30", "tihbat", "white", "3", "0-1", "normal", 14),
]


def _fill(path):
    lib = Library(path)
    for i, (board, date, game, mode, level, result, term, plies) in enumerate(GAMES):
        tags = {"Event": "Playboard", "Date": date, "Mode": mode}
        if level:
            tags["Level"] = level
        rec = SimpleNamespace(uid="u%d" % i, id=i + 1, name=game, result=result, termination=term,
                              tags=tags, fen=None, moves=["m%d" % k for k in range(plies)])
        assert lib.add(board, rec, b"raw%d" % i, now=T0)
    lib.board_synced("hall-a", "0.9", now=T0)
    lib.add_health("hall-a", {"power_ups": 3, "wdt_resets": 1, "stuck": 0, "chatter": 1, "faulty": [[12, 1]]},
                   now=T0)
    lib.board_synced("hall-a", "1.0", now=T0 + datetime.timedelta(days=1))
    lib.add_health("hall-a", {"power_ups": 2, "wdt_resets": 0, "stuck": 1, "chatter": 1, "restarts": 4,
                              "faulty": [[12, 1], [40, 2]]}, now=T0 + datetime.timedelta(days=1))
    lib.close()
    return path


def test_counts_per_day_and_by_game_and_level_and_mean_lengths(tmp_path):
    lib = Library(_fill(str(tmp_path / "lib.sqlite")))
    st = Stats(lib.games())
    # the tobit game of 2026.11.29 had no move made: not a game, not counted
    assert st.empty == 1
    assert st.per_day == {"2026.11.28": [4, 3, 1], "2026.11.29": [2, 2, 0], "2026.11.30": [2, 1, 1]}
    assert st.by_game == {("tihbat", "3"): [2, 2, 0, 26, 0], ("tobit", "-"): [1, 1, 0, 31, 0],
                          ("toguz", "2"): [4, 2, 2, 100, 10], ("toguz", "3"): [1, 1, 0, 21, 0]}
    assert st.total == [8, 6, 2, 178, 10]
    assert Stats.mean(st.total) == pytest.approx(178 / 6) and Stats.mean(st.total, False) == pytest.approx(10 / 2)
    assert Stats.mean(st.by_game[("tobit", "-")], False) is None and Stats.mean(st.by_game[("tihbat", "3")], False) is None
    assert st.games_by_name() == {"tihbat": 2, "tobit": 1, "toguz": 5}
    h = lib.health("hall-a")
    assert (h["power_ups"], h["wdt_resets"], h["stuck"], h["chatter"]) == (5, 1, 1, 2)
    assert h["faulty"] == [[12, 1], [12, 1], [40, 2]] and h["last_fault"] == "2026-12-01T18:00:00"
    boards = lib.boards()
    assert [(b["board"], b["games"], b["syncs"], b["fw"]) for b in boards] == [
        ("hall-a", 6, 2, "1.0"), ("hall-b", 3, None, None)]  # hall-b: games from before health
    assert boards[0]["last_sync"] == "2026-12-01T18:00:00" and boards[1]["last_sync"] == "2026-11-30T18:00:00"
    assert boards[1]["health"]["power_ups"] == 0
    lib.close()


def test_playboard_stats_prints_the_tables_and_filters(tmp_path, capsys):
    db = _fill(str(tmp_path / "lib.sqlite"))
    assert cli.main(["stats", "--library", db]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "games: 8 started, 6 finished, 2 abandoned; mean length 29.7 plies finished, 5.0 abandoned"
    assert out[1] == ("(1 game with no move made left out: a board switched on or restarted, a new game chosen "
                      "at once)")
    assert "2026.11.28        4         3          1" in out
    assert "2026.11.29        2         2          0" in out
    assert "toguz        2        4         2          2        50.0           5.0" in out
    assert "tobit        -        1         1          0        31.0             -" in out
    assert out[-3].split() == ["hall-a", "2026-12-01T18:00:00", "6", "5", "1", "4", "1", "2", "0", "0", "12",
                               "chatter,", "40", "stuck"]
    assert out[-1] == "2 boards"
    assert cli.main(["stats", "--library", db, "--board", "hall-b", "--game", "toguz"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("games: 2 started, 1 finished, 1 abandoned;")
    assert out[-1] == "1 board"
    assert cli.main(["stats", "--library", db, "--since", "2026-11-30"]) == 0
    assert capsys.readouterr().out.startswith("games: 2 started, 1 finished, 1 abandoned;")
    # mistakes: one line, status 2
    for argv in (["--board", "nowhere"], ["--since", "2026-12-01", "--until", "2026-11-01"]):
        assert cli.main(["stats", "--library", db] + argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("playboard: ") and err.count("\n") == 1, err
    assert cli.main(["stats", "--library", str(tmp_path / "none.sqlite")]) == 2
    assert "no library" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["svg", "png"])
def test_the_curators_report_has_its_plots_and_an_index_naming_them(tmp_path, capsys, fmt):
    db = _fill(str(tmp_path / "lib.sqlite"))
    rep = str(tmp_path / "report")
    assert cli.main(["stats", "--library", db, "--report", rep, "--format", fmt]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "report: %s (4 files)" % os.path.join(rep, "index.html")
    assert sorted(os.listdir(rep)) == sorted(["index.html", "per_day.%s" % fmt, "per_game.%s" % fmt,
                                              "faults.%s" % fmt])
    magic = b"<?xml" if fmt == "svg" else b"\x89PNG"
    for name in ("per_day", "per_game", "faults"):
        with open(os.path.join(rep, "%s.%s" % (name, fmt)), "rb") as f:
            data = f.read()
        assert data.startswith(magic) and len(data) > 2000, name
    with open(os.path.join(rep, "per_day.%s" % fmt), "rb") as f:
        per_day = f.read()
    with open(os.path.join(rep, "index.html"), encoding="utf-8") as f:
        page = f.read()
    for name in ("per_day", "per_game", "faults"):
        assert 'src="%s.%s"' % (name, fmt) in page
    assert "8 games started, 6 finished, 2 abandoned" in page
    assert "<td>hall-a</td><td>2026-12-01T18:00:00</td><td>6</td><td>5</td><td>1</td><td>4</td><td>1</td><td>2</td>" in page
    assert "<th>daily restarts</th>" in page
    # the same library: the same plots (a report can be compared from day to day)
    assert cli.main(["stats", "--library", db, "--report", rep, "--format", fmt]) == 0
    with open(os.path.join(rep, "per_day.%s" % fmt), "rb") as f:
        assert f.read() == per_day
    # a report folder that is a file: one line, nothing written
    bad = tmp_path / "file"
    bad.write_text("x")
    assert cli.main(["stats", "--library", db, "--report", str(bad)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_playboard_boards_lists_every_board_with_its_health(tmp_path, capsys):
    db = _fill(str(tmp_path / "lib.sqlite"))
    assert cli.main(["boards", "--library", db]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:4] == ["board", "last", "sync", "games"]
    assert out[0].split()[4:9] == ["power-ups", "wdt", "resets", "restarts", "stuck"]
    # (a locked board's daily restarts: neither power-ups nor watchdog resets)
    assert out[1].split() == ["hall-a", "2026-12-01T18:00:00", "6", "5", "1", "4", "1", "2", "0", "0", "12",
                              "chatter,", "40", "stuck"]
    assert out[2].split() == ["hall-b", "2026-11-30T18:00:00", "3", "0", "0", "0", "0", "0", "0", "0", "-"]
    assert out[3] == "2 boards"
    assert cli.main(["boards", "--library", db, "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["board"] for r in rows] == ["hall-a", "hall-b"] and rows[0]["health"]["stuck"] == 1


def test_a_library_from_before_health_is_upgraded_and_lists_its_boards(tmp_path, capsys):
    db = str(tmp_path / "v1.sqlite")
    lib = Library(db)
    lib.db.executescript("DROP TABLE boards; DROP TABLE health; PRAGMA user_version=1;")
    rec = SimpleNamespace(uid="x", id=1, name="toguz", result="1-0", termination=None, tags={}, fen=None,
                          moves=["21"])
    lib.add("old-board", rec, b"raw", now=T0)
    lib.close()
    assert cli.main(["boards", "--library", db]) == 0
    out = capsys.readouterr()
    assert out.out.splitlines()[1].split()[:3] == ["old-board", "2026-11-30T18:00:00", "1"]
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_sync_takes_the_boards_counters_into_the_library_and_clears_them(tmp_path, capsys):
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"))
        b.advance(100)
        s = b.n_sensors - 1
        for k in range(150):  # a broken wire: the sensor flips every frame for 1.5 s
            b.set_sensor(s, k & 1)
            b.advance(10)
        b.set_sensor(s, 0)
        b.advance(3000)
        b.new_game("toguz", "white", 2)
        b.advance(200)
        b.new_game("tihbat", "two")  # the first abandoned (a new game over it)
        b.advance(200)
        b.new_game("toguz", "two")  # the tihbat game abandoned too
        b.advance(200)
        db = str(tmp_path / "lib.sqlite")
        port = ["--port", b.port, "--timeout", "3", "--library", db, "-q"]
        assert cli.main(["sync"] + port) == 0
        out = capsys.readouterr().out
        assert "board sim: 1 chattering sensor since the last sync (sensor %d)" % s in out, out
        lib = Library(db)
        h = lib.health("sim")
        assert (h["power_ups"], h["wdt_resets"], h["stuck"], h["chatter"], h["faulty"]) == (1, 0, 0, 1, [[s, 1]])
        lib.close()
        # a damaged health file: one problem line at the next power-up, printed by sync
        with open(str(tmp_path / "flash" / "games" / "health"), "ab") as f:
            f.write(b"chatter ?\n")
        b.restart()  # switched off and on: one more power-up, on the board only
        b.advance(100)
        assert cli.main(["sync"] + port) == 0
        out = capsys.readouterr().out
        assert "chattering" not in out  # taken: not counted twice
        assert "board sim: health: 1 bad lines skipped, file kept as health.bad\n" in out, out
        assert cli.main(["boards", "--library", db]) == 0
        row = capsys.readouterr().out.splitlines()[1].split()
        assert row[0] == "sim" and row[3:11] == ["2", "0", "0", "0", "1", "0", "0", "%d" % s], row
        assert cli.main(["stats", "--library", db]) == 0
        out = capsys.readouterr().out
        # the first two games were abandoned (a new game over each) with no move made: not
        # games, not kept on the board's flash (issue 34), so not synced; the third is still on
        assert out.startswith("games: 0 started, 0 finished, 0 abandoned;"), out
        assert out.splitlines()[1] == "", out
    finally:
        b.stop()


def test_stats_after_a_day_with_restarts_counts_only_games_with_moves(tmp_path, capsys):
    """A museum day: the board switched on four times and a game chosen twice with
    nothing played (0-move "abandoned" games on record), two real games: stats counts two."""
    db = str(tmp_path / "day.sqlite")
    lib = Library(db)
    day = [("*", "abandoned", 0)] * 4 + [("1-0", "normal", 33), ("*", "abandoned", 0), ("0-1", "resignation", 12),
                                         ("*", "abandoned", 0)]
    for i, (result, term, plies) in enumerate(day):
        rec = SimpleNamespace(uid="d%d" % i, id=i + 1, name="toguz", result=result, termination=term,
                              tags={"Event": "Playboard", "Date": "2026.12.01", "Mode": "two"}, fen=None,
                              moves=["m%d" % k for k in range(plies)])
        assert lib.add("hall-a", rec, b"raw%d" % i, now=T0)
    lib.close()
    assert cli.main(["stats", "--library", db]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "games: 2 started, 2 finished, 0 abandoned; mean length 22.5 plies finished, - abandoned"
    assert out[1].startswith("(6 games with no move made left out")
    assert "2026.12.01        2         2          0" in out


def test_the_reports_first_sentence_with_no_abandoned_game_names_no_abandoned_length(tmp_path, capsys):
    """A new user's report (item 17): "an abandoned one was left after -." with none."""
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    for i, plies in enumerate((20, 30)):
        rec = SimpleNamespace(uid="f%d" % i, id=i + 1, name="toguz", result="1-0", termination="resign",
                              tags={"Event": "Playboard", "Date": "2026.12.05", "Mode": "two"}, fen=None,
                              moves=["m%d" % k for k in range(plies)])
        assert lib.add("sim", rec, b"raw%d" % i, now=T0)
    lib.close()
    rep = str(tmp_path / "report")
    assert cli.main(["stats", "--library", db, "--report", rep, "--format", "svg"]) == 0
    capsys.readouterr()
    with open(os.path.join(rep, "index.html"), encoding="utf-8") as f:
        page = f.read()
    assert "<p>2 games started, 2 finished, 0 abandoned; a finished game was 25.0 plies long on average.</p>" \
        in page, page[:1500]
    assert "left after -" not in page
