"""Tobit: Khakas draughts on the lines of an L x T grid (RULES.md section 2).

``Tobit`` is the standard board (L=5, T=4, 38 points), ``Tobit4`` the 4 x 4
variant (32 points). The board is a ``bytearray`` indexed by point number
(RULES.md 2.2; index 0 unused) holding EMPTY, WHITE_MAN, BLACK_MAN,
WHITE_TOBIT, BLACK_TOBIT. ``push`` saves the board into a preallocated undo
stack; ``pop`` copies it back.

Moves are ``bytes`` in the shape of their notation (2.12): ``bytes((0, a, b))``
for the quiet move ``a-b``, ``bytes((1, p0, p1, ..., pn))`` for the capture
``p0:p1:...:pn`` (start, every point where the direction changes, end). Two
capture paths with the same notation are one move (2.12), and the pieces a move
takes are found by walking its notation path (2.8).

Undo and repetition history (2.11): each ply keeps a snapshot of the board, its
30-bit Zobrist key and the move played (63 bytes on the standard board), in
chunks of 16 plies (about 1 KB each): 64 plies are allocated up front (4 KB)
and a chunk is added each time the game, or a search below it, first reaches 16
plies more (small blocks, which a fragmented heap still has; a chunk is never
freed, so a search allocates only when it goes deeper than any before it). The moves themselves are
kept as bytes in the snapshots, so a long game leaves no trail of small objects
on the heap. A push compares the keys of the positions since the last
irreversible move (a capture or a man's forward step) with the same side to
move, and confirms a match on the saved boards, so a hash collision can never
end a game.
"""
from playboard.compat import const, TWINS
from playboard.games.common import TERM_NO_MOVE, TERM_REPETITION
from playboard.games.bufops import copy as _copy, same as _same
from playboard.games.tobit_board import TobitBoard
from playboard.games.tobit_native import _push, _scan, _unmake  # noqa: F401 (native: loaded once)

EMPTY = const(0)
WHITE_MAN = const(1)
BLACK_MAN = const(2)
WHITE_TOBIT = const(5)
BLACK_TOBIT = const(6)
COLOUR = const(3)
TOBIT = const(4)

# Directions: North (towards Black, y+1), East (x+1), South, West. OPPOSITE = (d + 2) & 3.
NORTH = const(0)
EAST = const(1)
SOUTH = const(2)
WEST = const(3)

QUIET = const(0)
CAPTURE = const(1)

# The game state besides the board, in ``Tobit.st`` (a bytearray):
ST_TERM = const(0)  # 1 after a threefold repetition
ST_CLOCK = const(1)  # plies since the last irreversible move, 2 bytes little-endian
ST_TURN = const(3)  # side to move: 0 White, 1 Black
ST_KEY = const(4)  # the position's Zobrist key, 4 bytes little-endian (below 2**30)
ST_MLEN = const(8)  # scratch: length of the move being pushed
ST_CACHED = const(9)  # 1 while ``_cache`` holds this position's moves (``legal_moves``)
ST_SIZE = const(10)
# Each ply's undo snapshot: the board (n + 1 bytes), the state, then the move played.
_X_MOVE = const(10)  # the move's bytes follow the state (at most _MOVE_MAX)
_MOVE_MAX = const(16)
_EXTRA = const(26)
_CHUNK = const(16)  # plies per undo chunk: small blocks, so a long game never
# needs one large free block on a fragmented heap


# The viper code; under CPython the host tools' twins run as _push, _scan and _unmake
# (playboard_host.twins.install, through compat.TWINS), and the tests compare the two.
_push_viper, _scan_viper, _unmake_viper = _push, _scan, _unmake
_twins = TWINS.get("tobit")  # filled by playboard_host.twins.install (CPython only)
if _twins:
    _push, _scan, _unmake = _twins["_push"], _twins["_scan"], _twins["_unmake"]


