"""Tobit rules (RULES.md section 2): one test per numbered rule, values worked by hand.

Standard board points (2.2): row 0 = 1..5 (x 1..5); row 1 = 6..12, row 2 = 13..19,
row 3 = 20..26, row 4 = 27..33 (x 0..6); row 5 = 34..38 (x 1..5).
"""
import tlib
from tlib import raises, is_micropython

from playboard.games.common import GameError, TERM_NO_MOVE, TERM_REPETITION
from playboard.games.registry import new_game
from playboard.games.perft import perft
from playboard.games.tobit import Tobit, Tobit4, NORTH, EAST, SOUTH, WEST, ST_MLEN


def texts(g):
    return sorted(g.move_text(m) for m in g.legal_moves())


def test_rule_2_1_geometry():
    g = Tobit()
    assert g.n_points == 38 and Tobit4().n_points == 32
    # an end of a transverse line touches only its neighbour on that line
    assert [g.neighbour(13, d) for d in (NORTH, EAST, SOUTH, WEST)] == [0, 14, 0, 0]
    # an end of a longitudinal line touches only its neighbour on that line
    assert [g.neighbour(1, d) for d in (NORTH, EAST, SOUTH, WEST)] == [7, 0, 0, 0]
    assert [g.neighbour(36, d) for d in (NORTH, EAST, SOUTH, WEST)] == [0, 0, 30, 0]
    # a crossing touches four points
    assert [g.neighbour(15, d) for d in (NORTH, EAST, SOUTH, WEST)] == [22, 16, 8, 14]


def test_rule_2_2_numbering():
    g = Tobit()
    assert g.xy(7) == (1, 1) and g.xy(14) == (1, 2) and g.xy(22) == (2, 3) and g.xy(36) == (3, 5)
    assert g.point(0, 1) == 6 and g.point(6, 4) == 33 and g.point(0, 0) == 0
    g4 = Tobit4()
    assert g4.xy(1) == (1, 0) and g4.xy(5) == (0, 1) and g4.xy(29) == (1, 5) and g4.xy(32) == (4, 5)


def test_rule_2_3_start():
    assert Tobit().fen() == "W:W1,2,3,4,5,6,7,8,9,10,11,12:B27,28,29,30,31,32,33,34,35,36,37,38"
    assert Tobit4().fen() == "W:W1,2,3,4,5,6,7,8,9,10:B23,24,25,26,27,28,29,30,31,32"


def test_a_new_game_is_set_as_its_start_text_sets_it_and_shares_its_tables():
    # (a new game is set up without parsing its start text; its tables are made once
    # per board size and shared: docs/pico.md)
    for cls, white, black in ((Tobit, list(range(1, 13)), list(range(27, 39))),
                              (Tobit4, list(range(1, 11)), list(range(23, 33)))):
        g = cls()
        t = cls(fen=g.start_fen())
        assert g.board == t.board and g.st == t.st and g.key() == t.key() != 0
        assert g.root_fen == t.root_fen == "W:W%s:B%s" % (",".join(map(str, white)), ",".join(map(str, black)))
        assert [p for p in range(1, g.n_points + 1) if g.board[p] == 1] == white
        assert g.nb is t.nb and g._z is t._z  # one board size: its tables shared
        assert texts(g) == texts(t) and perft(g, 2) == perft(t, 2)
    assert Tobit().nb is not Tobit4().nb and Tobit().nb != Tobit4().nb


def test_rule_2_4_man_steps_forward_left_right_never_back():
    g = Tobit("W:W14:B38")
    assert texts(g) == ["14-13", "14-15", "14-21"]
    g = Tobit("B:W1:B22")  # Black's forward is towards row 0
    assert texts(g) == ["22-15", "22-21", "22-23"]
    g = Tobit("W:W13:B38")  # an end point: the only neighbour
    assert texts(g) == ["13-14"]


def test_rule_2_5_promotion_on_the_far_end():
    g = Tobit("W:W30:B20")
    g.push_text("30-36")
    assert g.fen() == "B:WK36:B20"
    g = Tobit("B:W20:B9")
    g.push_text("9-3")
    assert g.fen() == "W:W20:BK3"
    # so a man never stands on its own far end in a position text
    e = raises(GameError, Tobit, "W:W34:B30")
    assert "White man can't stand on point 34" in str(e)
    raises(GameError, Tobit, "W:W30:B1")


def test_rule_2_6_tobit_moves_any_distance_over_free_points():
    g = Tobit("W:WK15:B38")
    assert texts(g) == ["15-13", "15-14", "15-16", "15-17", "15-18", "15-19",
                        "15-2", "15-22", "15-29", "15-35", "15-8"]
    g = Tobit("W:WK15,K17:B38")  # blocked by its own piece on 17
    assert "15-18" not in texts(g) and "15-16" in texts(g)


