"""Scores, tiebreaks and standings, as pure functions of finished games (no storage).

A game is an :class:`Outcome`: two entrants, the points each scored (by the event's
scoring), whether it was played over the board (a forfeit is not), whether it was
won, and the kazans (balls in each side's kazan at the end, mancala games only).
docs/tournament.md gives the definitions and a worked example of each tiebreak.
"""

# Default points per result: Tobit 2/1/0 (RULES.md 2.11: "2 points : 0", a draw
# "1 : 1"); Toguz Kumalak and Tihbat 1/0.5/0, as their federations score.
DEFAULT_SCORING = {
    "tobit": {"win": 2, "draw": 1, "loss": 0},
    "tobit4": {"win": 2, "draw": 1, "loss": 0},
    "toguz": {"win": 1, "draw": 0.5, "loss": 0},
    "tihbat": {"win": 1, "draw": 0.5, "loss": 0},
}

TIEBREAKS = {
    "h2h": "head-to-head: points scored in the games among the players tied on points",
    "wins": "number of games won over the board (forfeits not counted)",
    "sb": "Sonneborn-Berger: each opponent's score times the share of the game's points won against them",
    "buchholz": "Buchholz: the sum of the opponents' scores",
    "kazan": "kazan difference: balls in one's own kazan minus the opponent's, summed over the games",
    "games": "game points (team events: the points of all board games)",
}
MANCALA = ("toguz", "tihbat")


def default_tiebreaks(game, team=False):
    """The default tiebreak order for ``game`` (a game name)."""
    tb = ["h2h", "wins", "sb"]
    if team:
        tb = ["games", "h2h", "sb"]
    if game in MANCALA:
        tb.append("kazan")
    return tb


class Outcome:
    """One finished game (or team match) between entrants ``a`` and ``b`` (ids):
    ``pa``/``pb`` points, ``played`` (False for a forfeit), ``wa``/``wb`` won it,
    ``ka``/``kb`` kazans at the end (None when unknown)."""

    __slots__ = ("a", "b", "pa", "pb", "played", "wa", "wb", "ka", "kb")

    def __init__(self, a, b, pa, pb, played=True, wa=None, wb=None, ka=None, kb=None):
        self.a, self.b, self.pa, self.pb, self.played = a, b, pa, pb, played
        self.wa = pa > pb if wa is None else wa
        self.wb = pb > pa if wb is None else wb
        self.ka, self.kb = ka, kb


def scores(entrants, outcomes, extra=None):
    """{entrant: points} over ``outcomes``, plus ``extra`` ({entrant: points}, e.g. byes)."""
    s = {e: 0 for e in entrants}
    for o in outcomes:
        s[o.a] += o.pa
        s[o.b] += o.pb
    for e, p in (extra or {}).items():
        s[e] = s.get(e, 0) + p
    return s


def _sides(outcomes, e):
    """(my points, opponent, opponent's points, played, won, my kazan, their kazan) per game of ``e``."""
    for o in outcomes:
        if o.a == e:
            yield o.pa, o.b, o.pb, o.played, o.wa, o.ka, o.kb
        elif o.b == e:
            yield o.pb, o.a, o.pa, o.played, o.wb, o.kb, o.ka


def tiebreak_values(entrants, outcomes, order, win_points, extra=None, game_points=None):
    """{entrant: [score, tb1, tb2, ...]} for the tiebreak names in ``order``
    (keys of TIEBREAKS). ``win_points``: the points of a win (Sonneborn-Berger
    weighs an opponent's score by my points / win_points); ``game_points``:
    {entrant: points} for "games". ValueError for an unknown tiebreak."""
    for t in order:
        if t not in TIEBREAKS:
            raise ValueError("unknown tiebreak %r (known: %s)" % (t, ", ".join(TIEBREAKS)))
    sc = scores(entrants, outcomes, extra)
    out = {}
    for e in entrants:
        row = [sc[e]]
        for t in order:
            if t == "h2h":
                tied = {x for x in entrants if sc[x] == sc[e]}
                row.append(sum(p for p, opp, _, _, _, _, _ in _sides(outcomes, e) if opp in tied)
                           if len(tied) > 1 else 0)
            elif t == "wins":
                row.append(sum(1 for _, _, _, played, won, _, _ in _sides(outcomes, e) if played and won))
            elif t == "sb":
                row.append(sum(sc[opp] * p / win_points for p, opp, _, _, _, _, _ in _sides(outcomes, e)))
            elif t == "buchholz":
                row.append(sum(sc[opp] for _, opp, _, _, _, _, _ in _sides(outcomes, e)))
            elif t == "kazan":
                row.append(sum(mk - tk for _, _, _, _, _, mk, tk in _sides(outcomes, e)
                               if mk is not None and tk is not None))
            elif t == "games":
                row.append((game_points or {}).get(e, 0))
        out[e] = [_tidy(v) for v in row]
    return out


def _tidy(v):
    """Whole floats as ints, others rounded to 4 places (so 2.5 stays 2.5, 1.0 is 1)."""
    if isinstance(v, float):
        v = round(v, 4)
        if v == int(v):
            return int(v)
    return v


def rank(values, seeds=None):
    """Entrants ordered by their value lists (greatest first), then by seed; returns
    [(place, entrant)], entrants equal on every value sharing a place."""
    seeds = seeds or {}
    order = sorted(values, key=lambda e: ([-v for v in values[e]], seeds.get(e, 0)))
    out = []
    for i, e in enumerate(order):
        place = out[-1][0] if i and values[order[i - 1]] == values[e] else i + 1
        out.append((place, e))
    return out