class Tobit(TobitBoard):
    """A game of Tobit on the standard 5 x 4 board (RULES.md 2). See
    ``playboard.games`` for the interface; ``Tobit4`` is the 4 x 4 variant.

    ``board`` (read only) holds the pieces by point number; ``turn`` is 0 for
    White, 1 for Black."""

    name = "tobit"
    L = 5
    T = 4
    ply = 0

    def __init__(self, fen=None, capacity=64):
        L, T = self.L, self.T
        n = L * T + 2 * L + 2 * T
        self.n_points = n
        # the geometry and the keys: made once per board size, shared (read only)
        self._xy, self._pt, self.nb, self._geo, self._z = self.tables()
        self.board = bytearray(n + 1)
        self.st = bytearray(ST_SIZE)
        # at most 2L + 2 pieces a side, each with at most L + T + 2 quiet moves
        self._scanbuf = bytearray(2 * (2 * L + 2) * (L + T + 2))
        self._snap = n + 1 + _EXTRA
        self._chunks = []  # type: list
        while len(self._chunks) * _CHUNK < capacity:
            self._chunks.append(bytearray(self._snap * _CHUNK))
        self.ply = 0
        self._cache = []  # type: list
        if fen is not None:
            self.set_fen(fen)
            return
        # the start position (2.3) as set_fen sets it, without its text to parse (on the
        # RP2040 half of a Tobit game's making: docs/pico.md)
        xy = self._xy
        b = self.board
        for p in range(1, n + 1):
            y = xy[2 * p + 1]
            if y <= 1:
                b[p] = WHITE_MAN
            elif y >= T:
                b[p] = BLACK_MAN
        self._set_key(self._full_key())
        self.root_fen = self.fen()

    @property
    def turn(self):
        """0 when White is to move, 1 for Black."""
        return self.st[ST_TURN]

    @property
    def _term(self):
        return self.st[ST_TERM]

    # --- move generation (2.4-2.9) ---------------------------------------------
    def legal_moves(self):
        """The legal moves (captures only, when any exists: 2.7); [] once the game is over."""
        if self._term:
            return []
        st = self.st
        if st[ST_CACHED]:
            return list(self._cache)
        moves = self._generate()
        self._cache = moves
        st[ST_CACHED] = 1
        return list(moves)

    def quiet(self):
        """True when the side to move has a legal move and none is a capture (2.7):
        one scan of the board, no move made (the engine's horizon)."""
        if self._term:
            return False
        n = _scan(self.board, self._geo, self.st[ST_TURN] + 1, self._scanbuf)
        return 0 < n < 256

    def _generate(self):
        buf = self._scanbuf
        n = _scan(self.board, self._geo, self.st[ST_TURN] + 1, buf)
        if n < 256:
            return [bytes((QUIET, buf[2 * i], buf[2 * i + 1])) for i in range(n)]
        return self._captures(buf, n - 256)

    def _captures(self, buf, n):
        """The capture moves of the pieces on the points buf[0:n] (from ``_scan``)."""
        b = self.board
        caps = []  # type: list
        seen = {}  # type: dict
        for i in range(n):
            s = buf[i]
            c = b[s]
            b[s] = EMPTY  # the starting point counts as free once left (2.8)
            self._jumps(s, -1, c & TOBIT, [s], caps, seen)
            b[s] = c
        return caps

    def _jump_targets(self, p, d, tobit):
        """For a jump from ``p`` in direction ``d``: (the enemy point jumped, the list of
        free landing points beyond it), or (0, None) if no jump exists there."""
        b = self.board
        nb = self.nb
        enemy = 2 - self.st[ST_TURN]  # colour code of the opponent
        a = nb[p * 4 + d]
        if tobit:
            while a and b[a] == EMPTY:
                a = nb[a * 4 + d]
        if not a or (b[a] & COLOUR) != enemy:
            return 0, None
        t = nb[a * 4 + d]
        if not t or b[t] != EMPTY:
            return 0, None
        if not tobit:
            return a, [t]
        lands = []
        while t and b[t] == EMPTY:
            lands.append(t)
            t = nb[t * 4 + d]
        return a, lands

    def _can_jump(self, p, last_dir, tobit):
        back = (last_dir + 2) & 3
        for d in range(4):
            if d != back and self._jump_targets(p, d, tobit)[0]:
                return True
        return False

    def _jumps(self, p, last_dir, tobit, path, out, seen):
        """Extend the capture sequence at ``p`` (arrived going ``last_dir``); append
        each complete sequence's move to ``out``. Returns True if a jump exists.
        Depth is bounded by the number of enemy pieces (at most 2L + 2)."""
        b = self.board
        found = False
        back = (last_dir + 2) & 3 if last_dir >= 0 else -1
        for d in range(4):
            if d == back:
                continue
            a, lands = self._jump_targets(p, d, tobit)
            if not a:
                continue
            found = True
            piece = b[a]
            b[a] = EMPTY  # a jumped piece leaves the board at once (2.8)
            if tobit:
                cont = [t for t in lands if self._can_jump(t, d, True)]
                if cont:
                    lands = cont
            for t in lands:
                if d == last_dir:
                    npath = path[:-1] + [t]
                else:
                    npath = path + [t]
                if not self._jumps(t, d, tobit, npath, out, seen):
                    m = bytes([CAPTURE] + npath)
                    if m not in seen:
                        seen[m] = 1
                        out.append(m)
            b[a] = piece
        return found

    def captured_points(self, m):
        """The points whose pieces move ``m`` takes (in jump order); [] for a quiet move."""
        if m[0] != CAPTURE:
            return []
        b = self.board
        nb = self.nb
        enemy = 2 - self.st[ST_TURN]
        out = []
        for i in range(1, len(m) - 1):
            s, e = m[i], m[i + 1]
            d = self._direction(s, e)
            p = s
            while p != e:
                p = nb[p * 4 + d]
                if b[p] and (b[p] & COLOUR) == enemy and p not in out:
                    out.append(p)
        return out

    def _direction(self, s, e):
        sx, sy = self.xy(s)
        ex, ey = self.xy(e)
        if sx == ex:
            return NORTH if ey > sy else SOUTH
        return EAST if ex > sx else WEST

    # --- make / unmake ---------------------------------------------------------
    def push(self, m):
        """Play move ``m`` (one of ``legal_moves()``) in place. No legality check:
        use ``parse_move`` for untrusted input."""
        ply = self.ply
        chunks = self._chunks
        try:
            u = chunks[ply >> 4]
        except IndexError:  # deeper than ever: a chunk more
            u = bytearray(self._snap * _CHUNK)
            chunks.append(u)
        st = self.st
        st[ST_MLEN] = len(m)
        st[ST_CACHED] = 0  # (saved so: an undo back to here finds no cache either)
        clock = _push(self.board, m, st, u, (ply & 15) * self._snap, self._geo, self._z)
        ply += 1
        self.ply = ply
        if clock >= 8:  # a third occurrence needs at least 8 reversible plies
            self._check_repetition(ply, clock)

    def _check_repetition(self, ply, clock):
        # threefold repetition (2.11): the same position, same side to move
        b = self.board
        n1 = self.n_points + 1
        key = self.key()
        seen = 0
        i = ply - 4
        stop = ply - clock
        while i >= stop and i >= 0:
            u = self._chunks[i >> 4]
            o = (i & 15) * self._snap
            k = o + n1 + ST_KEY
            if (u[k] | (u[k + 1] << 8) | (u[k + 2] << 16) | (u[k + 3] << 24)) == key and _same(u, o, b, 0, n1):
                seen += 1
                if seen == 2:
                    self.st[ST_TERM] = 1
                    return
            i -= 2

    def pop(self):
        """Take back the last move and return it (IndexError if there is none)."""
        if self.ply == 0:
            raise IndexError("pop from an empty move stack")
        m = self._move_at(self.ply - 1)
        self.undo()
        return m

    def undo(self):
        """Take back the last move without making its bytes (the engine's pop; no
        check: the caller knows a move was played)."""
        ply = self.ply - 1
        _unmake(self.board, self.st, self._chunks[ply >> 4], (ply & 15) * self._snap, self.n_points + 1)
        self.ply = ply

    def _move_at(self, ply):
        u = self._chunks[ply >> 4]
        o = (ply & 15) * self._snap + self.n_points + 1
        return bytes(u[o + _X_MOVE:o + _X_MOVE + u[o + ST_MLEN]])

    def peek(self):
        """The last move played (IndexError if none)."""
        if self.ply == 0:
            raise IndexError("no move played")
        return self._move_at(self.ply - 1)

    def move_stack(self):
        """A new list of the moves played since the set-up position."""
        return [self._move_at(i) for i in range(self.ply)]

    # --- result (2.11) -----------------------------------------------------------
    @property
    def termination(self):
        """None while the game runs; TERM_REPETITION after a threefold repetition;
        TERM_NO_MOVE when the side to move has no piece or no legal move (2.11)."""
        if self._term:
            return TERM_REPETITION
        if not self.legal_moves():
            return TERM_NO_MOVE
        return None

    def winner(self):
        """0 White, 1 Black, -1 a draw (repetition), None while the game runs."""
        t = self.termination
        if t is None:
            return None
        if t == TERM_REPETITION:
            return -1
        return 1 - self.st[ST_TURN]  # the side to move has lost


class Tobit4(Tobit):
    """Tobit on the 4 x 4 variant board (RULES.md 2.1, 2.3): 32 points, 10 men a side."""

    name = "tobit4"
    L = 4
    T = 4
