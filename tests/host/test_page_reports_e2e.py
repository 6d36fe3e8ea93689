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


def _settings(b, *words):
    import contextlib
    import io

    from playboard_host import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert cli.main(["settings"] + list(words) + ["--port", b.port, "--timeout", "5"]) == 0
    return out.getvalue()


def test_a_board_closed_by_its_opening_hours_says_so_and_a_click_gets_a_hint(page):
    """Item 4: the board went dark at 04:45 (hours 09:00-17:00) but the status still
    showed the menu's (or a pairing's) text and clicks were ignored without a word."""
    import calendar

    s = page("toguz")
    s.open_menu()
    s.advance(500)
    _settings(s.board, "set", "hours", "09:00-17:00")
    s.board._command("wall", calendar.timegm((2026, 12, 6, 4, 45, 0)))  # (as tournament send sets it)
    s.advance(31000)  # the board looks at its hours every 30 s
    st = s.state()
    assert st["closed"] == ("Closed: outside the opening hours 09:00-17:00 (the board's clock); "
                            "it opens at 09:00"), st["closed"]
    with pytest.raises(ValueError) as e:
        s.act({"op": "click", "cell": 4})
    assert str(e.value).startswith("Closed: outside the opening hours 09:00-17:00") \
        and "a touch wakes nothing until then" in str(e.value)
    s.board._command("wall", calendar.timegm((2026, 12, 6, 9, 0, 5)))
    s.advance(31000)
    assert s.state()["closed"] is None and s.state()["app_state"] == "menu"


def test_after_a_finished_game_a_click_readies_a_side_of_the_pairing_kept(page):
    """Item 7: with a pairing kept after a finished game the status asks for "a
    deliberate press, here a click, on a pit of their own row", but clicks did nothing
    (only a long press did it): the click does what the status says."""
    from playboard_host.serial_link import BoardLink, open_port

    s = page("toguz")
    s.act({"op": "click", "cell": 4})  # South pit 5 sown
    s.advance(3000)
    assert s.state()["ply"] == 1
    link = BoardLink(open_port(s.board.port, timeout=0.05), timeout=10)
    try:
        link.set_game(game="toguz", pairing={"event": "Spring", "round": "1.1", "white": "Aru", "black": "Bek"})
    finally:
        link.close()
    s.act({"op": "resign"})
    s.advance(2000)
    st = s.state()
    assert st["app_state"] == "over" and st["pairing"]["waiting"] == "waiting for Aru (White) and Bek (Black)", st
    s.act({"op": "click", "cell": 4})  # a pit of White's row (South pit 5)
    s.advance(1000)
    assert s.state()["pairing"]["waiting"] == "waiting for Bek (Black)", s.state()["pairing"]
    s.act({"op": "click", "cell": 13})  # Black's (North pit 5): the paired game begins
    s.advance(2000)
    st = s.state()
    assert (st["app_state"], st["ply"], st["pairing"]) == ("play", 0, None), st


def test_the_engines_toguz_move_on_show_is_said_to_be_made_on_the_board_until_it_is(page):
    """Item 15: while the engine's Toguz move was on show (to be sown by hand) the
    Engine panel said "idle" and no button made it, as Tobit's panel does."""
    s = page("toguz", mode="white", level=1)
    s.act({"op": "click", "cell": 4})  # South pit 5: the player's move
    s.advance(1000)
    for _ in range(20):  # the engine thinks (level 1: a few seconds at most)
        if s.state()["ply"] == 2:
            break
        s.advance(500)
    st = s.state()
    assert st["ply"] == 2 and st["turn"] == 0, st
    text = st["engine"]["text"]
    assert st["engine"]["state"] == "move" and text.startswith("plays %s" % st["moves"][-1]), st["engine"]
    assert text.endswith("make it on the board"), text
    cell = s.engine_cell
    assert cell is not None and 9 <= cell < 18 and cell - 9 == int(st["moves"][-1][0]) - 1
    s.act({"op": "engine_move"})  # the page's button: the engine's pit sown by hand
    s.advance(3000)
    st = s.state()
    assert st["engine"] == {"state": "idle", "text": "idle"} and s.engine_cell is None, st["engine"]
    s.act({"op": "click", "cell": 6})  # the player's next move is taken
    s.advance(1500)
    assert s.state()["ply"] >= 3


def test_the_pages_export_record_is_what_playboard_export_writes_of_the_same_game(page, tmp_path, capsys):
    """Item 14: the page's Export record had its own tags (Event "Playboard simulator
    game", White "White player", a Level in a two-player game, no Board tags)."""
    from playboard_host import cli

    s = page("toguz")
    for cell in (4, 13, 6):  # South 5, North 5, South 7
        s.act({"op": "click", "cell": cell})
        s.advance(3000)
    assert s.state()["ply"] == 3
    in_play = s.record_text()
    assert '[Event "Playboard"]' in in_play and '[White "Player"]' in in_play and "[Level " not in in_play
    assert '[Board "sim"]' in in_play and '[BoardGame "' in in_play and '[Result "*"]' in in_play
    s.act({"op": "resign"})
    s.advance(2000)
    page_text = s.record_text()
    lib = str(tmp_path / "lib.sqlite")
    assert cli.main(["sync", "--port", s.board.port, "--timeout", "5", "--library", lib]) == 0
    capsys.readouterr()
    assert cli.main(["export", "--library", lib]) == 0
    assert capsys.readouterr().out == page_text


def test_the_sown_pit_clicked_again_while_on_show_takes_the_move_back_every_time(page):
    """Item 11: click a pit, 0.6 s, click it again, four times: three times the second
    click was silently ignored, the fourth took the move back; docs/player.md (why 4)
    says touching the sown pit again takes the move back."""
    s = page("toguz")
    for k in range(4):
        n0 = len(s.state()["events"])
        s.act({"op": "click", "cell": 4})  # South pit 5
        s.advance(600)
        assert s.state()["moves"] == ["54"], (k, s.state()["events"][n0:])
        s.act({"op": "click", "cell": 4})  # the same pit again, its view on
        s.advance(3000)
        st = s.state()
        assert st["moves"] == [] and st["ply"] == 0, (k, st["events"][n0:])
        assert any(ln.endswith("move taken back") for ln in st["events"][n0:]), (k, st["events"][n0:])
        assert s.board.status()["ply"] == 0
    # outside the view the pit is played as any pit: South 5 then, 3 s later, North 5
    s.act({"op": "click", "cell": 4})
    s.advance(3000)
    s.act({"op": "click", "cell": 13})
    s.advance(1500)
    assert s.state()["moves"] == ["54", "54"]
