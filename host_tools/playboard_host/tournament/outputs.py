"""An event's pairings and standings as text, CSV, JSON and a printable HTML crosstable,
and all its games as one PGN-style file with Event, Round and Board tags."""
import csv
import html
import io
import json

from playboard import pgn
from playboard_host.export import pgn_tags
from playboard_host.result_words import result_words

FORMATS = ("text", "csv", "json", "html")


def _num(v):
    if isinstance(v, float):
        return ("%.2f" % v).rstrip("0").rstrip(".")
    return "" if v is None else str(v)


def pairing_rows(event, round_=None):
    """Dicts {round, stage, table, game, board, white, black, result, source, flag}."""
    names = event.names_by_id()
    out = []
    for p in event.pairings(round_):
        out.append({"round": p.round, "stage": p.stage, "table": p.match, "game": p.game_no,
                    "board": p.board, "white": names.get(p.white), "black": names.get(p.black) if p.black else None,
                    "result": p.result, "source": p.source, "flag": p.flag})
    return out


def pairings_text(event, round_=None, fmt="text"):
    rows = pairing_rows(event, round_)
    if fmt == "json":
        return json.dumps(rows, ensure_ascii=False, indent=1) + "\n"
    if fmt == "csv":
        return _csv(rows, ["round", "stage", "table", "game", "board", "white", "black", "result", "source", "flag"])
    if fmt == "html":  # (for people: the results in words; CSV and JSON keep the notation)
        body = "".join("<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % tuple(
            html.escape(_num(_words(r) if k == "result" else r[k]))
            for k in ("round", "table", "board", "white", "black", "result", "flag")) for r in rows)
        return _page(event, "Pairings", "<table><tr><th>Round</th><th>Table</th><th>Board</th><th>White</th>"
                     "<th>Black</th><th>Result</th><th>Note</th></tr>%s</table>" % body)
    lines = []
    last = None
    for r in rows:
        if r["round"] != last:
            lines.append("Round %d" % r["round"])
            last = r["round"]
        table = "%s%s" % (r["table"], ".%d" % r["game"] if r["game"] > 1 else "")
        if r["black"] is None:
            lines.append("  %-6s %-24s bye" % (table, r["white"]))
            continue
        lines.append(("  %-6s %-8s %-24s %-24s %s%s" % (
            table, "board " + r["board"] if r["board"] else "", r["white"], r["black"],
            _words(r) if r["result"] else "", ("  ! " + r["flag"]) if r["flag"] else "")).rstrip())
    return "\n".join(lines) + "\n"


def _words(r):
    """Pairing row ``r``'s result in words ("Bek won", "draw", "double forfeit")."""
    return result_words(r["result"], r["white"], r["black"], state="pairing")


def _csv(rows, cols):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in rows:
        w.writerow([_num(r.get(c)) for c in cols])
    return buf.getvalue()


def standings_tables(event):
    """[(title, stage or None, standings rows)]: one table, or one per group plus the final."""
    if event.settings["system"] != "groups":
        return [("", None, event.standings())]
    out = []
    for g, members in event.groups().items():
        out.append(("Group " + g, "group " + g, event.standings(stage="group " + g, entrants=members)))
    if any(p.stage == "final" for p in event.pairings()):
        out.append(("Final", "final", event.standings(stage="final", entrants=event.finalists())))
    return out


