"""What the page's session says while the real firmware plays on the simulated board,
from a new user's report: each case failed before its fix."""
import pytest

from playboard_host.simboard import micropython_binary
from playboard_host.websim.session import Session

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


@pytest.fixture
def page(tmp_path):
    made = []

    def make(game="toguz", **kw):
        s = Session(None, game=game, pump=False, flash_dir=str(tmp_path / ("flash%d" % len(made))), **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def test_a_game_the_board_begins_by_itself_is_announced_by_its_own_name(page):
    """Item 6: a Tihbat game begun on the board (a pairing's, over the link) while the
    page showed Tobit was announced "new game: tobit (two)"."""
    s = page("tobit")
    s.board.new_game("tihbat", "two", 3)  # not through the page's New game
    s.advance(500)
    st = s.state()
    assert st["game"] == "tihbat", st["game"]
    news = [ln for ln in st["events"] if "new game:" in ln]
    assert news and news[-1].endswith("new game: tihbat (two)"), st["events"]
