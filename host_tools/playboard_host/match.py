"""Engine strength by matches (CPython, node budgets so that results repeat).

A match plays ``games`` games between two players, colours alternated (player A
is White in even games), each game starting with ``opening`` random plies
drawn from a seed (the same for both colour orders of a pair, so that each
opening is played from both sides; different in each pair while there are
openings left: Toguz Kumalak has only 81 of 2 plies, and two engines without
noise play the same opening twice the same way). Games still
running after ``max_plies`` plies are adjudicated by material (a man 1, a tobit
3; kazans; captures; equal is a draw). A win scores 1, a draw 1/2.

Players (specs):

- ``random``: a uniform legal move;
- ``greedy``: one ply: the move that wins at once, else the largest immediate
  material gain (kazan balls, men captured, counters captured), ties at random;
- ``noisy``: greedy, but one move in ``NOISY_RANDOM`` (a quarter) is a uniform
  legal move instead: a beginner who sees captures and sometimes does not look;
- ``L1``..``L9`` (Tobit ``L1``..``L11``; ``--native``: Tobit's ``L13``, Toguz Kumalak's
  ``L10``: ``top_level``): the engine at that level
  with the match's node budget (for Tihbat ``L9``, its top, is the solved table);
- ``base8``: level 8 of the engine as it was at commit ``BASELINE_REV`` (read
  with ``git show``; needs the repository's history): today's engine measured
  against the one before issue 18;
- ``prev8``: level 8 of the engine at commit ``PREV_REV`` (the same way): the
  engine of the ladder's first calibration, a fixed reference for later changes
  to the search or the evaluations (until one lands, it plays as today's top level);
- ``was9``: the top level (9) of the engine at commit ``WAS_REV`` (the same way), before
  issue 35's stronger top level: the top level the new one is measured against;
- any engine spec may end in ``@N``: that player's own node budget ``N``
  (``L8@2374``, ``base8@8000``), else the match's; and then in ``/T``: its
  transposition table's entries ``T`` (0 or a power of two up to 65536:
  ``L9@15984/4096``, a board whose definition asks for that table), else ``MATCH_TT``.

``--micropython`` (``run_match``'s ``micropython``): the same games played under
MicroPython (``playboard_host.match_mp``), the native code as on a board.

``playboard match`` runs the suite in docs/engine.md; see ``--help``.
"""
import math
import multiprocessing
import os
import random
import subprocess
import sys
import time

from playboard.engine.search import MAX_PLY, Engine, levels_of
from playboard.games.common import GAME_NAMES
from playboard.games.registry import new_game
from playboard_host.match_worker import material  # (written once: the worker runs it too)

# The RP2040's node budget for a 2 s move: nodes/s measured on an emulated Pico
# (bench/py_pico.py: Toguz Kumalak 1,187; Tobit 607 and Tobit 4 x 4 659 since its
# horizon nodes are judged by one scan, 516 before) x 2 s. Tihbat's top level plays by
# its table. (Written again in bench/mp_engine.py, which runs under MicroPython: keep equal.)
CHIP_NODES_PER_S = {"toguz": 1187, "tobit": 607, "tobit4": 659, "tihbat": 1500}
DEFAULT_NODES = {k: 2 * v for k, v in CHIP_NODES_PER_S.items()}
# A board whose Tobit and Toguz Kumalak searches run in native code (a frozen build;
# ``--native``): the nodes of a 2 s search on the emulated Pico (docs/engine.md,
# bench/py_pico_engine.py "the top level's 2 s", frozen image), for the levels that
# search natively (no depth cap); the others search as on any board (DEFAULT_NODES).
# Toguz Kumalak's with PVS and late-move reductions (28,466; 30,218 without them)
NATIVE_NODES = {"tobit": 9888, "tobit4": 10576, "toguz": 28466}
DEFAULT_OPENING = {"toguz": 2, "tobit": 4, "tobit4": 4, "tihbat": 2}
MAX_PLIES = {"toguz": 1000, "tobit": 300, "tobit4": 300, "tihbat": 1000}
NOISY_RANDOM = 4  # the noisy player moves at random once in this many moves
# the engine before issue 18 (level 8 of this commit is the ``base8`` player)
BASELINE_REV = "f493dce644f065dcb5fccea3f04f8941f9181504"
# the engine of the ladder's first calibration (level 8 of this commit is ``prev8``)
PREV_REV = "7900f1381cb524870c74ecd6515f3d0d2ba8d153"
# the engine before issue 35's stronger top level (level 9 of this commit is ``was9``)
WAS_REV = "ba43ee163a35192e7904c10c0ec210151b42932c"
OLD_REVS = {"base": BASELINE_REV, "prev": PREV_REV, "was": WAS_REV}  # an old engine's kind: its commit
MATCH_TT = 1024  # an engine player's transposition table entries unless its spec says (/T)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))




