"""The games by name: ``game_class(name)`` and ``new_game(name, fen)``, importing only
the core asked for (on the board a game's code is loaded when it starts)."""
from playboard.games.common import GAME_NAMES, GameError


def game_class(name):
    """The class of the game called ``name`` (one of GAME_NAMES); GameError otherwise."""
    if name == "toguz":
        from playboard.games.toguz import Toguz

        return Toguz
    if name == "tobit":
        from playboard.games.tobit import Tobit

        return Tobit
    if name == "tobit4":
        from playboard.games.tobit import Tobit4

        return Tobit4
    if name == "tihbat":
        from playboard.games.tihbat import Tihbat

        return Tihbat
    raise GameError("unknown game %r (expected one of %s)" % (name, ", ".join(GAME_NAMES)))


def new_game(name, fen=None):
    """A new game ``name`` at its start position, or at position text ``fen``."""
    g = game_class(name)()
    if fen is not None:
        g.set_fen(fen)
    return g
