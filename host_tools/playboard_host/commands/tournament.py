"""`playboard tournament`: run an event on a room of boards (docs/tournament.md)."""
import re
import sys

from playboard.games.common import GAME_NAMES

from playboard_host.cli import CommandError, add_library_argument, check_output_path
from playboard_host.library import SCHEMA_VERSION, Library, LibraryError
from playboard_host.tournament import outputs
from playboard_host.tournament.console import Buffered
from playboard_host.tournament.event import DECISIONS, RESULTS, SYSTEMS, Event, TournamentError
from playboard_host.tournament.results import take_results
from playboard_host.tournament.scoring import TIEBREAKS

HELP = "run a tournament: create an event, enter players, pair rounds on boards, take results, standings"


def _number(text):
    try:
        v = float(text)
    except ValueError:
        raise CommandError("bad number %r" % text)
    return int(v) if v == int(v) else v


def _action(sub, name, **kw):
    """An action's parser; it takes ``--library`` after the action too."""
    x = sub.add_parser(name, **kw)
    add_library_argument(x, inner=True)
    return x


def add_arguments(p):
    add_library_argument(p)
    sub = p.add_subparsers(dest="action", metavar="ACTION")

    c = _action(sub, "create", help="create an event")
    c.add_argument("event", help="the event's name")
    c.add_argument("--game", required=True, choices=GAME_NAMES)
    c.add_argument("--system", choices=SYSTEMS, default="roundrobin",
                   help="roundrobin (Berger tables), knockout, or groups (round robins, then a final)")
    c.add_argument("--cycles", type=int, default=1, help="round-robin cycles (default 1; 2: a double round robin)")
    c.add_argument("--games-per-match", type=int, default=2, help="knockout: games per match (default 2)")
    c.add_argument("--tiebreak-games", type=int, default=2,
                   help="knockout: games added, block by block, while a match is tied (default 2; 0: by hand)")
    c.add_argument("--groups", type=int, default=2, help="groups: how many (default 2; snake seeding)")
    c.add_argument("--advance", type=int, default=2, help="groups: places of each group that reach the final")
    c.add_argument("--final", choices=("knockout", "roundrobin"), default="knockout")
    for k in ("win", "draw", "loss", "forfeit-loss"):
        c.add_argument("--" + k, type=_number, help="points for a %s (default by game: Tobit 2/1/0, the"
                       " mancala games 1/0.5/0)" % k.replace("-", " ") if k == "win" else "points for a %s" % k)
    c.add_argument("--bye-points", type=_number, default=0, help="round robin: points for a bye (default 0)")
    c.add_argument("--tiebreaks", help="comma-separated, in order, from: %s" % ", ".join(TIEBREAKS))
    c.add_argument("--team", action="store_true", help="a team event (a round robin of team matches)")
    c.add_argument("--boards-per-match", type=int, help="team event: boards in each team match")
    c.add_argument("--site", help="where the event is played (\"Almaty, KZ\"): the Site tag of its PGN")
    c.add_argument("--board", action="append", default=[], metavar="LABEL[=ID]",
                   help="a board of the event (repeatable): its label and the id it gives in its hello")

    _action(sub, "list", help="list the events")
    for name, hlp in (("show", "the event's settings, boards, entrants and corrections"),
                      ("pair", "pair the next round (or add tiebreak games to a tied knockout match)"),
                      ("collect", "take results from the games synced from the event's boards")):
        x = _action(sub, name, help=hlp)
        x.add_argument("event")

    a = _action(sub, "add", help="enter players (or teams, in a team event)")
    a.add_argument("event")
    a.add_argument("names", nargs="+")
    a.add_argument("--rating", type=int, help="rating (seeds follow ratings once everyone has one)")
    a.add_argument("--team", help="team event: the team these players play for (in board order)")

    b = _action(sub, "board", help="add a board to the event")
    b.add_argument("event")
    b.add_argument("label", help="the board's label in the room (e.g. 3)")
    b.add_argument("--id", help="the id the board gives in its hello (playboard sync shows it; default the label)")

    s = _action(sub, "assign", help="put a pairing on a board")
    s.add_argument("event")
    s.add_argument("round", type=int)
    s.add_argument("who", help="table number (3, or 3.2 for game 2 of match 3) or a player's name")
    s.add_argument("board", help="the board's label")

    r = _action(sub, "result", help="enter or correct a result by hand (the reason is kept)")
    r.add_argument("event")
    r.add_argument("round", type=int)
    r.add_argument("who", help="table number or a player's name")
    r.add_argument("result", choices=RESULTS, help="+/- : White wins by forfeit; -/+ Black; -/- both forfeit")
    r.add_argument("--reason", required=True)
    r.add_argument("--kazans", help="balls in the kazans at the end, WHITE-BLACK (mancala tiebreak)")
    # "-/+" and "-/-" are results, not options: argparse takes a word beginning with "-" for an option
    # unless it looks like a negative number (its matcher, widened here to these two results)
    r._negative_number_matcher = re.compile(r"^-\d+$|^-\d*\.\d+$|^-/[-+]$")

    t = _action(sub, "take", help="take a game the boards recorded (collect listed it) for a pairing, by hand")
    t.add_argument("event")
    t.add_argument("round", type=int)
    t.add_argument("who", help="table number or a player's name")
    t.add_argument("game", type=int, help="the game's id in the library (collect and `playboard games` show it)")
    t.add_argument("--swapped", action="store_true", help="the players sat with each other's colours")
    t.add_argument("--reason", required=True)

    x = _action(sub, "decide", help="record the decision of a tied knockout match (lot, armageddon, rating)")
    x.add_argument("event")
    x.add_argument("round", type=int)
    x.add_argument("match", help="the match's number")
    x.add_argument("winner", help="the name of the side that goes on, or nobody (a double forfeit)")
    x.add_argument("--by", required=True, choices=DECISIONS)
    x.add_argument("--reason", required=True)

    x = _action(sub, "adjourn", help="adjourn a game: no result yet, the round robin goes on")
    x.add_argument("event")
    x.add_argument("round", type=int)
    x.add_argument("who", help="table number or a player's name")
    x.add_argument("--reason", required=True)

    x = _action(sub, "repair", help="pair the last round again (before any of its games has a result)")
    x.add_argument("event")

    d = _action(sub, "send", help="send each board of the event its next pairing (the next game begun there"
                                    " carries it)")
    d.add_argument("event")
    d.add_argument("--port", action="append", default=[], required=True, metavar="PORT",
                   help="a board's serial port (repeatable)")
    d.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for each board's answer")

    w = _action(sub, "withdraw", help="withdraw a player: their games without a result become forfeits")
    w.add_argument("event")
    w.add_argument("name")
    w.add_argument("--round", type=int, help="from this round on (default: their first game without a result)")

    for name, hlp in (("pairings", "print the pairings"), ("standings", "print the standings (crosstable in html)"),
                      ("pgn", "all the event's games as one PGN-style file")):
        x = _action(sub, name, help=hlp)
        x.add_argument("event")
        if name == "standings":  # (trf: FIDE's Tournament Report File, the federations' tools read it)
            x.add_argument("--format", "-f", choices=outputs.FORMATS + ("trf",), default="text",
                           help="text, csv, json, html (a crosstable) or trf (FIDE's TRF-16: Swiss-Manager,"
                                " JaVaFo, bbpPairings, Vega)")
        elif name != "pgn":
            x.add_argument("--format", "-f", choices=outputs.FORMATS, default="text")
        if name == "pairings":
            x.add_argument("--round", type=int)
        x.add_argument("--output", "-o", help="write to this file (default standard output)")


