"""The engine (playboard.engine.search) on a stand-in game and on the three rules cores.

Runs under CPython (pytest) and MicroPython (tests/mp_runner.py). The stand-in
is Nim with moves of 1-3 stones (the side that takes the last stone wins): the
side to move loses exactly when the pile is a multiple of 4.
"""
import gc
import sys

from playboard.engine import search as engine_mod
from playboard.engine import evaluation
from playboard.engine.search import Engine, WIN
from playboard.games.registry import new_game

import tlib


def _top(name):
    """The game's top level (9; Tobit's 11): a search to the budget, no handicap."""
    return len(engine_mod.levels_of(name)) - 1


# -- a stand-in game: Nim (take 1, 2 or 3; taking the last stone wins) ----------


class Nim:
    """The games' common interface, for a pile of ``n`` stones."""

    name = "nim-test"

    def __init__(self, n=10):
        self.n = n
        self.turn = 0
        self.ply = 0
        self._stack = []

    def legal_moves(self):
        return [k for k in (1, 2, 3) if k <= self.n]

    def push(self, m):
        self.n -= m
        self._stack.append(m)
        self.turn ^= 1
        self.ply += 1

    def pop(self):
        m = self._stack.pop()
        self.n += m
        self.turn ^= 1
        self.ply -= 1
        return m

    def is_game_over(self):
        return self.n == 0

    def result(self):
        if self.n:
            return "*"
        return "0-1" if self.turn == 0 else "1-0"  # the side that just moved took the last stone

    def key(self):
        return self.n * 2 + self.turn

    def copy(self):
        g = Nim(self.n)
        g.turn = self.turn
        g.ply = self.ply
        g._stack = list(self._stack)
        return g


class NimEval:
    UNIT = 1
    QUIESCE = False

    def evaluate(self, g):
        return 0

    def order(self, g, m):
        return -m  # deliberately the wrong move first

    def forcing(self, g, moves):
        return False


evaluation.register("nim-test", NimEval())


class FakeClock:
    """An injected clock: each call returns the time and then advances it by ``step`` ms."""

    def __init__(self, step=1):
        self.t = 1000
        self.step = step
        self.calls = 0

    def __call__(self):
        t = self.t
        self.t += self.step
        self.calls += 1
        return t


def _random_positions(name, count, seed):
    """``count`` (fen, ply) positions reached by seeded random play from the start."""
    out = []
    x = seed
    g = new_game(name)
    start = g.fen()
    while len(out) < count:
        g.set_fen(start)
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        n = x % 40
        for _ in range(n):
            ms = g.legal_moves()
            if not ms:
                break
            x = (x * 1103515245 + 12345) & 0x3FFFFFFF
            g.push(ms[(x >> 8) % len(ms)])
        if g.legal_moves():
            out.append(g.fen())
    return out


# -- the search on the stand-in ---------------------------------------------------


