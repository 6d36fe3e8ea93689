"""`playboard games`: list the games in the library."""
from playboard_host.commands.export import add_filter_arguments, filtered, open_library

HELP = "list the games in the library (filters as for export)"


def add_arguments(p):
    p.add_argument("--library", help="library file (default $PLAYBOARD_LIBRARY or ~/.playboard/library.sqlite)")
    add_filter_arguments(p)


def run(args):
    lib = open_library(args.library)
    try:
        games = filtered(lib, args)
    finally:
        lib.close()
    print("%5s  %-10s  %-7s  %-8s  %5s  %s" % ("id", "date", "game", "result", "plies", "players"))
    for g in games:
        players = "%s - %s" % (g.tags.get("White", "?"), g.tags.get("Black", "?"))
        print("%5d  %-10s  %-7s  %-8s  %5d  %s" % (g.id, g.date, g.game, g.result, g.plies, players))
    print("%d game%s" % (len(games), "" if len(games) == 1 else "s"))
    return 0
