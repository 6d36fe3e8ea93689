"""Random events run to their end with the arbiter's every tool, and the invariants
they must keep (tests/host/test_tournament_props.py with hypothesis; ``make bench``:
bench/py_events.py runs 10,000).

:func:`random_event` draws an event (2-40 players; round robin of 1-2 cycles,
knockout, groups with a knockout or round-robin final, team round robin), pairs
every round, enters random results with forfeits (one side and both), withdrawals,
corrections (and corrections back), adjournments, tied knockout matches decided by
tiebreak games or by decision, and re-pairings, then checks:

- who meets whom as the format says: a round robin's every pair once a cycle; a
  knockout's matches between the last round's winners, each match's games alternating
  colours; a group's games inside the group; a team match's board k the teams' k-th
  players;
- colours balanced: every player's Whites and Blacks in a round-robin cycle differ by
  at most one;
- the points of the standings sum to the points of the games counted;
- the standings and their tiebreaks computed again from the event's PGN file alone
  (its White, Black, Result and Forfeit tags) are the event's.
"""
import random

from playboard.pgn import read_games

from playboard_host.library import Library
from playboard_host.tournament import outputs, pairing, scoring
from playboard_host.tournament.event import FORFEITS, Event, TournamentError, points

PLAYED = ("1-0", "0-1", "1/2-1/2")


def _result(rng):
    x = rng.random()
    if x < 0.06:
        return rng.choice(FORFEITS)
    return rng.choice(PLAYED)


def _other(result):
    return {"1-0": "0-1", "0-1": "1/2-1/2", "1/2-1/2": "1-0"}.get(result, "1-0")


