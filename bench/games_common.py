"""Perft-rate benchmark shared by mp_games.py (MicroPython) and py_games.py (CPython).

A node is one push: every ply of every depth is played (no bulk counting of the
last ply), so perft(d) from the start pushes perft(1) + ... + perft(d) moves.
"""
from benchlib import now_us, elapsed_us, report
from playboard.games.perft import perft
from playboard.games.registry import new_game


def nodes_to(g, depth):
    return sum(perft(g, d) for d in range(1, depth + 1))


def time_perft(name, depth, repeat=5):
    g = new_game(name)
    best = None
    for _ in range(repeat):
        t0 = now_us()
        perft(g, depth)
        dt = elapsed_us(t0)
        best = dt if best is None or dt < best else best
    return best, nodes_to(g, depth)


def run(impl, targets):
    """targets: {game: (depth, max_seconds or None, min_nodes_per_s or None)}"""
    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        depth, max_s, min_rate = targets[name]
        us, nodes = time_perft(name, depth)
        secs = us / 1e6
        rate = nodes / secs
        if max_s is not None:
            report("%s perft(%d) %d nodes, %s" % (name, depth, nodes, impl), round(secs, 4), "s",
                   "<= %g s" % max_s, secs <= max_s)
        report("%s perft rate, %s" % (name, impl), int(rate), "nodes/s",
               (">= %d nodes/s" % min_rate) if min_rate else None,
               (rate >= min_rate) if min_rate else None)
