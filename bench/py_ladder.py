"""The engine ladder by matches (CPython; an hour or more: never part of CI).

For Toguz Kumalak and Tobit (5 x 4), at the RP2040's node budget for a 2 s move
(``playboard_host.match.DEFAULT_NODES``: the emulated Pico's nodes/s x 2; each
level gets its share of it):

- the engine's speed per game under CPython (the interpreter the matches run
  on: the same firmware code, with the CPython twins of its viper kernels):
  nodes/s of a 20,000-node level-8 search from a middle game, on this
  process's CPU time (so other work on the machine counts little);
- the ladder: level 1 against the reference players (random, greedy, noisy)
  and each level against the one below, ``LADDER_GAMES`` games a pairing,
  with the 95% interval and the score's target: level 1 against greedy
  25-50%, level 1 loses some games to random (score < 100%), each level
  against the one below 60-75%;
- with ``LADDER_FULL=1`` also levels 2..top (9; Tobit's 11) against the reference players,
  the top level against the engine before issue 18 (``base8``, read from git) at
  8,000 nodes (target >= 50%) for both games and, for Toguz Kumalak, against
  the engine of the ladder's first calibration (``prev8``, read from git: a
  fixed reference for changes to the search) at 8,000 nodes.

At the end it prints the ladder as the markdown table of docs/engine.md. The
same matches are ``playboard match --game toguz --game tobit --ladder
--games 100`` (the whole suite without ``--ladder``). Environment:
``LADDER_GAMES`` (default 100; 10 for a quick look), ``LADDER_PROCESSES``
(default 1: the machine is shared), ``LADDER_GAMES_LIST`` (default
``toguz,tobit``), ``LADDER_FULL``, ``LADDER_PAIRS`` (only these pairings, e.g.
``toguz:L4:L3,toguz:L9:prev8@8000,tobit:L13:L12:native``: ``LADDER_GAMES_LIST`` is
then ignored; ``native``: on a board whose Tobit search is native).

Tobit's ladder includes the levels a board with its search in native code (a frozen
build) adds above 11: 12 against 11 and 13 against 12 at the chip's native budget
(``playboard match --native``; its levels 1-11 play as on any board, at about the same
nodes: docs/engine.md).
The bench runner stops a script after ``BENCH_SCRIPT_S`` seconds (default
1200): set it to some hours for 100 games.
"""
import os
import sys
import time

sys.path.insert(0, "firmware")
sys.path.insert(0, "bench")
sys.path.insert(0, "host_tools")

import playboard_host  # noqa: E402,F401 - the CPython twins of the viper code
from playboard.engine.search import Engine  # noqa: E402
from playboard.games.registry import new_game  # noqa: E402
from playboard_host import match  # noqa: E402
from playboard_host.commands.match import ladder, suite  # noqa: E402

from benchlib import middle, report  # noqa: E402

GAMES = int(os.environ.get("LADDER_GAMES", "100"))
PROCESSES = int(os.environ.get("LADDER_PROCESSES", "1"))
GAME_LIST = os.environ.get("LADDER_GAMES_LIST", "toguz,tobit").split(",")
FULL = os.environ.get("LADDER_FULL", "") not in ("", "0")
PAIRS = [tuple(p.split(":")[:3]) + (p.endswith(":native"),)
         for p in os.environ.get("LADDER_PAIRS", "").split(",") if p]
SPEED_NODES = 20000


def target_of(a, b):
    """(target text, test of a result) for pairing a:b, or (None, None)."""
    if a == "L1" and b == "greedy":
        return "25-50%", lambda r: 0.25 <= r["score"] <= 0.50
    if a == "L1" and b == "random":
        return "< 100% (loses some)", lambda r: r["losses"] > 0
    if b in ("base8@8000", "prev8@8000"):
        return ">= 50%", lambda r: r["score"] >= 0.5
    if b.startswith("L"):
        return "60-75%", lambda r: 0.60 <= r["score"] <= 0.75
    return None, None


def speed(name):
    """(nodes/s, nodes) of a top-level search of SPEED_NODES nodes from the middle game,
    on this process's CPU time."""
    g = new_game(name, middle(name))
    e = Engine(tt_size=1024)
    top = match.top_level(name)
    e.think(g, top, nodes=1)  # the engine's game copy is made outside the timing
    t0 = time.process_time()
    e.think(g, top, nodes=SPEED_NODES)
    return e.nodes / max(1e-6, time.process_time() - t0), e.nodes


def main():
    for game in sorted(set(j[0] for j in PAIRS)) if PAIRS else GAME_LIST:
        nps, n = speed(game)
        report("engine %s: nodes/s under CPython (top level, %d nodes, middle game)" % (game, n),
               int(nps), "nodes/s", None, None)
    rows = []
    jobs = list(PAIRS)
    if not jobs:
        for game in GAME_LIST:
            pairs = suite(game) if FULL else ladder(game)
            top = "L%d" % match.top_level(game)
            if FULL:
                pairs = pairs + [(top, "base8@8000")]
            if FULL and game == "toguz":
                pairs = pairs + [(top, "prev8@8000")]
            jobs += [(game, a, b, False) for a, b in pairs]
            if game in match.NATIVE_NODES:  # a board whose search is native: its levels above 11
                top = match.top_level(game)
                jobs += [(game, "L%d" % k, "L%d" % (k - 1), True)
                         for k in range(top + 1, match.top_level(game, True) + 1)]
                if FULL:
                    jobs.append((game, "L%d" % match.top_level(game, True), "base8@8000", True))
    for game, a, b, native in jobs:
        r = match.run_match(game, a, b, games=GAMES, processes=PROCESSES, native=native)
        target, ok = target_of(a, b)
        verdict = None if ok is None else ok(r)
        report("ladder %s%s %s vs %s (%d games, top level %d nodes)" % (
            game, " (native search)" if native else "", a, b, GAMES, r["nodes"]),
               round(100 * r["score"], 1), "%% [%.1f, %.1f] %d-%d-%d" % (
                   100 * r["low"], 100 * r["high"], r["wins"], r["draws"], r["losses"]),
               target, verdict)
        rows.append((r, target, verdict))
    print("| game | A | B | games | A wins-draws-losses | A score | 95% interval | target |")
    print("|---|---|---|---|---|---|---|---|")
    for r, target, verdict in rows:
        print("| %s | %s | %s | %d | %d-%d-%d | %.1f%% | %.0f-%.0f%% | %s |" % (
            r["game"] + (" (native)" if r["native"] else ""), r["a"], r["b"], r["games"], r["wins"], r["draws"], r["losses"],
            100 * r["score"], 100 * r["low"], 100 * r["high"],
            "" if target is None else "%s: %s" % (target, "met" if verdict else "missed")))


if __name__ == "__main__":
    main()
