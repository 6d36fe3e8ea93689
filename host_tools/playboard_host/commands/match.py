"""`playboard match`: engine strength by matches (the table in docs/engine.md)."""
import json

from playboard.games.common import GAME_NAMES

from playboard_host import match
from playboard_host.cli import CommandError, check_output_path

HELP = "play engine matches (level 8 vs random/greedy, each level vs the one below) and print the results"


def add_arguments(p):
    p.add_argument("--game", action="append", choices=GAME_NAMES,
                   help="a game to play (repeatable; default: all four)")
    p.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    p.add_argument("--nodes", type=int, help="level 8's node budget per move (default %s)" % (
        ", ".join("%s %d" % kv for kv in sorted(match.DEFAULT_NODES.items()))))
    p.add_argument("--pair", action="append", metavar="A:B",
                   help="a pairing such as L8:greedy (repeatable; default: the whole suite)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random openings (default 1)")
    p.add_argument("--processes", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--json", metavar="FILE", help="also append each result as a JSON line to FILE")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar (it shows on a terminal only)")
    p.add_argument("--exhaustive", action="store_true",
                   help="also play the Tihbat table against every reply from the start, for each side")


def suite():
    pairs = [("L8", "random"), ("L8", "greedy")]
    pairs += [("L%d" % k, "L%d" % (k - 1)) for k in range(2, 9)]
    return pairs


def run(args):
    if args.games < 1:
        raise CommandError("--games must be 1 or more")
    check_output_path(args.json, "--json")
    pairs = suite()
    if args.pair:
        pairs = []
        for text in args.pair:
            a, _, b = text.partition(":")
            if not a or not b:
                raise CommandError("--pair wants A:B, e.g. L8:greedy, not %r" % text)
            pairs.append((a, b))
    games = args.game or list(GAME_NAMES)
    import sys

    from tqdm import tqdm

    bar = tqdm(total=len(games) * len(pairs) * args.games, unit="game", desc="match", file=sys.stderr,
               disable=True if args.quiet else None, leave=False)
    print("| game | A | B | games | A wins | draws | A losses | A score | mean plies | adjudicated | nodes (L8) | notes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for game in games:
        for a, b in pairs:
            try:
                bar.set_description("%s %s-%s" % (game, a, b))
                r = match.run_match(game, a, b, games=args.games, nodes=args.nodes, seed=args.seed,
                                    processes=args.processes, progress=bar.update)
            except ValueError as e:
                raise CommandError(str(e))
            extra = ""
            if game == "tihbat" and a == "L8":
                extra = "table said not lost in %d; lost %d of them" % (r["not_lost"], r["lost_when_not_lost"])
            print("| %s | %s | %s | %d | %d | %d | %d | %.1f%% | %.0f | %d | %d | %s |" % (
                game, a, b, r["games"], r["wins"], r["draws"], r["losses"], 100 * r["score"],
                r["plies"], r["adjudicated"], r["nodes"], extra), flush=True)
            if args.json:
                with open(args.json, "a") as f:
                    f.write(json.dumps(r) + "\n")
    bar.close()
    if args.exhaustive:
        for side in (0, 1):
            n, worst, longest = match.tihbat_table_never_loses(side)
            print("tihbat table as %s against every reply from the start: %d games, worst final margin %+d, "
                  "longest %d plies" % ("South" if side == 0 else "North", n, worst, longest), flush=True)
    return 0
