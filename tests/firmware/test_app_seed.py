"""Each game on the board draws its own seed (docs/engine.md "Seeds", issue 31): the
app seeds each new game's engine before its first search, as
``playboard.engine.seed.seed_game`` does (the host's ladder test plays that); with
``App.seed`` an int, game k of the power-up is seeded ``seed + k``."""
from apprig import Rig


def _first_search_seed(r):
    """Run until the engine (South) has begun its first search; its ``_mood`` and ``_rand``."""
    for _ in range(300):
        r.adv(10)
        if r.app.thinking or r.app.engine._mood != 0x40000000:
            break
    return r.app.engine._mood


def test_the_app_seeds_each_games_engine_as_seed_game_does():
    from playboard.engine.search import Engine
    from playboard.engine.seed import seed_game, FRESH
    r = Rig()
    r.app.seed = 500
    r.app.link_set_game({"game": "toguz", "mode": "black", "level": 1})
    r.begun()
    assert _first_search_seed(r) != FRESH
    assert r.app.seed == 501  # this game took 500
    # the same draws as seed_game(500): the careless draw made at the first search
    e = Engine(16)
    seed_game(e, 500)
    from playboard.games.registry import new_game
    g = new_game("toguz")
    e.start(g, 1, nodes=10)
    assert (e._mood & 1) == (r.app.engine._mood & 1)
    # a new game: the next seed
    r.app.link_set_game({"game": "toguz", "mode": "black", "level": 1, "force": True})
    r.begun()
    _first_search_seed(r)
    assert r.app.seed == 502
