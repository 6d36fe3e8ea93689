"""Tihbat solved by retrograde analysis: the table the board plays by.

Every board is seen from the side to move: (a, b, c, d) = the mover's pits 1
and 2, the opponent's pits 1 and 2; sowing runs a -> b -> c -> d -> a (RULES.md
3.2). Counters only leave the board by captures, in even numbers, so a board
holds an even total s of 0..28 counters: 19,160 boards (the 38,320 positions
of four pit counts and a side to move, halved by the symmetry of the sides).

Value of a board: the counters the side to move captures from here on, minus
the opponent's, under best play by both, where a line that never captures again
(it goes round for ever; in the real game the first repetition ends it) is
valued as the equal split of what remains, i.e. 0. An empty board is 0.

Solving: by total s, from 0 up (a capture leads to a smaller total, already
solved). Within one total the moves without a capture form a graph with cycles;
for each threshold t = 2, 4, ..., s two retrograde passes (a breadth-first
attractor) find W_t, the boards whose mover can force a gain of at least t, and
L_t, the boards whose opponent can force at least t; a board's value is the
largest t with it in W_t, minus the largest with it in L_t, else 0. The pass
also gives each decided board its *rank*: the plies until the capture that
realises the value (the side ahead plays to lower ranks and so never goes
round in circles; the side behind delays).

``playboard tihbat-solve`` writes the table file read by
``playboard.engine.tihbat_table`` (format there). docs/engine.md says where the
table's value can differ from play under the first-repetition rule.
"""
import collections
import struct

from playboard.engine import tihbat_table as tt

TOTAL = 28


def boards(s):
    """All boards (a, b, c, d) with total ``s``, in table order."""
    for a in range(0, s + 1):
        for b in range(0, s - a + 1):
            for c in range(0, s - a - b + 1):
                yield (a, b, c, s - a - b - c)


def play(board, m):
    """Play pit ``m`` (0 or 1) of the mover on ``board``; None for a pass.

    Returns (captured, next board from the opponent's side). RULES.md 3.2-3.4:
    the first counter back into the emptied pit (a single counter goes on to
    the next pit), capture of 2/4/6/8 in the mover's pit where the last counter
    lands, then the pit before it while it is the mover's and 2/4/6/8."""
    p = list(board)
    if m is None:
        return 0, (p[2], p[3], p[0], p[1])
    n = p[m]
    p[m] = 0
    if n == 1:
        last = (m + 1) & 3
        p[last] += 1
    else:
        q, r = divmod(n, 4)
        for i in range(4):
            p[i] += q
        i = m
        for _ in range(r):
            p[i] += 1
            i = (i + 1) & 3
        last = (m + n - 1) & 3
    taken = 0
    j = last
    while j < 2 and p[j] in (2, 4, 6, 8):
        taken += p[j]
        p[j] = 0
        j = (j - 1) & 3
    return taken, (p[2], p[3], p[0], p[1])


def moves(board):
    """The mover's moves: pits 0/1 that hold counters, or [None] (a pass) if
    both are empty and the board is not; [] for an empty board."""
    a, b, c, d = board
    if a + b + c + d == 0:
        return []
    ms = [m for m in (0, 1) if board[m]]
    return ms or [None]


def solve(progress=None):
    """Solve every board; return (values, ranks): two lists indexed by
    ``playboard.engine.tihbat_table.index``."""
    n = tt.ENTRIES
    value = [0] * n
    rank = [0] * n
    for s in range(0, TOTAL + 1, 2):
        layer = list(boards(s))
        pos = {bd: i for i, bd in enumerate(layer)}
        k = len(layer)
        succ = [[] for _ in range(k)]  # in-layer successors (one per move)
        exits = [[] for _ in range(k)]  # values (mover's view) of capturing moves
        nmoves = [0] * k
        for i, bd in enumerate(layer):
            ms = moves(bd)
            nmoves[i] = len(ms)
            for m in ms:
                c, nxt = play(bd, m)
                if c:
                    exits[i].append(c - value[tt.index(*nxt)])
                else:
                    succ[i].append(pos[nxt])
        pred = [[] for _ in range(k)]
        for i in range(k):
            for j in succ[i]:
                pred[j].append(i)
        val = [0] * k
        rnk = [0] * k
        for t in range(2, s + 1, 2):
            win = [0] * k  # rank+1 when in W_t
            lose = [0] * k  # rank+1 when in L_t
            cnt = list(nmoves)
            queue = collections.deque()
            for i in range(k):
                if not nmoves[i]:
                    continue
                if any(v >= t for v in exits[i]):
                    win[i] = 1
                    queue.append(i)
                    continue
                cnt[i] -= sum(1 for v in exits[i] if v <= -t)
                if cnt[i] == 0:
                    lose[i] = 1
                    queue.append(i)
            while queue:
                i = queue.popleft()
                if lose[i]:
                    for p in pred[i]:
                        if not win[p] and not lose[p]:
                            win[p] = lose[i] + 1
                            queue.append(p)
                else:
                    for p in pred[i]:
                        if not win[p] and not lose[p]:
                            cnt[p] -= 1
                            if cnt[p] == 0:
                                lose[p] = win[i] + 1
                                queue.append(p)
            for i in range(k):
                if win[i]:
                    val[i] = t
                    rnk[i] = win[i]
                elif lose[i]:
                    val[i] = -t
                    rnk[i] = lose[i]
        base = tt.index(*layer[0])
        for i, bd in enumerate(layer):
            j = tt.index(*bd)
            assert j == base + i, (bd, j, base + i)
            value[j] = val[i]
            rank[j] = rnk[i]
        if progress:
            progress(s, k)
    return value, rank


def table_bytes(value, rank):
    """The table file's bytes (format: ``playboard.engine.tihbat_table``)."""
    if max(rank) > 254:
        raise ValueError("a rank of %d does not fit the table's byte" % max(rank))
    out = bytearray(tt.MAGIC + struct.pack("<BBH", tt.VERSION, 0, tt.ENTRIES))
    for v, r in zip(value, rank):
        out.append(v // 2 + 14)
        out.append(r)
    return bytes(out)


def check(value, rank):
    """Consistency of a solved table: each value equals the best move's, by
    the definition (in-layer moves by -value, captures by c - value). Returns the
    number of boards checked; AssertionError on the first mismatch."""
    n = 0
    for s in range(0, TOTAL + 1, 2):
        for bd in boards(s):
            ms = moves(bd)
            i = tt.index(*bd)
            if not ms:
                assert value[i] == 0
                continue
            best = max(c - value[tt.index(*nxt)] for c, nxt in (play(bd, m) for m in ms))
            assert best == value[i], (bd, value[i], best)
            if value[i] > 0:  # the side ahead has a move that makes progress
                assert any(c and c - value[tt.index(*nxt)] == value[i]
                           or not c and -value[tt.index(*nxt)] == value[i]
                           and rank[tt.index(*nxt)] < rank[i]
                           for c, nxt in (play(bd, m) for m in ms)), bd
            n += 1
    return n