def _table(p):
    return p.match if p.game_no == 1 else "%s.%d" % (p.match, p.game_no)


def _write(args, text):
    if getattr(args, "output", None):
        check_output_path(args.output)
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except OSError as e:
            raise CommandError("can't write %s: %s" % (args.output, e.strerror or e))
        print("written to %s" % args.output, file=sys.stderr)
    else:
        sys.stdout.write(text)


def run(args):
    if not args.action:
        raise CommandError("tournament needs an action: create, add, board, pair, repair, assign, send, collect,"
                           " result, take, adjourn, decide, withdraw, pairings, standings, pgn, show, list (see --help)")
    try:
        lib = Library(args.library, create=args.action == "create")
    except LibraryError as e:
        raise CommandError(str(e))
    out = Buffered()  # printed whole at the end, or one line if the console can't print a name
    failed = None
    try:
        if lib.upgraded_from is not None:
            print("library %s upgraded from version %d to %d (its games kept)"
                  % (lib.path, lib.upgraded_from, SCHEMA_VERSION), file=sys.stderr)
        with out:
            try:
                code = _run(args, lib)
            except TournamentError as e:
                failed = CommandError(str(e))
    finally:
        lib.close()
    line = out.flush_to_console("the %s was done" % args.action if args.action in _CHANGES else
                                "nothing was printed", to_file=args.action in ("pairings", "standings", "pgn"))
    if failed is not None:
        raise failed
    if line:
        raise CommandError(line)
    return code


