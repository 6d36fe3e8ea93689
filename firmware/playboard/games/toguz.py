"""Toguz Kumalak: 2 x 9 pits, 162 balls, kazans and tuzdyks (RULES.md section 1).

The position is one ``bytearray`` (``Toguz.pos``, 26 bytes); ``push`` saves it
whole into a preallocated undo stack and ``pop`` copies it back, so make and
unmake allocate nothing once the game is set up. Sowing is a viper function on
MicroPython and the same code as plain Python on CPython.

Moves are ints 0..8: the mover's pit number minus one.
"""
from playboard.compat import micropython, const, ptr8, TWINS
from playboard.games.common import GameError, TERM_KAZAN, TERM_NO_MOVE
from playboard.games.snapshot import SnapshotGame
from playboard.games import mancala_text

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


@micropython.viper
def _sow(p: ptr8, pit: int) -> int:
    """Play pit ``pit`` (0..8) of the side to move in position ``p`` (RULES.md 1.2-1.6).

    Sows, captures, makes a tuzdyk, sweeps tuzdyks into their owners' kazans,
    ends the game where 1.6 says so, and passes the move. Returns nothing useful;
    the effect is recorded in p[LAST], p[FLAGS], p[TERM]."""
    side = int(p[22])
    src = pit + 9 * side
    n = int(p[src])
    p[src] = 0
    if n == 1:
        last = src + 1
        if last == 18:
            last = 0
        p[last] = int(p[last]) + 1
    else:
        q = n // 18
        r = n - q * 18
        if q:
            i = 0
            while i < 18:
                p[i] = int(p[i]) + q
                i += 1
        i = src
        k = 0
        while k < r:
            p[i] = int(p[i]) + 1
            i += 1
            if i == 18:
                i = 0
            k += 1
        last = src + n - 1
        while last >= 18:
            last -= 18
    # Balls sown into a tuzdyk go at once to its owner's kazan (1.5).
    t = int(p[20])
    if t != 255:
        p[18] = int(p[18]) + int(p[t])
        p[t] = 0
    t = int(p[21])
    if t != 255:
        p[19] = int(p[19]) + int(p[t])
        p[t] = 0
    flags = 0
    opp = 1 - side
    row = 0
    if last >= 9:
        row = 1
    if row != side:  # landed on the opponent's side
        c = int(p[last])
        if c > 0:
            if (c & 1) == 0:  # capture (1.3)
                p[18 + side] = int(p[18 + side]) + c
                p[last] = 0
                flags = 1
            elif c == 3 and int(p[20 + side]) == 255:  # tuzdyk (1.4)
                ot = int(p[20 + opp])
                num = last - 9 * opp  # 0..8: the pit's number minus one
                if num != 8 and (ot == 255 or ot - 9 * side != num):
                    p[20 + side] = last
                    p[18 + side] = int(p[18 + side]) + 3
                    p[last] = 0
                    flags = 2
    p[23] = last
    p[24] = flags
    p[22] = opp
    _check_end(p)
    return 0


@micropython.viper
def _check_end(p: ptr8) -> int:
    """Set p[TERM] if the game has ended (1.6); on "no legal move" move the balls
    left on the board into the kazan of the side they lie on."""
    ks = int(p[18])
    kn = int(p[19])
    if ks >= 82 or kn >= 82 or (ks == 81 and kn == 81):
        p[25] = 1
        return 1
    side = int(p[22])
    base = 9 * side
    i = 0
    while i < 9:
        if int(p[base + i]) != 0:
            return 0
        i += 1
    # The side to move has no legal move: the rest goes to the other side's kazan.
    other = 9 * (1 - side)
    s = 0
    i = 0
    while i < 9:
        s += int(p[other + i])
        p[other + i] = 0
        i += 1
    p[19 - side] = int(p[19 - side]) + s
    p[25] = 2
    return 2


@micropython.viper
def _key(p: ptr8) -> int:
    h = int(p[22])
    i = 0
    while i < 22:
        h = ((h & 0x1FFFFFF) * 33 + int(p[i])) ^ (h >> 25)
        i += 1
    return h & 0x3FFFFFFF


@micropython.viper
def _perft_viper(pos, depth: int, stack) -> int:
    """Perft below ``pos`` (a Toguz.pos bytearray), snapshots kept in ``stack``
    (a bytearray of at least depth * SIZE bytes). Every ply is played by _sow."""
    p = ptr8(pos)
    st = ptr8(stack)
    base = 9 * int(p[22])
    o = (depth - 1) * 26
    n = 0
    m = 0
    while m < 9:
        if p[base + m]:
            i = 0
            while i < 26:
                st[o + i] = p[i]
                i += 1
            _sow(pos, m)
            if depth == 1:
                n += 1
            elif not p[25]:
                n += int(_perft_viper(pos, depth - 1, stack))
            i = 0
            while i < 26:
                p[i] = st[o + i]
                i += 1
        m += 1
    return n


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
