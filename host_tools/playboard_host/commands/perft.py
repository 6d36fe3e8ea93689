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
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress bar (shown on a terminal for depth 5 and more, one step per first move)")


def run(args):
    if not 0 <= args.depth <= MAX_DEPTH:
        raise CommandError("depth must be 0..%d, got %d (each ply multiplies the count; "
                           "Toguz Kumalak perft(8) already takes about a minute)" % (MAX_DEPTH, args.depth))
    try:
        g = new_game(args.game, args.position)
    except GameError as e:
        raise CommandError(str(e))
    if args.depth == 0:
        print(perft(g, 0))
        return 0
    import sys

    from tqdm import tqdm

    moves = g.legal_moves()
    bar = tqdm(total=len(moves), unit="move", desc="perft %d" % args.depth, file=sys.stderr, leave=False,
               disable=True if args.quiet or args.depth < 5 else None)
    total = 0
    try:
        for m in moves:  # perft(d) = the sum of perft(d - 1) below each first move
            text = g.move_text(m)
            g.push(m)
            n = perft(g, args.depth - 1)
            g.pop()
            total += n
            bar.update()
            if args.divide:
                bar.clear()
                print("%s\t%d" % (text, n), flush=True)
    finally:
        bar.close()
    print(total)
    return 0
