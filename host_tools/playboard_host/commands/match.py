"""`playboard match`: engine strength by matches (the ladder in docs/engine.md)."""
import json
import os
import shutil
import sys
import time

from playboard.games.common import GAME_NAMES

from playboard_host import match, match_mp, simboard
from playboard_host.cli import CommandError, check_output_path

HELP = "play engine matches (the ladder: each level vs the one below and vs random/greedy/noisy) and print the results"


def add_arguments(p):
    p.add_argument("--game", action="append", choices=GAME_NAMES,
                   help="a game to play (repeatable; default: all four)")
    p.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    p.add_argument("--nodes", type=int, help="the top level's node budget per move (9, Tobit's 11) (default: the RP2040's 2 s, %s)" % (
        ", ".join("%s %d" % kv for kv in sorted(match.DEFAULT_NODES.items()))))
    p.add_argument("--native", action="store_true",
                   help="Tobit and Toguz Kumalak as on a board whose search runs in native code (a frozen "
                        "build): Tobit's 13 levels, Toguz Kumalak's 10 (8-10 native), "
                        "the native levels at the chip's native 2 s (%s) unless --nodes" % (
                            ", ".join("%s %d" % kv for kv in sorted(match.NATIVE_NODES.items()))))
    p.add_argument("--pair", action="append", metavar="A:B",
                   help="a pairing such as L8:greedy, L8:base8@8000, L8:prev8@8000 or L9:was9@2374 (an engine's "
                        "/T: its table's entries, e.g. L9@15984/4096) (repeatable; default: the ladder)")
    p.add_argument("--ladder", action="store_true",
                   help="only the ladder's targets: L1 against random/greedy/noisy and each level against the one below")
    p.add_argument("--seed", type=int, default=1, help="seed of the random openings (default 1)")
    p.add_argument("--processes", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--micropython", nargs="?", const="", metavar="PATH",
                   help="play the same games under MicroPython, the native code as on a board: PATH or "
                        "the simulator's model, build/micropython-board (engines only: L1.., base8, "
                        "prev8, was9)")
    p.add_argument("--jsonl", metavar="FILE", help="also append each result as a JSON line to FILE")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on standard error")
    p.add_argument("--exhaustive", action="store_true",
                   help="also play the Tihbat table against every reply from the start, for each side")


def suite(game="toguz", native=False):
    """The ladder's pairings in ``game``: each level against the reference players
    (random, greedy, noisy), then each level against the one below, cheapest first
    (levels 1..the game's top: 9, Tobit's 11; ``native``: Tobit's 13, Toguz Kumalak's 10)."""
    top = match.top_level(game, native)
    pairs = [("L%d" % k, ref) for k in range(1, top + 1) for ref in ("random", "greedy", "noisy")]
    pairs += [("L%d" % k, "L%d" % (k - 1)) for k in range(2, top + 1)]
    return pairs


def ladder(game="toguz", native=False):
    """The pairings the ladder's targets are about in ``game`` (``native``: on a board
    whose Tobit search is native): level 1 against the reference players, then each
    level against the one below."""
    return [("L1", ref) for ref in ("random", "greedy", "noisy")] + [
        ("L%d" % k, "L%d" % (k - 1)) for k in range(2, match.top_level(game, native) + 1)]


class _Progress:
    """Progress of one pairing on standard error (``show`` is run_match's
    ``progress``); ``done``/``points`` stay readable after a Ctrl-C."""

    def __init__(self, label, quiet):
        self.label = label
        self.quiet = quiet
        self.done = 0
        self.points = 0.0
        self.t0 = time.time()

    def show(self, done, total, points):
        self.done, self.points = done, points
        if self.quiet:
            return
        left = (time.time() - self.t0) / done * (total - done)
        text = "%s: %d/%d games, A %.1f points (%.0f%%), about %.0f s left" % (
            self.label, done, total, points, 100.0 * points / done, left)
        sys.stderr.write("\r" + text + " " * 4)
        if done == total:
            sys.stderr.write("\r" + " " * (len(text) + 4) + "\r")
        sys.stderr.flush()


