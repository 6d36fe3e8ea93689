"""Each game on the board draws its own seed (docs/engine.md "Seeds", issue 31): the app
builds a new engine for each game with ``seed=None`` (``playboard.app.gamestart``),
which draws one (``os.urandom``, else the clock); before, every game began from the
default seed 12345 (the same careless draw, the same blunders)."""
from apprig import Rig


def test_each_game_of_the_app_seeds_its_engine_apart():
    r = Rig()
    seen = []
    for k in range(3):
        r.app.link_set_game({"game": "toguz", "mode": "black", "level": 1, "force": True})
        r.begun()
        seen.append(r.app.engine._rand)
    assert len(set(seen)) == 3 and 12345 not in seen, seen
