"""Results of an event taken from the games synced from its boards.

Before a game, each board is sent its pairing (:func:`pairing_request`, by ``tournament
send`` or the hall) and writes it into the header of the next game begun on it (tags
Event, Round, White, Black). A pairing takes only the finished game that carries it,
from its own board; every other game is listed, never taken. docs/tournament.md
lists what is flagged instead of taken.
"""
import json

from playboard.games.common import GameError
from playboard.games.registry import new_game

from playboard_host.result_words import result_words
from playboard_host.tournament.event import FORFEITS, check_board_ids, hand_differs, write_transaction


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


TAG_CHARS = 40  # the board keeps each pairing tag up to this many characters (app/request.py)


def round_text(p):
    """The Round tag of pairing ``p``: "3.2" (round 3, table 2) or "3.2.3" (game 3 of match 2)."""
    return "%d.%s" % (p.round, p.match) if p.game_no == 1 else "%d.%s.%d" % (p.round, p.match, p.game_no)


def pairing_tags(event, p, names=None):
    """The tags (Event, Round, White, Black) the board is sent for pairing ``p`` and
    writes into the header of the game played for it (each cut to TAG_CHARS
    characters, as the board keeps them)."""
    names = names or event.names_by_id()
    return {"Event": event.name[:TAG_CHARS], "Round": round_text(p),
            "White": names[p.white][:TAG_CHARS], "Black": names[p.black][:TAG_CHARS]}


def sides_text(game, white, black):
    """Whose side is where, as the board shows it while it waits for a pairing's game
    (firmware ``app.ui.paint_pairing``: White's half lit white, Black's blue, each
    blinking until its side is ready: :func:`waiting_text`), for the
    hall's page and ``playboard live``: "Aru: White, South (white lights) - Bek: Black,
    North (blue lights)" (Tobit: no South/North). ``game``: a GAME_NAMES name."""
    where = ("", "") if game.startswith("tobit") else (", South", ", North")
    return "%s: White%s (white lights) - %s: Black%s (blue lights)" % (white, where[0], black, where[1])


def waiting_text(white, black, ready):
    """Who the board waits for before a pairing's game begins (firmware
    ``app.ui.ready_press``: each side confirms on its own row of pits), for the hall's
    page and ``playboard live``: ``ready`` the status's bits (1 White, 2 Black; None or
    anything else: nobody ready). "waiting for Aru (White) and Bek (Black)", "waiting
    for Bek (Black)", or "Aru (White) and Bek (Black) ready" (the game begins)."""
    r = ready if isinstance(ready, int) and not isinstance(ready, bool) else 0
    sides = (("%s (White)" % white, r & 1), ("%s (Black)" % black, r & 2))
    todo = [who for who, done in sides if not done]
    if not todo:
        return "%s and %s ready" % (sides[0][0], sides[1][0])
    return "waiting for " + " and ".join(todo)


def next_pairing(event, label):
    """The pairing board ``label`` plays next: its first pairing without a result (by
    round, table, game), or None."""
    for p in event.pairings():
        if p.board == label and p.black is not None and p.result is None:
            return p
    return None


def pairing_request(event, p):
    """The link's ``G`` request giving a board pairing ``p`` (docs/protocol.md): the
    event's game chosen (two players), the pairing kept for the next game begun
    there; a game in play is left alone."""
    t = pairing_tags(event, p)
    return {"game": event.game,
            "pairing": {"event": t["Event"], "round": t["Round"], "white": t["White"], "black": t["Black"]}}


def carries(tags, pairing):
    """True if a game's header ``tags`` (dict) carry ``pairing`` (a ``G`` request's
    ``pairing``: event, round, white, black): it is that pairing's game."""
    return (tags.get("Event"), tags.get("Round"), tags.get("White"), tags.get("Black")) == (
        pairing["event"], pairing["round"], pairing["white"], pairing["black"])


def game_carrying(link, pairing):
    """What the board on ``link`` (a serial_link.BoardLink) plays or played for
    ``pairing``, in words: "in play, 14 moves" (its game in play carries it), "ended,
    Aru won (1-0)" (its last finished game, not yet synced, carries it, with a result);
    else None (the pairing is its next game's: send it). LinkError as the link's."""
    cur = link.status().get("current")
    if cur is not None:
        rec = link.fetch_game(cur)[0]
        return "in play, %d moves" % len(rec.moves) if carries(rec.tags, pairing) else None
    done = [g for g in link.list_games() if g["finished"]]
    if not done:
        return None
    rec = link.fetch_game(done[-1]["id"])[0]
    if rec.result in (None, "*") or not carries(rec.tags, pairing):
        return None  # (an abandoned game: the pairing is played again)
    return "ended, %s (%s)" % (result_words(rec.result, pairing["white"], pairing["black"]), rec.result)


