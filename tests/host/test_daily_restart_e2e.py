"""A locked board's daily restart end to end on the simulated board (whole firmware,
the chip's heap; docs/museum-reference.md, "The daily restart"): at closing the firmware restarts by
itself (``playboard.app.restart``: its process ends with RESTART_EXIT and SimBoard starts
it again on the same flash, port and wall clock); an unlocked board never does."""
import calendar
import contextlib
import io

import pytest

from playboard_host import cli
from playboard_host.library import Library
from playboard_host.simboard import micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")

DAY = calendar.timegm((2026, 12, 1, 0, 0, 0))


def _settings(b, *words):
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["settings"] + list(words) + ["--port", b.port, "--timeout", "5"]) == 0


def _sync(b, db):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        code = cli.main(["sync", "--port", b.port, "--library", db, "-q"])
    assert code == 0, err.getvalue()


def _menu_game(b, pad):
    """Choose game ``pad`` (two players) by deliberate presses and press START, as a
    visitor does; the board's status after."""
    from playboard.app.state import MENU_GAME, MENU_MODE, MENU_START
    from playboard.board.layout import load_layout
    from playboard_host.gestures import press_sensor
    lay = load_layout("toguz")
    if b.status()["state"] == "attract":  # a touch wakes the menu
        press_sensor(b, lay.sensor_of(4))
    b.advance(700)
    for c in (MENU_GAME[pad], MENU_MODE[0], MENU_START):
        press_sensor(b, lay.sensor_of(c))
        b.advance(700)
    b.advance(3000)
    return b.status()


def _day_with_games(b, locked):
    """Hours 09:00-17:00 (and the museum profile if ``locked``), switched off and on, the
    wall clock at 16:40; two games begun, a move played in each, and left (abandoned
    after ``idle_s`` when ``locked``): two records (a game with no move made would
    leave none)."""
    _settings(b, "set", "hours", "09:00-17:00")
    if locked:
        _settings(b, "--profile", "museum")
    b.restart()  # switched off and on after the profile (docs/museum.md)
    b._command("wall", DAY + 16 * 3600 + 40 * 60)
    b.advance(31000)
    assert b.status()["state"] in ("menu", "attract")
    for pad, name in ((0, "toguz"), (3, "tihbat")):
        st = _menu_game(b, pad)
        assert st["state"] == "play" and st["game"] == name, st
        b.tap(0, 150)  # South 1 sown
        b.advance(3000)
        assert b.status()["ply"] == 1
        if locked:
            b.advance(301000)  # the visitor walks away: abandoned after idle_s (300 s)
        else:
            b.menu()  # (an unlocked board has no idle_s: the menu)
        b.advance(1500)
    assert b.status()["store"]["games"] == 2
    b.events()


def test_a_locked_board_restarts_by_itself_at_closing_and_keeps_its_records_and_clock(board, tmp_path):
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    _day_with_games(b, locked=True)
    pid = b.proc.pid
    b._command("wall", DAY + 17 * 3600)  # 17:00: closing
    b.advance(31000)  # the hours looked at: closed, attract, no game: the restart
    assert b.restarts == 1 and b.proc.pid != pid
    log = b.restart_log[0]
    assert DAY + 17 * 3600 <= log["wall"] <= DAY + 17 * 3600 + 31, log
    # the new process: its wall clock is the old one's (as the RTC across a soft reset)
    wall = b._command("wall")["wall"]
    assert wall[:4] == [2026, 12, 1, 17] and wall[4] <= 1, wall
    b.advance(31000)  # its first look at the hours: closed, dark; no restart again
    st = b.status()
    assert st["state"] == "attract" and not any(any(c) for c in b.leds()), st
    assert st["store"]["games"] == 2 and st["store"]["current"] is None, st
    b.advance(5 * 60000)
    assert b.restarts == 1
    # the records intact and synced after the restart; the restart counted apart
    db = str(tmp_path / "lib.sqlite")
    _sync(b, db)
    lib = Library(db, create=False)
    recs = lib.games_from("sim")
    lib.close()
    assert sorted(r.game for r in recs) == ["tihbat", "toguz"] and all(r.result == "*" for r in recs)
    # power-ups: start, the power-up after the profile; the restart is not one of them
    lib = Library(db, create=False)
    hl = lib.health("sim")
    lib.close()
    assert (hl["power_ups"], hl["wdt_resets"], hl.get("restarts")) == (2, 0, 1), hl
    # the next day opens as any day: the menu
    b._command("wall", DAY + 86400 + 9 * 3600)
    b.advance(31000)
    assert b.status()["state"] == "menu" and b.restarts == 1


def test_an_unlocked_board_never_restarts(board, tmp_path):
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    _day_with_games(b, locked=False)
    pid = b.proc.pid
    for d in range(2):
        b._command("wall", DAY + 86400 * d + 17 * 3600)  # closing, twice
        b.advance(62000)
        assert b.status()["state"] == "attract"
        b._command("wall", DAY + 86400 * (d + 1) + 9 * 3600)  # opening
        b.advance(31000)
        assert b.status()["state"] == "menu"
    assert b.restarts == 0 and b.proc.pid == pid
    assert b.status()["store"]["games"] == 2
