"""Plain words for players (playboard_host.words): results with the score, events in
players' terms, what each game is."""
from playboard.games.common import GAME_NAMES
from playboard.games.registry import new_game
from playboard_host import words


def _tihbat_end():
    # play the first legal move until the rules end the game (3.5): the counters left split
    g = new_game("tihbat")
    while not g.is_game_over():
        g.push(g.legal_moves()[0])
    return g


def test_toguz_result_says_who_won_and_the_kazans():
    g = new_game("toguz", "9/2S,1S,1S,1S,1S,1S,1S,1S,1S 82 70 N 40")
    assert words.game_over_words("toguz", "1-0", "kazan", g) == \
        "South won 82 to 70 in the kazans (South 82, North 70) - a kazan reached 82"
    g = new_game("toguz", "9/9 81 81 N 40")
    assert words.game_over_words("toguz", "1/2-1/2", "kazan", g) == "Draw 81 to 81 in the kazans - both kazans reached 81"
    assert words.game_over_words("toguz", "*") == "in play"


def test_tihbat_result_shows_the_equal_split():
    g = _tihbat_end()
    cs, cn = g.captures()
    fs, fn = g.final_captures()
    left = fs - cs + fn - cn
    text = words.game_over_words("tihbat", g.result(), g.termination, g)
    assert ("South %d, North %d" % (fs, fn)) in text
    if left:
        assert "%d and %d captured, the %d counters left on the board split equally" % (cs, cn, left) in text
    assert text.startswith({"1-0": "South won", "0-1": "North won", "1/2-1/2": "Draw"}[g.result()])


def test_tobit_result_names_the_loser_reason():
    assert words.game_over_words("tobit", "0-1", "no piece or no legal move") == \
        "Black won - White has no piece or no legal move"
    assert words.game_over_words("tobit4", "1/2-1/2", "repetition") == "Draw - the position repeated"
    assert words.game_over_words("tobit", "1-0", "resignation") == "White won - Black resigned"


def test_events_in_players_terms():
    assert words.event_words({"ev": "place", "cell": 6, "t": 1500}, "toguz") == "   1.5 s  South 7 touched"
    # the pads as the firmware takes them (App._pad_press, docs/player.md): a draw is
    # offered by one side and agreed by the other's own pad; a resign pressed twice
    assert words.event_words({"ev": "arm", "what": "draw", "side": 0}, "toguz") == \
        "South offers a draw: North presses their own draw pad within 10 s to agree"
    assert words.event_words({"ev": "arm", "what": "draw", "side": 1}, "tobit") == \
        "Black offers a draw: White presses their own draw pad within 10 s to agree"
    assert words.event_words({"ev": "arm", "what": "resign", "side": 1}, "toguz") == \
        "North pressed resign: press again within 4 s to confirm"
    assert words.event_words({"ev": "lift", "cell": 14}, "tobit") == "piece lifted from point 14"
    assert words.event_words({"ev": "engine", "move": "29-22", "depth": 5, "nodes": 1234}, "tobit") == \
        "engine plays 29-22: make it on the board"
    assert words.event_words({"ev": "boot", "games": 3}, "toguz") is None
    assert "nodes" not in words.event_words({"ev": "weird", "nodes": 3, "cell": 2}, "tihbat")
    assert words.event_words({"ev": "weird", "cell": 2}, "tihbat") == "weird: North 1"


def test_every_game_is_explained():
    for name in GAME_NAMES:
        assert "win" in words.about(name) and len(words.about(name)) < 700


def test_capture_hint_for_a_man_that_may_not_move():
    g = new_game("tobit")
    for t in ("7-14", "30-23", "9-16"):
        g.push_text(t)
    assert words.capture_hint(g, 29) == ("A capture is compulsory (RULES.md 2.7): the man from point 29 cannot "
                                         "capture, so it cannot move now; put it back and capture, e.g. 23:9:7:21")
    assert words.capture_hint(g, 23) == ""  # it captures
    assert words.capture_hint(g, 14) == ""  # White's man: not the mover's
    assert words.capture_hint(new_game("tobit"), 7) == ""  # no capture to make
    assert words.capture_hint(new_game("toguz"), 3) == ""


