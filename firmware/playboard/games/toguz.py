"""Toguz Kumalak: 2 x 9 pits, 162 balls, kazans and tuzdyks (RULES.md section 1).

The position is one ``bytearray`` (``Toguz.pos``, 26 bytes); ``push`` saves it
whole into a preallocated undo stack and ``pop`` copies it back, so make and
unmake allocate nothing once the game is set up. Sowing is a viper function on
MicroPython and the same code as plain Python on CPython.

Moves are ints 0..8: the mover's pit number minus one.
"""
from playboard.compat import const, TWINS
from playboard.games.common import GameError, TERM_KAZAN, TERM_NO_MOVE
from playboard.games.snapshot import SnapshotGame
from playboard.games import mancala_text
from playboard.games.toguz_native import (  # noqa: F401 (native: loaded once)
    _sow, _check_end, _key, _perft_viper)

# Layout of Toguz.pos
PITS = const(18)  # [0..8] South pits 1..9, [9..17] North pits 1..9
KAZAN = const(18)  # [18] South's kazan, [19] North's kazan
TUZDYK = const(20)  # [20] South's tuzdyk (a North pit index), [21] North's (a South pit index)
TURN = const(22)  # side to move: 0 South (White), 1 North (Black)
LAST = const(23)  # index of the pit where the last move's last ball landed (255 before any move)
FLAGS = const(24)  # what the last move did: FLAG_* bits
TERM = const(25)  # 0 while the game runs, else TERM_CODE_*
SIZE = const(26)
POS_BYTES = SIZE  # a plain name for SnapshotGame (a const is replaced at compile time)

NONE = const(255)
FLAG_CAPTURE = const(1)
FLAG_TUZDYK = const(2)
TERM_CODE_KAZAN = const(1)
TERM_CODE_NO_MOVE = const(2)

BALLS = const(162)
WIN = const(82)  # a kazan of 82 or more wins (1.6)
HALF = const(81)

START_FEN = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"


_sow_viper = _sow  # the viper sowing; under CPython the host tools' twin runs as _sow
_perft_twin = None  # CPython: the twin of _perft_viper
_twins = TWINS.get("toguz")  # filled by playboard_host.twins.install (CPython only)
if _twins:
    _sow = _twins["_sow"]
    _perft_twin = _twins["_perft_twin"]


