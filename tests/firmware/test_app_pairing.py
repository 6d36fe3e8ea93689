"""A tournament's pairing sent over the link (G {"pairing": ...}, playboard.app.pairing):
checked whole, kept for the next game begun on the board, written into that game's
header and forgotten, so a friendly game after it carries none."""
from tlib import raises

from apprig import Rig, _play_tihbat


def test_a_pairing_goes_into_the_next_game_begun_only():
    r = Rig()
    pair = {"event": "Весна", "round": "3.2", "white": "Әлия", "black": "王芳"}
    for bad in ({"pairing": {"event": "x"}}, {"pairing": {"event": "x", "round": "1", "white": "a", "black": 3}},
                {"pairing": dict(pair, seat=1)}, {"pairing": dict(pair, white="")},
                {"pairing": dict(pair, black="x" * 41)}, {"pairing": "x"}, {"pairing": pair, "mode": "white"},
                {"pairing": pair, "game": "chess"}):
        assert raises(ValueError, r.app.link_set_game, bad), bad
        assert getattr(r.app, "pairing", None) is None and r.app.game_name == "toguz"
    r.app.link_set_game({"pairing": pair, "game": "tihbat"})
    assert r.app.mode == "two" and r.app.game_name == "tihbat" and r.store.current is None
    r.app.new_game(r.t)  # the players begin it at the board
    r.begun()
    assert r.app.pairing is None  # taken by this game
    _play_tihbat(r, [0])  # a move: a game on record (one without a move is not kept)
    r.app.link_set_game({"game": "tihbat", "mode": "two", "force": True})  # then a friendly game
    r.begun()
    _play_tihbat(r, [0])
    r.app.release_game()
    tags = r.store.read(1).tags
    assert (tags["Event"], tags["Round"], tags["White"], tags["Black"]) == ("Весна", "3.2", "Әлия", "王芳")
    tags = r.store.read(2).tags
    assert "Round" not in tags and tags["White"] == "Player" and tags["Event"] == "Playboard"
    # "pairing": null forgets one sent
    r.app.link_set_game({"pairing": pair})
    r.app.link_set_game({"pairing": None})
    assert r.app.pairing is None


def test_the_game_of_a_pairing_begins_when_both_sides_say_they_are_ready():
    r = Rig()
    pair = {"event": "Spring", "round": "1.1", "white": "Aru", "black": "Bek"}
    st = r.app.link_set_game({"pairing": pair, "game": "toguz"})
    assert st["ready"] == 0 and st["state"] == "menu"
    r.adv(500)
    # a touch under the hold readies nobody; presses on White's row (South pits 4, 9) ready
    # White, once
    r.tap("toguz", 12, 200)
    assert r.app.link_status()["ready"] == 0
    r.press("toguz", 3)
    r.press("toguz", 8)
    assert r.app.link_status()["ready"] == 1 and r.app.link_status()["state"] == "menu"
    assert [f for k, f in r.events if k == "ready"] == [{"side": 0, "ready": 1}]
    # the same pairing sent again keeps it; another (re-paired) starts over
    assert r.app.link_set_game({"pairing": pair, "game": "toguz"})["ready"] == 1
    assert r.app.link_set_game({"pairing": dict(pair, black="Dina")})["ready"] == 0
    r.press("toguz", 17)  # Black's START first this time, then White: the game begins
    assert r.app.link_status()["ready"] == 2 and r.app._pending is None
    r.press("toguz", 0)
    r.begun()
    st = r.app.link_status()
    assert st["state"] == "play" and "ready" not in st and "pairing" not in st
    assert [f["ready"] for k, f in r.events if k == "ready"] == [1, 2, 3]
    # "pairing": null: no pairing, no ready in the status
    r.app.link_set_game({"pairing": dict(pair, round="1.2")})
    assert r.app.link_status()["ready"] == 0
    r.app.link_set_game({"pairing": None})
    assert "ready" not in r.app.link_status()
