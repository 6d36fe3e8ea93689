"""`playboard games`: list the games in the library."""
from playboard_host.commands.export import add_filter_arguments, check_filters, filtered, open_library
from playboard_host.cli import add_library_argument
from playboard_host.words import result_short

HELP = "list the games in the library (filters as for export)"


def add_arguments(p):
    add_library_argument(p)
    add_filter_arguments(p)
    p.add_argument("--json", action="store_true",
                   help="one JSON object per game (id, date, game, result, result_text, termination, plies, "
                        "white, black, board) instead of the table")


def run(args):
    check_filters(args)
    lib = open_library(args.library)
    try:
        games = filtered(lib, args)
    finally:
        lib.close()
    if args.json:
        import json

        for g in games:
            print(json.dumps({"id": g.id, "date": g.date, "game": g.game, "result": g.result,
                              "result_text": result_short(g.game, g.result, g.termination, g.tags),
                              "termination": g.termination, "plies": g.plies, "white": g.tags.get("White"),
                              "black": g.tags.get("Black"), "board": g.board}, ensure_ascii=False))
        return 0
    words = [result_short(g.game, g.result, g.termination, g.tags) for g in games]
    w = max([24] + [len(t) for t in words])  # (a tournament's names make them long)
    print("%5s  %-10s  %-7s  %-*s  %5s  %s" % ("id", "date", "game", w, "result", "plies", "players"))
    for g, text in zip(games, words):
        players = "%s - %s" % (g.tags.get("White", "?"), g.tags.get("Black", "?"))
        print("%5d  %-10s  %-7s  %-*s  %5d  %s" % (g.id, g.date, g.game, w, text, g.plies, players))
    print("%d game%s" % (len(games), "" if len(games) == 1 else "s"))
    return 0
