"""The engine: game-agnostic negamax with alpha-beta that thinks in slices.

One ``Engine`` plays all games through their common interface (``legal_moves``,
``push``/``pop``, ``is_game_over``, ``result``, ``key``, ``copy``) and one
evaluation per game (``playboard.engine.evaluation``). It never recurses: the search
keeps its own stack of at most ``MAX_PLY`` frames in preallocated arrays, so
it fits the RP2040's 8 KB C stack whatever the depth, and it can be suspended
after any node and resumed later. The app drives it like this::

    eng = Engine(tt_size=1024)            # from the board definition; 0 = no table
    eng.start(game, level=5, ms=2000)     # the game is copied, never changed
    while not eng.step(ms=10):            # think for one frame at a time
        scan_sensors(); animate(); wdt.feed()
        if board_changed: eng.stop()      # the next step() returns True at once
    move = eng.best_move                  # None only when there is no legal move

A hint for the user is the same call at the user's level. ``think()`` does
start + step to the end in one call (host tools, tests).

Search: iterative deepening from depth 1; at each node the moves are tried in
the order: transposition-table move (or, at the root, the previous iteration's
best move), two killer moves of that ply, then the game's hint (captures,
tuzdyks first); where the evaluation's ``SEARCH`` asks for them (Toguz Kumalak's
levels without a depth cap) principal variation search and late-move reductions
(``SEARCH_*``, ``Engine.features``). Games whose evaluation asks for it (``quiesce``: Tobit, where
capture is compulsory) extend horizon nodes while the side to move must
capture. Levels 1-9 (1-10 where native: ``TOGUZ_NATIVE_LEVELS``), Tobit's 1-11 or 1-13 (``LEVELS``,
``TOBIT_LEVELS``, ``TOBIT_NATIVE_LEVELS``): the
low levels play a seeded random move in some of their moves (Toguz Kumalak's
level 1 in more of them in one game of four, a careless game), cap the depth,
add seeded noise to the root moves' scores (so they blunder on purpose) and get
a smaller share of the budget (1/16 at level 1, 1/6 at level 8, 1/2 at Tobit's 10);
the top level (9 or 10, Tobit's 11 or 13) searches until the budget (or the tree) runs out. At its
top level Tihbat plays by the solved table (``playboard.engine.tihbat_table``) when the table file is present.

Budgets: ``ms`` (milliseconds on ``clock``, checked before every node; by the
native Tobit search before every 16) and
``nodes`` (a node is a position visited; the search never visits more than
``nodes``, and stops having visited exactly ``nodes`` unless it finished
first). Scores are from the side to move's view, in the evaluation's units;
a won game scores ``WIN - plies``.
"""
import time

from playboard.compat import const
from playboard.engine import evaluation

try:
    from array import array
except ImportError:  # pragma: no cover - every port we use has array
    array = None

MAX_PLY = const(40)  # frames of the explicit search stack (search + extensions)
MAX_MOVES = const(64)  # moves ordered at a node (any more are tried last, in the game's order)
WIN = const(30000)
INF = const(32000)
_WIN_BOUND = const(29000)  # |score| above this is a forced result

_ENTER = const(0)
_NEXT = const(1)
_RETURN = const(2)

_EXACT = const(0)
_LOWER = const(1)
_UPPER = const(2)

_NO_MOVE = const(255)

# the search's features (``Engine.features``, an evaluation's ``SEARCH``: bits), in
# both searches, the engine's own and the native one (docs/engine.md)
SEARCH_PVS = const(1)  # principal variation search: a null window after a node's first move
SEARCH_LMR = const(2)  # late quiet moves (4th on, order key 0) a ply shallower at 3+ plies to go
# (an aspiration window, 4, and history, 8, were screened and not kept: docs/engine.md)

