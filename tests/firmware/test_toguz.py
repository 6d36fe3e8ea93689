"""Toguz Kumalak rules (RULES.md section 1): one test per numbered rule, values worked by hand."""
from tlib import raises, heap_lock_check, is_micropython

from playboard.games.common import GameError, TERM_KAZAN, TERM_NO_MOVE
from playboard.games.registry import new_game
from playboard.games.toguz import Toguz, START_FEN


# Worked by hand: 76 captures North 6 (10); 98 ends on South 8 (11, odd); 66 ends on
# North 6 (0 -> 1); 87 ends on South 7 (3 -> 4): North captures 4. South 7 is empty, so
# South has 8 legal moves.
FEN_AFTER_4 = "2S,1S,9S,1S,11S,11S,11S,11S,11S/11S,11S,11S,11S,11S,2S,1,12S,11S 10 4 S 3"
PERFT_AFTER_4 = [8, 67, 550]


def play(g, *texts):
    for t in texts:
        g.push_text(t)
    return g


def test_rule_1_1_board_162_balls_two_kazans():
    g = Toguz()
    assert list(g.pos[0:18]) == [9] * 18
    assert g.kazans() == (0, 0)
    assert g.fen() == START_FEN
    assert g.turn == 0 and g.legal_moves() == list(range(9))


def test_rule_1_2_first_ball_back_into_the_origin_pit():
    g = Toguz()
    # South pit 1, 9 balls: one back into pit 1, then pits 2..9; last in South 9.
    assert g.move_text(0) == "19"
    g.push(0)
    assert list(g.pos[0:9]) == [1, 10, 10, 10, 10, 10, 10, 10, 10]
    assert list(g.pos[9:18]) == [9] * 9
    assert g.turn == 1


def test_rule_1_2_single_ball_goes_to_the_next_pit():
    # South pit 5 holds 1 ball: it goes into pit 6.
    g = Toguz("9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,1S,9S,9S,9S,9S 8 0 S 1")
    g.push_text("56")
    assert g.pos[4] == 0 and g.pos[5] == 10


def test_rule_1_2_later_laps_feed_the_origin():
    # South pit 1 holds 20: a full lap of 18 (origin first), then pits 1 and 2 again.
    g = Toguz("8S,8S,8S,8S,8S,8S,8S,8S,8S/20S,8S,8S,8S,8S,8S,8S,8S,8S 6 0 S 1")
    g.push(0)
    # South 1: 0 + 1 (lap) + 1 (pit 1 again) = 2; South 2: 8 + 1 + 1 = 10 (last ball, own side)
    assert list(g.pos[0:9]) == [2, 10, 9, 9, 9, 9, 9, 9, 9]
    assert list(g.pos[9:18]) == [9] * 9
    assert g.last_landing() == 1 and g.kazans() == (6, 0)


def test_rule_1_3_capture_on_even():
    g = Toguz()
    # South pit 2: balls into South 2..9 (8) and North 1 (9 -> 10, even): captured.
    assert g.move_text(1) == "21"
    g.push(1)
    assert g.kazans() == (10, 0) and g.pos[9] == 0


def test_rule_1_3_no_capture_on_odd():
    g = Toguz()
    play(g, "21")  # 10 captured
    # North pit 2 (9 balls): North 2..9 (8), then South 1 (9 -> 10): even -> North captures 10
    g.push_text("21")
    assert g.kazans() == (10, 10)
    # South pit 3 (10): South 3..9 (7), North 1..3: North 3 goes 10 -> 11, odd: nothing
    g.push_text("33")
    assert g.kazans() == (10, 10) and g.pos[11] == 11


def test_rule_1_4_tuzdyk_made_on_three():
    g = Toguz("10S,10S,10S,10S,10S,10S,10S,10S,2S/8S,10S,10S,10S,10S,10S,10S,10S,2S 0 0 S 1")
    # South pit 9 (2 balls): South 9, North 1 (2 -> 3): a tuzdyk
    assert g.move_text(8) == "91x"
    g.push(8)
    assert g.tuzdyk_of(0) == 9 and g.kazans() == (3, 0) and g.pos[9] == 0
    assert g.fen() == "10S,10S,10S,10S,10S,10S,10S,10S,t/8S,10S,10S,10S,10S,10S,10S,10S,1S 3 0 N 1"


