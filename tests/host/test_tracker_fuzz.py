"""Tracker fuzz (host, hypothesis): arbitrary sensor sequences, not moves at all.

Whatever the sensors do, the tracker (a) never raises, (b) commits only legal
moves, each exactly when the board has shown that move's occupancy for the
settle time (a takeback only from the previous position's), and (c) never locks
up: once the pieces stand as the game says, it is idle and out of correction.
Scale: 200 examples of up to 60 sensor changes each (about 6,000 changes).
"""
from hypothesis import given, settings, strategies as st, HealthCheck

from playboard.games import game_class
from playboard.board import tracker as T
from playboard.board.tobit_tracker import TobitTracker


def occupied(g):
    return set(p for p in range(1, g.n_points + 1) if g.board[p])


def after(g, m):
    occ = occupied(g)
    for c in g.captured_points(m):
        occ.discard(c)
    occ.discard(m[1])
    occ.add(m[len(m) - 1])
    return occ


events = st.lists(
    st.tuples(st.integers(0, 700),  # ms until this change
              st.integers(1, 38),  # point
              st.integers(0, 1)),  # value
    min_size=1, max_size=60)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(events, st.sampled_from(["W:W8:B15,23,38", None, "W:WK1:B38", "B:W9,14,K16:B21,22,30"]),
       st.booleans())
def test_arbitrary_sensor_sequences(changes, fen, takeback):
    g = game_class("tobit")(fen, capacity=64)
    ref = game_class("tobit")(fen, capacity=64)
    tr = TobitTracker(g, setup=False, takeback=takeback)
    occ = bytearray(39)
    for p in occupied(g):
        occ[p] = 1
    t = 0
    tr.update(occ, t)
    since = 0  # when the board last changed
    for dt, p, v in changes:
        # frames every 10 ms up to the change
        for tt in range(t + 10, t + dt + 1, 10):
            n = tr.update(occ, tt)
            shown = set(q for q in range(1, 39) if occ[q])
            for i in range(n):
                kind = tr.ev_kind[i]
                if kind == T.EV_COMMITTED:
                    m = tr.move
                    assert m in ref.legal_moves()
                    assert after(ref, m) == shown
                    assert tt - since >= tr.settle_ms
                    ref.push(m)
                elif kind == T.EV_TAKEBACK:
                    assert takeback
                    ref.pop()
                    assert occupied(ref) == shown
            assert g.fen() == ref.fen()
        t += dt
        if occ[p] != v:
            occ[p] = v
            since = t
        tr.update(occ, t)
    # put the pieces right: the game's position
    for q in range(1, 39):
        occ[q] = 1 if g.board[q] else 0
    for tt in range(t + 10, t + 2000, 10):
        tr.update(occ, tt)
    assert not tr.correcting and not tr.busy()
    assert tr.request.mode in (T.M_IDLE, T.M_OVER)
