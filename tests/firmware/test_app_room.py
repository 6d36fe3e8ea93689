"""The link and a game's start when the heap is short (docs/app.md, "Memory"), on the
in-process rig: a link whose code does not load is tried once a second, its failure
counted once; a game's start drops an idle link (a game before the link); a start
given up for memory leaves nothing that stops the next START.
"""
from apprig import Rig
from playboard.app.state import MENU_START


class _Ready:
    """A host that has spoken (the link's byte channel with bytes waiting)."""

    def ready(self):
        return True


class _IdleLink:
    """A loaded link between requests (its decoder idle), live events on."""

    class dec:
        state = 0

    def __init__(self, live=True):
        self.live = live

    def event(self, kind, fields=None):
        return True

    def poll(self):
        return 0


class _LinkModule:
    """Stands for playboard.link: its Link an idle one."""

    @staticmethod
    def Link(*a, **k):  # noqa: N802 - as the module's class
        return _IdleLink()


def _failing_load(r, tries, fails):
    """Stand in for loop._load (a cold module's import; the link's an idle one): each
    call logged in ``tries`` (the clock), a MemoryError while ``fails(name)``; returns
    the undo."""
    from playboard.app import loop
    real = loop._load

    def load(name):
        tries.append((r.t, name))
        if fails(name):
            raise MemoryError("memory allocation failed")
        return _LinkModule if name == "playboard.link" else real(name)

    loop._load = load

    def undo():
        loop._load = real
    return undo


def test_a_link_that_cannot_load_is_tried_once_a_second_and_counted_once():
    r = Rig()
    r.adv(100)
    tries = []
    short = [True]
    undo = _failing_load(r, tries, lambda name: short[0])
    try:
        r.app.transport = _Ready()
        r.app._reserve = None  # nothing to drop (App.make_room: the reserve and any game
        r.app.release_game()  # code, an earlier test's, would go first and try again at once)
        r.adv(3000)  # 300 frames, the host waiting all along
        ts = [t for t, name in tries]
        assert 3 <= len(ts) <= 4 and all(n == "playboard.link" for t, n in tries), tries  # once a second
        assert all(b - a >= 1000 for a, b in zip(ts, ts[1:])), ts
        assert r.app.memory_errors == 1  # one failure, however many tries
        # room again: the next try loads it
        short[0] = False
        del tries[:]
        r.adv(1100)
        assert len(tries) == 1 and r.app.link is not None and r.app._cold_t == -1, tries
        assert r.app.memory_errors == 1
    finally:
        undo()
        r.app.link = None


def test_a_game_drops_an_idle_link_and_keeps_one_a_host_is_watching():
    r = Rig()
    r.adv(100)
    for live in (False, True):
        lk = _IdleLink(live)
        r.app.link = lk
        r.app.choose("toguz", "two")
        r.app.new_game(r.t)
        r.begun()
        assert r.app.state == 2
        assert (r.app.link is lk) == live, live  # a watched link stays: its events go on
        r.app.open_menu(r.t)


def test_the_link_making_room_on_a_game_s_result_goes_to_the_menu():
    # a game just over (its result not painted yet), then the host speaks and the
    # link's code does not fit: the finished game's objects go to make room, and the
    # board shows its menu (it painted the result of a game no longer there: the
    # firmware stopped on an AttributeError, found by the soak)
    from playboard.app.state import S_MENU, S_OVER
    r = Rig()
    r.app.choose("tihbat", "two")
    r.app.new_game(r.t)
    r.begun()
    r.app.link_set_game({"resign": 0})
    r.adv(10)
    assert r.app.state == S_OVER and not r.app._over_painted
    tries = []
    undo = _failing_load(r, tries, lambda name: len(tries) == 1)
    try:
        r.app.transport = _Ready()
        r.adv(3000)  # past the result's delay
    finally:
        undo()
    assert len(tries) == 2 and r.app.link is not None, tries  # room made: loaded at once
    r.app.link = None
    assert r.app.state == S_MENU and r.app.game is None, r.app.state
    assert r.app.memory_errors == 1


def test_a_hosts_hello_at_the_menu_drops_the_last_games_code_and_the_reserve():
    # issue 14's soak: a sync at closing found the last game's code and the next
    # game's reserve (16 KB) in the heap; its requests' cold code (record/folder) then
    # did not load: fetches and acks refused. The hello, a session's first request,
    # makes room first; in play it changes nothing
    import sys
    from playboard.link import Link
    r = Rig()
    r.app.choose("tihbat", "two")
    r.app.new_game(r.t)
    r.begun()
    lk = Link(None, r.store, app=r.app, settings=r.app.settings)
    lk._hello({})
    assert r.app.state == 2 and r.app.game is not None and "playboard.games.tihbat" in sys.modules
    r.app.link_set_game({"resign": 0})
    r.adv(3000)
    r.app.open_menu(r.t)
    assert r.app.game is None and "playboard.games.tihbat" in sys.modules  # (kept for a next game)
    assert lk._hello({})["proto"] >= 1
    assert "playboard.games.tihbat" not in sys.modules and r.app._reserve is None
    assert r.app.make_room() is False  # nothing left to drop
