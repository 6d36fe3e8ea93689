"""Screen a Toguz Kumalak search feature at equal nodes, under the simulator's model (not a
`make bench` script: run by hand).

Run from the repository root (the firmware's source, so that a change is screened
without rebuilding the model)::

    MICROPYPATH=firmware:bench build/micropython-board -X heapsize=242k \\
        bench/screen_toguz.py A B [GAMES [NODES [FIRST [STEP]]]]

``A``, ``B``: the two players' search features (``Engine.features``: an int of
``search.SEARCH_*`` bits: ``0`` none, ``1`` PVS, ``2`` late-move reductions, ``3`` both, the
kept pair; commit a4ac365 also had ``4`` an aspiration window and ``8`` history, screened
and not kept; ``-`` the search as it is, its evaluation's ``SEARCH``), or ``py`` for the engine's own (Python) search without features at ``NODES_PY`` (the
old top level, issue 35's match). A change to the evaluation or the search is screened
as ``-`` against ``py``, or against ``-`` on another checkout's firmware. Both play the
top level (10; the engine's own search: 9) of a native board (``Engine.native``), ``NODES`` nodes a move (15,500 by
default), each with its own 1,024-entry table. Game ``k`` starts from opening ``k // 2``
(first the 81 distinct 2-ply openings, then distinct 3-ply ones in a fixed shuffled
order), A moving first (South) in even games; a game over 1,000 plies is judged by
the kazans. ``FIRST``/``STEP``: play games FIRST, FIRST + STEP, ... (two processes:
``0 2`` and ``1 2``; their lines add up). Prints a line a game (``G k score plies
nodes/s``) and at the end ``W/D/L``, A's score and its 95% interval
(``playboard_host.match.interval95``'s Wilson interval, draws as half points).
``speed A B ...``: each one's nodes/s instead (``speed``).
"""
import math
import sys
import time

from playboard.engine.search import Engine  # noqa: E402
from playboard.games.registry import new_game  # noqa: E402

NODES = 15500
NODES_PY = 2374  # the old top level's 2 s on the chip (the engine's own search)
MAX_PLIES = 1000


def openings():
    """The 81 2-ply openings (pits 0-8 each), then the 729 3-ply ones shuffled by a
    fixed xorshift: tuples of moves."""
    out = [(a, b) for a in range(9) for b in range(9)]
    three = [(a, b, c) for a in range(9) for b in range(9) for c in range(9)]
    x = 12345
    for i in range(len(three) - 1, 0, -1):
        x ^= (x << 13) & 0x3FFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0x3FFFFFFF
        j = x % (i + 1)
        three[i], three[j] = three[j], three[i]
    return out + three


def player(spec, seed):
    e = Engine(tt_size=1024, seed=seed)
    if spec == "py":  # the old top level: the engine's own search as at commit ba43ee1
        e.features = 0
        e.native = False
        return e, NODES_PY
    e.native = True
    if spec != "-":
        if not hasattr(Engine, "features"):
            raise SystemExit("this search has no switchable features (Engine.features: docs/engine.md,"
                             " \"Search features at equal nodes\")")
        if not spec.isdigit() or int(spec) > 3:
            raise SystemExit("a player is -, py or the features' bits 0-3 (search.SEARCH_*), not %r" % spec)
        e.features = int(spec)
    return e, None


def play(k, a, b, nodes, ops):
    g = new_game("toguz")
    for m in ops[k // 2]:
        g.push(m)
    pa = player(a, 2 * k + 1)
    pb = player(b, 2 * k + 2)
    side = (pa, pb) if k % 2 == 0 else (pb, pa)  # side[0] plays South
    n = 0
    t = 0
    while not g.is_game_over() and g.ply < MAX_PLIES:
        e, own = side[g.turn]
        t0 = time.ticks_ms()
        m = e.think(g, 10, nodes=own or nodes)  # (the native top; 9 without it)
        if not own:
            t += time.ticks_diff(time.ticks_ms(), t0)
            n += e.nodes
        g.push(m)
    if g.is_game_over():
        r = g.result()
    else:
        d = g.pos[18] - g.pos[19]
        r = "1-0" if d > 0 else "0-1" if d < 0 else "1/2-1/2"
    if r == "1/2-1/2":
        sa = 0.5
    else:
        sa = 1.0 if (r == "1-0") == (k % 2 == 0) else 0.0
    return sa, g.ply, n * 1000 // max(1, t)


def interval95(w, d, l):
    n = w + d + l
    if n == 0:
        return 0.0, 1.0
    p = (w + 0.5 * d) / n
    var = (w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + l * p ** 2) / n
    ne = n * p * (1 - p) / var if var > 0 and 0 < p < 1 else n
    z = 1.96
    den = 1 + z * z / ne
    mid = (p + z * z / (2 * ne)) / den
    half = z * math.sqrt(p * (1 - p) / ne + z * z / (4 * ne * ne)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def speed(specs, positions=24, nodes=NODES):
    """Nodes/s of each spec's native search (its ``Engine.features``), ``nodes`` a
    search from ``positions`` middle games (an opening, then 16 plies by a fixed rule),
    the specs interleaved (a machine's load spread over them alike), best of 3 rounds."""
    ops = openings()
    games = []
    for k in range(positions):
        g = new_game("toguz")
        for m in ops[k]:
            g.push(m)
        x = k + 7
        while g.ply < 18 and not g.is_game_over():
            ms = g.legal_moves()
            x = (x * 1103515245 + 12345) & 0x7FFFFFFF
            g.push(ms[(x >> 8) % len(ms)])
        if not g.is_game_over():
            games.append(g)
    best = {}
    for _ in range(3):
        for sp in specs:
            e, _own = player(sp, 1)
            n = 0
            t0 = time.ticks_us()
            for g in games:
                e.think(g, 10, nodes=nodes)
                n += e.nodes
            r = n * 1000000 // max(1, time.ticks_diff(time.ticks_us(), t0))
            best[sp] = max(best.get(sp, 0), r)
    for sp in specs:
        print("SPEED %s: %d nodes/s (%d searches of %d nodes)" % (sp, best[sp], len(games), nodes))


def main():
    args = sys.argv[1:]
    if args[0] == "speed":
        speed(args[1:])
        return
    a, b = args[0], args[1]
    games = int(args[2]) if len(args) > 2 else 162
    nodes = int(args[3]) if len(args) > 3 else NODES
    first = int(args[4]) if len(args) > 4 else 0
    step = int(args[5]) if len(args) > 5 else 1
    ops = openings()
    w = d = l = 0
    for k in range(first, games, step):
        sa, plies, nps = play(k, a, b, nodes, ops)
        if sa == 1.0:
            w += 1
        elif sa == 0.0:
            l += 1
        else:
            d += 1
        print("G %d %.1f %d %d" % (k, sa, plies, nps))
    lo, hi = interval95(w, d, l)
    n = w + d + l
    print("RESULT %s vs %s nodes %d: %d games %d-%d-%d = %.1f%% (95%%: %.1f-%.1f%%)" % (
        a, b, nodes, n, w, d, l, 100 * (w + 0.5 * d) / max(1, n), 100 * lo, 100 * hi))


main()