# level: (depth cap, root noise amplitude in quarters of the evaluation's UNIT, budget
# divisor, blunders): a level searches at most the given budgets divided by its divisor,
# with a depth cap, noise on the root moves' scores (no level uses it now), and - in
# ``blunders`` of 32 moves, drawn from the seed - a uniformly random legal move instead
# of a search. ``blunders`` above 63 is ``b | c << 6``: b in 32 moves, but in one game
# of ``_CARELESS`` (drawn when a game begins: a careless game) c in 32 - a child wins
# some games against level 1 without level 1 being weaker on average. (One int, not a
# fifth field: 18 small ints less in the heap, where test_memory's rig has no more.)
# Calibrated per game by matches (docs/engine.md, ``playboard match --ladder``): each
# level 60-75% against the one below.
LEVELS = (  # Toguz Kumalak, Tihbat: 9 levels
    None,
    (1, 0, 16, 14 | 30 << 6),
    (1, 0, 16, 11),
    (1, 0, 16, 7),
    (2, 0, 16, 5),
    (2, 0, 16, 2),
    (3, 0, 8, 2),
    (3, 0, 8, 0),
    (MAX_PLY - 1, 0, 6, 0),
    (MAX_PLY - 1, 0, 1, 0),
)
TOBIT_LEVELS = (  # Tobit 5 x 4 and 4 x 4: its greedy mover is little better than a random one,
    # and its strongest search is further above it than 7 steps of 75% (docs/engine.md):
    # 11 levels
    None,
    (1, 0, 16, 31),
    (1, 0, 16, 24),
    (1, 0, 16, 19),
    (1, 0, 16, 13),
    (2, 0, 16, 9),
    (2, 0, 16, 5),
    (2, 0, 16, 2),
    (3, 0, 8, 1),
    (MAX_PLY - 1, 0, 5, 0),
    (MAX_PLY - 1, 0, 2, 0),
    (MAX_PLY - 1, 0, 1, 0),
)
# Tobit where its search runs in native code (``Engine.native``: about 8 times the nodes
# in the same time): levels 1-8 as above (the engine's own search, the same share of the
# time: the same nodes), 9-11 at 1/8 of the shares above (the native search: about the
# same nodes as above, so the ladder holds), and two more above them
TOBIT_NATIVE_LEVELS = TOBIT_LEVELS[:9] + (
    (MAX_PLY - 1, 0, 40, 0),
    (MAX_PLY - 1, 0, 16, 0),
    (MAX_PLY - 1, 0, 8, 0),
    (MAX_PLY - 1, 0, 3, 0),
    (MAX_PLY - 1, 0, 1, 0),
)
# Toguz Kumalak where its search runs in native code (``Engine.native``: about 13 times
# the nodes in the same time): levels 1-7 as above (the engine's own search), 8 the
# native search at 1/40 of the time (755 of 30,218 nodes: at level 8 above's 397, 1/76,
# it scored 59.5% against 7), 9 at about the nodes of the top level above (1/13: 2,324
# nodes, the old top's; a record's or setting's 9 from before plays that strength), 10
# all of them (docs/engine.md, "Levels"): 10 levels
TOGUZ_NATIVE_LEVELS = LEVELS[:8] + (
    (MAX_PLY - 1, 0, 40, 0),
    (MAX_PLY - 1, 0, 13, 0),
    (MAX_PLY - 1, 0, 1, 0),
)
_CARELESS = const(4)  # one game in this many is a careless one (levels with two blunder rates)

def levels_of(name, native=False):
    """The levels table (``LEVELS``' shape, indexed 1..top: 9, Tobit's 11; where its
    search is ``native`` Tobit's 13, Toguz Kumalak's 10) of the game called ``name``; its top level is
    ``len(levels_of(name, native)) - 1``."""
    if name[:5] == "tobit":
        return TOBIT_NATIVE_LEVELS if native else TOBIT_LEVELS
    if native and name == "toguz":
        return TOGUZ_NATIVE_LEVELS
    return LEVELS


try:
    _ticks_ms = time.ticks_ms
    _ticks_diff = time.ticks_diff
