"""Pairing systems, as pure functions of seeds (no storage): Berger round-robin tables,
knockout brackets and groups with seeding. docs/tournament.md says which conventions
they follow.

Players are given as seed numbers 1..n (1 the strongest); a pairing is a tuple
(white, black) of seeds, ``None`` standing for the bye.
"""


def berger_rounds(n):
    """The Berger tables (FIDE handbook C.05, annex 1) for ``n`` >= 2 players: a list
    of n-1 rounds (n even) or n rounds (n odd), each a list of (white, black) seed
    pairs, table 1 first. With an odd ``n`` the missing player n+1 is ``None``: that
    pair is the round's bye. Each pair meets exactly once; over the cycle every
    player's count of Whites and Blacks differs by at most one.

    ValueError for n < 2."""
    if n < 2:
        raise ValueError("a round robin needs at least 2 players, not %d" % n)
    m = n + (n & 1)  # players including the dummy
    last = m if m == n else None
    half = m // 2
    rounds = []
    for r in range(m - 1):
        seq = [(r * half + k) % (m - 1) + 1 for k in range(m - 1)]
        table = [(seq[0], last) if r % 2 == 0 else (last, seq[0])]
        for t in range(1, half):
            table.append((seq[t], seq[m - 1 - t]))
        rounds.append(table)
    return rounds


def round_robin(n, cycles=1):
    """``cycles`` Berger cycles for ``n`` players: each later cycle repeats the first
    with the colours reversed in every other cycle. A list of rounds as in
    :func:`berger_rounds`."""
    one = berger_rounds(n)
    out = []
    for c in range(cycles):
        for rnd in one:
            out.append([(b, w) if c % 2 else (w, b) for (w, b) in rnd])
    return out


def bracket_order(size):
    """Seed numbers in bracket order for a knockout of ``size`` (a power of two) slots,
    so that seeds 1 and 2 can meet only in the final: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket size is a power of two, not %d" % size)
    order = [1]
    while len(order) < size:
        n = 2 * len(order) + 1
        order = [x for s in order for x in (s, n - s)]
    return order


def knockout_first_round(n):
    """The first-round matches of a knockout of ``n`` >= 2 seeds: (higher seed, lower
    seed or None for a bye), in bracket order. The bracket is the next power of two;
    its empty slots are byes, which go to the top seeds."""
    if n < 2:
        raise ValueError("a knockout needs at least 2 players, not %d" % n)
    size = 1
    while size < n:
        size *= 2
    order = bracket_order(size)
    out = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        out.append((a, b if b <= n else None))
    return out


def snake_groups(n, groups):
    """Seeds 1..n dealt into ``groups`` groups by the snake (serpentine) system:
    1 2 3 4 / 8 7 6 5 / 9 ... A list of lists of seeds. ValueError if a group would
    hold fewer than 2 players."""
    if groups < 1 or n < 2 * groups:
        raise ValueError("%d players can't make %d groups of at least 2" % (n, groups))
    out = [[] for _ in range(groups)]
    for i in range(n):
        row, col = divmod(i, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(i + 1)
    return out


def match_colours(first_white, games):
    """Colours of a match of ``games`` games between A and B when A has White in the
    first: a list of True (A White) / False, alternating."""
    return [(i % 2 == 0) == bool(first_white) for i in range(games)]