def standings_text(event, fmt="text"):
    tables = standings_tables(event)
    if fmt == "json":
        return json.dumps([{"table": t, "standings": rows} for t, _, rows in tables], ensure_ascii=False,
                          indent=1) + "\n"
    if fmt == "html":
        return _page(event, "Standings", "".join(crosstable_html(event, t, st, rows) for t, st, rows in tables))
    if fmt == "csv":
        tbs = []
        flat = []
        for title, _, rows in tables:
            for r in rows:
                tbs.extend(t for t in r["tiebreaks"] if t not in tbs)
                d = {"table": title, "place": r["place"], "name": r["name"], "score": r["score"],
                     "played": r["played"], "withdrawn": r["withdrawn"]}
                d.update(r["tiebreaks"])
                flat.append(d)
        return _csv(flat, ["table", "place", "name", "score", "played"] + tbs + ["withdrawn"])
    out = []
    for title, _, rows in tables:
        tbs = list(rows[0]["tiebreaks"]) if rows else []
        if title:
            out.append(title + "\n")
        knockout = bool(rows) and "out in" in rows[0]["tiebreaks"]
        out.append("%-5s %-24s %6s %6s %s\n" % ("place", "name", "round" if knockout else "score",
                                                 "" if knockout else "games", " ".join("%8s" % t for t in tbs)))
        for r in rows:
            out.append("%-5s %-24s %6s %6s %s%s\n" % (
                r["place"], r["name"], _num(r["score"]), _num(r["played"]),
                " ".join("%8s" % _num(r["tiebreaks"][t]) for t in tbs),
                "  (withdrew from round %d)" % r["withdrawn"] if r["withdrawn"] else ""))
    return "".join(out)


def _games(event, a, b, stage):
    """The finished games of ``a`` against ``b`` (of ``stage``, None: every one), by round."""
    for p in event.pairings():
        if stage and p.stage != stage:
            continue
        if {p.white, p.black} != {a, b} or p.result is None:
            continue
        yield p


def _cell(event, a, b, stage):
    """The crosstable cell of ``a`` against ``b``: their points in each game, by round."""
    from playboard_host.tournament.event import points

    parts = []
    for p in _games(event, a, b, stage):
        pw, pb = points(p.result, event.scoring)
        v = pw if p.white == a else pb
        parts.append(_num(v) + ("F" if p.result in ("+/-", "-/+", "-/-") else ""))
    return " ".join(parts)


def _cell_words(event, a, b, stage, names):
    """The games of the crosstable cell of ``a`` against ``b`` in words, for people
    ("round 1: Aru won; round 4: draw")."""
    return "; ".join("round %d: %s" % (p.round, result_words(p.result, names[p.white], names[p.black], state="pairing"))
                     for p in _games(event, a, b, stage))


def crosstable_html(event, title, stage, rows):
    """One HTML crosstable of ``stage`` (None: every game), rows in standings order,
    a column per opponent holding the points scored against them (F: a forfeit)."""
    tbs = list(rows[0]["tiebreaks"]) if rows else []
    head = "".join("<th>%d</th>" % (i + 1) for i in range(len(rows)))
    names = event.names_by_id()
    body = []
    for i, r in enumerate(rows):
        # each cell: the points (F: a forfeit), its games in words when pointed at
        cells = "".join("<td class='self'></td>" if j == i else "<td title='%s'>%s</td>" % (
            html.escape(_cell_words(event, r["id"], o["id"], stage, names)),
            html.escape(_cell(event, r["id"], o["id"], stage))) for j, o in enumerate(rows))
        body.append("<tr><td>%s</td><td>%d</td><td class='name'>%s</td>%s<td><b>%s</b></td>%s</tr>" % (
            r["place"], i + 1, html.escape(r["name"]), cells, _num(r["score"]),
            "".join("<td>%s</td>" % html.escape(_num(r["tiebreaks"][t])) for t in tbs)))
    return ("<h2>%s</h2><table class='cross'><tr><th>Place</th><th>No</th><th>Name</th>%s<th>Score</th>%s</tr>"
            "%s</table><p class='legend'>Each cell: the row's player's points against the column's, one"
            " number a game (F: a forfeit); point at it for the games in words.</p>" % (
                html.escape(title or "Crosstable"), head,
                "".join("<th>%s</th>" % html.escape(t) for t in tbs), "".join(body)))


def _page(event, what, body):
    return ("<!doctype html><html><head><meta charset='utf-8'><title>%s: %s</title><style>"
            "body{font-family:sans-serif}table{border-collapse:collapse;margin:1em 0}"
            "td,th{border:1px solid #444;padding:2px 6px;text-align:center}td.name{text-align:left}"
            "td.self{background:#999}@media print{body{margin:0}}</style></head><body>"
            "<h1>%s</h1><p>%s, %s</p>%s</body></html>\n" % (
                html.escape(event.name), what, html.escape(event.name), html.escape(event.game),
                html.escape(event.settings["system"]), body))


