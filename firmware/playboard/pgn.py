"""PGN-style game records: tag pairs and numbered movetext (DESIGN.md, RULES.md 1.7, 2.12, 3.6).

A record looks like::

    [Game "toguz"]
    [Result "1-0"]

    1. 76 98 2. 66 87 1-0

``read_games(lines)`` yields ``Record`` objects from any iterable of text lines
(a file, a list); ``format_game(...)`` writes one. ``replay(record)`` plays a
record through its rules core. Errors raise ``RecordError`` with the game
number, the line and, for moves, the ply. Runs on the board and on the PC.
"""
from playboard.games.common import GameError, RESULT_NONE
from playboard.games.registry import new_game

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
# The tags written first, in this order (the PGN "seven tag roster", then ours).
TAG_ORDER = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Game", "FEN")


class RecordError(ValueError):
    """A record that can't be read or replayed. ``game`` is the 1-based game
    number in its file, ``line`` the line, ``ply`` the 1-based ply (or None)."""

    def __init__(self, message, game=None, line=None, ply=None):
        where = []
        if game is not None:
            where.append("game %d" % game)
        if line is not None:
            where.append("line %d" % line)
        if ply is not None:
            where.append("ply %d" % ply)
        super().__init__((", ".join(where) + ": " if where else "") + message)
        self.reason = message
        self.game = game
        self.line = line
        self.ply = ply


class Record:
    """One game record: ``tags`` (dict), ``tag_order`` (list of names as read),
    ``moves`` (list of move texts), ``move_lines`` (line of each move), ``result``
    (the movetext's closing token, or None), ``number`` (1-based in its file),
    ``line`` (line of its first tag)."""

    def __init__(self, number=1, line=1):
        self.tags = {}
        self.tag_order = []
        self.moves = []
        self.move_lines = []
        self.result = None
        self.number = number
        self.line = line

    @property
    def game_name(self):
        return self.tags.get("Game")


