"""The engine ladder by matches (CPython; hours on a quiet machine: not CI).

For Toguz Kumalak and Tobit (5 x 4), at the RP2040's node budget for a 2 s move
(``playboard_host.match.DEFAULT_NODES``: the emulated Pico's nodes/s x 2; each
level gets its share of it):

- each level 1..8 against the reference players (random, greedy, noisy) and
  against the level below, ``GAMES`` games a pairing, with the 95% interval;
  targets: level 1 against greedy 25-50%, level 1 loses some games to random
  (score < 100%), each level against the one below 60-75%;
- Toguz Kumalak only: level 8 at that budget against the engine before issue 18
  (``base8``, read from git) at 8,000 nodes, target >= 50%.

The same matches are ``playboard match --game toguz --game tobit --games 100
--processes N`` (and ``--pair L8:base8@8000``), which prints the markdown table
in docs/engine.md. Environment: ``LADDER_GAMES`` (default 100),
``LADDER_PROCESSES`` (default: the machine's cores), ``LADDER_GAMES_LIST``
(default ``toguz,tobit``). Nothing is cached.
"""
import os
import sys

sys.path.insert(0, "firmware")
sys.path.insert(0, "bench")
sys.path.insert(0, "host_tools")

import playboard_host  # noqa: E402,F401 - the CPython twins of the viper code
from playboard_host import match  # noqa: E402
from playboard_host.commands.match import suite  # noqa: E402

from benchlib import report  # noqa: E402

GAMES = int(os.environ.get("LADDER_GAMES", "100"))
PROCESSES = int(os.environ.get("LADDER_PROCESSES", str(os.cpu_count() or 1)))
GAME_LIST = os.environ.get("LADDER_GAMES_LIST", "toguz,tobit").split(",")


def target_of(a, b):
    if a == "L1" and b == "greedy":
        return "25-50%", lambda r: 0.25 <= r["score"] <= 0.50
    if a == "L1" and b == "random":
        return "< 100% (loses some)", lambda r: r["losses"] > 0
    if b.startswith("L"):
        return "60-75%", lambda r: 0.60 <= r["score"] <= 0.75
    return None, None


def main():
    for game in GAME_LIST:
        pairs = suite()
        if game == "toguz":
            pairs = pairs + [("L8", "base8@8000")]
        for a, b in pairs:
            r = match.run_match(game, a, b, games=GAMES, processes=PROCESSES)
            target, ok = target_of(a, b)
            if b == "base8@8000":
                target, ok = ">= 50%", lambda r: r["score"] >= 0.5
            report("ladder %s %s vs %s (%d games, L8 %d nodes)" % (game, a, b, GAMES, r["nodes"]),
                   round(100 * r["score"], 1), "%% [%.1f, %.1f] %d-%d-%d" % (
                       100 * r["low"], 100 * r["high"], r["wins"], r["draws"], r["losses"]),
                   target, None if ok is None else ok(r))


main()