_BASELINE = {}


def baseline_sources(rev=BASELINE_REV):
    """The engine of commit ``rev`` as modules of their own: a list of (module name,
    source text) in import order - that commit's evaluation's native kernels (where it
    had them), its evaluation and its search (``playboard.engine.search``), each
    importing the one before under its new name, the rest of ``playboard`` as it is
    today. Read with ``git show``; ValueError when the history is not there."""
    src = {}
    for name in ("search", "evaluation", "evaluation_native"):
        try:
            src[name] = subprocess.run(
                ["git", "show", "%s:firmware/playboard/engine/%s.py" % (rev, name)],
                cwd=ROOT, capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            if name == "evaluation_native":
                continue  # older commits had none
            raise ValueError("base8/prev8/was9 need the git history of the repository (commit %s)" % rev[:10])
    tag = rev[:10]
    out = []
    if "evaluation_native" in src:
        nat = "playboard_baseline_native_" + tag
        out.append((nat, src["evaluation_native"]))
        src["evaluation"] = src["evaluation"].replace(
            "from playboard.engine.evaluation_native import", "from %s import" % nat)
    ev = "playboard_baseline_evaluation_" + tag
    out.append((ev, src["evaluation"]))
    out.append(("playboard_baseline_search_" + tag, src["search"].replace(
        "from playboard.engine import evaluation", "import %s as evaluation" % ev)))
    return out


def baseline_engine_class(rev=BASELINE_REV):
    """The ``Engine`` class of ``playboard.engine.search`` at commit ``rev``, with
    that commit's evaluation and its native kernels (``baseline_sources``, loaded once
    per process). ValueError when the history is not there."""
    if rev in _BASELINE:
        return _BASELINE[rev]
    for name, code in baseline_sources(rev):
        mod = type(sys)(name)
        exec(compile(code, "baseline/%s.py" % name.split("_")[2], "exec"), mod.__dict__)
        sys.modules[name] = mod
    _BASELINE[rev] = mod.Engine
    return mod.Engine


def table_of(spec):
    """The transposition table entries of engine player ``spec``: its ``/T`` (0 or a
    power of two up to 65536), else ``MATCH_TT``. ValueError for a bad ``T``."""
    head, slash, t = spec.partition("/")
    if not slash:
        return MATCH_TT
    if not t.isdigit() or int(t) & (int(t) - 1) or int(t) > 65536:
        raise ValueError("bad table size in player %r (want 0 or a power of two, e.g. L9@15984/4096)" % spec)
    return int(t)


def parse_spec(spec):
    """(kind, level, nodes) of a player spec: kind "random", "greedy", "noisy",
    "engine", "base", "prev" or "was"; level 1..MAX_LEVEL (engines) or None; nodes: the
    spec's own budget (``@N``) or None; its table (``/T``) is ``table_of``'s. ValueError
    for anything else."""
    head = spec
    if "/" in spec:
        table_of(spec)  # (a bad /T: its line)
        head = spec.partition("/")[0]
        if head in ("random", "greedy", "noisy"):
            raise ValueError("player %r: only engines have a table (/T)" % spec)
    name, at, budget = head.partition("@")
    nodes = None
    if at:
        if not budget.isdigit() or int(budget) < 1:
            raise ValueError("bad node budget in player %r (want e.g. L8@2000)" % spec)
        nodes = int(budget)
    if name in ("random", "greedy", "noisy") and not at:
        return name, None, None
    if name == "base8":
        return "base", 8, nodes
    if name == "prev8":
        return "prev", 8, nodes
    if name == "was9":
        return "was", 9, nodes
    if name[:1] == "L" and name[1:].isdigit() and 1 <= int(name[1:]) <= MAX_LEVEL:
        return "engine", int(name[1:]), nodes
    raise ValueError("unknown player %r (random, greedy, noisy, L1..L9 - Tobit's L1..L%d -, base8, prev8, "
                     "was9, with @N nodes and /T table entries for engines)" % (spec, MAX_LEVEL))


def top_level(game, native=False):
    """The highest engine level of ``game`` (a GAME_NAMES name): 9, Tobit's 11; on a
    ``native`` board Tobit's 13, Toguz Kumalak's 10 (the engine's level tables, ``levels_of``)."""
    return len(levels_of(game, native)) - 1


MAX_LEVEL = max(top_level(name, True) for name in GAME_NAMES)  # Tobit's 13 (native)


def check_players(game, specs, native=False):
    """ValueError (one line) unless each of ``specs`` is a player of ``game`` (an engine
    level at most the game's top, ``top_level``: above it the engine would play its top,
    a pairing of two equal players) and, ``native``, ``game`` is Tobit's or Toguz Kumalak's."""
    if native and game not in NATIVE_NODES:
        raise ValueError("only Tobit and Toguz Kumalak have a native search (not %s)" % game)
    top = top_level(game, native)
    for spec in specs:
        kind, level, own = parse_spec(spec)
        if kind == "engine" and level > top:
            raise ValueError("player %r: %s has levels 1..%d%s" % (
                spec, game, top, " (%d with --native)" % top_level(game, True) if top < top_level(game, True) else ""))


class Player:
    """A match player: ``move(g)`` returns a legal move of ``g``.

    ``spec``: see the module docstring; ``nodes``: the match's node budget per
    move (an ``@N`` in the spec wins); ``seed``: the player's random moves and
    the engine's noise; ``native``: the engine as on a board whose Tobit search is
    native (``Engine.native``: its level table; the levels it searches natively get
    their share of ``nodes``, the others their share of the game's ``DEFAULT_NODES``,
    as in the chip's 2 s). The native levels' search is played by the engine's own
    loop at the same nodes (the same moves: tests/firmware/test_engine_native.py;
    under CPython faster than the viper code run as Python)."""

    def __init__(self, spec, nodes, seed, native=False):
        self.spec = spec
        self.kind, self.level, own = parse_spec(spec)
        self.rng = random.Random(seed)
        self.nodes = own or nodes
        self.own = own
        self.native = native
        self.engine = None
        if self.kind == "engine":
            self.engine = Engine(tt_size=table_of(spec), seed=seed & 0x3FFFFFFF or 1)
        elif self.kind in OLD_REVS:
            self.engine = baseline_engine_class(OLD_REVS[self.kind])(tt_size=table_of(spec),
                                                                     seed=seed & 0x3FFFFFFF or 1)

    def move(self, g):
        moves = g.legal_moves()
        if self.kind == "random" or (self.kind == "noisy" and self.rng.randrange(NOISY_RANDOM) == 0):
            return self.rng.choice(moves)
        if self.kind in ("greedy", "noisy"):
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
        if self.native and self.kind == "engine":  # (base8, prev8, was9: old engines, no native table)
            cap, noise, share, blunders = levels_of(g.name, True)[self.level]
            if cap < MAX_PLY - 1:  # the engine's own search on the chip: its nodes (or its own @N)
                return self.engine.think(g, self.level, nodes=self.own or DEFAULT_NODES[g.name])
            # the native search (no cap, no noise, no blunders): the same search is the
            # top level's of the table without it, at this level's nodes
            return self.engine.think(g, top_level(g.name), nodes=max(1, self.nodes // share))
        return self.engine.think(g, self.level, nodes=self.nodes)


def interval95(wins, draws, losses):
    """The 95% interval of a score (wins + draws/2) / games, as (low, high) in 0..1:
    the Wilson score interval on the games' mean score, with the draws' variance
    (a draw is 1/2) taken into account through the effective number of games."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, 1.0
    p = (wins + 0.5 * draws) / n
    var = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p ** 2) / n
    # a game's score has variance var; a Bernoulli game with mean p has p(1-p):
    # scale the number of games so that Wilson's binomial formula sees the same spread
    n_eff = n * p * (1 - p) / var if var > 0 and 0 < p < 1 else n
    z = 1.96
    den = 1 + z * z / n_eff
    mid = (p + z * z / (2 * n_eff)) / den
    half = z * math.sqrt(p * (1 - p) / n_eff + z * z / (4 * n_eff * n_eff)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def random_opening(game, plies, seed):
    """A tuple of ``plies`` random legal moves from ``game``'s start, drawn
    from ``seed`` (fewer if the game ends first)."""
    g = new_game(game)
    rng = random.Random(seed)
    out = []
    for _ in range(plies):
        ms = g.legal_moves()
        if not ms or g.is_game_over():
            break
        out.append(rng.choice(ms))
        g.push(out[-1])
    return tuple(out)


def openings(game, plies, pairs, seed):
    """``pairs`` openings (``random_opening``), distinct as long as 50 draws in a
    row find a new one, then repeating: pair ``k``'s is drawn from seed
    ``seed * 100003 + k`` (the next draws from larger seeds)."""
    seen = set()
    out = []
    s = seed * 100003
    for _ in range(pairs):
        for _ in range(50):
            op = random_opening(game, plies, s)
            s += 1
            if op not in seen:
                break
        seen.add(op)
        out.append(op)
    return out


def play_game(game, white, black, nodes, opening, seed, max_plies=None, native=False):
    """Play one game; return (result text, plies, termination or "adjudicated",
    judged) where, for Tihbat, ``judged[side]`` is the final margin the table
    promised ``side`` (captures so far plus the table's value) at its first move.

    ``white``/``black``: player specs. ``opening``: the first moves (a
    sequence of legal moves, e.g. from ``openings``) or a number of random
    plies drawn from ``seed``; ``seed`` also seeds the players; ``native``: the
    engines as on a board whose Tobit search is native (``Player``)."""
    g = new_game(game)
    if isinstance(opening, int):
        opening = random_opening(game, opening, seed)
    for m in opening:
        g.push(m)
    players = (Player(white, nodes, seed * 2 + 1, native), Player(black, nodes, seed * 2 + 2, native))
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
    game, a, b, nodes, opening, seed, i, native = args
    white, black = (a, b) if i % 2 == 0 else (b, a)
    t0 = time.time()
    result, plies, term, judged = play_game(game, white, black, nodes, opening, seed, native=native)
    if result == "1/2-1/2":
        score_a = 0.5
    elif (result == "1-0") == (white == a):
        score_a = 1.0
    else:
        score_a = 0.0
    side_a = 0 if white == a else 1
    return i, score_a, result, plies, term, time.time() - t0, judged[side_a]


def run_match(game, a, b, games=100, nodes=None, opening=None, seed=1, processes=1, progress=None,
              native=False, play=None):
    """Play ``games`` games of ``a`` against ``b``; return a dict with ``wins``,
    ``draws``, ``losses`` (for ``a``), ``score`` (a's share, 0..1), ``low``/``high``
    (its 95% interval, ``interval95``), ``plies`` (mean), ``adjudicated`` (count),
    ``seconds``. ``progress(done, games, points_a)`` is called after each game.
    ``native``: Tobit or Toguz Kumalak on a board whose search is native (a frozen
    build: Tobit's 13 levels, ``NATIVE_NODES``; ``Player``); ValueError for another game.
    ValueError for an unknown player. ``play``: a function ``play(tasks, processes,
    note)`` that plays the games elsewhere (``match_mp.runner``: the same games under
    MicroPython; its errors propagate, after ``progress`` saw the games already played).
    A KeyboardInterrupt stops the workers and
    propagates (the caller keeps the pairings already finished)."""
    check_players(game, (a, b), native)
    nodes = nodes or (NATIVE_NODES if native else DEFAULT_NODES)[game]
    opening = DEFAULT_OPENING[game] if opening is None else opening
    ops = openings(game, opening, (games + 1) // 2, seed)
    tasks = [(game, a, b, nodes, ops[i // 2], seed * 100003 + i // 2, i, native) for i in range(games)]
    t0 = time.time()
    rows = []

    def note(r):
        rows.append(r)
        if progress is not None:
            progress(len(rows), games, sum(x[1] for x in rows))

    if play is not None:
        play(tasks, processes, note)
    elif processes > 1:
        with multiprocessing.Pool(processes) as pool:
            for r in pool.imap_unordered(_task, tasks, chunksize=1):
                note(r)
    else:
        for t in tasks:
            note(_task(t))
    wins = sum(1 for r in rows if r[1] == 1.0)
    draws = sum(1 for r in rows if r[1] == 0.5)
    losses = games - wins - draws
    low, high = interval95(wins, draws, losses)
    return {
        "game": game, "a": a, "b": b, "games": games, "nodes": nodes, "opening": opening, "native": native,
        "wins": wins, "draws": draws, "losses": losses,
        "score": (wins + 0.5 * draws) / games, "low": low, "high": high,
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