def test_rule_2_7_capture_is_compulsory_men_capture_backwards():
    g = Tobit("W:W22:B15")  # Black man behind the White man
    assert texts(g) == ["22:8"]
    e = raises(GameError, g.parse_move, "22-29")
    assert "compulsory" in str(e)


def test_rule_2_7_tobit_captures_at_a_distance():
    g = Tobit("W:WK7:B28")
    assert texts(g) == ["7:34"]
    g.push_text("7:34")
    assert g.fen() == "B:WK34:B"


def test_rule_2_8_multi_capture_must_be_completed():
    g = Tobit("W:W15:B16,24")
    assert texts(g) == ["15:17:31"]
    raises(GameError, g.parse_move, "15:17")


def test_rule_2_8_no_180_degree_turn():
    # The tobit on 15 jumps 16 eastwards and may not come back west over 14.
    g = Tobit("W:WK15:B14,16")
    assert texts(g) == ["15:13", "15:17", "15:18", "15:19"]


def test_rule_2_8_jumped_pieces_leave_and_the_start_counts_as_free():
    # A man's round trip: 14 -> 28 -> 30 -> 16 -> back to 14, either way round.
    g = Tobit("W:W14:B15,21,23,29")
    assert texts(g) == ["14:16:30:28:14", "14:28:30:16:14"]
    m = g.parse_move("14:28:30:16:14")
    assert sorted(g.captured_points(m)) == [15, 21, 23, 29]
    g.push(m)
    assert g.fen() == "B:W14:B"


def test_rule_2_8_tobit_must_land_where_it_can_jump_again():
    # Over 21 the tobit may stop on 28 or 34; only 28 allows the jump over 29.
    g = Tobit("W:WK7:B21,29")
    assert texts(g) == ["7:28:30", "7:28:31", "7:28:32", "7:28:33"]


def test_rule_2_9_free_choice_longest_not_compulsory():
    g = Tobit("W:W15:B16,22,30")
    assert texts(g) == ["15:17", "15:29:31"]


def test_rule_2_10_promotion_only_where_the_move_ends():
    # 22 (2,3) over 29 (2,4) to 35 (2,5): the far end, a dead end; it becomes a tobit there.
    g = Tobit("W:W22:B29,34")
    assert texts(g) == ["22:35"]
    g.push_text("22:35")
    assert g.fen() == "B:WK35:B34"


def test_rule_2_11_no_piece_loses():
    g = Tobit("W:W22:B29")
    g.push_text("22:35")
    assert g.termination == TERM_NO_MOVE and g.result() == "1-0"


def test_rule_2_11_no_legal_move_loses():
    g = Tobit("B:W23,30:B36")  # the Black man on 36 is blocked and can't capture
    assert g.legal_moves() == []
    assert g.termination == TERM_NO_MOVE and g.result() == "1-0"


def test_rule_2_11_threefold_repetition_draws():
    g = Tobit("W:WK1:BK38")
    line = ["1-7", "38-32", "7-1", "32-38"] * 2
    for i, t in enumerate(line):
        assert not g.is_game_over(), i
        g.push_text(t)
    assert g.termination == TERM_REPETITION and g.result() == "1/2-1/2"
    assert g.legal_moves() == []
    g.pop()
    assert not g.is_game_over()


def test_rule_2_11_sideways_man_moves_repeat_forward_ones_do_not():
    g = Tobit("W:W14,K1:B35,K33")
    for t in ["14-15", "33-32", "15-14", "32-33"] * 2:
        g.push_text(t)
    assert g.termination == TERM_REPETITION


def test_rule_2_12_notation():
    g = Tobit()
    assert g.parse_move("7\u201314") == g.parse_move("7-14") == g.parse_move("7\u201414")
    assert g.move_text(g.parse_move("7-14")) == "7-14"
    for bad in ("7", "7-", "7:x", "7-14-21", "0-6", "7-99", "", "hello"):
        raises(GameError, g.parse_move, bad)
    e = raises(GameError, g.parse_move, "27-20")
    assert "no White piece on point 27" in str(e)


def test_rule_2_12_touch_downs_in_one_line_are_one_move():
    # 13 over 14 to 15 or 16, then over 17 to 18 or 19: four paths, two moves.
    g = Tobit("W:WK13:B14,17")
    assert texts(g) == ["13:18", "13:19"]


