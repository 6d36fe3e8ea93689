"""A locked board's daily restart with no closing (playboard.app.restart, docs/museum.md):
after 24 h up, in attract with no game in play, the board restarts; with opening hours
in effect it waits for the closing (48 h at most); an unlocked board never restarts.
The in-process rig, its clock stepped a look at the hours (30 s) at a time; the
uptime (the app's frames times its scan period) set a few looks short of a limit."""
import sys

from apprig import Rig


class _Machine:
    """Stands for ``machine`` (the RP2040's soft_reset and the unix port's both end the
    program with SystemExit)."""

    @staticmethod
    def soft_reset():
        raise SystemExit


def _until_restart(r, n, step):
    """Call ``step(r)`` up to ``n`` times, ``machine`` stood in for; the call (1-based)
    the board restarted in, or None."""
    old = sys.modules.get("machine")
    sys.modules["machine"] = _Machine
    try:
        for i in range(n):
            try:
                step(r)
            except SystemExit:
                return i + 1
    finally:
        if old is None:
            del sys.modules["machine"]
        else:
            sys.modules["machine"] = old
    return None


def _look(r):
    r.t += 30000
    r.app.frame(r.t)


def _run_looks(r, n):
    """Step the clock ``n`` looks at the hours (30 s each); the look the board restarted
    at (1-based), or None."""
    return _until_restart(r, n, _look)


DAY = 86400000


def _up(r, ms, looks=0):
    """Set the app's uptime (its frames) ``looks`` frames short of ``ms``."""
    r.app.frames = ms // r.app.period_ms - looks


def _rig(locked, hours=""):
    r = Rig()
    r.app.settings.update({"locked": locked, "attract_s": 60, "hours": hours})
    r.app.wallclock = lambda: (2026, 12, 1, 12, 0, 0, 1, 335)  # noon, every day
    r.adv(50)
    return r


def test_a_locked_board_with_no_hours_restarts_after_24_hours_in_attract():
    r = _rig(True)
    _up(r, DAY, 50)
    at = _run_looks(r, 200)
    assert at == 50  # 24 h up, in attract all along
    assert r.app.state == 4 and r.app.game is None
    assert ("restart", {"up_s": 86400, "why": "daily"}) in r.events
    assert r.fs.files["/games/boots"] == b"PD"  # power-up, then the restart's mark


def test_a_game_in_play_at_24_hours_puts_the_restart_off_until_attract():
    r = _rig(True)
    r.app.settings["idle_s"] = 600
    _up(r, DAY, 10)
    assert _run_looks(r, 5) is None
    r.app.choose("toguz", "two")
    r.app.new_game(r.t)
    r.adv(2000)
    assert r.app.state in (1, 2)
    at = _run_looks(r, 100)  # the game abandoned when idle, then attract: the restart
    assert at is not None and r.app.game is None and r.app.state == 4
    # abandoned with no move made: not a game, so not kept on flash (issue 34)
    assert any(k == "abandoned" for k, _ in r.events) and "/games/g1.rec" not in r.fs.files
    assert r.store.count == 0


def test_an_unlocked_board_and_a_board_with_hours_do_not_restart_after_24_hours():
    r = _rig(False)
    _up(r, 3 * DAY)
    assert _run_looks(r, 100) is None
    r = _rig(True, "00:00-23:59")  # open all day at noon: no closing
    _up(r, DAY)
    assert _run_looks(r, 100) is None
    _up(r, 2 * DAY, 20)
    assert _run_looks(r, 100) == 20  # 48 h: a closing that never came


def test_a_finished_games_result_at_closing_goes_dark_and_restarts():
    r = _rig(True, "09:00-17:00")
    r.app.settings["attract_s"] = 0  # (the result stays until the closing)
    assert _run_looks(r, 2) is None  # open
    r.app.choose("tihbat", "two")
    r.app.new_game(r.t)
    r.adv(2000)
    r.app._game_over("1-0", "resign", r.t)  # (as White's resign pad pressed twice)
    r.adv(500)
    assert r.app.state == 3 and r.app.game is not None and r.store.current is None
    r.app.wallclock = lambda: (2026, 12, 1, 17, 0, 0, 1, 335)
    _up(r, 120000)  # (up 2 min: not the closing a start while closed sees)
    assert _run_looks(r, 2) == 1  # closed from the result: dark, attract, restarted
    assert r.app.closed and r.app.state == 4


def _steps(r, ms, step=100):
    """Run frames ``step`` ms apart for ``ms``; the ms from now the board restarted at,
    or None."""
    i = _until_restart(r, ms // step, lambda r: r.adv(step))
    return None if i is None else i * step


def test_a_board_the_link_locks_does_not_restart_for_it():
    """The lock's restart is gone (issue 30: it only interned names on a whole heap):
    a board the link locks at the menu, or in a game, goes on in the same process."""
    r = Rig()
    r.app.settings.update({"locked": True, "games": ["toguz", "tobit", "tihbat"]})
    assert r.store.save_settings({"locked": True})  # as the link's W does: saved,
    r.app.link_settings({"locked": True})  # then applied
    assert _steps(r, 70000, 1000) is None and r.app.state in (0, 4)
    assert not any(e[0] == "restart" for e in r.events)
    assert r.fs.files["/games/boots"] == b"P"
