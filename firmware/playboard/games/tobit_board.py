"""Tobit's board (RULES.md 2.1, 2.2, 2.13): the points' geometry and Zobrist keys,
made once per board size and shared by its games, and the texts of a position and
of a move; the base of ``playboard.games.tobit.Tobit`` (see it and the package for
the interface), not used alone. Kept apart from the moves so that neither module's
import takes a whole frame on the RP2040 (docs/pico.md).
"""
from array import array

from playboard.compat import const, unload
from playboard.games.common import GameError, TERM_REPETITION
from playboard.games.base import Game

# playboard.games.tobit's, as private consts (inlined: no globals)
_WHITE_MAN = const(1)
_BLACK_MAN = const(2)
_COLOUR = const(3)
_TOBIT = const(4)
_QUIET = const(0)
_CAPTURE = const(1)
_ST_TERM = const(0)
_ST_TURN = const(3)
_MADE = {}  # type: dict  # (L, T) -> TobitBoard.tables()


class TobitBoard(Game):
    """The geometry, keys and texts of a Tobit game: ``Tobit``'s base."""

    # set by the subclass (annotations only: no code, no class attributes)
    name: str
    L: int
    T: int
    n_points: int
    board: bytearray
    st: bytearray
    ply: int
    root_fen: str
    _xy: bytearray
    _pt: bytearray
    nb: bytearray
    _z: array

    @classmethod
    def tables(cls):
        """The board's geometry and Zobrist keys, made at the first call for its size
        (by the cold module ``tobit_tables``, dropped after) and kept (this module's
        ``_MADE``; the app makes them a frame before the game: docs/pico.md): (xy,
        pt, nb, geo, z), read only. xy[2p], xy[2p+1]: (x, y) of point p; pt[y * (L +
        2) + x]: the point at (x, y) (0 none); nb[p*4 + d]: the neighbour of p in
        direction d (0 none); geo: the viper code's view (n + 1, T + 1, then nb and
        xy); z: the keys (array 'i')."""
        key = (cls.L, cls.T)
        t = _MADE.get(key)
        if t is None:
            from playboard.games import tobit_tables
            try:
                t = tobit_tables.make(cls.L, cls.T)
            finally:
                unload("playboard.games.tobit_tables")
            _MADE[key] = t
        return t

    # --- geometry (2.1, 2.2) ---------------------------------------------------
    def xy(self, p):
        """(x, y) of point ``p`` (RULES.md 2.1-2.2)."""
        return self._xy[2 * p], self._xy[2 * p + 1]

    def point(self, x, y):
        """The point at (x, y), or 0 if there is none."""
        w = self.L + 2
        if 0 <= x < w and 0 <= y < self.T + 2:
            return self._pt[y * w + x]
        return 0

    def neighbour(self, p, d):
        """The point next to ``p`` in direction ``d`` (NORTH, EAST, SOUTH, WEST), or 0."""
        return self.nb[p * 4 + d]

    def start_fen(self):
        """The start position's text (2.3)."""
        L, T = self.L, self.T
        w = [p for p in range(1, self.n_points + 1) if self._xy[2 * p + 1] <= 1]
        b = [p for p in range(1, self.n_points + 1) if self._xy[2 * p + 1] >= T]
        return "W:W%s:B%s" % (",".join(map(str, w)), ",".join(map(str, b)))

    # --- position text (2.13) --------------------------------------------------
    def set_fen(self, text):
        """Set up the position of ``text`` (RULES.md 2.13); clears the move stack and
        the repetition history. GameError for a malformed text, a point off the
        board, a point named twice or more pieces a side than the start's 2L + 2
        (RULES.md 2.3: the rules core's buffers hold no more); the game is unchanged then."""
        # (its code is loaded at the first call, and dropped with the game's code by
        # the app: a new game is set up without it, docs/pico.md)
        from playboard.games import tobit_fen
        tobit_fen.set_fen(self, text)

    def fen(self):
        """The position text of RULES.md 2.13."""
        out = ["WB"[self.st[_ST_TURN]]]
        for colour, letter in ((_WHITE_MAN, "W"), (_BLACK_MAN, "B")):
            items = []
            for p in range(1, self.n_points + 1):
                c = self.board[p]
                if c and (c & _COLOUR) == colour:
                    items.append(("K%d" if c & _TOBIT else "%d") % p)
            out.append(letter + ",".join(items))
        return ":".join(out)

    def _full_key(self):
        z = self._z
        k = z[0] if self.st[_ST_TURN] else 0
        for p in range(1, self.n_points + 1):
            c = self.board[p]
            if c:
                k ^= z[4 * p + (c & _COLOUR) - 1 + (2 if c & _TOBIT else 0)]
        return k

    def key(self):
        """The position's 30-bit Zobrist key (pieces and side to move)."""
        st = self.st
        return st[4] | (st[5] << 8) | (st[6] << 16) | (st[7] << 24)

    def _set_key(self, k):
        st = self.st
        st[4], st[5], st[6], st[7] = k & 255, (k >> 8) & 255, (k >> 16) & 255, k >> 24

    # --- notation (2.12) -------------------------------------------------------
    def move_text(self, m):
        """``m`` in the notation of 2.12: ``7-14``, ``8:22``, ``7:21:23:36``."""
        if m[0] == _QUIET:
            return "%d-%d" % (m[1], m[2])
        return ":".join(str(p) for p in m[1:])

    def parse_move(self, text):
        """The legal move that ``text`` names (2.12; an en or em dash is accepted for
        ``-``). Raises GameError saying why it is not legal here."""
        if not isinstance(text, str):
            raise GameError("a Tobit move must be text, got %r" % (text,))
        t = text.strip().replace("\u2013", "-").replace("\u2014", "-")
        kind = _QUIET if "-" in t else _CAPTURE
        parts = t.split("-" if kind == _QUIET else ":")
        try:
            pts = [int(x) for x in parts]
        except ValueError:
            raise GameError("%r is not a Tobit move (like 7-14, 8:22 or 7:21:23:36)" % (text,))
        if len(pts) < 2 or (kind == _QUIET and len(pts) != 2):
            raise GameError("%r is not a Tobit move (like 7-14, 8:22 or 7:21:23:36)" % (text,))
        for p in pts:
            if not 1 <= p <= self.n_points:
                raise GameError("move %r: point %d is off the %s board (1..%d)" % (text, p, self.name, self.n_points))
        if self.st[_ST_TERM]:
            raise GameError("move %r: the game is over (%s)" % (text, TERM_REPETITION))
        m = bytes([kind] + pts)
        legal = self.legal_moves()
        if m in legal:
            return m
        c = self.board[pts[0]]
        side = "White" if self.st[_ST_TURN] == 0 else "Black"
        if not c or (c & _COLOUR) != self.st[_ST_TURN] + 1:
            raise GameError("move %r: no %s piece on point %d" % (text, side, pts[0]))
        if not legal:
            raise GameError("move %r: %s has no legal move (the game is over)" % (text, side))
        if kind == _QUIET and legal[0][0] == _CAPTURE:
            raise GameError("move %r: a capture is compulsory (2.7), e.g. %s" % (text, self.move_text(legal[0])))
        raise GameError("move %r is not legal here" % (text,))