def test_rule_1_4a_one_tuzdyk_per_player():
    # South already owns North 5: landing on North 1 with 3 makes no second tuzdyk.
    g = Toguz("10S,10S,10S,10S,t,10S,10S,10S,2S/8S,10S,10S,10S,10S,10S,10S,10S,2S 10 0 S 1")
    assert g.move_text(8) == "91"
    g.push(8)
    assert g.tuzdyk_of(0) == 13 and g.pos[9] == 3


def test_rule_1_4b_never_the_opponents_pit_9():
    g = Toguz("2S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,10S 6 0 S 1")
    g.push(8)  # 10 balls: South 9, North 1..9; North 9: 2 -> 3, but pit 9 never becomes a tuzdyk
    assert g.last_landing() == 17 and g.pos[17] == 3 and g.tuzdyk_of(0) is None
    assert list(g.pos[9:17]) == [10] * 8 and g.kazans() == (6, 0)


def test_rule_1_4c_not_the_same_number_as_the_opponents_tuzdyk():
    # North owns South 1 ('t' in South's row); South can't make North 1 its tuzdyk.
    g = Toguz("10S,10S,10S,10S,10S,10S,10S,10S,2S/t,10S,10S,10S,10S,10S,10S,10S,2S 8 0 S 1")
    assert g.move_text(8) == "91"
    g.push(8)
    assert g.tuzdyk_of(0) is None and g.pos[9] == 3


def test_rule_1_5_balls_sown_into_a_tuzdyk_go_to_its_owner():
    # South owns North 1. North pit 9 (3 balls): North 9, South 1, South 2.
    # South pit 9 (3): South 9, North 1 (tuzdyk -> South's kazan), North 2.
    g = Toguz("3S,10S,10S,10S,10S,10S,10S,10S,t/10S,10S,10S,10S,10S,10S,10S,10S,3S 6 0 S 1")
    g.push_text("92")
    assert g.pos[9] == 0 and g.kazans() == (7, 0) and g.pos[10] == 11
    # North can never play its pit 1 (South's tuzdyk)
    assert 0 not in g.legal_moves()
    # a last ball landing in a tuzdyk captures nothing beyond the ball itself
    g2 = Toguz("10S,10S,10S,10S,10S,10S,10S,10S,t/10S,10S,10S,10S,10S,10S,10S,10S,2S 0 0 S 1")
    g2.push_text("91")  # South 9, then North 1 (the tuzdyk): that ball is South's
    assert g2.kazans() == (1, 0) and g2.last_flags() == 0


def test_rule_1_6_kazan_of_82_wins():
    # South has 80; South pit 2 (9): South 2..9, North 1: 1 -> 2, even: +2 = 82
    g = Toguz("9S,9S,9S,9S,9S,9S,9S,9S,1S/1,9S,7 80 0 S 10")
    assert not g.is_game_over()
    g.push_text("21")
    assert g.kazans() == (82, 0)
    assert g.is_game_over() and g.termination == TERM_KAZAN and g.result() == "1-0"
    assert g.legal_moves() == []


def test_rule_1_6_both_81_draw():
    # 79:81, South 9 holds 1 ball: it goes into North 1 (1 -> 2): captured, 81:81
    g = Toguz("8,1S/8,1S 79 81 S 40")
    assert not g.is_game_over()
    g.push_text("91")
    assert g.kazans() == (81, 81)
    assert g.termination == TERM_KAZAN and g.result() == "1/2-1/2"


def test_rule_1_6_no_legal_move_balls_go_to_their_sides_kazan():
    # South's row is empty; North plays pit 1 (2 balls): North 1, North 2.
    # South has no legal move: the 2 balls on North's side go to North's kazan: 80:82.
    g = Toguz("8,2S/9 80 80 N 50")
    g.push_text("12")
    assert g.kazans() == (80, 82)
    assert g.termination == TERM_NO_MOVE and g.result() == "0-1"
    g.pop()
    assert g.kazans() == (80, 80) and not g.is_game_over()


