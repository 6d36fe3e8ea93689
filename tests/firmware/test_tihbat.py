"""Tihbat rules (RULES.md section 3): one test per numbered rule, values worked by hand."""
from tlib import raises, heap_lock_check

from playboard.games.common import GameError, TERM_BOARD_EMPTY, TERM_REPETITION
from playboard.games.registry import new_game
from playboard.games.tihbat import Tihbat, PASS, START_FEN


def test_rule_3_1_board():
    g = Tihbat()
    assert list(g.pos[0:4]) == [7, 7, 7, 7] and g.captures() == (0, 0)
    assert g.fen() == START_FEN


def test_rule_3_2_sowing_origin_first_all_laps():
    g = Tihbat()
    # South pit 1, 7 counters: S1 S2 N1 N2 S1 S2 N1 -> S1 2, S2 9, N1 9, N2 8; last on N1
    g.push_text("1")
    assert list(g.pos[0:4]) == [2, 9, 9, 8] and g.last_landing() == 2
    assert g.captures() == (0, 0)  # a landing on the opponent's side never captures
    assert g.fen() == "8S,9S/2S,9S 0 0 N 1"


def test_rule_3_2_single_counter_goes_to_the_next_pit():
    g = Tihbat("13S,12S/1,1S 2 0 S 1")
    g.push_text("2")  # South 2 (1 counter) -> North 1
    assert list(g.pos[0:4]) == [0, 0, 13, 13]


def test_rule_3_3_capture_2_4_6_8_on_own_side():
    g = Tihbat("13S,13S/1S,1S 0 0 S 1")
    g.push_text("1")  # 1 counter into South 2: 1 -> 2, captured
    assert g.captures() == (2, 0) and g.fen() == "13S,13S/2 2 0 N 1"


def test_rule_3_3_origin_pit_counts():
    g = Tihbat("9S,9S/5S,5S 0 0 S 1")
    g.push_text("1")  # S1 S2 N1 N2 S1: the last lands in the emptied origin: 2, captured
    assert g.fen() == "10S,10S/1,6S 2 0 N 1"


def test_rule_3_3_chain_back_to_pit_1():
    g = Tihbat("10S,10S/3S,5S 0 0 S 1")
    g.push_text("2")  # S2 N1 N2 S1 S2: S2 = 2 captured, then S1 = 4 captured too
    assert g.fen() == "11S,11S/2 6 0 N 1" and g.last_taken() == 6


def test_rule_3_3_ten_is_not_taken():
    g = Tihbat("9S,9S/1S,9S 0 0 S 1")
    g.push_text("1")  # S2: 9 -> 10: no capture
    assert g.captures() == (0, 0) and g.pos[1] == 10


def test_rule_3_4_pass():
    g = Tihbat("14S,14S/2 0 0 S 1")
    assert g.legal_moves() == [PASS]
    raises(GameError, g.parse_move, "1")
    assert g.move_text(PASS) == "pass"
    g.push_text("pass")
    assert g.fen() == "14S,14S/2 0 0 N 1"
    g2 = Tihbat()
    raises(GameError, g2.parse_move, "pass")


def test_rule_3_5_board_empty_ends():
    g = Tihbat("2/1S,1S 26 0 S 1")
    g.push_text("1")
    assert g.termination == TERM_BOARD_EMPTY and g.final_captures() == (28, 0)
    assert g.result() == "1-0" and g.legal_moves() == []


def test_rule_3_5_first_repetition_ends_and_splits():
    g = Tihbat("1S,1/1,1S 14 12 S 1")
    for i, t in enumerate(("2", "2", "1", "1")):
        assert not g.is_game_over(), i
        g.push_text(t)
    # back at the start position with South to move: the first repetition ends it
    assert g.termination == TERM_REPETITION
    assert g.captures() == (14, 12) and g.final_captures() == (15, 13) and g.result() == "1-0"
    g.pop()
    assert not g.is_game_over()


def test_rule_3_6_notation():
    g = Tihbat()
    assert g.parse_move("1") == 0 and g.parse_move(" 2 ") == 1
    for bad in ("3", "0", "", "x", "12"):
        raises(GameError, g.parse_move, bad)
    from playboard.pgn import format_game
    out = format_game({"Game": "tihbat", "Result": "*"}, ["2", "1", "1", "pass"])
    assert "1. 2 1 2. 1 pass *" in out


def test_rule_3_7_position_text():
    for text in ("7S,7S/7S,7S 0 0 S 1", "5S,10S/7S,2S 4 0 N 5", "1,12S/1,10S 6 0 S 6"):
        assert Tihbat(text).fen() == text
    g = Tihbat("5S,10S/7S,2S 4 0 N 5")
    assert list(g.pos[0:4]) == [7, 2, 10, 5] and g.turn == 1
    for bad in ("7S,7S/7S,7S 0 0 S", "7S,7S/7S,7S 1 0 S 1", "t,7S/7S,7S 7 0 S 1", "7S/7S,7S 7 0 S 1",
                "3/7S,7S 14 0 S 1"):
        raises(GameError, Tihbat, bad)


def test_rule_3_8_perft():
    g = Tihbat()
    want = [2, 4, 8, 16, 32, 64, 127, 241, 471, 905, 1751, 3340]
    assert [g.perft(d) for d in range(1, 13)] == want
    assert g.fen() == START_FEN


def test_perft_mid_game():
    g = Tihbat("5S,10S/7S,2S 4 0 N 5")
    from playboard.games.base import Game
    assert [g.perft(d) for d in (1, 2, 3, 4, 5, 6)] == [Game.perft(g, d) for d in (1, 2, 3, 4, 5, 6)]
    assert g.perft(1) == 2


def test_push_pop_allocate_nothing():
    g = Tihbat()
    g.push(0)
    g.pop()

    def cycle():
        for m in (0, 1, 1, 0):
            g.push(m)
        for _ in range(4):
            g.pop()

    assert not heap_lock_check(cycle)
    assert g.fen() == START_FEN


def test_key_is_a_small_int():
    g = new_game("tihbat", "1,12S/1,10S 6 0 S 6")
    assert 0 <= g.key() < 2 ** 30
