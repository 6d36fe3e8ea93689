"""Results of an event taken from the games synced from its boards.

A pairing put on board B at time T takes the first finished game (not ``*``) that
the library holds from B's board id, synced at or after T, of the event's game,
and not taken by another pairing; the games of one board are taken in the order
the board numbered them, so the games of a match on one board fill its game 1,
2, ... in turn. docs/tournament.md lists what is flagged instead of taken.
"""
import json

from playboard.games.common import GameError
from playboard.games.registry import new_game

from playboard_host.tournament.event import FORFEITS


def final_kazans(game):
    """(White/South's kazan, Black/North's kazan) at the end of library game ``game``
    (Toguz Kumalak: the kazans; Tihbat: the balls captured), or None for another game
    or a record that does not replay."""
    if game.game not in ("toguz", "tihbat"):
        return None
    try:
        g = new_game(game.game, game.fen)
        for m in game.moves:
            g.push_text(m)
    except (GameError, ValueError):
        return None
    p = g.pos
    return (p[18], p[19]) if game.game == "toguz" else (p[4], p[5])


def _named(tags, names):
    """The event player names the board's White/Black tags give, or None when the
    tags name nobody of the event (the board's defaults "Player", "Playboard L3")."""
    w, b = tags.get("White"), tags.get("Black")
    if w in names or b in names:
        return w, b
    return None


def take_results(event, lib):
    """Fill the results of ``event``'s pairings from the games in ``lib`` (a
    library.Library). Returns a list of lines, one per result taken, flag raised
    or game left aside. Nothing is overwritten: a hand result that the board's
    game contradicts is kept and flagged."""
    lines = []
    names = event.names_by_id()
    by_name = {v: k for k, v in names.items()}
    boards = event.settings["boards"]
    taken = {r[0] for r in event.db.execute(
        "SELECT library_game FROM pairings WHERE event=? AND library_game IS NOT NULL", (event.id,))}
    todo = [p for p in event.pairings() if p.board is not None and p.black is not None
            and p.library_game is None and p.result not in FORFEITS]
    todo.sort(key=lambda p: (p.assigned_at or "", p.round, p.game_no, p.id))
    # games from boards that are not the event's: said at each collect, never taken
    known_ids = set(boards.values())
    first_assigned = min((p.assigned_at for p in event.pairings() if p.assigned_at), default=None)
    if first_assigned:
        for g in lib.games(game=event.game):
            if g.board not in known_ids and g.synced_at >= first_assigned and g.result != "*":
                lines.append("game %d (library) from board %s is not from a board of %s: left aside"
                             % (g.id, g.board, event.name))
    with event.db:
        for p in todo:
            hw = boards.get(p.board)
            cands = [g for g in lib.games_from(hw, since=p.assigned_at)
                     if g.id not in taken and g.result != "*"]
            if not cands:
                continue
            g = cands[0]
            where = "round %d table %s%s on board %s" % (
                p.round, p.match, ".%d" % p.game_no if p.game_no > 1 else "", p.board)
            if g.game != event.game:
                taken.add(g.id)
                lines.append("%s: game %d is %s, the event plays %s: left aside" % (where, g.id, g.game, event.game))
                continue
            taken.add(g.id)
            flag = None
            named = _named(g.tags, by_name)
            if named and named != (names[p.white], names[p.black]):
                flag = "the board's game %d names %s - %s, the pairing is %s - %s" % (
                    g.id, named[0], named[1], names[p.white], names[p.black])
            kz = final_kazans(g)
            kz_text = json.dumps(list(kz)) if kz else None
            if flag:
                event.db.execute("UPDATE pairings SET flag=?, library_game=? WHERE id=?", (flag, g.id, p.id))
                lines.append("%s: FLAG %s: result not taken" % (where, flag))
                continue
            if p.result is not None:  # entered by hand before the game was synced
                if p.result != g.result:
                    flag = "hand result %s differs from the board's %s (game %d)" % (p.result, g.result, g.id)
                    lines.append("%s: FLAG %s: hand result kept" % (where, flag))
                event.db.execute("UPDATE pairings SET library_game=?, kazans=COALESCE(kazans, ?), flag=?"
                                 " WHERE id=?", (g.id, kz_text, flag, p.id))
                continue
            event.db.execute("UPDATE pairings SET result=?, source='board', library_game=?, kazans=? WHERE id=?",
                             (g.result, g.id, kz_text, p.id))
            lines.append("%s: %s - %s %s (game %d)" % (where, names[p.white], names[p.black], g.result, g.id))
    return lines
