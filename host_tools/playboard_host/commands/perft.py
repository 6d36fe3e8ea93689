"""`playboard perft GAME DEPTH [--position TEXT]`: count legal move sequences."""
from playboard.games.common import GAME_NAMES, GameError
from playboard.games.perft import perft
from playboard.games.registry import new_game

from playboard_host.cli import CommandError

MAX_DEPTH = 20

HELP = "count the legal move sequences of DEPTH plies (perft) and print the count"


def add_arguments(p):
    p.add_argument("game", choices=GAME_NAMES, help="the game")
    p.add_argument("depth", type=int, help="plies (0 or more)")
    p.add_argument("--position", metavar="TEXT", help="start from this position text instead of the start")
    p.add_argument("--divide", action="store_true", help="also print the count below each first move")


def run(args):
    if not 0 <= args.depth <= MAX_DEPTH:
        raise CommandError("depth must be 0..%d, got %d (each ply multiplies the count; "
                           "Toguz Kumalak perft(8) already takes about a minute)" % (MAX_DEPTH, args.depth))
    try:
        g = new_game(args.game, args.position)
    except GameError as e:
        raise CommandError(str(e))
    if args.divide and args.depth > 0:
        for m in g.legal_moves():
            text = g.move_text(m)
            g.push(m)
            print("%s\t%d" % (text, perft(g, args.depth - 1)))
            g.pop()
    print(perft(g, args.depth))
    return 0
