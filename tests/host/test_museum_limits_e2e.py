"""The museum limits (settings ``games``, ``modes``, ``max_level``, docs/museum.md) hold
for a game started over the link, as the page's New game starts one, not only in the
board's menu: a new user's report (item 1). Whole firmware on the simulated board."""
import contextlib
import io

import pytest

from playboard_host import cli
from playboard_host.simboard import micropython_binary
from playboard_host.websim.session import Session

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")


def _settings(b, *words):
    """``playboard settings WORDS`` on board ``b``'s link; what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["settings"] + list(words) + ["--port", b.port, "--timeout", "5"]) == 0
    return out.getvalue()


@pytest.fixture
def museum(tmp_path):
    """The page's session on a board with the museum profile, the link unlocked in the
    staff menu (South pit 2) and the limits narrowed: toguz, tihbat; max_level 3."""
    s = Session(None, game="toguz", pump=False, flash_dir=str(tmp_path / "flash"))
    try:
        _settings(s.board, "--profile", "museum")
        s.open_menu()
        s.board.advance(500)
        s.staff()
        s.menu_tap(1)  # unlock the link
        s.board.advance(400)
        s.menu_tap(17)  # back to the menu
        s.board.advance(400)
        _settings(s.board, "set", "max_level", "3", "games", "toguz,tihbat")
        yield s
    finally:
        s.close()


def _kept(s):
    """(games, modes, level, max_level) as ``playboard settings`` prints them."""
    lines = dict(l.split(None, 1) for l in _settings(s.board).splitlines() if " " in l.strip())
    return tuple(lines.get(k, "").strip() for k in ("games", "modes", "level", "max_level"))


@pytest.mark.parametrize("game, mode, level, says", [
    ("tobit", "black", 9, "game tobit is not offered on this board (settings games: toguz,tihbat)"),
    ("tobit", "white", 2, "game tobit is not offered"),
    ("toguz", "black", 2, "mode black is not offered on this board (settings modes: two,white)"),
    ("toguz", "white", 9, "level 9 is above max_level 3 (settings)"),
    ("tihbat", "two", 4, "level 4 is above max_level 3"),
])
def test_the_pages_new_game_outside_the_museum_limits_is_refused_and_changes_nothing(
        museum, game, mode, level, says):
    s = museum
    before = _kept(s)
    assert before == ("toguz,tihbat", "two,white", "2", "3"), before
    st0 = s.board.status()
    with pytest.raises(ValueError) as e:
        s.act({"op": "new", "game": game, "mode": mode, "level": level})
    assert says in str(e.value) and "\n" not in str(e.value), e.value
    st = s.board.status()
    assert st["state"] == st0["state"] != "play", st
    assert (st["game"], st.get("level")) == (st0["game"], st0.get("level")), st
    assert _kept(s) == before


def test_the_pages_new_game_within_the_limits_begins_and_keeps_the_level(museum):
    s = museum
    s.act({"op": "new", "game": "tihbat", "mode": "white", "level": 3})
    st = s.board.status()
    assert (st["state"], st["game"], st["mode"], st["level"]) == ("play", "tihbat", "white", 3), st
    assert _kept(s) == ("toguz,tihbat", "two,white", "3", "3")