def _parse_tag(line, number, lineno):
    # [Name "value"] with \" and \\ escapes
    if not line.endswith("]"):
        raise RecordError("tag line does not end with ']': %r" % line, number, lineno)
    body = line[1:-1].strip()
    sp = body.find(" ")
    if sp <= 0:
        raise RecordError("malformed tag %r (expected [Name \"value\"])" % line, number, lineno)
    name = body[:sp]
    val = body[sp + 1:].strip()
    if len(val) < 2 or val[0] != '"' or val[-1] != '"':
        raise RecordError("tag %s: value must be in double quotes: %r" % (name, line), number, lineno)
    val = val[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return name, val


def _is_move_number(tok):
    # "12." or "12..." (Black to move first)
    i = 0
    while i < len(tok) and "0" <= tok[i] <= "9":
        i += 1
    return i > 0 and i < len(tok) and tok[i:].strip(".") == ""


def read_games(lines):
    """Yield each ``Record`` of a PGN-style text, given as an iterable of lines.

    Handles tags, numbered movetext (``1.``, ``1...`` and ``1.76`` glued), results,
    ``{comments}`` and ``;`` line comments. Raises RecordError for a malformed tag,
    an unterminated comment or movetext without tags."""
    rec = None
    number = 0
    in_moves = False
    in_comment = False
    lineno = 0
    for raw in lines:
        lineno += 1
        line = raw.strip()
        if lineno == 1 and line.startswith("\ufeff"):
            line = line[1:]
        if in_comment:
            end = line.find("}")
            if end < 0:
                continue
            line = line[end + 1:].strip()
            in_comment = False
        if not line:
            continue
        if line.startswith("[") and not in_comment:
            if rec is None or in_moves:
                if rec is not None:
                    yield rec
                number += 1
                rec = Record(number, lineno)
                in_moves = False
            name, val = _parse_tag(line, number, lineno)
            if name not in rec.tags:
                rec.tag_order.append(name)
            rec.tags[name] = val
            continue
        if line.startswith("%"):
            continue
        if rec is None:
            raise RecordError("movetext before any tag (not a game record?): %r" % line[:60], 1, lineno)
        in_moves = True
        sc = line.find(";")
        if sc >= 0:
            line = line[:sc]
        while "{" in line:
            a = line.find("{")
            b = line.find("}", a)
            if b < 0:
                line = line[:a]
                in_comment = True
                break
            line = line[:a] + " " + line[b + 1:]
        for tok in line.split():
            if tok in RESULTS:
                if rec.result is not None:
                    raise RecordError("two results in one movetext", number, lineno)
                rec.result = tok
                continue
            if rec.result is not None:
                raise RecordError("move %r after the result %s" % (tok, rec.result), number, lineno)
            if _is_move_number(tok):
                continue
            # "12.76": a number glued to its move
            dot = tok.rfind(".")
            if dot > 0 and _is_move_number(tok[:dot + 1]):
                tok = tok[dot + 1:]
                if not tok:
                    continue
            rec.moves.append(tok)
            rec.move_lines.append(lineno)
    if in_comment:
        raise RecordError("unterminated {comment}", number, lineno)
    if rec is not None:
        yield rec


def _quote(v):
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_game(tags, moves, result=None, first_turn=0, first_move_no=1, width=79):
    """The text of one record, ending with a blank line.

    ``tags``: dict (the usual tags first in TAG_ORDER, then the others in their
    order); ``moves``: move texts; ``result``: the closing token (default: the
    Result tag, else ``*``); ``first_turn``/``first_move_no``: who moves first
    and its move number (for a game set up from a position: ``N...`` numbering)."""
    out = []
    for name in TAG_ORDER:
        if name in tags:
            out.append("[%s %s]" % (name, _quote(tags[name])))
    for name in tags:
        if name not in TAG_ORDER:
            out.append("[%s %s]" % (name, _quote(tags[name])))
    out.append("")
    if result is None:
        result = tags.get("Result", RESULT_NONE)
    toks = []
    turn = first_turn
    no = first_move_no
    for i, m in enumerate(moves):
        # a move number stays on the line of its move
        if turn == 0:
            toks.append("%d. %s" % (no, m))
        elif i == 0:
            toks.append("%d... %s" % (no, m))
        else:
            toks.append(m)
        if turn == 1:
            no += 1
        turn ^= 1
    toks.append(result)
    line = ""
    lines = []
    for t in toks:
        if line and len(line) + 1 + len(t) > width:
            lines.append(line)
            line = t
        else:
            line = line + " " + t if line else t
    lines.append(line)
    out.extend(lines)
    out.append("")
    return "\n".join(out) + "\n"


def game_from_record(rec):
    """A new rules-core game at the record's start (its ``FEN`` tag or the start position)."""
    name = rec.tags.get("Game")
    if not name:
        raise RecordError("no Game tag (expected one of toguz, tobit, tobit4, tihbat)", rec.number, rec.line)
    try:
        return new_game(name, rec.tags.get("FEN"))
    except GameError as e:
        raise RecordError(str(e), rec.number, rec.line)


def replay(rec):
    """Play every move of ``rec`` through its rules core; return ``(game, result)``.

    ``result`` is the rules' result where the rules ended the game, else the
    record's Result tag (``*`` if none). Raises RecordError naming the game,
    line and ply for an illegal or mis-noted move, a move after the game ended,
    or a Result tag that contradicts the rules' result."""
    g = game_from_record(rec)
    ply = 0
    for text in rec.moves:
        ply += 1
        if g.is_game_over():
            raise RecordError("move %r after the game ended (%s, %s)" % (text, g.termination, g.result()),
                              rec.number, rec.move_lines[ply - 1], ply)
        try:
            g.push_text(text)
        except GameError as e:
            raise RecordError(str(e), rec.number, rec.move_lines[ply - 1], ply)
    if rec.result is None:
        last = rec.move_lines[-1] if rec.move_lines else rec.line
        raise RecordError("the movetext has no result (1-0, 0-1, 1/2-1/2 or *) at its end: "
                          "a truncated record?", rec.number, last, len(rec.moves) or None)
    tag = rec.tags.get("Result", rec.result or RESULT_NONE)
    if g.is_game_over():
        res = g.result()
        if tag != res and tag != RESULT_NONE:
            raise RecordError("Result tag %s contradicts the rules' result %s (%s)" % (tag, res, g.termination),
                              rec.number, rec.line)
        return g, res
    if tag not in RESULTS:
        raise RecordError("Result tag %r is not one of %s" % (tag, " ".join(RESULTS)), rec.number, rec.line)
    return g, tag
