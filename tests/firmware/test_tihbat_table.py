"""The solved Tihbat table (playboard.engine.tihbat_table): indexing, file, the table's play.

Runs under CPython and MicroPython; the table file is firmware/data/tihbat.tbl
(regenerate with ``playboard tihbat-solve``; tests/host/test_tihbat_solver.py
checks that the file is the solver's output).
"""
import gc

from playboard.engine import tihbat_table as tt
from playboard.engine.search import Engine, levels_of
from playboard.games.registry import new_game

import tlib


def test_index_numbers_every_board_once():
    seen = bytearray(tt.ENTRIES)
    n = 0
    for s in range(0, 29, 2):
        for a in range(s + 1):
            for b in range(s - a + 1):
                for c in range(s - a - b + 1):
                    i = tt.index(a, b, c, s - a - b - c)
                    assert 0 <= i < tt.ENTRIES and not seen[i], (a, b, c, i)
                    seen[i] = 1
                    n += 1
    assert n == tt.ENTRIES == 19160
    assert tt.index(0, 0, 0, 0) == 0 and tt.index(0, 0, 0, 28) == tt.ENTRIES - 4495
    tlib.raises(ValueError, tt.index, 1, 0, 0, 0)  # odd total
    tlib.raises(ValueError, tt.index, 10, 10, 10, 0)  # above 28


def test_the_file_is_read_by_seeking():
    t = tt.Table()
    import os
    if t._rom is None:  # the file (CPython, a deploy); frozen: the image's copy in flash
        assert os.stat(t.path)[6] == tt.HEADER + 2 * tt.ENTRIES == 38328
    else:
        assert len(t._rom) == tt.HEADER + 2 * tt.ENTRIES == 38328
    assert t.lookup(7, 7, 7, 7) == (0, 0)  # the start: the split, neither side ahead
    assert t.lookup(0, 0, 0, 0) == (0, 0)
    # pit 1's single counter goes on into pit 2, which makes 2: captured at once
    assert t.lookup(1, 1, 0, 0) == (2, 1)
    # pit 1's 2 counters make (1, 1), the opponent passes, then as above: 3 plies
    assert t.lookup(2, 0, 0, 0) == (2, 3)
    # the opponent, not the mover, gets that capture
    assert t.lookup(0, 2, 0, 0) == (-2, 4)
    t.close()


def test_a_file_that_is_not_the_table_is_refused():
    path = "test-artifacts-tihbat.tbl"
    with open(path, "wb") as f:
        f.write(b"NOPE" + bytes(100))
    try:
        tlib.raises(ValueError, tt.Table, path)
    finally:
        import os
        os.remove(path)
    tlib.raises(OSError, tt.Table, "no-such-dir/tihbat.tbl")


def _table_line_result(g, side):
    """Worst final margin for ``side`` playing by the table against every reply."""
    tab = tt.table()
    worst = [99]

    def walk(depth):
        if g.is_game_over():
            s, n = g.final_captures()
            m = (s - n) if side == 0 else (n - s)
            if m < worst[0]:
                worst[0] = m
            return
        assert depth < 200
        if g.turn == side:
            g.push(tt.best_move(g, tab))
            walk(depth + 1)
            g.pop()
            return
        for r in g.legal_moves():
            g.push(r)
            walk(depth + 1)
            g.pop()

    walk(0)
    return worst[0]


def test_the_table_wins_a_won_line():
    g = new_game("tihbat", "1S,3S/3S,1S 10 10 S 10")  # South wins only by pit 1
    assert tt.value(g)[0] > 0
    assert tt.best_move(g) == 0
    assert _table_line_result(g, 0) > 0
    assert g.fen() == "1S,3S/3S,1S 10 10 S 10"


def test_the_table_keeps_what_it_says_from_fresh_positions():
    # right after a capture the history holds no board of the same total, so
    # the table player's final margin is at least the captures so far plus
    # the table's value (docs/engine.md)
    for fen in ("2S,2S/1S,3S 10 10 S 7", "4S,1/2S,2S 10 10 N 7", "1S,3S/1,4S 8 12 S 9",
                "2S,1S/1S,2S 11 11 S 8"):
        g = new_game("tihbat", fen)
        v = tt.value(g)[0]
        me = g.turn
        now = g.pos[4 + me] - g.pos[5 - me]
        assert _table_line_result(g, me) >= now + v, fen
        gc.collect()


def test_engine_top_level_9_plays_by_the_table():
    g = new_game("tihbat")
    e = Engine()
    assert len(levels_of("tihbat")) - 1 == 9
    for _ in range(6):
        m = e.think(g, 9, nodes=50)
        assert m == tt.best_move(g) and e.nodes == 0
        g.push(m)
        if g.is_game_over():
            break
