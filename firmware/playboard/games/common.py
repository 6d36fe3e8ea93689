"""Names every rules core and its users share: game names, results, terminations,
``GameError``. Imports nothing (the cores import it; see ``playboard.games``)."""


GAME_NAMES = ("toguz", "tobit", "tobit4", "tihbat")

RESULT_WHITE = "1-0"
RESULT_BLACK = "0-1"
RESULT_DRAW = "1/2-1/2"
RESULT_NONE = "*"

# Termination texts, as the records' Termination tag writes them.
TERM_KAZAN = "kazan"  # Toguz Kumalak: a kazan reached 82, or both 81 (1.6)
TERM_NO_MOVE = "no piece or no legal move"  # Tobit 2.11; Toguz Kumalak 1.6 (no legal move)
TERM_REPETITION = "repetition"  # Tobit threefold (2.11); Tihbat first repetition (3.5)
TERM_BOARD_EMPTY = "board empty"  # Tihbat 3.5


class GameError(ValueError):
    """Bad input to a rules core: a malformed position text, an unknown or illegal move."""
