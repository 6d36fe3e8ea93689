"""The `playboard perft` and `playboard replay` commands, and the deeper perft values (CPython)."""
import os

import pytest

from playboard_host.cli import main
from playboard.games.perft import perft
from playboard.games.registry import new_game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(ROOT, "..", "shared", "cases")


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("game,depth,count", [
    ("toguz", 6, 360035),  # RULES.md 1.9
    ("toguz", 7, 3003052),
    ("tobit", 6, 95283),  # RULES.md 2.14
    ("tobit4", 6, 31352),
    ("tihbat", 12, 3340),  # RULES.md 3.8
])
def test_perft_deeper_under_cpython(game, depth, count):
    assert perft(new_game(game), depth) == count


def test_perft_command(capsys):
    assert run(capsys, "perft", "toguz", "3") == (0, "613\n", "")
    status, out, _ = run(capsys, "perft", "tobit", "2", "--position", "W:W15:B16,22,30", "--divide")
    # by hand: after 15:17 Black's men on 22 and 30 have 3 steps each; after 15:29:31
    # the man on 16 has 3
    assert status == 0 and sorted(out.splitlines()) == ["15:17\t6", "15:29:31\t3", "9"]


def test_perft_command_bad_input(capsys):
    status, out, err = run(capsys, "perft", "tihbat", "2", "--position", "7S,7S/7S 0 0 S 1")
    assert status == 2 and "South row has 1 pits" in err and "Traceback" not in err
    status, _, err = run(capsys, "perft", "toguz", "-1")
    assert status == 2 and "depth" in err
    status, _, err = run(capsys, "perft", "tobit", "1000")
    assert status == 2 and "depth must be 0..20" in err
    with pytest.raises(SystemExit):
        main(["perft", "chess", "1"])


def test_replay_command(capsys):
    status, out, err = run(capsys, "replay", os.path.join(ROOT, "tests", "data", "own-games.pgn"))
    assert status == 0, err
    lines = [line.split("\t") for line in out.splitlines()]
    assert [row[:3] for row in lines] == [["1", "toguz", "1-0"], ["2", "tobit", "0-1"],
                                          ["3", "tobit4", "0-1"], ["4", "tihbat", "1-0"]]
    assert lines[1][3] == "W:W:BK13,26,27,30,31,33,36"


def test_replay_stops_on_a_mis_noted_move(capsys, tmp_path):
    f = tmp_path / "bad.pgn"
    f.write_text('[Game "toguz"]\n[Result "*"]\n\n1. 76 98 *\n\n[Game "toguz"]\n\n1. 76 98 2. 66 86\n')
    status, out, err = run(capsys, "replay", str(f))
    assert status == 1
    assert out.startswith("1\ttoguz\t*\t")
    assert "game 2, line 8, ply 4" in err and "lands in pit 7, not 6" in err


def test_replay_reports_each_bad_game_and_goes_on(capsys, tmp_path):
    f = tmp_path / "mixed.pgn"
    f.write_text('[Game "toguz"]\n\n1. 76 98 2. 66 86 *\n\n'  # game 1: a mis-noted move
                 '[Game "tihbat"]\n[Result "*"]\n\n1. 2 1 *\n\n'  # game 2: fine
                 '[Game "tobit"]\n\n1. 7-15 *\n\n'  # game 3: an illegal move
                 '[Game "tobit"]\n[Result "1-0"]\n\n1. 7-14 0-1\n\n'  # game 4: tag and movetext differ
                 '[Game "toguz"]\n[Result "0-1"]\n\n1. 76 0-1\n')  # game 5: result without an end
    status, out, err = run(capsys, "replay", str(f))
    assert status == 1
    assert [ln.split("\t")[:3] for ln in out.splitlines()] == [["2", "tihbat", "*"], ["4", "tobit", "1-0"],
                                                                ["5", "toguz", "0-1"]]
    lines = err.splitlines()
    assert len(lines) == 6
    assert lines[0].startswith("playboard: %s: game 1, line 3, ply 4" % f)
    assert lines[1].startswith("playboard: %s: game 3, line 12, ply 1: move '7-15' is not legal here" % f)
    assert lines[2] == ("playboard: %s: game 4: the Result tag 1-0 differs from the result 0-1 written after "
                        "the moves" % f)
    assert lines[4] == ("playboard: %s: game 5: the moves do not end the game: the result 0-1 must come from a "
                         "resignation, an agreement or time (no Termination tag says which)" % f)
    assert lines[5] == "playboard: %s: 2 of 5 games could not be replayed" % f


