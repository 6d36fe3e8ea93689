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