def draw_settings(rng):
    """A random event's settings: dict of Event.create's arguments plus ``n`` (players)
    or ``teams`` and ``per_team``."""
    kind = rng.choice(("roundrobin", "knockout", "groups", "team"))
    game = rng.choice(("toguz", "tobit", "tihbat"))
    s = {"game": game, "system": "roundrobin" if kind == "team" else kind}
    if kind == "roundrobin":
        s["n"] = rng.randint(2, 40)
        s["cycles"] = 2 if s["n"] <= 10 and rng.random() < 0.3 else 1
    elif kind == "knockout":
        s["n"] = rng.randint(2, 40)
        s["games_per_match"] = rng.randint(1, 3)
        s["tiebreak_games"] = rng.choice((0, 1, 2))
    elif kind == "groups":
        s["n"] = rng.randint(4, 40)
        s["groups"] = rng.randint(2, min(4, s["n"] // 2))
        s["advance"] = rng.randint(1, 2)
        s["final"] = rng.choice(("knockout", "roundrobin"))
        s["games_per_match"] = rng.randint(1, 2)
        s["tiebreak_games"] = rng.choice((0, 2))
    else:
        s["team"] = True
        s["per_team"] = rng.randint(1, 4)
        s["teams"] = rng.randint(2, max(2, min(8, 40 // s["per_team"])))
        s["boards_per_match"] = s["per_team"]
    return s


def random_event(rng, lib=None):
    """Run one random event drawn with ``rng`` (a random.Random) to its end in ``lib``
    (default a new in-memory library). Returns (the settings, [failures: one line
    each]); no failure: every invariant held."""
    s = draw_settings(rng)
    own = lib is None
    lib = lib or Library(":memory:")
    try:
        return s, _run(rng, lib, s)
    finally:
        if own:
            lib.close()


def _run(rng, lib, s):
    kw = {k: v for k, v in s.items() if k not in ("game", "system", "n", "teams", "per_team")}
    e = Event.create(lib, "E", s["game"], s["system"], **kw)
    if s.get("team"):
        for t in range(s["teams"]):
            e.add_entrant("T%d" % t)
        for t in range(s["teams"]):
            for k in range(s["per_team"]):
                e.add_entrant("T%dP%d" % (t, k), team="T%d" % t)
    else:
        for k in range(s["n"]):
            e.add_entrant("P%d" % k)
    fails = []
    withdrawn = 0
    for _ in range(400):  # (an event ends well before)
        try:
            r, ps = e.pair_next()
        except TournamentError as x:
            if "over" in str(x) or "are paired" in str(x):
                break
            if "decide" in str(x):  # a tied match for the arbiter
                _decide(rng, e)
                continue
            if "lacks results" in str(x) or "no result yet" in str(x):
                _finish_adjourned(rng, e)
                continue
            fails.append("pair: %s" % x)
            break
        fresh = all(p.source not in ("board", "hand") for p in e.pairings(r))  # (not a tiebreak block added)
        if fresh and rng.random() < 0.1:
            try:
                e.repair()
            except TournamentError as x:
                fails.append("repair round %d: %s" % (r, x))
        if not s.get("team") and rng.random() < 0.04 and withdrawn < 2 and s["system"] != "groups":
            live = [x for x in e.entrants() if x.withdrawn_round is None]
            if len(live) > 2:
                e.withdraw(rng.choice(live).name)
                withdrawn += 1
        if s.get("team") and rng.random() < 0.05 and withdrawn < 1:
            e.withdraw(rng.choice(e.entrants()).name)
            withdrawn += 1
        for p in e.pairings(r):
            if p.result is not None or p.black is None:
                continue
            if s["system"] == "roundrobin" and rng.random() < 0.03:
                e.adjourn(r, _who(p), "adjourned at random")
                continue
            res = _result(rng)
            if rng.random() < 0.1:  # a correction, and sometimes the correction back
                e.set_result(r, _who(p), _other(res), "first report")
                e.set_result(r, _who(p), res, "corrected")
            else:
                e.set_result(r, _who(p), res, "reported")
        if s["system"] == "roundrobin" and rng.random() < 0.5:
            _finish_adjourned(rng, e)
    else:
        fails.append("the event never ended")
    _finish_adjourned(rng, e)
    fails.extend(invariants(e, s, lib))
    return fails


def _who(p):
    return p.match if p.game_no == 1 else "%s.%d" % (p.match, p.game_no)


def _finish_adjourned(rng, e):
    for p in e.pairings():
        if p.result is None and p.source == "adjourned":
            e.set_result(p.round, _who(p), rng.choice(PLAYED), "resumed")


def _decide(rng, e):
    for r in e.rounds():
        for m in e._matches(r):
            if m[0].black is None or e.match_over(m):
                continue
            pa, pb, complete = e.match_score(m)
            if not complete or pa != pb:
                continue
            names = e.names_by_id()
            if any(g.result == "-/-" for g in m) and rng.random() < 0.5:
                e.decide(r, m[0].match, "nobody", "arbiter", "both absent")
            else:
                w = rng.choice((m[0].white, m[0].black))
                e.decide(r, m[0].match, names[w], rng.choice(("lot", "armageddon", "rating")), "tied")


# ---- invariants ----------------------------------------------------------------------

def invariants(e, s, lib):
    """Failures (lines) of event ``e`` (settings ``s``) once it has ended."""
    out = []
    ps = e.pairings()
    names = e.names_by_id()
    if any(p.result is None for p in ps):
        out.append("%d games without a result at the end" % sum(p.result is None for p in ps))
    system = s["system"]
    if s.get("team"):
        out.extend(_team_meets(e, ps))
    elif system == "roundrobin":
        out.extend(_rr_meets(e, [p for p in ps if p.stage == "rr"], e.entrants(), s.get("cycles", 1)))
    elif system == "knockout":
        out.extend(_ko_meets(e, "ko", e.entrants()))
    else:
        for g, members in e.groups().items():
            out.extend(_rr_meets(e, [p for p in ps if p.stage == "group " + g], members, 1, "group " + g))
        fin = e.finalists()
        if s["final"] == "knockout":
            out.extend(_ko_meets(e, "final", fin))
        else:
            out.extend(_rr_meets(e, [p for p in ps if p.stage == "final"], fin, 1, "final"))
    # points: the standings' sum is the counted games' sum
    if not s.get("team") and system == "roundrobin":
        st = e.standings()
        total = sum(r["score"] for r in st)
        annulled = e.annulled()
        want = 0
        for p in ps:
            if p.black is None or p.result in (None, "bye") or p.white in annulled or p.black in annulled:
                continue
            want += sum(points(p.result, e.scoring))
        want += sum(e.bye_points().values())
        if abs(total - want) > 1e-9:
            out.append("the standings' points sum to %s, the games' to %s" % (total, want))
        if not annulled:
            out.extend(_from_pgn(e, lib, st, names))
    if s.get("team"):
        outs, gp = e._team_outcomes()
        for o in outs:
            if o.pa + o.pb not in (e.scoring["win"] + e.scoring["loss"], 2 * e.scoring["draw"]):
                out.append("a team match scored %s + %s match points" % (o.pa, o.pb))
        games = sum(sum(points(p.result, e.scoring)) for p in ps if p.black is not None and p.result in
                    PLAYED + ("+/-", "-/+"))
        games += sum(2 * e.scoring.get("forfeit_loss", e.scoring["loss"]) for p in ps if p.result == "-/-")
        if abs(sum(gp.values()) - games) > 1e-9:
            out.append("game points %s, the games' %s" % (sum(gp.values()), games))
    return out


def _rr_meets(e, ps, members, cycles, what="round robin"):
    out = []
    ids = [m.id for m in members]
    n = len(ids)
    meets = {}
    for p in ps:
        if p.black is None:
            continue
        k = frozenset((p.white, p.black))
        meets[k] = meets.get(k, 0) + 1
    want = {frozenset((a, b)): cycles for i, a in enumerate(ids) for b in ids[i + 1:]}
    if meets != want:
        extra = [tuple(sorted(k)) for k in meets if meets.get(k) != want.get(k)]
        missing = [tuple(sorted(k)) for k in want if k not in meets]
        out.append("%s of %d: pairs met wrongly %s, never %s" % (what, n, extra[:3], missing[:3]))
    per_cycle = len(pairing.berger_rounds(n)) if n >= 2 else 1
    first = min((p.round for p in ps), default=1)
    for c in range(cycles):
        wb = {x: 0 for x in ids}
        for p in ps:
            if p.black is None or (p.round - first) // per_cycle != c:
                continue
            wb[p.white] += 1
            wb[p.black] -= 1
        bad = [x for x, v in wb.items() if abs(v) > 1]
        if bad:
            out.append("%s cycle %d: colours off by %s" % (what, c + 1, [wb[x] for x in bad][:3]))
    return out


def _ko_meets(e, stage, seeds):
    out = []
    rounds = sorted({p.round for p in e.pairings() if p.stage == stage})
    alive = {x.id for x in seeds}
    for r in rounds:
        matches = e._matches(r, stage)
        seen = set()
        nxt = set()
        for m in matches:
            sides = {m[0].white, m[0].black} - {None}
            if not sides <= alive or sides & seen:
                out.append("%s round %d match %s: %s not among the ones still in" % (stage, r, m[0].match, sides))
            seen |= sides
            a = m[0].white
            for k, g in enumerate(m):
                if g.black is not None and (g.white == a) != (k % 2 == 0):
                    out.append("%s round %d match %s game %d: colours do not alternate" % (
                        stage, r, m[0].match, k + 1))
                if g.black is not None and len({x.board for x in m}) > 1:
                    out.append("%s round %d match %s: games on %s boards" % (stage, r, m[0].match,
                                                                          len({x.board for x in m})))
                    break
            w = e.match_winner(m)
            if w is not None:
                nxt.add(w)
        if seen != alive:
            out.append("%s round %d: %d of %d still in were paired" % (stage, r, len(seen), len(alive)))
        alive = nxt
    if len(alive) > 1:
        out.append("%s: %d left at the end" % (stage, len(alive)))
    return out


def _team_meets(e, ps):
    out = []
    teams = e.entrants()
    team_of = {m.id: t for t in teams for m in t.members}
    meets = {}
    for games in [m for r in e.rounds() for m in e._matches(r)]:
        g0 = games[0]
        if g0.black is None:
            continue
        ta, tb = team_of[g0.white], team_of[g0.black]
        meets[frozenset((ta.id, tb.id))] = meets.get(frozenset((ta.id, tb.id)), 0) + 1
        for k, g in enumerate(games):
            a, b = ta.members[k].id, tb.members[k].id
            if (g.white, g.black) != ((a, b) if k % 2 == 0 else (b, a)):
                out.append("team match %s - %s board %d: not the teams' %d-th players, colours as set"
                           % (ta.name, tb.name, k + 1, k + 1))
    want = {frozenset((a.id, b.id)): 1 for i, a in enumerate(teams) for b in teams[i + 1:]}
    if meets != want:
        out.append("team round robin: matches %s, should be each pair once" % sorted(meets.values()))
    return out


def _from_pgn(e, lib, st, names):
    """The standings again from the event's PGN file alone."""
    by_name = {v: k for k, v in names.items()}
    outs = []
    for rec in read_games(outputs.event_pgn(e, lib).splitlines()):
        t = rec.tags
        res = t.get("Forfeit") or t["Result"]
        w, b = by_name[t["White"]], by_name[t["Black"]]
        pw, pb = points(res, e.scoring)
        outs.append(scoring.Outcome(w, b, pw, pb, played=res not in FORFEITS,
                                    wa=res in ("1-0", "+/-"), wb=res in ("0-1", "-/+")))
    ids = [x.id for x in e.entrants()]
    order = e.settings["tiebreaks"]
    vals = scoring.tiebreak_values(ids, outs, order, e.scoring["win"], extra=e.bye_points())
    seeds = {x.id: x.seed for x in e.entrants()}
    again = [(place, names[x], vals[x][0], dict(zip(order, vals[x][1:]))) for place, x in scoring.rank(vals, seeds)]
    ours = [(r["place"], r["name"], r["score"], r["tiebreaks"]) for r in st]
    if again != ours:
        return ["the standings from the PGN file differ: %s != %s" % (again[:2], ours[:2])]
    return []


def run_many(count, seed=0):
    """Run ``count`` random events from ``seed``; returns (events run, [(seed, settings,
    failures)] of the events that failed)."""
    bad = []
    for k in range(count):
        rng = random.Random(seed + k)
        try:
            s, fails = random_event(rng)
        except Exception as x:  # noqa: BLE001 - a crash is a failure to report, with its seed
            s, fails = None, ["%s: %s" % (type(x).__name__, x)]
        if fails:
            bad.append((seed + k, s, fails))
    return count, bad