UNKNOWN_DATE = "????.??.??"  # PGN's date not known


def round_dates(event, lib):
    """{round: "YYYY.MM.DD"}, the day each round was played: the date of its games taken
    from the boards (the earliest), else the day its pairings were put on boards, else
    the day its first result was entered by hand; a round with none of these is absent."""
    played, assigned, entered = {}, {}, {}
    for p in event.pairings():
        if p.library_game is not None:
            for g in lib.games(ids=[p.library_game]):
                d = g.tags.get("Date", g.date)
                if "?" not in d:
                    played[p.round] = min(played.get(p.round, d), d)
        if p.assigned_at:
            assigned[p.round] = min(assigned.get(p.round, p.assigned_at), p.assigned_at)
    for r, at in event.db.execute("SELECT p.round, MIN(c.at) FROM corrections c JOIN pairings p ON p.id=c.pairing"
                                  " WHERE p.event=? GROUP BY p.round", (event.id,)):
        entered[r] = at
    out = {r: at[:10].replace("-", ".") for r, at in list(entered.items()) + list(assigned.items())}
    out.update(played)
    return out


def event_pgn(event, lib):
    """Every game of the event with a result, as PGN-style records: the board's game
    (its moves) when one was taken, else a record without moves; tags Event, Site (the
    event's ``site`` setting, "?" when it has none, as PGN's seven-tag roster says),
    Date (a board's game: its own; a record without one: its round's, :func:`round_dates`,
    "????.??.??" if not known), Round ("3.2": round 3, table 2; "3.2.2": game 2 of
    match 2), Board, White, Black, Result; a result entered by hand has
    ``Termination "adjudication"``, a forfeit ``"forfeit"``."""
    names = event.names_by_id()
    dates = round_dates(event, lib)
    out = []
    for p in event.pairings():
        if p.black is None or p.result is None:
            continue
        rnd = "%d.%s" % (p.round, p.match) if p.game_no == 1 else "%d.%s.%d" % (p.round, p.match, p.game_no)
        extra = {"Event": event.name, "Site": event.settings.get("site") or "?", "Round": rnd,
                 "White": names[p.white], "Black": names[p.black]}
        # a double forfeit is nobody's win: "*" (no result of a game) and the Forfeit tag
        res = {"+/-": "1-0", "-/+": "0-1", "-/-": "*"}.get(p.result, p.result)
        if p.result in ("+/-", "-/+", "-/-"):
            extra["Forfeit"] = p.result
        g = lib.games(ids=[p.library_game])[0] if p.library_game else None
        if g is not None:
            tags = pgn_tags(g)
            tags.update(extra)
            tags["Board"] = p.board or g.board
            tags["Result"] = res
            if p.source != "board":
                tags["Annotator"] = "result entered by hand"
            if p.source == "hand":  # (not the board's end: "resignation" beside a draw)
                tags["Termination"] = "adjudication"
            text = pgn.format_game(tags, g.moves, res, *_first(g))
        else:
            tags = dict(extra)
            tags["Date"] = dates.get(p.round, UNKNOWN_DATE)
            tags["Game"] = event.game
            tags["Result"] = res
            tags["Board"] = p.board or "?"
            if p.result in ("+/-", "-/+", "-/-"):
                tags["Termination"] = "forfeit"
            elif p.source == "hand":  # no game: the arbiter's (PGN's "adjudication")
                tags["Termination"] = "adjudication"
            text = pgn.format_game(tags, [], res)
        out.append(text)
    return "".join(out)


def _first(g):
    from playboard.games.common import GameError
    from playboard.games.registry import new_game

    if g.fen:
        try:
            x = new_game(g.game, g.fen)
            return x.turn, getattr(x, "fullmove", 1)
        except GameError:
            pass
    return 0, 1
