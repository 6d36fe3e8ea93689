"""Toguz Kumalak games to and from PlayStrategy (playstrategy.org, the open
``strategygames`` library's Togyzkumalak variant).

- The position text is the same on both sides: RULES.md 1.8 is PlayStrategy's FEN
  (North pits 9..1 / South pits 1..9, kazans, side to move, move number).
- A move is written as strategygames writes it in its PGN (``format/pgn/Dumper``:
  the move's UCI): the pit played and the pit where the last ball lands, each as a
  square key. South's pits 1..9 are ``a1``..``i1``; North's pits 1..9 are ``i2``..``a2``
  (strategygames ``Pos``: index 0..17 counter-clockwise from South's pit 1, the
  second rank written backwards), so ``g1d2`` is our ``76`` (South's pit 7, the last
  ball in North's pit 6) and ``a2h1`` our ``98``. Tuzdyks are not marked: the
  rules core finds them again.
- A PGN file: the tags (``Variant "Togyzkumalak"``, ``FEN`` and ``SetUp "1"`` for a
  set-up position), then ``1. g1d2 a2h1 2. ...`` and the result.

:func:`to_pgn` writes one library game; :func:`read_pgn` reads PlayStrategy's text
back into games for the library (``playboard import-games --format playstrategy``).
"""
import re
import zlib

from playboard import pgn
from playboard.games.common import GameError
from playboard.games.registry import new_game

VARIANT = "Togyzkumalak"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_KEY = re.compile(r"^([a-i])([12])([a-i])([12])$")


def cell_key(cell):
    """The strategygames square key of cell ``cell`` (0..8 South's pits 1..9, 9..17
    North's pits 1..9)."""
    if not 0 <= cell < 18:
        raise ValueError("no pit %r" % (cell,))
    if cell < 9:
        return "abcdefghi"[cell] + "1"
    return "ihgfedcba"[cell - 9] + "2"


def key_cell(key):
    """The cell of square key ``key`` ("a1".."i1", "a2".."i2"); ValueError otherwise."""
    if len(key) != 2 or key[0] not in "abcdefghi" or key[1] not in "12":
        raise ValueError("%r is not a Togyzkumalak square (a1-i1, a2-i2)" % (key,))
    f = "abcdefghi".index(key[0])
    return f if key[1] == "1" else 17 - f


def move_uci(g, m):
    """The PlayStrategy text of move ``m`` (a pit 0..8 of the side to move) in Toguz
    game ``g`` (before it is played): origin key + landing key (RULES.md 1.2: the
    first ball back into the pit, a single ball to the next pit)."""
    start = g.turn * 9 + m
    n = g.pos[start]
    if n == 0:
        raise GameError("pit %d is empty" % (m + 1))
    land = (start + (n - 1 if n > 1 else 1)) % 18
    return cell_key(start) + cell_key(land)


def uci_move(g, text):
    """The move of Toguz game ``g`` that PlayStrategy text ``text`` names (its pit
    0..8); GameError when it is not a legal move here or lands elsewhere."""
    t = text.strip().rstrip("+")
    if not _KEY.match(t):
        raise GameError("%r is not a PlayStrategy Togyzkumalak move (such as g1d2)" % (text,))
    orig = key_cell(t[:2])
    if orig // 9 != g.turn:
        raise GameError("%s: pit %s is not %s's" % (text, t[:2], ("South", "North")[g.turn]))
    m = orig % 9
    if m not in g.legal_moves():
        raise GameError("%s: not a legal move here" % text)
    if move_uci(g, m) != t:
        raise GameError("%s: the last ball lands on %s, not %s" % (text, move_uci(g, m)[2:], t[2:]))
    return m


def to_pgn(game):
    """One library game (``playboard_host.library.Game``, Toguz Kumalak) as PlayStrategy's
    PGN text (ends with a blank line). ValueError for another game; GameError for
    moves the rules refuse."""
    if game.game != "toguz":
        raise ValueError("PlayStrategy's Togyzkumalak is Toguz Kumalak only, not %s" % game.game)
    g = new_game("toguz", game.fen)
    first_turn, first_no = g.turn, g.fullmove
    ucis = []
    for text in game.moves:
        m = g.parse_move(text)
        ucis.append(move_uci(g, m))
        g.push(m)
    tags = {"Event": game.tags.get("Event", "Playboard game"), "Site": game.tags.get("Site", "Playboard"),
            "Date": game.date, "White": game.tags.get("White", "South"), "Black": game.tags.get("Black", "North"),
            "Result": game.result, "Variant": VARIANT}
    if "Round" in game.tags:  # a tournament's game (its pairing's round: "2.3" round 2, table 3)
        tags["Round"] = game.tags["Round"]
    if game.fen:
        tags["FEN"] = game.fen
        tags["SetUp"] = "1"
    if game.termination:
        tags["Termination"] = game.termination
    tags["Board"] = game.board
    tags["BoardGame"] = "%d" % game.board_game  # (import-games knows the game again by these)
    return pgn.format_game(tags, ucis, game.result, first_turn, first_no)


