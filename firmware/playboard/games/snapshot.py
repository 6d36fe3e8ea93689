"""Make/unmake by whole-position snapshots, for the mancala cores.

A game whose position is one small ``bytearray`` (``pos``, ``POS_BYTES`` bytes) saves it
whole before each move into a preallocated undo stack (chunks of 32 plies) and
copies it back to unmake: no allocation once set up, and nothing to get wrong in
an unmake.
Moves are small ints kept in a ``bytearray``.
"""
from playboard.compat import const
from playboard.games.base import Game
from playboard.games.bufops import copy

CHUNK = const(32)  # plies of snapshots per undo chunk (ply >> 5, ply & 31)


class SnapshotGame(Game):
    """Base of Toguz and Tihbat: ``pos``, the undo stack, ``pop``, ``peek``, ``move_stack``.

    Subclasses set ``POS_BYTES`` and call ``_init_stack(capacity)`` once; their
    ``push`` calls ``_save(m)`` before changing ``pos``. The stack holds
    ``capacity`` plies and grows by a chunk of 32 plies when a game (or a search
    below it) first goes deeper; ``_grown(cap)`` lets a subclass grow what it keeps
    per ply."""

    POS_BYTES = 0
    TURN_AT = 0  # index in pos of the side to move
    _root_fullmove = 1  # the set-up position's move number and side, set by set_fen
    _root_turn = 0

    def _init_stack(self, capacity):
        self.pos = bytearray(self.POS_BYTES)
        self._cap = capacity
        # the snapshots in chunks of CHUNK plies: small blocks, which a broken-up heap
        # still has; a chunk is added when a game or a search first goes deeper
        self._undo = [bytearray(self.POS_BYTES * CHUNK) for _ in range((capacity + CHUNK - 1) // CHUNK)]
        self._moves = bytearray(capacity)
        self.ply = 0

    @property
    def turn(self):
        """0 when South (White) is to move, 1 for North (Black)."""
        return self.pos[self.TURN_AT]

    @property
    def fullmove(self):
        """The move number: starts at the set-up position's, grows after North's move."""
        return self._root_fullmove + (self._root_turn + self.ply) // 2

    def _save(self, m):
        """Save ``pos`` and record move ``m`` for the ply about to be played; returns the new ply."""
        ply = self.ply
        if ply >= self._cap:
            self._grow()
        size = self.POS_BYTES
        o = (ply & 31) * size
        self._undo[ply >> 5][o:o + size] = self.pos
        self._moves[ply] = m
        ply += 1
        self.ply = ply
        return ply

    def pop(self):
        """Take back the last move and return it (IndexError if there is none)."""
        ply = self.ply - 1
        if ply < 0:
            raise IndexError("pop from an empty move stack")
        copy(self.pos, 0, self._undo[ply >> 5], (ply & 31) * self.POS_BYTES, self.POS_BYTES)
        self.ply = ply
        return self._moves[ply]

    undo = pop

    def peek(self):
        """The last move played (IndexError if none)."""
        if self.ply == 0:
            raise IndexError("no move played")
        return self._moves[self.ply - 1]

    def move_stack(self):
        """A new list of the moves played since the set-up position."""
        return list(self._moves[0:self.ply])

    def _grow(self):
        cap = self._cap + CHUNK
        self._undo.append(bytearray(self.POS_BYTES * CHUNK))
        moves = bytearray(cap)
        moves[0:len(self._moves)] = self._moves
        self._moves, self._cap = moves, cap
        self._grown(cap)

    def _grown(self, cap):
        """Called after the stack grew to ``cap`` plies."""