def run(args):
    if args.games < 1:
        raise CommandError("--games must be 1 or more")
    check_output_path(args.jsonl, "--jsonl")
    pairs = None  # each game's (its levels)
    if args.pair:
        pairs = []
        for text in args.pair:
            a, _, b = text.partition(":")
            if not a or not b:
                raise CommandError("--pair wants A:B, e.g. L8:greedy, not %r" % text)
            pairs.append((a, b))
    games = args.game or (list(match.NATIVE_NODES) if args.native else list(GAME_NAMES))
    if args.native and any(g not in match.NATIVE_NODES for g in games):
        raise CommandError("--native is Tobit's and Toguz Kumalak's (tobit, tobit4, toguz): their "
                           "search in native code")
    play = None
    if args.micropython is not None:
        try:
            exe = args.micropython or simboard.model_binary()  # (rebuilt where the firmware changed)
        except simboard.SimError as e:
            raise CommandError("--micropython: %s" % e)
        exe = exe and (exe if os.path.exists(exe) else shutil.which(exe)) or exe
        if not exe or not os.path.exists(exe):
            raise CommandError("--micropython: no %s (the simulator's model, build/micropython-board, is "
                               "built by `make setup`)" % (exe or "simulator's model"))
        play = match_mp.runner(exe)
    for game in games:  # each pairing checked before any is played
        try:
            match.check_players(game, sorted({x for pair in pairs or () for x in pair}), args.native)
            if play is not None:
                match_mp.check_players({x for pair in pairs or suite(game, args.native) for x in pair})
        except ValueError as e:
            raise CommandError(str(e))
    print("| game | A | B | games | A wins | draws | A losses | A score | 95% interval | mean plies "
          "| adjudicated | nodes (top level) | notes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    finished = 0
    for game in games:
        for a, b in pairs or (ladder(game, args.native) if args.ladder else suite(game, args.native)):
            prog = _Progress("%s %s:%s" % (game, a, b), args.quiet)
            try:
                r = match.run_match(game, a, b, games=args.games, nodes=args.nodes, seed=args.seed,
                                    processes=args.processes, progress=prog.show, native=args.native, play=play)
            except ValueError as e:
                raise CommandError(str(e))
            except (KeyboardInterrupt, match_mp.WorkerFailed) as e:
                stop = "interrupted" if isinstance(e, KeyboardInterrupt) else "playboard: %s\nstopped" % e
                sys.stderr.write("\n%s: %d pairing(s) finished (above%s); %s %s:%s dropped after "
                                 "%d of %d games (A %.1f points)\n" % (
                                     stop, finished, ", and in " + args.jsonl if args.jsonl else "", game, a, b,
                                     prog.done, args.games, prog.points))
                return 130 if isinstance(e, KeyboardInterrupt) else 1
            extra = ""
            if game == "tihbat" and a == "L%d" % match.top_level(game):
                extra = "table said not lost in %d; lost %d of them" % (r["not_lost"], r["lost_when_not_lost"])
            print("| %s | %s | %s | %d | %d | %d | %d | %.1f%% | %.1f-%.1f%% | %.0f | %d | %d | %s |" % (
                game, a, b, r["games"], r["wins"], r["draws"], r["losses"], 100 * r["score"],
                100 * r["low"], 100 * r["high"], r["plies"], r["adjudicated"], r["nodes"], extra), flush=True)
            if args.jsonl:
                with open(args.jsonl, "a") as f:
                    f.write(json.dumps(r) + "\n")
            finished += 1
    if args.exhaustive:
        for side in (0, 1):
            n, worst, longest = match.tihbat_table_never_loses(side)
            print("tihbat table as %s against every reply from the start: %d games, worst final margin %+d, "
                  "longest %d plies" % ("South" if side == 0 else "North", n, worst, longest), flush=True)
    return 0