class Imported:
    """A game read from PlayStrategy's PGN, shaped as the library stores a board's
    record (``Library.add``): ``name``, ``uid``, ``id``, ``result``, ``termination``,
    ``tags``, ``fen``, ``moves`` (our notation)."""

    def __init__(self, tags, moves, result, fen, text):
        self.name = "toguz"
        self.tags = tags
        self.moves = moves
        self.result = result
        self.fen = fen
        self.termination = tags.get("Termination")
        self.id = 0
        self.uid = "ps-%08x" % zlib.crc32(text.encode("utf-8"))


def read_pgn(lines, reader=None):
    """The games of PlayStrategy PGN text ``lines`` (an iterable of lines): a list of
    (Imported or None, why not or None, game number in the file), one per game; a game
    of another variant, one whose moves the rules refuse, or one that is not PGN (a
    broken tag line, a file cut short in it) is (None, one line, n): the others are
    read all the same. A game read whole but for a tag line missing its ``[`` (read as
    its tag all the same, :func:`_game_texts`) is (Imported, the line saying so, n).
    ``pgn.RecordError`` when no game of the text can be read.
    ``reader``: each ``pgn.Record`` to that triple (default :func:`read_game`)."""
    reader = reader or read_game
    out = []
    first = None
    readable = False
    for n, start, chunk, mended in _game_texts(lines):
        try:
            recs = list(pgn.read_games(chunk))
        except pgn.RecordError as e:  # (its line in the file, not in its own text)
            line = None if e.line is None else e.line + start - 1
            first = first or pgn.RecordError(e.reason, n, line)
            out.append((None, "game %d: %s" % (n, pgn.RecordError(e.reason, None, line)), n))
            continue
        for rec in recs:  # (one: the chunk is one game's text)
            readable = True
            rec.number, rec.line = n, rec.line + start - 1
            rec.move_lines = [k + start - 1 for k in rec.move_lines]
            got = reader(rec)
            if got[0] is not None and mended:
                got = (got[0], "game %d: %s" % (n, "; ".join(
                    "line %d: tag line without its '[': %r, read as tag %s" % m for m in mended)), got[2])
            out.append(got)
    if not readable and first is not None:
        raise first
    return out


# a tag line that lost its "[" (an editor, a copy): Name "value"]
_TAG_WITHOUT_BRACKET = re.compile(r'^([A-Za-z0-9_]+)\s+"(?:[^"\\]|\\.)*"\s*\]$')


def _game_texts(lines):
    """Split PGN text ``lines`` into each game's own lines, as ``pgn.read_games`` reads
    them (a tag line after movetext begins the next game; a ``{comment}`` may run over
    lines): yields (game number from 1, the line number its text begins on, its lines,
    [(line number, line, tag name)] of its tag lines found without their ``[``). Such a
    line (``Name "value"]``, which no movetext is) is given its ``[`` back and read as
    the tag it is, of the same game: it split the game in two (its tags before it a
    game of bad moves, the rest a game without them)."""
    chunk, start, n, mended = [], 1, 0, []
    in_moves = in_comment = False
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]
        m = None if in_comment else _TAG_WITHOUT_BRACKET.match(line)
        if m:
            line = raw = "[" + line
        if not in_comment and line.startswith("[") and in_moves:
            n += 1
            yield n, start, chunk, mended
            chunk, start, in_moves, mended = [], lineno, False, []
        if m:
            mended.append((lineno, line[1:], m.group(1)))
        chunk.append(raw)
        if in_comment or (line and not line.startswith(("[", "%"))):
            in_moves = True
            for c in line.split(";", 1)[0] if not in_comment else line:
                if c == "{":
                    in_comment = True
                elif c == "}":
                    in_comment = False
    if chunk:
        yield n + 1, start, chunk, mended


def read_game(rec):
    """One ``pgn.Record`` of PlayStrategy's PGN as (Imported, None, n), or (None, why
    not in one line, n): another variant, a move the rules refuse."""
    variant = rec.tags.get("Variant", VARIANT)
    if variant.lower() not in ("togyzkumalak", "toguz kumalak", "toguz"):
        return None, "game %d: variant %s, not Togyzkumalak" % (rec.number, variant), rec.number
    fen = rec.tags.get("FEN")
    try:
        g = new_game("toguz", fen)
        moves = []
        for k, text in enumerate(rec.moves):
            try:
                m = uci_move(g, text)
            except GameError as e:
                raise GameError("ply %d (line %d): %s" % (k + 1, rec.move_lines[k], e))
            moves.append(g.move_text(m))
            g.push(m)
    except GameError as e:
        return None, "game %d: %s" % (rec.number, e), rec.number
    result = rec.tags.get("Result") or rec.result or "*"
    if result not in RESULTS:
        result = "*"
    tags = dict(rec.tags)
    tags["Game"] = "toguz"
    text = "\n".join("%s=%s" % kv for kv in sorted(rec.tags.items())) + "\n" + " ".join(rec.moves)
    set_up = fen if fen and new_game("toguz", fen).fen() != new_game("toguz").fen() else None
    return Imported(tags, moves, result, set_up, text), None, rec.number