class Toguz(SnapshotGame):
    """A game of Toguz Kumalak (RULES.md 1). See ``playboard.games`` for the interface.

    ``pos`` holds the position (layout: the module's PITS..TERM constants);
    read it, never write it. Moves are ints 0..8 (pit number - 1)."""

    name = "toguz"
    POS_BYTES = POS_BYTES
    TURN_AT = TURN
    n_pits = 9

    def __init__(self, fen=None, capacity=64):
        self._init_stack(capacity)
        self.set_fen(START_FEN if fen is None else fen)

    # --- position text (1.8) -------------------------------------------------
    def set_fen(self, text):
        """Set up the position of ``text`` (RULES.md 1.8) and clear the move stack.

        Raises GameError for a malformed or impossible text (wrong pit count, balls
        not summing to 162, a tuzdyk that 1.4 forbids); the game is unchanged then."""
        north, ntuz, south, stuz, ks, kn, side, move_no = mancala_text.parse_position(text, 9)
        if sum(north) + sum(south) + ks + kn != BALLS:
            raise GameError("position text: the balls sum to %d, expected 162: %r" % (
                sum(north) + sum(south) + ks + kn, text))
        # A 't' in North's row is South's tuzdyk, and vice versa.
        if ntuz == 8 or stuz == 8:
            raise GameError("position text: a tuzdyk can't be pit 9 (1.4): %r" % text)
        if ntuz >= 0 and ntuz == stuz:
            raise GameError("position text: both tuzdyks have number %d (1.4): %r" % (ntuz + 1, text))
        p = bytearray(SIZE)
        for i in range(9):
            p[i] = south[i]
            p[9 + i] = north[i]
        p[KAZAN] = ks
        p[KAZAN + 1] = kn
        p[TUZDYK] = 9 + ntuz if ntuz >= 0 else NONE
        p[TUZDYK + 1] = stuz if stuz >= 0 else NONE
        p[TURN] = side
        p[LAST] = NONE
        _check_end(p)
        self.pos[:] = p
        self.ply = 0
        self._root_fullmove = move_no
        self._root_turn = side
        self.root_fen = self.fen()

    def fen(self):
        """The position text of RULES.md 1.8."""
        p = self.pos
        st = p[TUZDYK + 1]  # North's tuzdyk lies in South's row
        nt = p[TUZDYK]
        return mancala_text.format_position(
            list(p[0:9]), list(p[9:18]),
            st if st != NONE else -1, nt - 9 if nt != NONE else -1,
            p[KAZAN], p[KAZAN + 1], p[TURN], self.fullmove)

    @property
    def termination(self):
        """None while the game runs; else TERM_KAZAN or TERM_NO_MOVE (1.6)."""
        t = self.pos[TERM]
        if t == 0:
            return None
        return TERM_KAZAN if t == TERM_CODE_KAZAN else TERM_NO_MOVE

    def winner(self):
        """0 South, 1 North, -1 a draw (81:81), None while the game runs (1.6)."""
        if self.pos[TERM] == 0:
            return None
        ks = self.pos[KAZAN]
        kn = self.pos[KAZAN + 1]
        if ks > HALF:
            return 0
        if kn > HALF:
            return 1
        return -1

    def kazans(self):
        """(South's kazan, North's kazan)."""
        return self.pos[KAZAN], self.pos[KAZAN + 1]

    def tuzdyk_of(self, side):
        """Index in ``pos`` of the tuzdyk owned by ``side`` (0 South, 1 North), or None."""
        t = self.pos[TUZDYK + side]
        return None if t == NONE else t

    # --- moves -----------------------------------------------------------------
    def legal_moves(self):
        """The legal moves: the mover's non-empty pits (0..8); [] once the game is over."""
        p = self.pos
        if p[TERM]:
            return []
        base = 9 * p[TURN]
        return [i for i in range(9) if p[base + i]]

    def is_legal(self, m):
        """True if ``m`` (an int 0..8) is a legal move here."""
        p = self.pos
        return (not p[TERM]) and isinstance(m, int) and 0 <= m < 9 and p[9 * p[TURN] + m] > 0

    def push(self, m):
        """Play move ``m`` (a legal pit 0..8) in place. No legality check: use
        ``is_legal``/``parse_move`` for untrusted input."""
        self._save(m)
        _sow(self.pos, m)

    def last_landing(self):
        """Index in ``pos`` of the pit where the last ball of the last move landed, or None."""
        t = self.pos[LAST]
        return None if t == NONE else t

    def last_flags(self):
        """FLAG_CAPTURE / FLAG_TUZDYK bits of what the last move did (0 before any move)."""
        return self.pos[FLAGS] if self.ply else 0

    # --- notation (1.7) --------------------------------------------------------
    def move_text(self, m):
        """``m`` in tournament notation (1.7): pit, landing pit, ``x`` for a tuzdyk."""
        if not self.is_legal(m):
            raise GameError("move %r is not legal in %s" % (m, self.fen()))
        self.push(m)
        last = self.pos[LAST]
        x = "x" if self.pos[FLAGS] & FLAG_TUZDYK else ""
        self.pop()
        return "%d%d%s" % (m + 1, last % 9 + 1, x)

    def parse_move(self, text):
        """The legal move that ``text`` names (1.7); the landing digit and the ``x``
        (Latin or Cyrillic) are checked. Raises GameError saying what does not match."""
        t = text.strip() if isinstance(text, str) else ""
        tuz = False
        if t.endswith("x") or t.endswith("X") or t.endswith("\u0445") or t.endswith("\u0425"):
            tuz = True
            t = t[:-1]
        if len(t) != 2 or not ("1" <= t[0] <= "9") or not ("1" <= t[1] <= "9"):
            raise GameError("%r is not a Toguz Kumalak move (two digits 1-9, then x for a tuzdyk)" % (text,))
        m = ord(t[0]) - 49
        if self.pos[TERM]:
            raise GameError("move %r: the game is over (%s)" % (text, self.termination))
        if not self.is_legal(m):
            raise GameError("move %r: pit %d of %s is empty" % (text, m + 1, "South" if self.turn == 0 else "North"))
        self.push(m)
        last = self.pos[LAST] % 9 + 1
        made = bool(self.pos[FLAGS] & FLAG_TUZDYK)
        self.pop()
        if last != ord(t[1]) - 48:
            raise GameError("move %r: the last ball lands in pit %d, not %s" % (text, last, t[1]))
        if made != tuz:
            raise GameError("move %r: the move %s a tuzdyk" % (text, "makes" if made else "does not make"))
        return m

    def key(self):
        """A position key below 2**30 (a hash of pits, kazans, tuzdyks and side, for
        transposition tables; the same on every port: no step exceeds 2**31)."""
        return _key(self.pos)

    def perft(self, depth):
        """Perft (RULES.md 1.9): every ply pushed, no bulk counting.

        Plays each ply with the core's sowing and unmakes it from a snapshot, like
        ``push``/``pop`` without the move-stack bookkeeping."""
        p = self.pos
        if depth <= 0:
            return 1
        if p[TERM]:
            return 0
        if _perft_twin is not None:
            return _perft_twin(p, depth)
        return _perft_viper(p, depth, bytearray(SIZE * depth))