def _where(p):
    return "round %d table %s%s on board %s" % (p.round, p.match, ".%d" % p.game_no if p.game_no > 1 else "", p.board)


def take_results(event, lib):
    """Fill the results of ``event``'s pairings from the games in ``lib`` (a
    library.Library). A pairing takes only the game whose header carries it (the
    tags :func:`pairing_tags` gives, sent to its board before the game), played on
    its board, of the event's game. Every other finished game of the event's
    boards is listed for the arbiter and never taken; a game carrying a pairing with
    other players or colours, or played on another board, flags the pairing.
    Returns a list of lines, one per result taken, flag raised or game listed.
    Nothing is overwritten: a hand result that the board's game contradicts is
    kept and flagged. TournamentError if two of the event's boards answer one id."""
    lines = []
    # one write transaction, begun at once (BEGIN IMMEDIATE): the pairings and games are
    # read with the library's write lock held, so no other take (a hall thread, another
    # playboard) or arbiter's correction can come between what is read and what is written
    with write_transaction(event.db):
        event.reload()
        check_board_ids(event.settings["boards"])
        _take(event, lib, lines)
    return lines


def _take(event, lib, lines):
    """take_results' work, in its transaction: appends to ``lines``."""
    names = event.names_by_id()
    boards = event.settings["boards"]
    label_of = {hw: label for label, hw in boards.items()}
    pairings = event.pairings()
    by_round = {round_text(p): p for p in pairings if p.black is not None}
    taken = {p.library_game: p for p in pairings if p.library_game is not None}
    assigned = [p.assigned_at for p in pairings if p.assigned_at]
    if not assigned:
        return
    since = min(assigned)
    for g in lib.games():
        if g.synced_at < since or g.result == "*" or g.id in taken:
            continue
        label = label_of.get(g.board)
        tags = g.tags
        carried = tags.get("Event") == event.name[:TAG_CHARS] and tags.get("Round") in by_round
        if label is None:
            if g.game == event.game and carried:
                lines.append("game %d (library) from board %s is not from a board of %s: left aside"
                             % (g.id, g.board, event.name))
            continue
        what = "board %s: game %d (%s - %s, %s%s)" % (
            label, g.id, tags.get("White", "?"), tags.get("Black", "?"), g.result,
            "" if g.game == event.game else ", " + g.game)
        if not carried:
            lines.append("%s carries no pairing of %s: listed for the arbiter, not taken" % (what, event.name))
            continue
        p = by_round[tags["Round"]]
        if g.game != event.game:
            lines.append("%s: game %d (%s) is %s, the event plays %s: left aside" % (
                _where(p), g.id, g.result, g.game, event.game))
            continue
        if p.library_game is not None:
            lines.append("%s carries round %s, which game %d filled: listed for the arbiter, not taken"
                         % (what, tags["Round"], p.library_game))
            continue
        want = pairing_tags(event, p, names)
        flag = None
        if p.board != label:
            flag = "game %d carrying round %s was played on board %s, not on its board %s" % (
                g.id, tags["Round"], label, p.board)
        elif (tags.get("White"), tags.get("Black")) != (want["White"], want["Black"]):
            flag = "the board's game %d names %s - %s, the pairing is %s - %s" % (
                g.id, tags.get("White"), tags.get("Black"), names[p.white], names[p.black])
        if flag:
            event.db.execute("UPDATE pairings SET flag=? WHERE id=?", (flag, p.id))
            lines.append("%s: FLAG %s: result not taken (the arbiter: tournament take or result)"
                         % (_where(p), flag))
            continue
        kz = final_kazans(g)
        kz_text = json.dumps(list(kz)) if kz else None
        taken[g.id] = p
        p.library_game = g.id
        if p.result is not None:  # entered by hand before the game was synced
            flag = None
            if p.result != g.result:
                flag = hand_differs(p.result, g.result, names[p.white], names[p.black], g.id)
                lines.append("%s: FLAG %s: hand result kept" % (_where(p), flag))
            event.db.execute("UPDATE pairings SET library_game=?, kazans=COALESCE(kazans, ?), flag=?"
                             " WHERE id=?", (g.id, kz_text, flag, p.id))
            continue
        event.db.execute("UPDATE pairings SET result=?, source='board', library_game=?, kazans=?, flag=NULL"
                         " WHERE id=?", (g.result, g.id, kz_text, p.id))
        w, b = names[p.white], names[p.black]
        lines.append("%s: %s - %s: %s (%s, game %d)" % (_where(p), w, b, result_words(g.result, w, b), g.result, g.id))
