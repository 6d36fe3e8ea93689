"""The rules cores: one interface for Toguz Kumalak, Tobit (5 x 4 and 4 x 4) and Tihbat.

Modelled on python-chess. Every game object ``g`` offers:

- ``g.name``: ``"toguz"``, ``"tobit"``, ``"tobit4"`` or ``"tihbat"``.
- ``g.turn``: 0 for White (South in the mancala games), 1 for Black (North).
- ``g.ply``: plies pushed since the set-up position; ``g.fullmove``: the move number.
- ``g.legal_moves()``: a new list of the legal moves; empty once the game is over.
  Moves are small opaque values that compare with ``==`` and hash: ints for the
  mancala games (the pit index 0-based, or ``PASS``), ``bytes`` for Tobit.
- ``g.push(move)`` / ``g.pop()``: make and unmake in place (``pop`` returns the move);
  ``g.peek()``; ``g.move_stack()``: a new list of the moves played.
- ``g.is_game_over()``, ``g.result()`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, ``"*"``),
  ``g.termination`` (``None`` while the game runs, else one of the ``TERM_*`` texts).
- ``g.fen()`` / ``g.set_fen(text)``: the position text of RULES.md 1.8, 2.13, 3.7.
- ``g.move_text(move)``: the move in the game's notation, in the current position
  (before it is pushed); ``g.parse_move(text)``: the legal move that ``text`` names,
  checked (landing digit, ``x``); ``g.push_text(text)``.
- ``g.key()``: a position key below 2**30 (a small int on the RP2040).

Errors in input raise ``GameError`` (a ``ValueError``) naming what is wrong.
"""

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


def perft(game, depth):
    """Number of legal move sequences of exactly ``depth`` plies from ``game``'s position.

    A game that ends earlier contributes nothing (RULES.md, common terms). Every
    ply is pushed (no bulk counting of the last ply). ``game`` is left unchanged.
    """
    if depth == 0:
        return 1
    n = 0
    for m in game.legal_moves():
        game.push(m)
        n += perft(game, depth - 1) if depth > 1 else 1
        game.pop()
    return n