except AttributeError:  # CircuitPython, CPython

    def _ticks_ms():
        return int(time.monotonic() * 1000)

    def _ticks_diff(a, b):
        return a - b


    from playboard.compat import CIRCUITPYTHON
    if CIRCUITPYTHON:
        from playboard.compat import ticks_ms as _ticks_ms, ticks_diff as _ticks_diff  # noqa: F811


def _ticks_diff_plain(a, b):
    return a - b


TT_SIZE_DEFAULT = const(1024)


def tt_size_of(board, default=TT_SIZE_DEFAULT):
    """The transposition table size a board definition asks for.

    ``board``: the parsed board definition (a dict); its optional
    ``"engine": {"tt_size": N}`` (N = 0 or a power of two up to 65536; 0 on the
    smallest heaps) wins over ``default``. ValueError for a bad N."""
    eng = board.get("engine") if board else None
    n = default if not eng else eng.get("tt_size", default)
    if not isinstance(n, int) or n < 0 or n > 65536 or (n & (n - 1)):
        raise ValueError("engine.tt_size must be 0 or a power of two up to 65536, not %r" % (n,))
    return n


class Engine:
    """Negamax alpha-beta search with iterative deepening, stepped in slices.

    ``tt_size``: entries of the transposition table (a power of two, 0 for
    none; about 8 bytes each: key int32, score int16, depth/bound, move). Take
    it from the board definition. ``clock``: a function returning milliseconds
    (default ``time.ticks_ms``), injectable for tests; differences are taken
    with ``time.ticks_diff`` for the device clock and plain subtraction for an
    injected one. ``seed``: seeds the low levels' noise (same seed, same game).
    ``native``: Tobit's levels without a depth cap search in native code (``TobitSearch`` of
    ``playboard.engine.tobit_native``, its buffers made at the first such search, about
    13 KB): the same search, the same moves at the same nodes, about eight times as many
    nodes in a 2 s search on the RP2040; Tobit then plays by ``TOBIT_NATIVE_LEVELS`` (13
    levels: 1-11 at about the same nodes as without it, two above). Toguz Kumalak's levels
    8-10 search natively too (``ToguzSearch`` of ``playboard.engine.toguz_native``, 2.3
    KB of buffers; ``TOGUZ_NATIVE_LEVELS``: 10 levels, about 13 times the engine's own
    top's nodes at 10, about its nodes at 9, about twice its level 8's at 8). The board
    definition's ``"engine": {"native": true}`` asks for it (``App``). Under CPython the
    viper code runs as plain Python, slower than this module's search.

    After ``start`` the results are read from: ``done`` (bool), ``best_move``,
    ``score`` (int, side to move's view), ``depth`` (last completed iteration),
    ``nodes`` (positions visited so far), ``stopped`` (ended by ``stop``).
    """

    native = False  # (set True on an engine: Tobit's native search, above)
    features = None  # the search's features (``SEARCH_*`` bits); None: the evaluation's
    # ``SEARCH`` at the levels without a depth cap (Toguz Kumalak's 8 and up), none below

    def __init__(self, tt_size=0, clock=None, seed=12345):
        if tt_size < 0 or (tt_size & (tt_size - 1)):
            raise ValueError("tt_size must be 0 or a power of two, not %r" % (tt_size,))
        self.tt_size = tt_size
        if tt_size:
            self._tt_key = array("i", bytes(4 * tt_size))
            for i in range(tt_size):
                self._tt_key[i] = -1
            self._tt_score = array("h", bytes(2 * tt_size))
            self._tt_info = bytearray(tt_size)  # depth << 2 | bound
            self._tt_move = bytearray(tt_size)  # move_id() of the best move, 255 none
        if clock is None:
            self._clock = _ticks_ms
            self._diff = _ticks_diff
        else:
            self._clock = clock
            self._diff = _ticks_diff_plain
        self._rand = (seed & 0x3FFFFFFF) or 1
        n = MAX_PLY + 1
        self._moves = [None] * n
        self._okey = array("h", bytes(2 * MAX_MOVES))  # order scores of the node being set up
        # the search stack's numbers: one array each (a list takes a pointer a slot: 8
        # bytes on the unix port); scores, indices and depths fit 2 bytes (|score| <=
        # INF), the position keys take 4
        self._idx = array("h", bytes(2 * n))
        self._alpha = array("h", bytes(2 * n))
        self._beta = array("h", bytes(2 * n))
        self._best = array("h", bytes(2 * n))
        self._bmove = array("h", bytes(2 * n))
        self._depth = array("h", bytes(2 * n))
        self._key = array("i", bytes(4 * n))
        self._killer1 = [None] * n
        self._killer2 = [None] * n
        self._mode = array("h", bytes(2 * n))  # how each ply's current child is searched
        self._noise_of = None  # root move -> its noise (low levels)
        self._spare = None  # the game copy, reused by the next search of the same game
        self._root_ply = 0
        self._ply = 0
        self._g = None
        # the game's ply at the last start << 1 | 1 in a careless game (a new game: a
        # ply not above the last)
        self._mood = 1 << 30
        self.done = True
        self.best_move = None
        self.score = 0
        self.depth = 0
        self.nodes = 0
        self.stopped = False

    # -- public --------------------------------------------------------------

    def start(self, game, level=8, ms=None, nodes=None, depth=None, copy=True, table=True):
        """Begin a search for the side to move in ``game`` at ``level`` (1-9; Tobit 1-11; if native Toguz Kumalak 1-10, Tobit 1-13).

        ``game`` is copied (``game.copy()``) and never changed. With
        ``copy=False`` the search pushes and pops on ``game`` itself (saving the
        copy's heap): between slices it then holds the search's moves, so the
        caller must not read or change it until the search is done or
        ``stop()`` (which takes those moves back at once). ``table``: at
        the top level (9), play Tihbat by the solved table when its file is present
        (no search; False searches instead). ``ms``: time
        budget in milliseconds on the engine's clock, from this call; ``nodes``:
        node budget; levels below the top use a share of both (``LEVELS``: 1/16 up
        to 1/6 or Tobit's 1/2); ``depth``: a depth cap below the level's own.
        With no budget the level's depth cap alone bounds the search (the levels
        with no cap, 8 and above, Tobit's 9 and above, then need a budget: ValueError). A game that is over gives
        ``best_move`` None; a single legal move is returned without search.
        A level above the game's top (9 or 10, Tobit's 11 or 13) plays as the top. Raises
        ValueError for a level below 1 or a negative budget.
        """
        levels = levels_of(game.name, self.native)
        if not isinstance(level, int) or level < 1:
            raise ValueError("level must be 1 or more, not %r" % (level,))
        if level >= len(levels):  # above the game's top (a record's level from another
            level = len(levels) - 1  # game's range): its top
        if (ms is not None and ms < 0) or (nodes is not None and nodes < 0):
            raise ValueError("budgets must be >= 0 (ms=%r, nodes=%r)" % (ms, nodes))
        cap, noise, share, blunders = levels[level]
        if blunders > 63:  # blunders | careless << 6: this level has careless games
            m = self._mood
            if game.ply <= m >> 1:  # a new game (or a take-back): draw its mood
                m = self._rand_below(_CARELESS) == 0
            self._mood = game.ply << 1 | m & 1
            blunders = blunders >> 6 if m & 1 else blunders & 63
        if nodes is not None and share > 1:
            nodes = max(1, nodes // share)
        if ms is not None and share > 1:
            ms = max(1, ms // share)
        if depth is not None:
            if depth < 1:
                raise ValueError("depth must be >= 1, not %r" % (depth,))
            cap = min(cap, depth)
        if cap >= MAX_PLY - 1 and ms is None and nodes is None and depth is None:
            raise ValueError("level %d searches to its budget: give ms, nodes or depth" % level)
        self._ev = evaluation.for_game(game.name)
        f = self.features
        if f is None:  # the evaluation's features, at the levels without a depth cap (the
            # capped ones play as before them); a test's stand-in has none
            f = getattr(self._ev, "SEARCH", 0) if cap >= MAX_PLY - 1 else 0
        self._features = f
        self._quiesce = self._ev.QUIESCE
        self._noise = noise * self._ev.UNIT // 4
        self._cap = min(cap, MAX_PLY - 1)
        self._max_nodes = nodes
        self._ms = ms
        self._t0 = self._clock()
        if not self.done and self._g is not None:
            self._finish()  # a search still running: take its moves back first
        self.nodes = 0
        self.depth = 0
        self.score = 0
        self.best_move = None
        self.stopped = False
        self.done = False
        self._g = None
        for i in range(MAX_PLY + 1):
            self._moves[i] = None
            self._killer1[i] = None
            self._killer2[i] = None
            self._mode[i] = 0
        moves = game.legal_moves()
        if not moves:
            self.done = True
            return
        self.best_move = moves[0]
        if len(moves) == 1:
            self.done = True
            return
        if blunders and self._rand_below(32) < blunders:
            self.best_move = moves[self._rand_below(len(moves))]
            self.done = True
            return
        if level == len(levels) - 1 and table and game.name == "tihbat":
            try:
                from playboard.engine import tihbat_table

                m = tihbat_table.best_move(game)
            except (OSError, ImportError):  # no table on this board: search instead
                m = None
            if m is not None:
                self.best_move = m
                self.done = True
                return
        if self.native and self._cap == MAX_PLY - 1 and not noise:
            if game.name[:5] == "tobit":
                from playboard.engine import tobit_native  # the same search in native code
                tobit_native.start(self, game)
                return
            if game.name == "toguz":
                from playboard.engine import toguz_native  # the same search in native code
                toguz_native.start(self, game)
                return
        g = self._copy_of(game) if copy else game
        self._g = g
        self._root_moves = moves
        if self._noise:
            self._noise_of = {}
            for m in moves:
                self._noise_of[m] = self._rand_below(2 * self._noise + 1) - self._noise
        self._iter_depth = 0
        self._prev_best = None
        self._next_iteration()

    def step(self, nodes=None, ms=None):
        """Think for one slice: at most ``nodes`` nodes and/or about ``ms`` ms.

        Returns True when the search is done (``best_move`` is final), False when
        it should be stepped again. With neither limit the search runs to its end.
        """
        if self.done:
            return True
        slice_end = None if nodes is None else self.nodes + nodes
        t_slice = self._clock() if ms is not None else 0
        if self._g is None:  # a native search (start): Tobit's loop steps both
            from playboard.engine import tobit_native
            return tobit_native.step(self, slice_end, t_slice, ms)
        return self._run(slice_end, t_slice, ms)

    def stop(self):
        """Abort the search: the game is restored at once and the next ``step``
        returns True without searching. ``best_move`` keeps the best move found
        so far (or a legal move)."""
        if not self.done:
            self.stopped = True
            self._finish()

    def think(self, game, level=8, ms=None, nodes=None, depth=None, table=True):
        """Search to the end in one call (start + step); return the best move."""
        self.start(game, level, ms=ms, nodes=nodes, depth=depth, table=table)
        while not self.step():
            pass
        return self.best_move

    # -- internals -----------------------------------------------------------

    def _copy_of(self, game):
        """A copy of ``game`` to search on. The engine keeps its last copy and,
        for the same kind of game from the same set-up position, brings it up to
        date by taking back the moves that differ and pushing the new ones (in
        play: two pushes per turn), instead of allocating a new game: no new
        undo buffers per search and no long replay inside ``start``."""
        spare = self._spare
        if (spare is not None and type(spare) is type(game)
                and getattr(game, "root_fen", None) is not None
                and spare.root_fen == game.root_fen):
            gs = game.move_stack()
            ss = spare.move_stack()
            k = 0
            n = min(len(gs), len(ss))
            while k < n and gs[k] == ss[k]:
                k += 1
            while spare.ply > k:
                spare.pop()
            for i in range(k, len(gs)):
                spare.push(gs[i])
            return spare
        self._spare = None
        spare = game.copy()
        self._spare = spare
        return spare

    def _rand_below(self, n):
        # xorshift on 30 bits: the same sequence under CPython and MicroPython
        x = self._rand
        x ^= (x << 13) & 0x3FFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0x3FFFFFFF
        self._rand = x
        return x % n

    def _finish(self):
        g = self._g
        if g is not None:
            while g.ply > self._root_ply:
                g.pop()
        self._g = None
        moves = self._moves
        for i in range(MAX_PLY + 1):
            moves[i] = None
        self.done = True

    def _next_iteration(self):
        """Set up the root frame for the next depth; return False when done."""
        d = self._iter_depth + 1
        if d > self._cap:
            return False
        self._iter_depth = d
        self._horizon = False  # set when a leaf was cut by depth, not by the game's end
        self._root_ply = self._g.ply
        self._ply = 0
        self._alpha[0] = -INF
        self._beta[0] = INF
        self._depth[0] = d
        return True


    def _order_moves(self, moves, ttm, pm, k1, k2):
        """Sort ``moves`` in place, best first: the table's move (id ``ttm``) or the
        previous iteration's best ``pm``, the killers ``k1``, ``k2``, then the
        game's hint (captures, tuzdyks). Only the first MAX_MOVES are sorted."""
        g = self._g
        okey = self._okey
        order = self._ev.order
        n = len(moves)
        if n > MAX_MOVES:
            n = MAX_MOVES
        for i in range(n):
            m = moves[i]
            if (pm is not None and m == pm) or (ttm != _NO_MOVE and move_id(m) == ttm):
                s = 32000
            elif k1 is not None and m == k1:
                s = 31000
            elif k2 is not None and m == k2:
                s = 30999
            else:
                s = order(g, m)
                if s > 30000:
                    s = 30000
                elif s < -30000:
                    s = -30000
            # insertion: keys descending, moves alongside (stable for equal keys)
            j = i
            while j > 0 and okey[j - 1] < s:
                okey[j] = okey[j - 1]
                moves[j] = moves[j - 1]
                j -= 1
            okey[j] = s
            moves[j] = m

    def _terminal(self, ply):
        """Score of a finished game for the side to move at ``ply``."""
        r = self._g.result()
        if r == "1-0":
            won = self._g.turn == 0
        elif r == "0-1":
            won = self._g.turn == 1
        else:
            return 0
        return (WIN - ply) if won else (ply - WIN)

    def _tt_probe(self, ply, key, depth):
        """The table's score for this node, or None (no tuple with the stored move:
        on the RP2040 an allocation a node is time; ``_run`` reads the move)."""
        i = key & (self.tt_size - 1)
        if self._tt_key[i] != key:
            return None
        info = self._tt_info[i]
        if (info >> 2) >= depth:
            s = self._tt_score[i]
            if s > _WIN_BOUND:
                s -= ply
            elif s < -_WIN_BOUND:
                s += ply
            b = info & 3
            if b == _EXACT:
                return s
            if b == _LOWER and s >= self._beta[ply]:
                return s
            if b == _UPPER and s <= self._alpha[ply]:
                return s
        return None

    def _tt_store(self, ply, key, depth, score, bound, mv):
        i = key & (self.tt_size - 1)
        if self._tt_key[i] == key and (self._tt_info[i] >> 2) > depth:
            return  # keep the deeper result for this position
        if score > _WIN_BOUND:
            score += ply
        elif score < -_WIN_BOUND:
            score -= ply
        if depth > 63:
            depth = 63
        self._tt_key[i] = key
        self._tt_score[i] = score
        self._tt_info[i] = (depth << 2) | bound
        self._tt_move[i] = mv

    def _run(self, slice_end, t_slice, slice_ms):
        """The search loop: runs until done (True) or the slice ends (False)."""
        g = self._g
        ev = self._ev
        tt = self.tt_size
        quiesce = self._quiesce
        noise = self._noise
        moves_ = self._moves
        idx = self._idx
        alpha = self._alpha
        beta = self._beta
        best = self._best
        bmove = self._bmove
        depth = self._depth
        max_nodes = self._max_nodes
        budget_ms = self._ms
        clock = self._clock
        diff = self._diff
        timed = budget_ms is not None or slice_ms is not None
        undo = getattr(g, "undo", None) or g.pop  # the stand-in games of the tests have pop
        ft = self._features
        mode = self._mode
        value = 0
        ply = self._ply
        phase = _ENTER
        while True:
            if phase == _ENTER:
                # the budgets are checked before each node is visited
                if max_nodes is not None and self.nodes >= max_nodes:
                    self._ply = ply
                    self._budget_end()
                    return True
                if timed:
                    now = clock()
                    if budget_ms is not None and diff(now, self._t0) >= budget_ms:
                        self._ply = ply
                        self._budget_end()
                        return True
                    if slice_ms is not None and diff(now, t_slice) >= slice_ms:
                        break
                if slice_end is not None and self.nodes >= slice_end:
                    break
                self.nodes += 1
                d = depth[ply]
                if ply == 0:
                    moves = self._root_moves
                elif d <= 0 or ply >= MAX_PLY - 1:
                    # horizon: a finished game, a forced capture to extend, or the evaluation
                    if quiesce and ply < MAX_PLY - 1:
                        value = ev.leaf(g)  # a quiet position's value, without its moves
                        if value is not None:
                            self._horizon = True
                            phase = _RETURN
                            continue
                        moves = g.legal_moves()
                        if not moves:
                            value = self._terminal(ply)
                            phase = _RETURN
                            continue
                        if not ev.forcing(g, moves):
                            self._horizon = True
                            value = ev.evaluate(g)
                            phase = _RETURN
                            continue
                        self._horizon = True
                        d = depth[ply] = 0
                    else:
                        if g.is_game_over():
                            value = self._terminal(ply)
                        else:
                            self._horizon = True
                            value = ev.evaluate(g)
                        phase = _RETURN
                        continue
                else:
                    moves = g.legal_moves()
                    if not moves:
                        value = self._terminal(ply)
                        phase = _RETURN
                        continue
                ttm = _NO_MOVE
                if tt and ply > 0:
                    key = g.key()
                    self._key[ply] = key
                    i = key & (tt - 1)
                    if self._tt_key[i] == key:
                        ttm = self._tt_move[i]
                    s = self._tt_probe(ply, key, d)
                    if s is not None:
                        self._horizon = True  # a stored result may hide a horizon
                        value = s
                        phase = _RETURN
                        continue
                moves_[ply] = moves
                self._order_moves(moves, ttm, self._prev_best if ply == 0 else None,
                                  self._killer1[ply], self._killer2[ply])
                idx[ply] = 0
                best[ply] = -INF
                bmove[ply] = _NO_MOVE
                phase = _NEXT
            elif phase == _NEXT:
                moves = moves_[ply]
                i = idx[ply]
                md = 0
                if ft:  # the features: how this move is searched (mode)
                    md = mode[ply]
                    if md & 4:  # the last move again (a fail-high of a narrower search)
                        i -= 1
                        md &= 3
                    else:
                        md = 0
                        if ft & SEARCH_PVS and i > 0 and beta[ply] - alpha[ply] > 1:
                            md = 1  # after the first move, a null window
                        if (ft & SEARCH_LMR and i >= 3 and i < len(moves) and depth[ply] >= 3
                                and ev.order(g, moves[i]) == 0):
                            md |= 2  # a late quiet move (not the table's, no killer): a ply less
                    mode[ply] = md
                if i < len(moves) and alpha[ply] < beta[ply]:
                    idx[ply] = i + 1
                    g.push(moves[i])
                    ply += 1
                    alpha[ply] = -beta[ply - 1]
                    beta[ply] = -alpha[ply - 1]
                    depth[ply] = depth[ply - 1] - 1
                    if md & 1:
                        alpha[ply] = -alpha[ply - 1] - 1
                    if md & 2:
                        depth[ply] = depth[ply - 1] - 2
                    phase = _ENTER
                else:
                    value = best[ply]
                    if tt and ply > 0:
                        # alpha as the frame began is the parent's -beta (beta never moves;
                        # beta - 1 in a null window)
                        lo = -beta[ply - 1]
                        if mode[ply - 1] & 1:
                            lo = beta[ply] - 1
                        if value <= lo:
                            bound = _UPPER
                        elif value >= beta[ply]:
                            bound = _LOWER
                        else:
                            bound = _EXACT
                        bi = bmove[ply]
                        mi = _NO_MOVE if bi == _NO_MOVE else move_id(moves[bi])
                        self._tt_store(ply, self._key[ply], depth[ply], value, bound, mi)
                    if ply > 0:
                        moves_[ply] = None
                    phase = _RETURN
            else:  # _RETURN: hand value to the parent frame
                if ply == 0:
                    if not self._end_iteration(value):
                        self._finish()
                        return True
                    phase = _ENTER  # the root of the next, deeper iteration
                    continue
                undo()
                ply -= 1
                s = -value
                i = idx[ply] - 1
                if ply == 0 and noise:
                    s += self._noise_of[moves_[0][i]]
                md = mode[ply]
                if md and s > alpha[ply] and (md & 2 or s < beta[ply]):
                    # beat alpha: searched again, at full depth (the same window), or whole
                    if ply == 0 and md == 1:  # a root move's null window failed high: the
                        bmove[0] = i  # best so far (a budget's end keeps it)
                    mode[ply] = 4 | (md & 1) if md & 2 else 4
                    phase = _NEXT
                    continue
                if s > best[ply]:
                    best[ply] = s
                    bmove[ply] = i
                    if s > alpha[ply] and not (ply == 0 and noise):
                        alpha[ply] = s
                        if s >= beta[ply]:
                            m = moves_[ply][i]
                            if m != self._killer1[ply]:
                                self._killer2[ply] = self._killer1[ply]
                                self._killer1[ply] = m
                phase = _NEXT
        self._ply = ply
        return False

    def _budget_end(self):
        """The budget ran out mid-iteration: keep the partial iteration's best
        root move if it beat the previous best (which is always tried first)."""
        bi = self._bmove[0]
        if self._moves[0] is not None and bi != _NO_MOVE:
            self.best_move = self._moves[0][bi]
            if self.depth == 0:
                self.score = self._best[0]
        self._finish()

    def _end_iteration(self, value):
        """Record a finished root iteration; set up the next; False when done."""
        bi = self._bmove[0]
        if bi != _NO_MOVE:
            self.best_move = self._moves[0][bi]
            self._prev_best = self.best_move
        self.score = value
        self.depth = self._iter_depth
        if value > _WIN_BOUND or value < -_WIN_BOUND:
            return False  # a forced result: deeper search cannot change it
        if not self._horizon:
            return False  # the whole tree was seen: deeper iterations change nothing
        return self._next_iteration()


def move_id(m):
    """A byte (0..254) naming move ``m`` among its position's moves, for the
    transposition table: the pit for the mancala games, a hash of the path for
    Tobit. Two moves may share an id; the table's move only orders the search."""
    if isinstance(m, int):
        return m % 255
    # a Tobit move: its kind, length, first and last points (a few captures with the
    # same ends share an id)
    return (m[0] * 97 + len(m) * 53 + m[1] * 41 + m[-1]) % 255