def test_replay_json(capsys):
    import json

    status, out, err = run(capsys, "replay", "--json", os.path.join(ROOT, "tests", "data", "own-games.pgn"))
    assert status == 0, err
    rows = [json.loads(ln) for ln in out.splitlines()]
    assert [(r["number"], r["game"], r["result"]) for r in rows] == [
        (1, "toguz", "1-0"), (2, "tobit", "0-1"), (3, "tobit4", "0-1"), (4, "tihbat", "1-0")]
    assert rows[1]["fen"] == "W:W:BK13,26,27,30,31,33,36" and all(r["plies"] > 0 for r in rows)


def test_replay_bad_files(capsys, tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("these are my notes\nnot a game\n")
    status, _, err = run(capsys, "replay", str(f))
    assert status == 1 and "not a game record" in err
    b = tmp_path / "bin.pgn"
    b.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    status, _, err = run(capsys, "replay", str(b))
    assert status == 1 and "not a text record file" in err
    status, _, err = run(capsys, "replay", str(tmp_path / "missing.pgn"))
    assert status == 2 and "can't read" in err
    e = tmp_path / "empty.pgn"
    e.write_text("")
    status, _, err = run(capsys, "replay", str(e))
    assert status == 1 and "no game record" in err


def test_replay_shared_cases(capsys):
    path = os.path.join(CASES, "generated-games.pgn")
    if not os.path.exists(path):
        pytest.skip("../shared/cases not found: the shared game records are not here")
    status, out, err = run(capsys, "replay", path)
    assert status == 0, err
    assert len(out.splitlines()) == 76
    first = out.splitlines()[0].split("\t")
    assert first == ["1", "tobit", "1-0", "B:W9,18,28:B"]


def test_deep_perft_shows_progress_on_a_terminal(tmp_path):
    # stderr on a pseudo-terminal: tqdm draws its bar there (one step per first move);
    # stdout (a pipe) gets the count alone
    import pty
    import subprocess
    import sys

    import fcntl
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal 100 wide
    r = subprocess.run([sys.executable, "-m", "playboard_host.cli", "perft", "tobit4", "5"], stdout=subprocess.PIPE,
                       stderr=slave, timeout=120, cwd=ROOT)
    os.close(slave)
    err = b""
    try:
        while True:
            chunk = os.read(master, 65536)
            if not chunk:
                break
            err += chunk
    except OSError:
        pass
    os.close(master)
    assert r.returncode == 0 and r.stdout == b"5112\n"  # RULES.md 2.14
    assert b"perft 5:   0%" in err and b"0/4 " in err  # one step per first move (4 from the start)


def test_match_reports_progress_after_each_game(capsys):
    from playboard_host import match

    seen = []
    r = match.run_match("tihbat", "L2", "random", games=3, progress=lambda *done: seen.append(done))
    assert len(seen) == 3 and r["games"] == 3 and r["wins"] + r["draws"] + r["losses"] == 3
    status, out, err = run(capsys, "match", "--game", "tihbat", "--pair", "L2:random", "--games", "2", "-q")
    assert status == 0 and out.splitlines()[2].startswith("| tihbat | L2 | random | 2 |") and err == ""


def test_replay_goes_on_after_a_malformed_tag_line_at_the_next_game(capsys, tmp_path):
    """A new user's report (item 9): a tag line without its ']' stopped the reading, so
    the games after it were never checked, although player.md says the others go on."""
    f = tmp_path / "tags.pgn"
    f.write_text('[Game "toguz"]\n[Result "*"]\n\n1. 76 98 *\n\n'  # game 1: fine
                 '[Game "tihbat"]\n[Event "Club\n[Result "*"]\n\n1. 2 1 *\n\n'  # game 2: a tag without ']'
                 '[Game "tobit"]\n[Result "*"]\n\n1. 7-20 *\n\n'  # game 3: an illegal move
                 '[Game "tihbat"]\n[Result "*"]\n\n1. 2 1 *\n')  # game 4: fine
    status, out, err = run(capsys, "replay", str(f))
    assert status == 1
    assert [ln.split("\t")[:3] for ln in out.splitlines()] == [["1", "toguz", "*"], ["4", "tihbat", "*"]]
    lines = err.splitlines()
    assert len(lines) == 3, err
    assert lines[0].startswith("playboard: %s: game 2, line 7: " % f) and "]" in lines[0], lines[0]
    assert lines[1].startswith("playboard: %s: game 3, line 15, ply 1: move '7-20' is not legal here" % f)
    assert lines[2] == "playboard: %s: 2 of 4 games could not be replayed" % f
    assert "stopped" not in err
    status, out, err = run(capsys, "replay", "--json", str(f))
    import json
    assert [(r["number"], "error" in r) for r in map(json.loads, out.splitlines())] == [
        (1, False), (2, True), (3, True), (4, False)]
