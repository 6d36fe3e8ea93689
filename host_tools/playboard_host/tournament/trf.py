"""An event as a FIDE Tournament Report File, TRF-16 (FIDE Handbook C.04 Annex 2), the
file the federations' Swiss and round-robin tools read (Swiss-Manager, JaVaFo,
bbpPairings, Vega): header lines, then one ``001`` line a player, fixed columns.

The ``001`` line (columns counted from 1, as the specification gives them)::

    1-3    "001"                        49-52  rating (blank: none)
    5-8    starting rank (the seed)     54-56  federation (blank)
    10     sex (blank)                  58-68  FIDE id (blank)
    11-13  title (blank)                70-79  birth date (blank)
    15-47  name (cut to 33 characters)  81-84  points, one decimal ("11.5")
                                        86-89  rank (exact, no ties)

then a block of 8 columns a round, 10 apart, from column 92 (round r: columns
92 + 10(r-1) to 99 + 10(r-1)): the opponent's starting rank (4 columns, ``0000`` for a
bye), a blank, the colour (``w``, ``b``; ``-`` for a bye), a blank, the result: ``W``
``D`` ``L`` a game, ``+`` ``-`` a forfeit won or lost (``-`` both sides of a double
forfeit), ``U`` a bye the pairing gave (a win's points), ``H`` a half-point bye,
``Z`` a zero-point bye. A game without a result yet (adjourned, not played) is a
blank block. Header lines: 012 name, 022 city (the event's ``site``), 042/052 first
and last round's dates, 062 players, 072 rated players, 092 type, 132 the rounds'
dates (YY/MM/DD in the rounds' columns). A scoring other than 1 / 0.5 / 0 (Tobit's
2 / 1 / 0), or a bye worth what no TRF code is, adds JaVaFo's ``XXS`` line (read by
JaVaFo and bbpPairings) with the event's points; the 001 points are the event's.
"""
from playboard_host.tournament.event import TournamentError, points

NAME_COLS = 33  # columns 15-47
ROUND_COL = 92  # round 1's block begins in column 92; each next round 10 further on
_FORFEIT = {"+/-": ("+", "-"), "-/+": ("-", "+"), "-/-": ("-", "-")}
_GAME = {"1-0": ("W", "L"), "0-1": ("L", "W"), "1/2-1/2": ("D", "D")}


def _pts(v):
    """Points as TRF writes them: one decimal ("1.0", "11.5")."""
    return "%.1f" % v


def _check(event):
    """TournamentError (one line) for an event TRF cannot hold: one game a player a
    round, players not teams."""
    if event.team:
        raise TournamentError("%s is a team event: its TRF export is not done (players' events only);"
                              " use tournament pgn or standings -f csv" % event.name)
    if event.settings["system"] != "roundrobin":
        raise TournamentError("%s is a %s: TRF holds one game a player a round, a match of several games"
                              " does not fit; TRF is for round robins (use tournament pgn or standings -f csv)"
                              % (event.name, event.settings["system"]))


def bye_code(event):
    """The TRF code of the event's bye: ``U`` scoring a win's points, ``H`` a draw's,
    ``Z`` none; any other value ``U`` (with ``XXS PAB=``, :func:`trf_text`)."""
    b, sc = event.settings["bye_points"], event.scoring
    return "U" if b == sc["win"] else "H" if b == sc["draw"] else "Z" if b == 0 else "U"


def player_rounds(event):
    """{entrant id: {round: (opponent id or None, colour "w"/"b"/"-", code)}} of every
    pairing with a result (or a bye); codes as this module's docstring. The games of a
    player whose results are annulled (withdrawn before half their games) are left
    out, as the standings leave them out."""
    out = {e.id: {} for e in event.entrants()}
    bye = bye_code(event)
    annulled = event.annulled()
    for p in event.pairings():
        if p.black is None:
            out[p.white][p.round] = (None, "-", bye)
            continue
        if p.result is None or p.white in annulled or p.black in annulled:
            continue
        cw, cb = _FORFEIT.get(p.result) or _GAME[p.result]
        for me, opp, colour, code in ((p.white, p.black, "w", cw), (p.black, p.white, "b", cb)):
            if p.round in out[me]:
                raise TournamentError("%s has two games in round %d: TRF holds one" % (event.name, p.round))
            out[me][p.round] = (opp, colour, code)
    return out


