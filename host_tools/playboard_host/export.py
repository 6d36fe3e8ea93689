"""Library games as PGN-style records (RULES.md, via playboard.pgn) and as JSON."""
import json

from playboard import pgn
from playboard.games.common import GameError
from playboard.games.registry import new_game


def pgn_tags(game):
    """The tag pairs of a library game (dict): the board's tags, then Game, Date,
    Result, FEN (a set-up game), Termination and the board's ids."""
    tags = dict(game.tags)
    tags["Game"] = game.game
    tags.setdefault("Date", game.date)
    tags["Result"] = game.result
    if game.fen:
        tags["FEN"] = game.fen
    if game.termination:
        tags["Termination"] = game.termination
    tags["Board"] = game.board
    tags["BoardGame"] = "%d" % game.board_game
    return tags


def to_pgn(game):
    """One record text (ends with a blank line), moves numbered from the set-up position."""
    turn, number = 0, 1
    if game.fen:
        try:
            g = new_game(game.game, game.fen)
            turn, number = g.turn, getattr(g, "fullmove", 1)
        except GameError:
            pass
    return pgn.format_game(pgn_tags(game), game.moves, game.result, turn, number)


def board_record_pgn(board, rec, now=None):
    """Game ``rec`` (a ``playboard.record.read.GameRecord``, as board id ``board``
    keeps it) as ``playboard export`` writes it once synced: the same tags and text
    (the simulator page's Export record, ``websim.session.Session.record_text``)."""
    import datetime
    from types import SimpleNamespace
    from playboard_host.library import _game_date

    now = now or datetime.datetime.now()
    return to_pgn(SimpleNamespace(board=board, board_game=rec.id, game=rec.name, result=rec.result,
                                  termination=rec.termination, date=_game_date(rec.tags, now),
                                  fen=rec.fen, tags=dict(rec.tags), moves=list(rec.moves)))


def to_json_obj(game):
    """A JSON-ready dict of one game."""
    return {"id": game.id, "board": game.board, "uid": game.uid, "board_game": game.board_game,
            "game": game.game, "date": game.date, "result": game.result,
            "termination": game.termination, "fen": game.fen, "tags": game.tags,
            "moves": game.moves, "synced_at": game.synced_at}


def export(games, fmt="pgn"):
    """The text of ``games`` (library Game objects) in ``fmt`` ("pgn", "json" or
    "playstrategy": Toguz Kumalak games only, playboard_host.playstrategy)."""
    if fmt == "json":
        return json.dumps([to_json_obj(g) for g in games], ensure_ascii=False, indent=1) + "\n"
    if fmt == "pgn":
        return "".join(to_pgn(g) for g in games)
    if fmt == "playstrategy":
        from playboard_host import playstrategy
        return "".join(playstrategy.to_pgn(g) for g in games)
    raise ValueError("unknown format %r (pgn, json or playstrategy)" % fmt)
