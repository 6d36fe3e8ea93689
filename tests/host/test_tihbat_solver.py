"""The Tihbat solver (playboard_host.tihbat_solver) and its table file."""
import os
import random

import pytest

from playboard.engine import tihbat_table as tt
from playboard.games.registry import new_game
from playboard_host import tihbat_solver as ts
from playboard_host.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(ROOT, "firmware", "data", "tihbat.tbl")


@pytest.fixture(scope="module")
def solved():
    return ts.solve()


def test_the_shipped_table_is_the_solution(solved):
    value, rank = solved
    with open(TABLE, "rb") as f:
        assert f.read() == ts.table_bytes(value, rank)


def test_every_value_is_its_best_move_and_the_side_ahead_can_progress(solved):
    value, rank = solved
    assert ts.check(value, rank) == tt.ENTRIES - 1  # all but the empty board
    assert value[tt.index(7, 7, 7, 7)] == 0
    assert max(rank) == 33
    assert min(value) >= -28 and max(value) <= 28


def test_the_solver_plays_the_rules_core_s_moves():
    rng = random.Random(3)
    plies = 0
    for _ in range(300):
        g = new_game("tihbat")
        while not g.is_game_over():
            me = g.turn
            board = tt.board_of(g.pos, me)
            legal = g.legal_moves()
            assert [2 if m is None else m for m in ts.moves(board)] == legal
            m = rng.choice(legal)
            before = g.pos[4 + me]
            taken, nxt = ts.play(board, None if m == 2 else m)
            g.push(m)
            assert g.pos[4 + me] - before == taken
            assert tt.board_of(g.pos, g.turn) == nxt
            plies += 1
    assert plies > 5000


def test_command_writes_and_checks(tmp_path, capsys):
    out = tmp_path / "t.tbl"
    assert main(["tihbat-solve", "--out", str(out)]) == 0
    assert out.read_bytes() == open(TABLE, "rb").read()
    assert main(["tihbat-solve", "--out", str(out), "--check"]) == 0
    out.write_bytes(b"x")
    assert main(["tihbat-solve", "--out", str(out), "--check"]) == 1
    assert main(["tihbat-solve", "--out", str(tmp_path / "no" / "t.tbl")]) == 2
    assert "no such folder" in capsys.readouterr().err