def test_nim_finds_the_winning_move_and_the_loss():
    assert Engine().think(Nim(1), 8, depth=20) == 1  # the only move: no search
    for n in range(2, 15):
        e = Engine()
        m = e.think(Nim(n), 8, depth=20)
        if n % 4:
            assert m == n % 4, (n, m)
            assert e.score == WIN - (2 * (n // 4) + 1), (n, e.score)  # quickest win
        else:
            assert e.score == -WIN + 2 * (n // 4), (n, e.score)  # slowest loss
            assert m in (1, 2, 3)


def test_nim_with_transposition_table_agrees():
    for n in range(1, 20):
        a = Engine(tt_size=64).think(Nim(n), 8, depth=30)
        b = Engine().think(Nim(n), 8, depth=30)
        if n % 4:
            assert a == b == n % 4, (n, a, b)


def test_search_stops_when_the_whole_tree_is_seen():
    e = Engine()
    e.think(Nim(5), 8, nodes=100000)
    assert e.nodes < 200, e.nodes
    assert e.depth <= 5


def test_bad_arguments_are_refused():
    e = Engine()
    tlib.raises(ValueError, Engine, 100)  # not a power of two
    tlib.raises(ValueError, e.start, Nim(5), -1, None, 100)
    tlib.raises(ValueError, e.start, Nim(5), 0, None, 100)
    tlib.raises(ValueError, e.start, Nim(5), 9)  # the top level needs a budget
    tlib.raises(ValueError, e.start, Nim(5), 3, -1)
    tlib.raises(ValueError, evaluation.for_game, "chess")


# -- budgets and slices -------------------------------------------------------------


def test_node_budget_is_respected_exactly():
    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        g = e = None
        gc.collect()
        g = new_game(name)
        e = Engine(tt_size=256)
        for budget in (1, 2, 57, 400):
            m = e.think(g, _top(name), nodes=budget, table=False)
            assert e.nodes == budget, (name, budget, e.nodes)
            assert m in g.legal_moves()
        gc.collect()


def test_node_budget_is_respected_exactly_in_slices():
    g = new_game("toguz")
    e = Engine()
    e.start(g, _top("toguz"), nodes=300)
    steps = 0
    while True:
        before = e.nodes
        done = e.step(nodes=7)
        assert e.nodes - before <= 7
        if not done:
            assert e.nodes - before == 7
        steps += 1
        if done:
            break
    assert e.nodes == 300
    assert steps == 43  # 42 full slices of 7, then one of 6 that ends the budget
    assert e.best_move in g.legal_moves()


def test_time_budget_on_an_injected_clock():
    clock = FakeClock(step=1)  # 1 ms passes per clock reading
    g = new_game("toguz")
    e = Engine(clock=clock)
    e.start(g, _top("toguz"), ms=50)
    t0 = clock.t
    while not e.step(ms=10):
        pass
    # one clock reading per node, the budget checked before each: 50 ms -> < 50 nodes
    assert clock.t - t0 <= 52, clock.t - t0
    assert 30 <= e.nodes < 50, e.nodes
    assert e.best_move in g.legal_moves()


def test_time_slices_on_an_injected_clock():
    clock = FakeClock(step=2)
    e = Engine(clock=clock)
    g = new_game("tobit")
    e.start(g, _top("tobit"), nodes=10000)
    before = e.nodes
    assert e.step(ms=20) is False
    assert 0 < e.nodes - before <= 10, e.nodes - before  # a reading per node, 2 ms each
    e.stop()


def test_stop_within_one_slice_and_the_game_is_unchanged():
    for copy in (True, False):
        for name in ("toguz", "tobit", "tihbat"):
            g = e = None
            gc.collect()
            g = new_game(name)
            for m in g.legal_moves()[:1]:
                g.push(m)
            fen = g.fen()
            ply = g.ply
            e = Engine(tt_size=128)
            e.start(g, _top(name) - 1, nodes=100000, copy=copy)
            assert e.step(nodes=25) is False
            e.stop()
            assert g.fen() == fen and g.ply == ply, (name, copy)
            n = e.nodes
            assert e.step(nodes=25) is True
            assert e.nodes == n  # nothing searched after stop()
            assert e.stopped and e.done
            assert e.best_move in g.legal_moves()
            gc.collect()


def test_the_game_searched_is_left_unchanged():
    for name in ("toguz", "tobit4", "tihbat"):
        gc.collect()
        g = new_game(name)
        fen = g.fen()
        for copy in (True, False):
            e = Engine(tt_size=64)
            e.think(g, _top(name), nodes=300) if copy else None
            if not copy:
                e.start(g, _top(name), nodes=300, copy=False)
                while not e.step(nodes=13):
                    pass
            assert g.fen() == fen and g.ply == 0
            assert g.legal_moves() == new_game(name).legal_moves()
            e = None
            gc.collect()


def test_the_engine_s_copy_follows_the_game():
    # one engine through a game with a takeback: its copy is reused, brought up
    # to date by pops and pushes, and always searches the game's position
    for name in ("toguz", "tihbat", "tobit4"):
        gc.collect()
        g = new_game(name)
        e = Engine(tt_size=64)
        copy = None
        for ply in range(12):
            if g.is_game_over():
                break
            if ply == 6:
                g.pop()  # a takeback
                g.pop()
            m = e.think(g, _top(name) - 2, nodes=60)  # (Tobit's 9: no blunders)
            assert m in g.legal_moves()
            if len(g.legal_moves()) == 1:
                g.push(m)  # returned without search (and without the copy)
                continue
            assert e._spare.fen() == g.fen() and e._spare.move_stack() == g.move_stack()
            if copy is not None:
                assert e._spare is copy
            copy = e._spare
            g.push(m)
        e = g = copy = None


def test_game_over_and_single_move():
    g = new_game("tihbat", "2S,2S/2 12 12 S 10")  # South's pits both empty: only a pass
    e = Engine()
    assert e.think(g, 8, nodes=100) == g.legal_moves()[0]
    assert e.nodes == 0
    g = new_game("toguz", "9/9 81 81 S 40")
    assert g.is_game_over()
    assert Engine().think(g, 8, nodes=100) is None


# -- the three games --------------------------------------------------------------------

TOBIT_SHOT = "B:W2,3,4,5,6,7,9,10,11,12,13,15:B24,25,27,28,29,30,32,34,35,36,37,38"


def test_tobit_finds_a_forced_capture_sequence():
    # Black's 25-18 gives a man away; White must capture (2.7), and whatever White
    # takes with, Black then takes two or more: the only move that wins material
    # (+3 men in a material-only search of 3 plies and all captures; next best 0).
    g = new_game("tobit", TOBIT_SHOT)
    assert not any(m[0] == 1 for m in g.legal_moves())  # a quiet position
    e = Engine(tt_size=512)
    m = e.think(g, _top("tobit"), nodes=6000)
    assert g.move_text(m) == "25-18", g.move_text(m)
    assert e.score > 50
    g.push(m)
    assert all(r[0] == 1 for r in g.legal_moves())  # every reply is a capture
    for r in g.legal_moves():
        g.push(r)
        assert max(len(g.captured_points(w)) for w in g.legal_moves()) >= 2  # Black takes 2+
        g.pop()


def test_toguz_finds_the_tuzdyk_that_wins():
    # South's kazan holds 79: sowing pit 9 (2 balls) ends in North's pit 1, which
    # becomes 3: a tuzdyk, 3 balls, 82: South wins (1.4, 1.6). Nothing else wins.
    g = new_game("toguz", "1S,1S,1S,1S,1S,1S,1S,1S,2S/1S,1S,1S,1S,1S,1S,1S,1,2S 79 64 S 30")
    e = Engine()
    m = e.think(g, _top("toguz"), nodes=2000)
    assert g.move_text(m) == "91x", g.move_text(m)
    assert e.score == WIN - 1


def test_toguz_prefers_a_capture():
    # Pit 1 (3 balls) ends in North's pit 1 (odd 5 -> 6 after): a capture of 6.
    g = new_game("toguz")
    e = Engine()
    m = e.think(g, 3)
    assert m in g.legal_moves()
    g2 = new_game("toguz", "9S,9S,9S,9S,9S,9S,9S,9S,5S/1S,1S,1S,1S,1S,1S,1S,1S,3S 30 44 S 10")
    m = Engine().think(g2, 6)
    g2.push(m)
    assert g2.pos[18] > 30, g2.fen()  # the search takes balls


TIHBAT_WON = "1S,3S/3S,1S 10 10 S 10"  # South wins only by playing pit 1


def _tihbat_engine_line_wins(g, e, level):
    """Engine plays ``g``'s side to move; the opponent tries every reply. True if
    every line ends in the engine side's win."""
    side = g.turn

    def walk(depth):
        if g.is_game_over():
            r = g.result()
            return (r == "1-0") == (side == 0) and r != "1/2-1/2"
        if depth > 60:
            return False
        if g.turn == side:
            m = e.think(g, level, nodes=5000, table=False)
            g.push(m)
            ok = walk(depth + 1)
            g.pop()
            return ok
        for r in g.legal_moves():
            g.push(r)
            ok = walk(depth + 1)
            g.pop()
            if not ok:
                return False
        return True

    return walk(0)


def test_tihbat_search_wins_a_won_line():
    g = new_game("tihbat", TIHBAT_WON)
    e = Engine(tt_size=0)
    e.think(g, _top("tihbat"), nodes=5000, table=False)
    assert e.best_move == 0 and e.score > 0
    assert _tihbat_engine_line_wins(g, e, _top("tihbat"))
    assert g.fen() == new_game("tihbat", TIHBAT_WON).fen()


def test_never_an_illegal_move():
    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        gc.collect()
        g = new_game(name)
        e = Engine(tt_size=64)
        for fen in _random_positions(name, 6, 7 + len(name)):
            g.set_fen(fen)
            legal = g.legal_moves()
            for level in (1, 3, 5, 8, _top(name)):
                m = e.think(g, level, nodes=150)
                assert m in legal, (name, fen, level, m)
                assert g.fen() == fen
        gc.collect()


def test_levels_are_seeded_and_repeat():
    g = new_game("toguz")
    a = [Engine(seed=s).think(g, 1, nodes=500) for s in (1, 2, 3, 4, 5, 6)]
    b = [Engine(seed=s).think(g, 1, nodes=500) for s in (1, 2, 3, 4, 5, 6)]
    assert a == b
    assert len(set(a)) > 1  # the blunders change the choice


def test_tt_size_from_the_board_definition():
    assert engine_mod.tt_size_of({"name": "x"}) == 1024
    assert engine_mod.tt_size_of({"engine": {"tt_size": 0}}) == 0
    assert engine_mod.tt_size_of({"engine": {"tt_size": 256}}) == 256
    tlib.raises(ValueError, engine_mod.tt_size_of, {"engine": {"tt_size": 1000}})
    tlib.raises(ValueError, engine_mod.tt_size_of, {"engine": {"tt_size": "big"}})


def test_keys_stay_small():
    for name in ("toguz", "tobit", "tihbat"):
        g = new_game(name)
        assert 0 <= g.key() < 2 ** 30
    assert engine_mod.move_id(b"\x01\x07\x15\x17\x24") < 255
    assert engine_mod.move_id(3) == 3


# -- the RP2040's stack: a thread with an 8 KB-equivalent C stack -----------------------


def _in_small_stack(fn):
    """Run fn() in a thread with _thread.stack_size(16384) under MicroPython
    (an 8 KB C stack on the RP2040); directly under CPython. Returns fn's result
    or raises what it raised."""
    if not tlib.is_micropython():
        return fn()
    import _thread
    import time

    box = [None, None, False]

    def run():
        try:
            box[0] = fn()
        except BaseException as e:  # noqa: B902 - hand everything back
            box[1] = e
        box[2] = True

    _thread.stack_size(16384)
    _thread.start_new_thread(run, ())
    _thread.stack_size(0)
    t = 0
    while not box[2]:
        time.sleep_ms(5)
        t += 5
        assert t < 600000, "the search thread did not finish"
    if box[1] is not None:
        raise box[1]
    return box[0]


def test_top_level_search_in_a_small_stack():
    out = []
    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        new_game(name)  # Tobit's tables made here: a cold module's import, which takes
        # more C stack under the unix port than the search (the app makes them in a
        # unit of their own, gamestart.begin)
        gc.collect()

        def search():
            g = new_game(name)
            for m in g.legal_moves()[:1]:
                g.push(m)
            e = Engine(tt_size=512)
            e.start(g, _top(name), nodes=1500, table=False)
            while not e.step(nodes=100):
                pass
            ok = e.best_move in g.legal_moves()
            nodes, depth = e.nodes, e.depth
            if name == "tihbat":  # and by the table (a seek per move, no search)
                ok = ok and e.think(g, _top(name), nodes=1500) in g.legal_moves() and e.nodes == 0
            return ok, nodes, depth

        ok, nodes, depth = _in_small_stack(search)
        assert ok, name
        assert nodes <= 1500
        out.append((name, depth))
    assert all(d >= 2 for _, d in out), out


def test_level_tables_have_nine_levels_and_tobits_eleven():
    for name, top in (("toguz", 9), ("tihbat", 9), ("tobit", 11), ("tobit4", 11)):
        t = engine_mod.levels_of(name)
        assert len(t) == top + 1 and t[0] is None and _top(name) == top
        last = None
        for cap, noise, share, blunders in t[1:]:
            assert 1 <= cap <= engine_mod.MAX_PLY - 1 and noise >= 0 and share >= 1
            # blunders in 32, or b | c << 6: b in 32, c in 32 in a careless game
            assert 0 <= blunders <= 32 or 0 <= blunders & 63 <= blunders >> 6 <= 32
            # each level above the one below: deeper, a larger share or fewer blunders
            if last is not None:
                assert (cap, -share, -(blunders & 63)) > last, (name, t)
            last = (cap, -share, -(blunders & 63))
        assert t[top] == (engine_mod.MAX_PLY - 1, 0, 1, 0)  # the top level: no handicap at all
    assert engine_mod.levels_of("tobit") is engine_mod.TOBIT_LEVELS
    assert engine_mod.levels_of("toguz") is engine_mod.LEVELS


def test_level_one_blunders_by_its_seed():
    # Toguz level 1 plays a random legal move in 14 of 32 moves (30 in a careless
    # game, one in four): from one position,
    # 40 seeds give several different moves, the same on a second run
    g = new_game("toguz")
    g.push(4)  # pit 5 from the start: North has captures to choose from
    deep = Engine().think(g, _top("toguz"), nodes=300)
    a = [Engine(seed=s).think(g, 1, nodes=300) for s in range(1, 41)]
    assert a == [Engine(seed=s).think(g, 1, nodes=300) for s in range(1, 41)]
    assert len(set(a)) >= 4
    assert 10 <= sum(1 for m in a if m != deep) <= 38  # about half the moves are not the search's
    # the top level never blunders: every seed plays the search's move
    assert all(Engine(seed=s).think(g, _top("toguz"), nodes=300) == deep for s in (1, 2, 3))


def test_level_one_has_careless_games():
    # Toguz level 1: one game in four (drawn when a game begins) plays a random move
    # in 30 of 32 moves instead of 14; the mood holds for the game. An engine plays
    # 24 plies of a game at level 1 for each of 40 seeds; each move is compared
    # with level 1's search (depth 1) from the same position.
    assert engine_mod.LEVELS[1][3] == 14 | 30 << 6
    differ = {0: [0, 0], 1: [0, 0]}  # mood -> [moves not the search's, moves]
    moods = []
    for s in range(1, 41):
        e = Engine(seed=s, tt_size=0)
        g = new_game("toguz")
        mood = None
        while g.ply < 24 and not g.is_game_over():
            legal = g.legal_moves()
            m = e.think(g, 1, nodes=300)
            if mood is None:
                mood = e._mood & 1
            assert e._mood & 1 == mood and e._mood >> 1 == g.ply  # the same game: the same mood
            if len(legal) > 1:
                differ[mood][0] += m != Engine(tt_size=0).think(g, 8, depth=1)
                differ[mood][1] += 1
            g.push(m)
        moods.append(mood)
        g = new_game("toguz")  # a new game on the same engine: its mood drawn again
        e.think(g, 1, nodes=300)
        assert e._mood >> 1 == 0
    assert 4 <= sum(moods) <= 18, moods  # about a quarter of 40 games
    careless = differ[1][0] / differ[1][1]
    careful = differ[0][0] / differ[0][1]
    # a random move is the search's one in about 1 of 7 legal moves: careless about
    # 30/32 x 6/7 = 80% of its moves not the search's, careful about 14/32 x 6/7 = 37%
    assert 0.65 <= careless <= 0.95, (careless, careful)
    assert 0.25 <= careful <= 0.55, (careless, careful)
    # no other level and no Tobit level draws a mood: their blunders as before
    assert all(t[3] <= 32 for t in engine_mod.LEVELS[2:] + engine_mod.TOBIT_LEVELS[1:])


def _tobit_eval_by_hand(g):
    """TobitEval.evaluate as docs/engine.md gives it: a man 100 + 6 a row advanced,
    a tobit 300, 4 a free point next to a piece in a direction it may step (a man:
    forward, left, right; a tobit: any), for the side to move."""
    top = g.T + 1
    s = 0
    for p in range(1, g.n_points + 1):
        c = g.board[p]
        if not c:
            continue
        y = g.xy(p)[1]
        if c & 4:
            v, dirs = 300, (0, 1, 2, 3)
        elif c == 1:
            v, dirs = 100 + 6 * y, (0, 1, 3)
        else:
            v, dirs = 100 + 6 * (top - y), (2, 1, 3)
        for d in dirs:
            q = g.nb[4 * p + d]
            if q and not g.board[q]:
                v += 4
        s += v if c & 3 == 1 else -v
    return -s if g.turn else s


def test_tobit_evaluation_order_and_leaf_by_hand():
    # the evaluation's viper kernel and the move order, both on the game's geometry,
    # against the terms written out; leaf() is the evaluation exactly where nothing is
    # forced
    ev = evaluation.for_game("tobit")
    seen = [0, 0]
    for name in ("tobit", "tobit4"):
        for g in tlib.random_games(lambda: new_game(name), 60, 3):
            ms = g.legal_moves()
            if not ms:
                assert ev.leaf(g) is None
                continue
            assert ev.evaluate(g) == _tobit_eval_by_hand(g), g.fen()
            quiet = ms[0][0] == 0
            assert ev.leaf(g) == (ev.evaluate(g) if quiet else None)
            seen[quiet] += 1
            for m in ms:
                if not quiet:
                    continue
                c = g.board[m[1]]
                y = g.xy(m[2])[1]
                if c & 4:
                    want = 0
                elif c == 1:
                    want = 500 if y == g.T + 1 else y
                else:
                    want = 500 if y == 0 else g.T + 1 - y
                assert ev.order(g, m) == want, (g.fen(), m)
    assert seen[0] > 5 and seen[1] > 50, seen
