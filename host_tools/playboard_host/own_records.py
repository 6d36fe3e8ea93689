"""Playboard's own PGN-style records read back into a library (`playboard import-games`):
what `playboard export` or `tournament pgn` wrote from another library, for any of the
four games. A game synced into the wrong library (the board then forgets it: it was
acknowledged) is moved this way: exported there, imported here.

A record is ours when it has a ``Game`` tag and no ``Variant`` tag (PlayStrategy's
PGN has ``Variant`` and no ``Game``: ``playstrategy.read_game``); :func:`read_any`
reads a file holding either, game by game.
"""
import zlib

from playboard import pgn
from playboard_host import playstrategy


class OwnRecord:
    """A game read from Playboard's PGN-style text, shaped as the library stores a
    board's record (``Library.add``): ``name`` (toguz, tobit, tobit4, tihbat), ``uid``,
    ``id``, ``result``, ``termination``, ``tags``, ``fen`` (the ``FEN`` tag or None),
    ``moves`` (texts in our notation, each replayed by the rules)."""

    def __init__(self, rec, result):
        self.name = rec.tags["Game"]
        self.tags = dict(rec.tags)
        self.moves = list(rec.moves)
        self.result = result
        self.fen = rec.tags.get("FEN")
        self.termination = rec.tags.get("Termination")
        self.id = 0
        text = "\n".join("%s=%s" % kv for kv in sorted(rec.tags.items())) + "\n" + " ".join(rec.moves)
        self.uid = "pgn-%08x" % zlib.crc32(text.encode("utf-8"))


def is_own(rec):
    """True if ``pgn.Record`` ``rec`` is Playboard's own (a Game tag, no Variant)."""
    return "Game" in rec.tags and "Variant" not in rec.tags


def read_game(rec):
    """One ``pgn.Record`` of Playboard's text as (OwnRecord, None, n), or (None, why not in
    one line, n): an unknown game, a move the rules refuse, a result they contradict."""
    try:
        _, result = pgn.replay(rec)
    except pgn.RecordError as e:
        return None, "game %d: %s" % (rec.number, pgn.RecordError(e.reason, None, e.line, e.ply)), rec.number
    return OwnRecord(rec, result), None, rec.number


def read_any(lines):
    """The games of PGN text ``lines``, each read as Playboard's own record or as
    PlayStrategy's (``playstrategy.read_pgn``'s triples; the same errors)."""
    return playstrategy.read_pgn(lines, lambda rec: (read_game if is_own(rec) else playstrategy.read_game)(rec))