_CHANGES = ("create", "add", "board", "pair", "repair", "assign", "send", "collect", "result", "take", "adjourn",
            "decide", "withdraw")


def _run(args, lib):
    act = args.action
    if act == "list":
        for n in Event.names(lib):
            e = Event(lib, n)
            print("%-24s %-7s %-10s %d entrants, %d rounds paired" % (
                n, e.game, e.settings["system"], len(e.entrants()), len(e.rounds())))
        return 0
    if act == "create":
        sc = {k: getattr(args, k.replace("-", "_")) for k in ("win", "draw", "loss", "forfeit_loss")
              if getattr(args, k.replace("-", "_")) is not None}
        tb = [t.strip() for t in args.tiebreaks.split(",") if t.strip()] if args.tiebreaks else None
        e = Event.create(lib, args.event, args.game, args.system, cycles=args.cycles,
                         games_per_match=args.games_per_match, tiebreak_games=args.tiebreak_games,
                         groups=args.groups, advance=args.advance, final=args.final, scoring_=sc,
                         tiebreaks=tb, team=args.team, boards_per_match=args.boards_per_match,
                         bye_points=args.bye_points, boards=args.board, site=args.site)
        print("event %s: %s, %s, scoring %s, tiebreaks %s" % (
            e.name, e.game, e.settings["system"],
            "/".join(outputs._num(e.scoring[k]) for k in ("win", "draw", "loss")), ", ".join(e.settings["tiebreaks"])))
        return 0
    e = Event(lib, args.event)
    if act == "add":
        for n in args.names:
            x = e.add_entrant(n, args.rating, args.team)
            print("entered %s (seed %d%s)" % (x.name, x.seed, ", team " + args.team if args.team else ""))
        if all(x.rating for x in e.entrants(teams_only=False)):
            e.reseed()
    elif act == "board":
        e.add_board(args.label, args.id)
        print("board %s (id %s) added to %s" % (args.label, args.id or args.label, e.name))
    elif act == "pair":
        r, ps = e.pair_next()
        print("round %d paired" % r)
        sys.stdout.write(outputs.pairings_text(e, r))
    elif act == "assign":
        p = e.assign(args.round, args.who, args.board)
        print("round %d table %s on board %s" % (p.round, _table(p), args.board))
    elif act == "result":
        p = e.set_result(args.round, args.who, args.result, args.reason, args.kazans)
        print("round %d table %s: %s (%s; %s)%s" % (p.round, _table(p), _words(e, p, p.result), p.result,
                                                    args.reason, ("\nflag: " + p.flag) if p.flag else ""))
    elif act == "take":
        from playboard_host.tournament.results import final_kazans
        p = e.take_game(args.round, args.who, args.game, args.reason, args.swapped)
        g = lib.games(ids=[args.game])[0]
        kz = final_kazans(g)
        if kz:
            if args.swapped:
                kz = kz[::-1]
            with lib.db:
                lib.db.execute("UPDATE pairings SET kazans=? WHERE id=?", ("[%d, %d]" % kz, p.id))
        names = e.names_by_id()
        print("round %d table %s: %s - %s: %s (%s, game %d, taken by hand: %s)" % (
            p.round, _table(p), names[p.white], names[p.black], _words(e, p, p.result), p.result, args.game,
            args.reason))
    elif act == "decide":
        wid = e.decide(args.round, args.match, args.winner, args.by, args.reason)
        print("round %d match %s: %s goes on (decided by %s: %s)" % (
            args.round, args.match, e.names_by_id()[wid] if wid else "nobody", args.by, args.reason))
    elif act == "adjourn":
        p = e.adjourn(args.round, args.who, args.reason)
        print("round %d table %s adjourned (%s)" % (p.round, _table(p), args.reason))
    elif act == "repair":
        r, ps = e.repair()
        print("round %d paired again" % r)
        sys.stdout.write(outputs.pairings_text(e, r))
    elif act == "send":
        return _send(e, args)
    elif act == "withdraw":
        r = e.withdraw(args.name, args.round)
        print("%s withdrawn from round %d on: their games without a result are forfeits" % (args.name, r))
    elif act == "collect":
        lines = take_results(e, lib)
        for line in lines:
            print(line)
        if not lines:
            print("no new games from the boards of %s (sync the boards first: playboard sync)" % e.name)
    elif act == "pairings":
        _write(args, outputs.pairings_text(e, args.round, args.format))
    elif act == "standings" and args.format == "trf":
        from playboard_host.tournament.trf import trf_text
        _write(args, trf_text(e, lib))
    elif act == "standings":
        _write(args, outputs.standings_text(e, args.format))
    elif act == "pgn":
        _write(args, outputs.event_pgn(e, lib))
    elif act == "show":
        s = e.settings
        print("%s: %s, %s" % (e.name, e.game, s["system"]))
        for k in sorted(s):
            if k not in ("boards", "decisions", "void"):
                print("  %s: %s" % (k, s[k]))
        print("  boards: %s" % (", ".join("%s=%s" % kv for kv in s["boards"].items()) or "none"))
        for x in e.entrants(teams_only=False):
            print("  %3d %s%s%s" % (x.seed, x.name, " (team %s)" % x.team if x.team else "",
                                    " withdrawn from round %d" % x.withdrawn_round if x.withdrawn_round else ""))
        names = e.names_by_id()
        for k, d in sorted(s.get("decisions", {}).items()):
            r, stage, m = k.split("/")
            print("  decision round %s match %s: %s goes on (by %s: %s)" % (
                r, m, names.get(d["winner"], "nobody"), d["by"], d["reason"]))
        for c in e.corrections():
            p = e.pairings_by_id(c[0])
            print("  correction round %d table %s: %s -> %s (%s -> %s; %s, %s)" % (
                c[1], c[2], _words(e, p, c[3]), _words(e, p, c[4]), c[3] or "none", c[4], c[5], c[6]))
    return 0