def _score(event, games, me):
    """``me``'s points from their TRF games (the event's scoring)."""
    total = 0
    for r, (opp, colour, code) in games[me].items():
        if opp is None:
            total += event.settings["bye_points"]
            continue
        res = {"W": "1-0", "L": "0-1", "D": "1/2-1/2", "+": "+/-", "-": "-/+"}[code]
        if code == "-" and games[opp][r][2] == "-":
            res = "-/-"
        total += points(res, event.scoring)[0]
    return total


def _line(prefix, text):
    return ("%s %s" % (prefix, text)).rstrip()


def _date(iso, short=False):
    """"YYYY.MM.DD" as TRF's "YYYY/MM/DD" (or "YY/MM/DD" for the 132 line)."""
    d = iso.replace(".", "/")
    return d[2:] if short else d


def trf_text(event, lib):
    """The TRF-16 text of ``event`` (a round robin of players; TournamentError in one
    line otherwise), ending with a newline. ``lib``: the library (the rounds' dates)."""
    from playboard_host.tournament.outputs import round_dates

    _check(event)
    ents = event.entrants()
    seed = {e.id: i + 1 for i, e in enumerate(ents)}  # starting ranks 1..n in seed order
    games = player_rounds(event)
    rounds = event.rounds()
    dates = round_dates(event, lib)
    order = [r["id"] for r in event.standings()]
    rank = {e: i + 1 for i, e in enumerate(order)}
    known = [dates[r] for r in rounds if r in dates]
    system = "Round robin%s" % (" (%d cycles)" % event.settings["cycles"] if event.settings["cycles"] > 1 else "")
    out = [_line("012", event.name), _line("022", event.settings.get("site", "")),
           _line("042", _date(known[0]) if known else ""), _line("052", _date(known[-1]) if known else ""),
           _line("062", str(len(ents))), _line("072", str(sum(1 for e in ents if e.rating))),
           _line("092", "%s, %s" % (system, event.game))]
    if rounds:
        row = "132" + " " * (ROUND_COL - 4)
        for r in range(1, max(rounds) + 1):
            row += ("%-8s" % (_date(dates[r], short=True) if r in dates else "")) + "  "
        out.append(row.rstrip())
    sc, bye = event.scoring, event.settings["bye_points"]
    if (sc["win"], sc["draw"], sc["loss"], sc.get("forfeit_loss", sc["loss"])) != (1, 0.5, 0, 0) \
            or bye not in (sc["win"], sc["draw"], 0):
        fl = sc.get("forfeit_loss", sc["loss"])
        out.append("XXS WW=%s BW=%s WD=%s BD=%s WL=%s BL=%s FW=%s FL=%s ZPB=0.0 HPB=%s FPB=%s PAB=%s" % tuple(
            _pts(v) for v in (sc["win"], sc["win"], sc["draw"], sc["draw"], sc["loss"], sc["loss"], sc["win"],
                              fl, sc["draw"], sc["win"], bye)))
    for e in ents:
        line = "001 %4d %1s%3s %-*s %4s %3s %11s %10s %4s %4d" % (
            seed[e.id], "", "", NAME_COLS, e.name[:NAME_COLS], e.rating or "", "", "", "",
            _pts(_score(event, games, e.id)), rank[e.id])
        assert len(line) == 89
        line += "  "
        for r in range(1, (max(rounds) if rounds else 0) + 1):
            g = games[e.id].get(r)
            if g is None:
                line += " " * 10
                continue
            opp, colour, code = g
            line += "%4s %s %s  " % ("0000" if opp is None else seed[opp], colour, code)
        out.append(line.rstrip())
    return "\n".join(out) + "\n"
