"""Refusals in words on the page's model (``websim.session.Session`` over the real
firmware): a wrong pit in Toguz Kumalak and in Tihbat, a wrong Tobit move, each with
what happened and what to do (never a code alone), and none of them left on screen
once it no longer applies (issue 34)."""
import pytest

from playboard_host.simboard import micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")


@pytest.fixture
def session():
    from playboard_host.websim.session import Session

    made = []

    def make(game):
        s = Session(None, game=game, pump=False)
        made.append(s)
        s.advance(300)
        return s

    yield make
    for s in made:
        s.close()


@pytest.mark.parametrize("game, wrong, pit, right", [("toguz", 12, "North 4", 2), ("tihbat", 3, "North 2", 0)])
def test_a_mancala_pit_of_the_other_side_is_refused_in_words_until_the_next_touch(session, game, wrong, pit, right):
    s = session(game)
    s.act({"op": "click", "cell": wrong})
    s.advance(600)
    said = ("Refused: %s is not a pit of South, who is to move. What to do: South plays one of their own pits, "
            "lit green; the other row waits its turn." % pit)
    st = s.state()
    assert st["hint"] == said
    assert st["events"][-1].endswith("refused: %s is not a pit of South, who is to move. What to do: South "
                                     "plays one of their own pits, lit green; the other row waits its turn." % pit)
    assert not any("why" in e for e in st["events"])
    s.advance(3000)
    assert s.state()["hint"] == said  # still true: kept until the player touches a pit
    s.act({"op": "click", "cell": right})  # South's own pit: played
    s.advance(600)
    st = s.state()
    assert st["hint"] == "" and st["ply"] == 1


def test_a_refusal_during_a_moves_view_goes_when_the_view_ends(session):
    s = session("toguz")
    s.act({"op": "click", "cell": 2})  # South 3 played, its view showing
    s.advance(500)
    assert s.state()["ply"] == 1
    s.act({"op": "click", "cell": 5})  # South 6 touched during it: refused (why 4)
    s.advance(600)  # (the lift counts once held and let go)
    assert s.state()["hint"].startswith("Refused: the move just made is still being shown")
    s.advance(3000)  # the view ended: the words no longer apply
    st = s.state()
    assert st["hint"] == "" and st["ply"] == 1


def test_a_wrong_tobit_move_on_the_page_says_why_and_goes_when_put_right(session):
    s = session("tobit")
    s.act({"op": "setup"})
    s.advance(500)
    for a, z in ((7, 14), (30, 23)):
        s.act({"op": "click", "cell": a})
        s.act({"op": "click", "cell": z})
        s.advance(600)
    s.act({"op": "click", "cell": 14})
    s.advance(700)  # the lift seen, a player's pause
    s.act({"op": "click", "cell": 7})  # a man backwards
    s.advance(700)
    assert s.state()["hint"] == (
        "Refused: a man never moves backwards (RULES.md 2.4): point 14 to point 7 is a step back. What to do: "
        "take it off point 7 and put it back on point 14; it may go to points 13, 15 or 21 (e.g. 14-21). The "
        "board differs from the game: put White's man back on point 14; take the piece off point 7 (the LEDs "
        "show the same: mint, put a piece there; red, take it off). Nothing is played until it matches.")
    s.act({"op": "click", "cell": 7})
    s.act({"op": "click", "cell": 14})
    s.advance(600)
    st = s.state()
    assert st["hint"] == "" and st["moves"] == ["7-14", "30-23"]
    assert any(e.endswith("the board matches the game again") for e in st["events"][-3:]), st["events"]
