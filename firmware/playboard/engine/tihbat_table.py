"""Tihbat solved: the table of every position's value, read from flash by seeking.

The table (``data/tihbat.tbl``, written by ``playboard tihbat-solve``; see
``playboard_host.tihbat_solver`` and docs/engine.md) holds, for every board
seen from the side to move - the mover's pits 1, 2 and the opponent's pits
1, 2, an even total of 0..28 counters, 19,160 boards - two bytes:

- ``value``: the counters the side to move will capture from here on, minus
  the opponent's, under best play by both, where a line that can never capture
  again is valued as the equal split of what remains (0); stored as
  ``value // 2 + 14`` (0..28);
- ``rank``: for a position whose value is not 0, the plies until the winning
  side's capture realises it (retrograde distance, 0..254): the side ahead
  must play to a lower rank, or it may go round in circles.

The file starts with an 8-byte header: ``b"TIHB"``, version (1), 0, and the
entry count (little-endian uint16). The board never loads the table: each
look-up is one ``seek`` and a 2-byte ``readinto`` (size: 8 + 2 x 19,160 =
38,328 bytes). Side-to-move symmetry halves the ~38,000 positions.
"""
from playboard.compat import const, exists

MAGIC = b"TIHB"
VERSION = const(1)
HEADER = const(8)
ENTRIES = const(19160)
TOTAL = const(28)

# offset of the boards with total s (even): the number of boards with a smaller even total
_OFFSETS = []


def _c3(n):
    return n * (n - 1) * (n - 2) // 6 if n >= 3 else 0


def _c2(n):
    return n * (n - 1) // 2 if n >= 2 else 0


def _offsets():
    if not _OFFSETS:
        o = 0
        for s in range(0, TOTAL + 1, 2):
            _OFFSETS.append(o)
            o += _c3(s + 3)
    return _OFFSETS


def index(a, b, c, d):
    """Entry number of the board (mover's pit 1, pit 2, opponent's pit 1, pit 2).

    ValueError if the total is odd or above 28 or a count is negative."""
    s = a + b + c + d
    if a < 0 or b < 0 or c < 0 or d < 0 or s > TOTAL or (s & 1):
        raise ValueError("not a Tihbat board: %r" % ((a, b, c, d),))
    r = s - a
    return (_offsets()[s >> 1] + (_c3(s + 3) - _c3(r + 3))
            + (_c2(r + 2) - _c2(r - b + 2)) + c)


def _default_path():
    try:
        f = __file__
    except NameError:  # frozen module: no file name
        return "/data/tihbat.tbl"
    base = f.replace("\\", "/")
    dirs = []
    for _ in range(3):  # .../firmware/playboard/engine/tihbat_table.py -> .../firmware
        i = base.rfind("/")
        base = base[:i] if i > 0 else "."
        dirs.append(base)
    path = base + "/data/tihbat.tbl"
    packed = dirs[1] + "/data/tihbat.tbl"  # .../playboard/data: inside an installed wheel
    if not exists(path) and exists(packed):
        return packed
    return path


PATH = _default_path()
"""Where the table lives: ``data/tihbat.tbl`` beside the ``playboard`` package."""


class Table:
    """The open table file; ``lookup`` seeks, nothing is loaded. Where the filesystem
    has no file at ``path``, the frozen image's copy (bytes in flash, read in place).

    Raises OSError if the file is missing and ValueError if its header is wrong."""

    def __init__(self, path=None):
        self.path = path or PATH
        self._rom = None
        try:
            self._f = open(self.path, "rb")
            self._buf = bytearray(HEADER)
            self._f.readinto(self._buf)
            b = self._buf
        except OSError:
            from playboard.compat import frozen_file
            self._rom = b = frozen_file(self.path)
            self._f = None
            if b is None:
                raise
        if bytes(b[0:4]) != MAGIC or b[4] != VERSION or (b[6] | (b[7] << 8)) != ENTRIES:
            self.close()
            raise ValueError("%s is not a Tihbat table (version %d, %d entries)" % (self.path, VERSION, ENTRIES))
        self._two = bytearray(2)

    def lookup(self, a, b, c, d):
        """(value, rank) of the board from the mover's side (see the module text)."""
        i = HEADER + 2 * index(a, b, c, d)
        if self._rom is not None:
            return (self._rom[i] - 14) * 2, self._rom[i + 1]
        self._f.seek(i)
        self._f.readinto(self._two)
        return (self._two[0] - 14) * 2, self._two[1]

    def close(self):
        if self._f is not None:
            self._f.close()


_table = None


def table():
    """The shared open Table (opened on first use; OSError if the file is missing)."""
    global _table
    if _table is None:
        _table = Table()
    return _table


def board_of(pos, turn):
    """The board (a, b, c, d) of a Tihbat ``g.pos`` seen from side ``turn``."""
    if turn:
        return pos[2], pos[3], pos[0], pos[1]
    return pos[0], pos[1], pos[2], pos[3]


def value(game):
    """(value, rank) of ``game``'s position for its side to move (see the module text)."""
    a, b, c, d = board_of(game.pos, game.turn)
    return table().lookup(a, b, c, d)


def best_move(game, tab=None):
    """The move the table plays in ``game`` (a Tihbat game, not over), or None
    if the game is over.

    Each legal move is pushed and judged by the final margin it leads to for the
    mover: the captures so far plus, if the game goes on, minus the table's
    value for the opponent; a move that repeats a position ends the game
    (RULES.md 3.5) and is judged by the split, which adds nothing. Among equal
    margins: when ahead of the captures so far, a capture first, then the lowest
    rank (the shortest way to realise the lead); when behind, the highest rank.
    ``game`` is left unchanged. OSError if the table file is missing.
    """
    tab = tab or table()
    moves = game.legal_moves()
    if not moves:
        return None
    pos = game.pos
    me = game.turn
    now = pos[4 + me] - pos[5 - me]
    best = None
    best_key = None
    for m in moves:
        game.push(m)
        gain = (pos[4 + me] - pos[5 - me])
        captured = gain != now
        if game.is_game_over():
            margin = gain  # the rest is split equally (3.5)
            rank = 0
        else:
            v, rank = tab.lookup(*board_of(pos, game.turn))
            margin = gain - v
        game.pop()
        if margin > now:
            key = (margin, 1 if captured else 0, -rank)
        else:
            key = (margin, 0, rank)
        if best_key is None or key > best_key:
            best_key = key
            best = m
    return best