def test_rule_2_13_position_text():
    for text in ("B:W9,18,K28:B", "W:W:B7,14,K18,25,27,34,35", "B:WK13:B"):
        assert Tobit(text).fen() == text
    g = Tobit("W:W12,3,K5:B")
    assert g.fen() == "W:W3,K5,12:B"
    for bad in ("", "X:W1:B2", "W:W1", "W:B1:W2", "W:W7,7:B20", "W:W39:B20", "W:W7:B7",
                "W:Wa:B20", "W:W7:B20:", "W:Wk7:B20", "W:W\u0667:B20"):
        raises(GameError, Tobit, bad)
    raises(GameError, Tobit4, "W:W33:B1")


def test_rule_2_3_position_text_holds_at_most_the_start_count_a_side():
    # 2L + 2 men a side at the start (12 on 5 x 4, 10 on 4 x 4) and no promotion adds
    # one: a text with more is refused, and the game is left as it was. (The rules core's
    # buffers hold no more: a capture path over 13 pieces would not fit its move slot.)
    twelve = "W:W1,2,3,4,5,6,7,8,9,10,11,12:B27"
    assert Tobit(twelve).fen() == twelve
    g = Tobit("B:WK13:B20")
    e = raises(GameError, g.set_fen, "W:W1,2,3,4,5,6,7,8,9,10,11,12,K13:B27")
    assert "13 White pieces, more than the 12" in str(e)
    e = raises(GameError, g.set_fen, "W:W1:B" + ",".join(str(p) for p in range(14, 27)) + ",K37")
    assert "14 Black pieces, more than the 12" in str(e)
    assert g.fen() == "B:WK13:B20" and g.ply == 0
    ten = "W:W1,2,3,4,5,6,7,8,9,10:B25"
    assert Tobit4(ten).fen() == ten
    e = raises(GameError, Tobit4, "W:W1:B14,15,16,17,18,19,20,21,22,23,24")
    assert "11 Black pieces, more than the 10" in str(e)
    # twelve and a stray comma: the comma is the fault, not a thirteenth piece
    e = raises(GameError, g.set_fen, twelve.replace(":B", ",:B"))
    assert "bad point ''" in str(e) and g.fen() == "B:WK13:B20"


def test_rule_2_14_perft_standard():
    g = Tobit()
    want = [5, 25, 205, 1645, 12867]
    for d in range(1, 5 if is_micropython() else 6):
        assert perft(g, d) == want[d - 1]


def test_rule_2_14_perft_variant():
    g = Tobit4()
    want = [4, 16, 112, 784, 5112]
    for d in range(1, 5 if is_micropython() else 6):
        assert perft(g, d) == want[d - 1]


def test_rule_2_15_seed_examples():
    g = new_game("tobit")
    g.push_text("7-14")
    g.push_text("29-22")
    assert g.fen() == "W:W1,2,3,4,5,6,8,9,10,11,12,14:B22,27,28,30,31,32,33,34,35,36,37,38"


def test_perft_mid_game():
    # After 1. 11-18 32-25 2. 18:32, Black must recapture, and only 38 can (33 is full).
    g = new_game("tobit")
    for t in ("11-18", "32-25", "18:32"):
        g.push_text(t)
    assert texts(g) == ["38:25"]
    from playboard.games.base import Game
    assert [perft(g, d) for d in (1, 2, 3)] == [Game.perft(g, d) for d in (1, 2, 3)]


def test_keys_are_small_ints():
    g = Tobit()
    assert max(g._z) < 2 ** 30 and min(g._z) >= 0
    for _ in range(12):
        g.push(g.legal_moves()[-1])
        assert 0 <= g.key() < 2 ** 30


def test_quiet_is_a_legal_move_and_no_capture():
    # the engine's horizon asks quiet() instead of making the moves (2.7): it must agree
    # with legal_moves() everywhere, a finished game (no move, a repetition) included
    kinds = set()
    for cls in (Tobit, Tobit4):
        for g in tlib.random_games(cls, 150, 11):
            ms = g.legal_moves()
            expect = bool(ms) and ms[0][0] == 0
            assert g.quiet() == expect, g.fen()
            kinds.add((bool(ms), expect))
    assert kinds == {(True, True), (True, False), (False, False)}  # all three were met


def test_undo_takes_back_as_pop_does():
    for g in tlib.random_games(Tobit, 20, 5):
        if not g.legal_moves():
            continue
        moves = g.legal_moves()
        for m in moves:
            # the state's position fields (ST_MLEN on are scratch: the move's length,
            # the legal-move cache's flag, which push clears)
            before = (g.fen(), g.key(), bytes(g.st[:ST_MLEN]), g.ply)
            g.push(m)
            g.legal_moves()  # the cache holds the next position's moves...
            g.undo()
            assert (g.fen(), g.key(), bytes(g.st[:ST_MLEN]), g.ply) == before
            assert g.legal_moves() == moves  # ...and is not taken for this one's
