"""Tihbat: 2 x 2 pits, 28 counters, captures of 2/4/6/8 on one's own side (RULES.md section 3).

The position is one ``bytearray`` (``Tihbat.pos``); ``push`` saves it into a
preallocated undo stack and ``pop`` copies it back. The repetition history (3.5)
is a preallocated ``array`` of position keys, one per ply plus the set-up
position; the first repetition ends the game, so a scan of it per push finds it.

History size: 64 plies preallocated (260 bytes of keys, 640 bytes of undo
snapshots); a longer game (or a search below it) adds 32 plies at a time, small
allocations outside the hot path; nothing is lost.

Moves are ints: 0 and 1 for the mover's pits 1 and 2, ``PASS`` (2) for a pass.
"""
from array import array

from playboard.compat import const
from playboard.games.common import GameError, TERM_REPETITION, TERM_BOARD_EMPTY
from playboard.games.snapshot import SnapshotGame
from playboard.games import mancala_text
from playboard.games.tihbat_native import _sow  # noqa: F401 (native: loaded once)

# Layout of Tihbat.pos
CAPT = const(4)  # [0],[1] South pits 1,2; [2],[3] North pits 1,2; [4] South's captures, [5] North's
TURN = const(6)
TERM = const(7)  # 0 running, TERM_CODE_*
LAST = const(8)  # index of the pit where the last counter landed (255: a pass or no move yet)
TAKEN = const(9)  # counters the last move captured
SIZE = const(10)
POS_BYTES = SIZE  # a plain name for SnapshotGame (a const is replaced at compile time)

PASS = const(2)
NONE = const(255)
TOTAL = const(28)
TERM_CODE_EMPTY = const(1)
TERM_CODE_REPETITION = const(2)

START_FEN = "7S,7S/7S,7S 0 0 S 1"


def _key(p):
    return p[0] | (p[1] << 5) | (p[2] << 10) | (p[3] << 15) | (p[TURN] << 20)


class Tihbat(SnapshotGame):
    """A game of Tihbat (RULES.md 3). See ``playboard.games`` for the interface.

    ``pos`` holds the position (layout: the module's constants); read it, never
    write it. Moves: 0, 1 (pit number - 1) or ``PASS``."""

    name = "tihbat"
    POS_BYTES = POS_BYTES
    TURN_AT = TURN
    n_pits = 2

    def __init__(self, fen=None, capacity=64):
        self._init_stack(capacity)
        self._keys = array("i", bytes(4 * (capacity + 1)))
        self.set_fen(START_FEN if fen is None else fen)

    def set_fen(self, text):
        """Set up the position of ``text`` (RULES.md 3.7); clears the move stack and
        the repetition history. GameError for a malformed text or a total other than 28."""
        north, ntuz, south, stuz, cs, cn, side, move_no = mancala_text.parse_position(text, 2)
        if ntuz >= 0 or stuz >= 0:
            raise GameError("position text: Tihbat has no tuzdyk: %r" % text)
        total = sum(north) + sum(south) + cs + cn
        if total != TOTAL:
            raise GameError("position text: the counters sum to %d, expected 28: %r" % (total, text))
        p = self.pos
        for i in range(SIZE):
            p[i] = 0
        p[0], p[1], p[2], p[3] = south[0], south[1], north[0], north[1]
        p[CAPT], p[CAPT + 1], p[TURN], p[LAST] = cs, cn, side, NONE
        if p[0] + p[1] + p[2] + p[3] == 0:
            p[TERM] = TERM_CODE_EMPTY
        self.ply = 0
        self._keys[0] = _key(p)
        self._root_fullmove = move_no
        self._root_turn = side
        self.root_fen = self.fen()

    def fen(self):
        """The position text of RULES.md 3.7."""
        p = self.pos
        return mancala_text.format_position([p[0], p[1]], [p[2], p[3]], -1, -1,
                                            p[CAPT], p[CAPT + 1], p[TURN], self.fullmove)

    @property
    def termination(self):
        """None while the game runs; else TERM_BOARD_EMPTY or TERM_REPETITION (3.5)."""
        t = self.pos[TERM]
        if t == 0:
            return None
        return TERM_BOARD_EMPTY if t == TERM_CODE_EMPTY else TERM_REPETITION

    def captures(self):
        """(South's captured counters, North's), before the end's split."""
        return self.pos[CAPT], self.pos[CAPT + 1]

    def final_captures(self):
        """(South, North) with the counters left on the board split equally (3.5)."""
        p = self.pos
        half = (p[0] + p[1] + p[2] + p[3]) // 2
        return p[CAPT] + half, p[CAPT + 1] + half

    def winner(self):
        """0 South, 1 North, -1 a draw, None while the game runs (3.5)."""
        if self.pos[TERM] == 0:
            return None
        s, n = self.final_captures()
        return 0 if s > n else (1 if n > s else -1)

    def legal_moves(self):
        """[0], [1], [0, 1], or [PASS] when both of the mover's pits are empty; [] once over."""
        p = self.pos
        if p[TERM]:
            return []
        b = 2 * p[TURN]
        if p[b]:
            return [0, 1] if p[b + 1] else [0]
        return [1] if p[b + 1] else [PASS]

    def is_legal(self, m):
        """True if ``m`` is a legal move here."""
        return isinstance(m, int) and m in self.legal_moves()

    def push(self, m):
        """Play ``m`` in place and end the game if 3.5 says so. No legality check."""
        ply = self._save(m)
        p = self.pos
        key = _sow(p, m)
        keys = self._keys
        keys[ply] = key
        if p[0] == 0 and p[1] == 0 and p[2] == 0 and p[3] == 0:
            p[TERM] = TERM_CODE_EMPTY
            return
        i = ply - 1
        while i >= 0:
            if keys[i] == key:
                p[TERM] = TERM_CODE_REPETITION
                return
            i -= 1

    def _grown(self, cap):
        keys = array("i", bytes(4 * (cap + 1)))
        for i in range(self.ply + 1):
            keys[i] = self._keys[i]
        self._keys = keys

    def last_landing(self):
        """Index in ``pos`` of the pit where the last counter landed (None after a pass)."""
        t = self.pos[LAST]
        return None if (t == NONE or self.ply == 0) else t

    def last_taken(self):
        """Counters the last move captured."""
        return self.pos[TAKEN] if self.ply else 0

    def move_text(self, m):
        """``m`` in the notation of 3.6: ``1``, ``2`` or ``pass``."""
        if not self.is_legal(m):
            raise GameError("move %r is not legal in %s" % (m, self.fen()))
        return "pass" if m == PASS else str(m + 1)

    def parse_move(self, text):
        """The legal move named by ``1``, ``2`` or ``pass`` (3.6); GameError otherwise."""
        t = text.strip().lower() if isinstance(text, str) else ""
        if t == "pass":
            m = PASS
        elif t in ("1", "2"):
            m = int(t) - 1
        else:
            raise GameError("%r is not a Tihbat move (1, 2 or pass)" % (text,))
        if self.pos[TERM]:
            raise GameError("move %r: the game is over (%s)" % (text, self.termination))
        if not self.is_legal(m):
            if m == PASS:
                raise GameError("move 'pass': a pass is only legal with both pits empty")
            raise GameError("move %r: pit %d of %s is empty" % (text, m + 1, "South" if self.turn == 0 else "North"))
        return m

    def key(self):
        """Position key below 2**30: pit counts, side to move and South's captures."""
        return _key(self.pos) | (self.pos[CAPT] << 21)