def _words(e, p, result):
    """``result`` of pairing ``p`` in words, with its players' names ("Bek won", "draw")."""
    from playboard_host.result_words import result_words
    names = e.names_by_id()
    return result_words(result, names.get(p.white), names.get(p.black), state="pairing")


def _send(e, args):
    """``tournament send``: each port's board told its next pairing (its hello's id
    names its label); one line per board."""
    from playboard_host.serial_link import LinkError, connect_port
    from playboard_host.tournament.results import game_carrying, next_pairing, pairing_request, round_text

    failed = 0
    seen = {}
    for port in args.port:
        try:  # (the board's clock set, as sync, live and the hall do: its games get their Date tag)
            link, hello = connect_port(port, timeout=args.timeout)
        except (LinkError, OSError) as x:  # (its words: "cannot open ...", or the hello's "no answer ...")
            print("%s: %s" % (port, x))
            failed += 1
            continue
        try:
            bid = hello.get("board")
            if bid in seen:
                print("%s: answers id %s as %s does: each board needs its own id; not sent" % (port, bid, seen[bid]))
                failed += 1
                continue
            seen[bid] = port
            label = e.board_of_id(bid)
            if label is None:
                print("%s: board %s is not a board of %s" % (port, bid, e.name))
                failed += 1
                continue
            p = next_pairing(e, label)
            if p is None:
                print("board %s (%s): no pairing to play" % (label, port))
                continue
            req = pairing_request(e, p)
            names = e.names_by_id()
            said = "board %s: round %s, %s (White) - %s (Black)" % (
                label, round_text(p), names[p.white], names[p.black])
            its = game_carrying(link, req["pairing"])
            if its is not None:  # (sent again, the board would keep it for its next game too)
                print("%s is its game (%s): not sent again" % (said, its))
                continue
            link.set_game(**req)
            print("%s: its next game" % said)
        except LinkError as x:
            print("%s: %s" % (port, x))
            failed += 1
        finally:
            link.close()
    return 1 if failed else 0
