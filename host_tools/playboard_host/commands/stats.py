"""`playboard stats`: games per day, by game and level, mean lengths, the boards' health;
``--report DIR`` writes a curator's report with plots (docs/museum.md)."""
import os

from playboard.games.common import GAME_NAMES
from playboard_host.cli import CommandError, add_library_argument
from playboard_host.commands.export import check_filters, open_library

REPORT_HINT = ("--report draws its plots with matplotlib, not installed beside playboard: installed with pipx, "
               "run `pipx inject playboard matplotlib`; with pip, `python -m pip install 'playboard[report]'` "
               "(or `pip install matplotlib` in its environment)")
HELP = "games started, finished and abandoned per day and by game and level, and each board's health"


def add_arguments(p):
    add_library_argument(p)
    p.add_argument("--game", choices=GAME_NAMES, help="only this game")
    p.add_argument("--board", help="only games and health of this board (its id: playboard boards)")
    p.add_argument("--since", metavar="YYYY-MM-DD", help="only games on or after this date")
    p.add_argument("--until", metavar="YYYY-MM-DD", help="only games on or before this date")
    p.add_argument("--report", metavar="DIR",
                   help="also write a report for a curator into folder DIR: index.html and plots")
    p.add_argument("--format", choices=("svg", "png"), default="svg", help="the plots' format (default svg)")


def run(args):
    from playboard_host.stats import Stats, text, write_report

    since, until = check_filters(args)
    if args.report and os.path.exists(args.report) and not os.path.isdir(args.report):
        raise CommandError("report folder %s is a file" % args.report)
    if args.report:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise CommandError(REPORT_HINT)
    lib = open_library(args.library)
    try:
        games = lib.games(game=args.game, since=since, until=until)
        boards = lib.boards()
    finally:
        lib.close()
    if args.board:
        if args.board not in {b["board"] for b in boards}:
            raise CommandError("no board %r in the library (playboard boards lists them)" % args.board)
        games = [g for g in games if g.board == args.board]
        boards = [b for b in boards if b["board"] == args.board]
    st = Stats(games)
    for line in text(st, boards):
        print(line)
    if args.report:
        try:
            paths = write_report(st, boards, args.report, args.format)
        except OSError as e:
            raise CommandError("can't write the report in %s: %s" % (args.report, e.strerror or e))
        print("report: %s (%d files)" % (os.path.join(args.report, "index.html"), len(paths)))
    return 0
