"""`playboard export`: write library games as PGN-style records or JSON."""
import sys

from playboard.games.common import GAME_NAMES

from playboard_host.cli import CommandError, add_json_argument, add_library_argument, check_output_path
from playboard_host.export import export
from playboard_host.library import Library, LibraryError

HELP = "export library games as PGN-style records (RULES.md) or JSON, filtered by game, date, result"


def add_filter_arguments(p):
    p.add_argument("--game", choices=GAME_NAMES, help="only this game")
    p.add_argument("--result", choices=("1-0", "0-1", "1/2-1/2", "*"), help="only this result")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="only games on or after this date")
    p.add_argument("--until", metavar="YYYY-MM-DD", help="only games on or before this date")
    p.add_argument("--id", type=int, action="append", dest="ids", metavar="N", help="only library game N (repeatable)")


def _date(text):
    if text is None:
        return None
    import datetime
    try:
        d = datetime.date.fromisoformat(text.replace(".", "-"))
    except ValueError:
        raise CommandError("bad date %r (expected YYYY-MM-DD or YYYY.MM.DD, a real day)" % text)
    return d.isoformat()


def open_library(path):
    """The library at ``path`` for reading: CommandError if missing or not a library."""
    try:
        return Library(path, create=False)
    except LibraryError as e:
        raise CommandError(str(e))


def check_filters(args):
    """CommandError for filters that can match nothing (before any file is opened)."""
    since, until = _date(args.since), _date(args.until)
    if since and until and since > until:
        raise CommandError("--since %s is after --until %s: no day is in between" % (since, until))
    return since, until


def filtered(lib, args):
    since, until = check_filters(args)
    games = lib.games(game=args.game, result=args.result, since=since, until=until, ids=args.ids)
    if args.ids:
        missing = sorted(set(args.ids) - {g.id for g in games})
        if missing and not (args.game or args.result or args.since or args.until):
            raise CommandError("no game with id %s in the library" % ", ".join(map(str, missing)))
    return games


def add_arguments(p):
    add_library_argument(p)
    p.add_argument("--format", "-f", choices=("pgn", "json", "playstrategy"), default="pgn",
                   help="output format (default pgn; playstrategy: the Toguz Kumalak games as PlayStrategy's "
                        "Togyzkumalak PGN, which playstrategy.org imports)")
    add_json_argument(p, "JSON, as --format json: a list of the games, each with its tags and moves")
    p.add_argument("--output", "-o", help="write to this file (default standard output)")
    add_filter_arguments(p)


def run(args):
    check_output_path(args.output, "--output")
    check_filters(args)
    lib = open_library(args.library)
    try:
        games = filtered(lib, args)
    finally:
        lib.close()
    fmt = "json" if args.json else args.format
    if fmt == "playstrategy":
        other = [g for g in games if g.game != "toguz"]
        if other:
            print("%d game%s not Toguz Kumalak left out (PlayStrategy's Togyzkumalak only)" % (
                len(other), "" if len(other) == 1 else "s"), file=sys.stderr)
        games = [g for g in games if g.game == "toguz"]
    text = export(games, fmt)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
        except OSError as e:
            raise CommandError("can't write %s: %s" % (args.output, e.strerror or e))
        print("%d game%s written to %s" % (len(games), "" if len(games) == 1 else "s", args.output),
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