def test_rule_1_7_notation_landing_digit_and_x_checked():
    g = Toguz()
    assert g.parse_move("76") == 6
    e = raises(GameError, g.parse_move, "75")
    assert "lands in pit 6" in str(e)
    e = raises(GameError, g.parse_move, "76x")
    assert "does not make a tuzdyk" in str(e)
    raises(GameError, g.parse_move, "7")
    raises(GameError, g.parse_move, "07")
    raises(GameError, g.parse_move, "ab")
    g2 = Toguz("10S,10S,10S,10S,10S,10S,10S,10S,2S/8S,10S,10S,10S,10S,10S,10S,10S,2S 0 0 S 1")
    e = raises(GameError, g2.parse_move, "91")
    assert "makes a tuzdyk" in str(e)
    assert g2.parse_move("91\u0445") == 8  # Cyrillic x accepted
    assert g2.parse_move("91x") == 8


def test_rule_1_7_record_numbering():
    from playboard.pgn import format_game
    g = Toguz()
    texts = []
    for t in ("76", "98", "66", "87", "12", "76"):
        texts.append(g.move_text(g.parse_move(t)))
        g.push_text(t)
    out = format_game({"Game": "toguz", "Result": "*"}, texts)
    assert "1. 76 98 2. 66 87 3. 12 76 *" in out


def test_rule_1_8_position_text():
    text = "10S,1S,1S,1S,1S,t,2S,4S,1/1,2S,1S,1S,1S,2S,1S,t,2S 71 61 N 34"
    g = Toguz(text)
    assert g.fen() == text
    assert g.turn == 1 and g.fullmove == 34 and g.kazans() == (71, 61)
    assert g.tuzdyk_of(0) == 9 + 3  # South owns North's pit 4
    assert g.tuzdyk_of(1) == 7  # North owns South's pit 8
    assert g.pos[17] == 10 and g.pos[9] == 0 and g.pos[0] == 0 and g.pos[8] == 2
    g.push(8)  # North pit 9 moves; the move number grows after North's move
    assert g.fullmove == 35


def test_rule_1_8_position_text_errors():
    for bad in ("", "9S,9S/9S 0 0 S 1", START_FEN.replace(" S 1", " X 1"),
                START_FEN.replace("0 0", "1 0"),  # 163 balls
                "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1",
                "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9Q 0 0 S 1",
                "t,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 9 S 1",  # tuzdyk on pit 9
                "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S",
                START_FEN.replace("9S", "9s", 1), START_FEN.replace("9S", "\u0669S", 1),
                START_FEN.replace(" 0 0 ", " 0_0 0 ")):
        raises(GameError, Toguz, bad)
    g = Toguz()
    raises(GameError, g.set_fen, "nonsense")
    assert g.fen() == START_FEN  # unchanged


def test_rule_1_9_perft_from_the_start():
    g = Toguz()
    want = [9, 73, 613, 5199, 43184]
    for d in range(1, 6 if not is_micropython() else 5):
        assert g.perft(d) == want[d - 1]
    assert g.fen() == START_FEN


def test_perft_mid_game():
    # After 1. 76 98 2. 66 87 (a common opening of the 2018 masters). The counts
    # are this core's, cross-checked by the generic perft (legal_moves + push/pop).
    from playboard.games.base import Game
    g = play(Toguz(), "76", "98", "66", "87")
    assert g.fen() == FEN_AFTER_4
    counts = [g.perft(d) for d in (1, 2, 3)]
    assert counts == [Game.perft(g, d) for d in (1, 2, 3)]
    assert counts == PERFT_AFTER_4


def test_push_pop_allocate_nothing():
    g = Toguz()
    g.push(6)
    g.pop()

    def cycle():
        for m in (6, 7, 0, 8, 2):
            g.push(m)
        for _ in range(5):
            g.pop()

    assert not heap_lock_check(cycle)
    assert g.fen() == START_FEN


def test_key_is_a_small_int():
    g = Toguz()
    for m in (6, 8, 5, 7, 0):
        g.push(m)
        assert 0 <= g.key() < 2 ** 30


def test_new_game_by_name():
    assert new_game("toguz").fen() == START_FEN
    raises(GameError, new_game, "chess")


