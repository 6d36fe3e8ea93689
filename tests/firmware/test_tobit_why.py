"""Why a Tobit board went to correction (playboard.board.tobit_why, RULES.md 2.4-2.8):
each reason from a board the rules refuse, and none where a legal move, or nothing
the rules name, explains it."""
from playboard.board import tobit_why as W
from playboard.games.registry import new_game


def _occ(g, lift=(), put=()):
    occ = bytearray(g.n_points + 1)
    for p in range(1, g.n_points + 1):
        occ[p] = 1 if g.board[p] else 0
    for p in lift:
        occ[p] = 0
    for p in put:
        occ[p] = 1
    return occ


def test_a_man_lifted_while_a_capture_is_compulsory():
    g = new_game("tobit")
    for t in ("7-14", "28-21"):
        g.push_text(t)
    r = W.reason(g, _occ(g, (8,), (15,)))
    assert r == {"why": W.WHY_CAPTURE, "point": 8, "to": 15, "move": "14:28", "ends": [], "over": [21]}


def test_the_capturer_and_its_captured_piece_are_no_reason():
    g = new_game("tobit", "W:W14:B21")
    assert W.reason(g, _occ(g, (21,))) is None  # the captured piece off first
    assert W.reason(g, _occ(g, (14,))) is None  # the capturer in the hand


def test_the_side_not_to_move():
    g = new_game("tobit")
    r = W.reason(g, _occ(g, (30,), (23,)))
    assert (r["why"], r["point"], r["to"]) == (W.WHY_TURN, 30, 23)
    assert r["move"] in [g.move_text(m) for m in g.legal_moves()]


def test_a_man_backwards_and_a_man_too_far():
    g = new_game("tobit")
    for t in ("7-14", "30-23"):
        g.push_text(t)
    r = W.reason(g, _occ(g, (14,), (7,)))
    assert (r["why"], r["point"], r["to"], sorted(r["ends"])) == (W.WHY_BACK, 14, 7, [13, 15, 21])
    r = W.reason(g, _occ(g, (14,), (20,)))  # (1,2) to (0,3): no line joins them
    assert (r["why"], r["to"]) == (W.WHY_DEST, 20)
    # Black's man backwards is up the board: 23 to 30
    g = new_game("tobit", "B:W7:B23")
    r = W.reason(g, _occ(g, (23,), (30,)))
    assert (r["why"], r["point"], r["to"]) == (W.WHY_BACK, 23, 30)


def test_a_tobits_slide_off_its_lines():
    g = new_game("tobit", "W:WK14:B30")
    r = W.reason(g, _occ(g, (14,), (22,)))  # (1,2) to (2,3): on no line through 14
    assert (r["why"], r["point"], r["to"]) == (W.WHY_SLIDE, 14, 22)
    assert 34 in r["ends"] and 1 in r["ends"] and 22 not in r["ends"]
    assert W.reason(g, _occ(g, (14,), (34,))) is None  # a legal slide: no reason


def test_a_piece_with_no_move_and_the_engines_move_shown():
    g = new_game("tobit", "W:W1,7:B38")  # 1's only step, 7, is taken
    r = W.reason(g, _occ(g, (1,)))
    assert (r["why"], r["point"], r["to"]) == (W.WHY_STUCK, 1, 0)
    g = new_game("tobit")
    m = g.legal_moves()[0]
    r = W.reason(g, _occ(g, (8,)), m)
    assert (r["why"], r["point"], r["move"]) == (W.WHY_ENGINE, 8, g.move_text(m))


def test_a_stray_piece_has_no_reason():
    g = new_game("tobit")
    assert W.reason(g, _occ(g, (), (20,))) is None
