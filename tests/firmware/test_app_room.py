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


def test_a_link_that_cannot_load_is_tried_once_a_second_and_counted_once():
    r = Rig()
    r.adv(100)
    tries = []

    def no_room():
        tries.append(r.t)
        raise MemoryError("memory allocation failed")

    r.app.transport = _Ready()
    r.app.open_link = no_room
    r.app._reserve = None  # nothing to drop (App.make_room: the reserve and any game
    r.app.release_game()  # code, an earlier test's, would go first and try again at once)
    r.adv(3000)  # 300 frames, the host waiting all along
    assert 3 <= len(tries) <= 4, tries  # once a second, not every frame
    assert all(b - a >= 1000 for a, b in zip(tries, tries[1:])), tries
    assert r.app.memory_errors == 1  # one failure, however many tries
    # room again: the next try loads it, and a later failure counts again
    loaded = []

    def room():
        loaded.append(r.t)
        r.app.link = _IdleLink()

    r.app.open_link = room
    r.adv(1100)
    assert len(loaded) == 1 and r.app._link_retry == -1 and r.app.memory_errors == 1


def test_a_game_given_up_for_memory_drops_the_idle_link_and_begins_at_the_next_start():
    r = Rig()
    r.adv(100)
    r.app.link = _IdleLink()
    calls = []

    def broken_up_heap(game):  # (gamestart's unit 8, after the code has loaded)
        calls.append(r.t)
        raise MemoryError("memory allocation failed")

    r.app.choose("toguz", "two")
    r.app.load_layout = broken_up_heap
    r.app.new_game(r.t)
    r.adv(1000)  # four tries, then given up: the menu
    del r.app.load_layout  # (the class's again)
    assert len(calls) == 4 and r.app._pending is None and r.app.state == 0, calls
    assert r.app.memory_errors == 1  # the start given up (its tries are not counted)
    assert r.app.link is None  # a live link too, once a try has failed
    assert r.app.game is None and r.app.engine is None
    # START again: the game begins (nothing left over from the given-up one)
    r.press("toguz", MENU_START)
    r.begun()
    assert r.app.state == 2 and r.app.game.name == "toguz" and r.app.mode == "two", r.app.state


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

    def no_room():
        tries.append(r.t)
        if len(tries) == 1:
            raise MemoryError("memory allocation failed")
        r.app.link = _IdleLink()

    r.app.transport = _Ready()
    r.app.open_link = no_room
    r.adv(3000)  # past the result's delay
    assert len(tries) == 2 and r.app.link is not None, tries  # room made: loaded at once
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
