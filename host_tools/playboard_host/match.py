"""Engine strength by matches (CPython, node budgets so that results repeat).

A match plays ``games`` games between two players, colours alternated (player A
is White in even games), each game starting with ``opening`` random plies
drawn from a seed (different in each pair of games, the same for both colour
orders of a pair, so that each opening is played from both sides). Tobit games
still running after ``max_plies`` plies are adjudicated by material (a man 1, a
tobit 3; equal is a draw). A win scores 1, a draw 1/2.

Players: ``random`` (a uniform legal move), ``greedy`` (one ply: the move that
wins at once, else the largest immediate material gain - kazan balls, men
captured, counters captured - ties broken at random), ``L1``..``L8`` (the
engine at that level with the match's node budget), and for Tihbat ``L8`` is
the solved table (``playboard.engine.tihbat_table``).

``playboard match`` runs the suite in docs/engine.md; see ``--help``.
"""
import multiprocessing
import random
import time

from playboard.engine.search import Engine
from playboard.games.registry import new_game

DEFAULT_NODES = {"toguz": 3000, "tobit": 3000, "tobit4": 3000, "tihbat": 3000}
DEFAULT_OPENING = {"toguz": 2, "tobit": 4, "tobit4": 4, "tihbat": 2}
MAX_PLIES = {"toguz": 1000, "tobit": 300, "tobit4": 300, "tihbat": 1000}


def material(g):
    """Material for White minus Black: kazans (Toguz Kumalak), men 1 and tobits 3
    (Tobit), captures (Tihbat)."""
    if g.name == "toguz":
        return g.pos[18] - g.pos[19]
    if g.name == "tihbat":
        return g.pos[4] - g.pos[5]
    s = 0
    b = g.board
    for p in range(1, g.n_points + 1):
        c = b[p]
        if c:
            v = 3 if c & 4 else 1
            s += v if (c & 3) == 1 else -v
    return s


class Player:
    """A match player: ``move(g)`` returns a legal move of ``g``."""

    def __init__(self, spec, nodes, seed):
        self.spec = spec
        self.rng = random.Random(seed)
        self.nodes = nodes
        self.engine = None
        if spec.startswith("L"):
            self.level = int(spec[1:])
            self.engine = Engine(tt_size=1024, seed=seed & 0x3FFFFFFF or 1)
        elif spec not in ("random", "greedy"):
            raise ValueError("unknown player %r (random, greedy, L1..L8)" % spec)

    def move(self, g):
        moves = g.legal_moves()
        if self.spec == "random":
            return self.rng.choice(moves)
        if self.spec == "greedy":
            me = g.turn
            best = None
            best_v = None
            for m in moves:
                g.push(m)
                if g.is_game_over():
                    r = g.result()
                    v = 10 ** 6 if r == ("1-0" if me == 0 else "0-1") else (0 if r == "1/2-1/2" else -10 ** 6)
                else:
                    v = material(g) * (1 if me == 0 else -1)
                g.pop()
                v = v * 1000 + self.rng.randrange(1000)
                if best_v is None or v > best_v:
                    best, best_v = m, v
            return best
        return self.engine.think(g, self.level, nodes=self.nodes)


def play_game(game, white, black, nodes, opening, seed, max_plies=None):
    """Play one game; return (result text, plies, termination or "adjudicated",
    judged) where, for Tihbat, ``judged[side]`` is the final margin the table
    promised ``side`` (captures so far plus the table's value) at its first move.

    ``white``/``black``: player specs. The first ``opening`` plies are random
    (seeded by ``seed``)."""
    g = new_game(game)
    rng = random.Random(seed)
    for _ in range(opening):
        ms = g.legal_moves()
        if not ms:
            break
        g.push(rng.choice(ms))
    players = (Player(white, nodes, seed * 2 + 1), Player(black, nodes, seed * 2 + 2))
    max_plies = max_plies or MAX_PLIES[game]
    judged = [None, None]  # Tihbat: the table's final margin for each side when it first moves
    while not g.is_game_over():
        if game == "tihbat" and judged[g.turn] is None:
            from playboard.engine import tihbat_table as tt

            me = g.turn
            judged[me] = g.pos[4 + me] - g.pos[5 - me] + tt.value(g)[0]
        if g.ply >= max_plies:
            m = material(g)
            return ("1-0" if m > 0 else "0-1" if m < 0 else "1/2-1/2"), g.ply, "adjudicated", judged
        mv = players[g.turn].move(g)
        g.push(mv)
    return g.result(), g.ply, g.termination, judged