def test_live_pictures_number_tobits_points_and_name_the_kings():
    from playboard_host.boardtext import picture

    g = new_game("tobit", "W:WK36,7:B30")
    lines = picture(g).splitlines()
    assert lines[0] == "5    . . W . .      points 34-38"  # (3, 5) is point 36: a White king
    assert lines[4] == "1  . w . . . . .    points 6-12"  # White's man on 7, (1, 1)
    assert lines[1] == "4  . . . b . . .    points 27-33"  # Black's man on 30, (3, 4)
    assert lines[-2] == "w b men, W B kings (tobits); points numbered from White's side, left to right"
    assert len({ln.index("points") for ln in lines[:6]}) == 1


def test_every_refusal_of_the_board_has_words_and_what_to_do():
    """Each reason the mancala tracker gives (its _WHY_* numbers, the link's ``error``
    event) is said in words with what to do; the line never shows the code alone."""
    from playboard.board import mancala_tracker as mt

    whys = {v for k, v in vars(mt).items() if k.startswith("_WHY_")}
    assert whys == set(words.REFUSALS) == {1, 2, 3, 4, 5, 6}
    for why in whys:
        what, do = words.refusal_words(why, "toguz", 3, 1)
        assert "{" not in what + do and "why" not in what + do and len(do) > 20
    assert words.refusal_words(2, "toguz", 3, 1) == (
        "South 4 is not a pit of North, who is to move",
        "North plays one of their own pits, lit green; the other row waits its turn")
    assert words.event_words({"ev": "error", "cell": 3, "why": 2}, "toguz", 1) == (
        "refused: South 4 is not a pit of North, who is to move. What to do: North plays one of their own "
        "pits, lit green; the other row waits its turn.")
    line = words.event_words({"ev": "error", "cell": 12, "why": 5, "t": 2500}, "toguz", 0)
    assert line.startswith("   2.5 s  refused: the engine's move is being shown (its pit purple): North 4 was not "
                           "played") and "carry out the engine's move first" in line
    assert "North 1 has no balls" in words.event_words({"ev": "error", "cell": 2, "why": 1}, "tihbat", 1)
    assert "a store" in words.event_words({"ev": "error", "cell": 5, "why": 2}, "tihbat", 0)
    assert "does not know: 9" in words.event_words({"ev": "error", "cell": 2, "why": 9}, "toguz")


def test_checks_and_other_events_are_words_not_dicts():
    ev = {"ev": "check", "check": "selftest", "pass": False, "checked": 56, "ok": 53, "stuck": [44],
          "dead": [6], "noisy": [], "frames": 801, "leds": 58}
    assert words.event_words(ev, "toguz") == ("self-test FAILED: 53 of 56 sensors ok, 58 LEDs chased; stuck "
                                              "sensor 44; dead sensor 6")
    assert words.event_words({"ev": "check", "check": "calibrate", "s": 60}, "toguz") == "calibration started (60 s)"
    assert words.event_words({"ev": "check", "check": "calibrate", "pass": True, "saved": True, "checked": 56,
                              "bad": []}, "toguz") == "calibration passed: 56 sensors calibrated"
    assert words.event_words({"ev": "stopped", "side": 1}, "toguz").startswith("the engine stopped thinking")
    assert words.event_words({"ev": "abandoned", "ply": 1}, "toguz").endswith("(1 ply)")
    assert [words.plural(n, "ply") for n in (0, 1, 2)] == ["0 plies", "1 ply", "2 plies"]
    assert words.plural(2, "day") == "2 days"


def test_a_refused_check_and_setting_read_as_the_boards_own_line():
    from playboard_host import checks
    from playboard_host.cli import CommandError
    from playboard_host.commands.stats import REPORT_HINT
    from playboard_host.serial_link import BoardError

    e = BoardError("refused", "this board's sensors need no calibration (only hall sensors do)")
    assert str(e) == "board refused: this board's sensors need no calibration (only hall sensors do)"
    assert str(BoardError("memory", "out of memory")) == "board refused: memory (out of memory)"

    class Link:
        def check(self, kind, seconds=None):
            raise e

    try:
        checks.run_check(Link(), "calibrate")
    except CommandError as err:
        assert str(err) == ("the board refused the calibration: this board's sensors need no calibration (only "
                            "hall sensors do)")
    else:
        raise AssertionError("not refused")
    assert "pipx inject playboard matplotlib" in REPORT_HINT


