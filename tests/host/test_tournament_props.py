"""Property-based tests of events (hypothesis, derandomized: the same seeds in every
run): random events of every format run to their end with byes, withdrawals, forfeits,
corrections, adjournments, decisions and re-pairings keep the invariants of
playboard_host.tournament.check. `make bench` (bench/py_events.py) runs 10,000."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from playboard_host.library import Library
from playboard_host.tournament.check import draw_settings, invariants, random_event
from playboard_host.tournament.event import Event


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.integers(min_value=0, max_value=2 ** 32 - 1))
def test_random_events_keep_every_invariant(seed):
    s, fails = random_event(random.Random(seed))
    assert fails == [], (seed, s, fails)


def test_the_draws_cover_every_format_and_size():
    seen = set()
    sizes = set()
    for k in range(400):
        s = draw_settings(random.Random(k))
        seen.add((s["system"], s.get("team", False), s.get("final")))
        sizes.add(s.get("n") or s["teams"] * s["per_team"])
    assert {("roundrobin", False, None), ("knockout", False, None), ("groups", False, "knockout"),
            ("groups", False, "roundrobin"), ("roundrobin", True, None)} <= seen
    assert min(sizes) == 2 and max(sizes) >= 38


def test_the_invariants_catch_a_broken_event():
    lib = Library(":memory:")
    e = Event.create(lib, "E", "toguz")
    for n in "ABCDEF":
        e.add_entrant(n)
    while True:
        r, ps = e.pair_next()
        for p in ps:
            e.set_result(r, p.match, "1-0", "reported")
        if r == 5:
            break
    s = {"system": "roundrobin", "game": "toguz", "n": 6, "cycles": 1}
    assert invariants(e, s, lib) == []
    # a pairing changed behind the event's back: B met twice, colours off
    p = e.pairings(5)[0]
    q = e.pairings(4)[0]
    with lib.db:
        lib.db.execute("UPDATE pairings SET white=?, black=? WHERE id=?", (q.white, q.black, p.id))
    fails = invariants(e, s, lib)
    assert fails and fails[0].startswith("round robin of 6: pairs met wrongly"), fails
    lib.close()