def _task(args):
    game, a, b, nodes, opening, seed, i = args
    white, black = (a, b) if i % 2 == 0 else (b, a)
    t0 = time.time()
    result, plies, term, judged = play_game(game, white, black, nodes, opening, seed)
    if result == "1/2-1/2":
        score_a = 0.5
    elif (result == "1-0") == (white == a):
        score_a = 1.0
    else:
        score_a = 0.0
    side_a = 0 if white == a else 1
    return i, score_a, result, plies, term, time.time() - t0, judged[side_a]


def run_match(game, a, b, games=100, nodes=None, opening=None, seed=1, processes=1, progress=None):
    """Play ``games`` games of ``a`` against ``b``; return a dict with ``wins``,
    ``draws``, ``losses`` (for ``a``), ``score`` (a's share, 0..1), ``plies``
    (mean), ``adjudicated`` (count), ``seconds``. ``progress``: called with no
    argument after each game (a progress bar's update), or None."""
    nodes = nodes or DEFAULT_NODES[game]
    opening = DEFAULT_OPENING[game] if opening is None else opening
    tasks = [(game, a, b, nodes, opening, seed * 100003 + i // 2, i) for i in range(games)]
    t0 = time.time()
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            rows = []
            for r in pool.imap(_task, tasks, chunksize=1):
                rows.append(r)
                if progress:
                    progress()
    else:
        rows = []
        for t in tasks:
            rows.append(_task(t))
            if progress:
                progress()
    wins = sum(1 for r in rows if r[1] == 1.0)
    draws = sum(1 for r in rows if r[1] == 0.5)
    return {
        "game": game, "a": a, "b": b, "games": games, "nodes": nodes, "opening": opening,
        "wins": wins, "draws": draws, "losses": games - wins - draws,
        "score": (wins + 0.5 * draws) / games,
        "plies": sum(r[3] for r in rows) / games,
        "adjudicated": sum(1 for r in rows if r[4] == "adjudicated"),
        "seconds": time.time() - t0,
        # Tihbat: games where the table said a's side was not lost at a's first move, and a's losses in them
        "not_lost": sum(1 for r in rows if r[6] is not None and r[6] >= 0),
        "lost_when_not_lost": sum(1 for r in rows if r[6] is not None and r[6] >= 0 and r[1] == 0.0),
    }


def tihbat_table_never_loses(side):
    """Every game from the Tihbat start where ``side`` (0 South, 1 North) plays
    by the table and the other side tries every reply: (games, worst final
    margin for ``side``, longest game in plies). Exhaustive: for South about
    660,000 games (minutes), for North about 26,000."""
    from playboard.engine import tihbat_table as tt

    tab = tt.table()
    g = new_game("tihbat")
    stats = [0, 99, 0]

    def walk(depth):
        if g.is_game_over():
            s, n = g.final_captures()
            margin = (s - n) if side == 0 else (n - s)
            stats[0] += 1
            stats[1] = min(stats[1], margin)
            stats[2] = max(stats[2], depth)
            return
        if g.turn == side:
            g.push(tt.best_move(g, tab))
            walk(depth + 1)
            g.pop()
            return
        for r in g.legal_moves():
            g.push(r)
            walk(depth + 1)
            g.pop()

    walk(0)
    return tuple(stats)