def test_the_players_guide_has_the_same_refusal_table():
    import os

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "docs", "player.md"), encoding="utf-8") as f:
        guide = f.read()
    for why in sorted(words.REFUSALS):
        what, do = words.refusal_words(why, "toguz")
        assert "| %d | %s | %s |" % (why, what[0].upper() + what[1:], do[0].upper() + do[1:]) in guide, why
    assert "Take a move back" in guide and "**Take back**" in guide and "**staff gesture**" in guide


def test_live_says_a_refusal_in_words():
    import io

    from playboard_host.commands.live import Follower

    out = io.StringIO()
    f = Follower(out, pictures=False)
    f.event({"ev": "game", "game": "toguz"})
    f.event({"ev": "error", "cell": 12, "why": 2, "t": 4000})
    line = out.getvalue().splitlines()[-1]
    assert line == ("4.0 s  refused: North 4 is not a pit of South, who is to move. What to do: South plays one "
                    "of their own pits, lit green; the other row waits its turn.")


# a board for each Tobit reason, as docs/player.md's table shows it (White to move)
TOBIT_EXAMPLES = {1: dict(point=30, to=23, move="7-14"), 2: dict(point=8, to=15, move="14:28", over=[21]),
                  3: dict(point=14, to=7, move="14-21", ends=[13, 15, 21]),
                  4: dict(point=7, to=20, move="7-14", ends=[14]),
                  5: dict(point=14, to=22, move="14-21", ends=[21, 28, 34]), 6: dict(point=1, to=0, move="7-14"),
                  7: dict(point=8, to=15, move="9-16")}


def test_every_tobit_refusal_has_words_and_the_guide_the_same_table():
    """Each reason the firmware gives for a Tobit correction (tobit_why's WHY_*) is
    said with what to do, in docs/player.md's table too; an event without a reason
    keeps the board's own request."""
    import os

    from playboard.board import tobit_why as tw

    whys = {v for k, v in vars(tw).items() if k.startswith("WHY_") and v}
    assert whys == set(words.TOBIT_REFUSALS) == set(TOBIT_EXAMPLES) == set(range(1, 8))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "docs", "player.md"), encoding="utf-8") as f:
        guide = f.read()
    for why in sorted(whys):
        what, do = words.tobit_refusal_words(dict(TOBIT_EXAMPLES[why], why=why), 0)
        assert "{" not in what + do and "why" not in what + do and len(do) > 20
        assert "| %d | %s | %s |" % (why, what[0].upper() + what[1:], do[0].upper() + do[1:]) in guide, why
    assert words.tobit_refusal_words({"why": 2, "point": 8, "to": 0, "move": "14:28", "over": [21, 23]}, 0) == (
        "a capture is compulsory: 14:28 takes the pieces on points 21 and 23 (RULES.md 2.7); the man on point 8 "
        "cannot capture, so it may not move", "put it back on point 8, then capture: 14:28")
    assert words.tobit_refusal_words({"ev": "correction"}, 0) is None
    assert words.event_words({"ev": "correction", "t": 1000}, "tobit", 0) == (
        "   1.0 s  the board differs from the game: put the pieces where the LEDs show (mint: put a piece there, "
        "red: take it off)")
    assert "a reason the page does not know: 99" in words.tobit_refusal_words({"why": 99, "point": 3}, 1)[0]


def test_live_says_a_tobit_refusal_in_words():
    import io

    from playboard_host.commands.live import Follower

    out = io.StringIO()
    f = Follower(out, pictures=False)
    f.event({"ev": "game", "game": "tobit"})
    f.event({"ev": "correction", "t": 4000, "why": 3, "point": 14, "to": 7, "move": "14-21", "ends": [21, 13, 15]})
    assert out.getvalue().splitlines()[-1] == (
        "4.0 s  refused: a man never moves backwards (RULES.md 2.4): point 14 to point 7 is a step back. What to "
        "do: take it off point 7 and put it back on point 14; it may go to points 13, 15 or 21 (e.g. 14-21) (the "
        "LEDs show it: mint, put a piece there; red, take it off).")
