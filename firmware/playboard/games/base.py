"""What every rules core shares: the move stack, results, text helpers, perft.

A game class sets ``name`` and implements ``legal_moves``, ``push``, ``pop``,
``fen``, ``set_fen``, ``move_text``, ``parse_move``, ``key`` and the
``termination``/``winner`` state; this base adds the rest of the common interface
(see ``playboard.games``).
"""
from playboard.games.common import GameError, RESULT_WHITE, RESULT_BLACK, RESULT_DRAW, RESULT_NONE


class Game:
    """Base of the rules cores (see the ``playboard.games`` docstring for the interface)."""

    name = "?"
    root_fen = ""  # the position text the game was set up from

    # --- what each core implements (see playboard.games) -----------------------
    def legal_moves(self):
        """A new list of the legal moves; [] once the game is over."""
        raise NotImplementedError

    def push(self, m):
        """Make move ``m`` in place."""
        raise NotImplementedError

    def pop(self):
        """Unmake the last move and return it."""
        raise NotImplementedError

    def undo(self):
        """Unmake the last move, returning nothing: the engine's and perft's pop (a
        game whose ``pop`` has to build the move it returns does this faster; the
        name is one the board interns anyway, the record's: no new name in its heap)."""
        self.pop()

    def move_stack(self):
        """A new list of the moves played since the set-up position."""
        raise NotImplementedError

    def parse_move(self, text):
        """The legal move that ``text`` names; GameError otherwise."""
        raise NotImplementedError

    def move_text(self, m):
        """``m`` in the game's notation, in the current position."""
        raise NotImplementedError

    def fen(self):
        """The position text."""
        raise NotImplementedError

    def set_fen(self, text):
        """Set up the position of ``text``; GameError for a malformed one."""
        raise NotImplementedError

    @property
    def termination(self):
        """None while the game runs, else one of the TERM_* texts."""
        raise NotImplementedError

    def winner(self):
        """0 White/South, 1 Black/North, -1 a draw, None while the game runs."""
        raise NotImplementedError

    # --- shared ------------------------------------------------------------------

    def push_text(self, text):
        """Parse ``text`` in the game's notation, push the move and return it (GameError if not legal)."""
        m = self.parse_move(text)
        self.push(m)
        return m

    def is_game_over(self):
        """True once the rules have ended the game (``termination`` is set)."""
        return self.termination is not None

    def result(self):
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` once the rules ended the game, else ``"*"``."""
        if self.termination is None:
            return RESULT_NONE
        w = self.winner()
        if w == 0:
            return RESULT_WHITE
        if w == 1:
            return RESULT_BLACK
        return RESULT_DRAW

    def copy(self):
        """A new game at the same position and with the same move stack."""
        g = type(self)()
        if g.root_fen != self.root_fen:  # (from the start position: nothing to set)
            g.set_fen(self.root_fen)
        for m in self.move_stack():
            g.push(m)
        return g

    def perft(self, depth):
        """Number of legal move sequences of exactly ``depth`` plies (RULES.md common terms)."""
        if depth <= 0:
            return 1
        n = 0
        push = self.push
        pop = getattr(self, "_unmake", self.pop)  # unmake without returning the move
        if depth == 1:
            for m in self.legal_moves():
                push(m)
                n += 1
                pop()
            return n
        for m in self.legal_moves():
            push(m)
            n += self.perft(depth - 1)
            pop()
        return n

    def __str__(self):
        return self.fen()

    def __repr__(self):
        return "<%s %s>" % (self.name, self.fen())


def parse_int(text, what, lo, hi):
    """``int(text)`` of ASCII digits only, checked to lie in lo..hi; GameError naming
    ``what`` otherwise."""
    if not text or any(c not in "0123456789" for c in text):
        raise GameError("%s: expected a number, got %r" % (what, text))
    v = int(text)
    if v < lo or v > hi:
        raise GameError("%s: %d is out of range %d..%d" % (what, v, lo, hi))
    return v
