"""Tracker fuzz (host, hypothesis): arbitrary sensor sequences, not moves at all.

Whatever the sensors do, the tracker (a) never raises, (b) commits only legal
moves, each exactly when the board has shown that move's occupancy for the
settle time (a takeback only from the previous position's), and (c) never locks
up: once the pieces stand as the game says, it is idle and out of correction.
Scale: 200 Tobit examples and 150 mancala examples of up to 60 sensor changes each
(about 10,000 changes).
"""
from hypothesis import example, given, settings, strategies as st, HealthCheck

from playboard.games.registry import game_class
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


mancala_events = st.lists(
    st.tuples(st.integers(0, 3000), st.integers(0, 19), st.integers(0, 1)),
    min_size=1, max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mancala_events, st.sampled_from(["toguz", "tihbat"]), st.sampled_from(["stylus", "lift"]))
# what hypothesis found (Toguz Kumalak, lift mode): a pit of each row lifted in one scan
# (the view's move and its reply: two commits in one update, which the app recorded as
# the reply twice); two pits of one row (the selection withdrawn, with an error, in the
# quiet frames after)
@example([(0, 2, 1), (0, 9, 1), (120, 2, 0), (0, 9, 0), (120, 0, 0)], "toguz", "lift")
@example([(0, 0, 1), (0, 1, 1), (120, 0, 0), (0, 1, 0)], "toguz", "lift")
def test_arbitrary_pit_events(changes, name, select):
    """Any pit sensor sequence: only legal moves are pushed, each reported once with
    its selection, at most one commit an update (and taken back only with an error: two
    pits at once); errors change nothing else; the board always comes back to the
    mover's choice once the sensors are quiet."""
    from playboard.board.mancala_tracker import MancalaTracker

    g = game_class(name)(capacity=64)
    ref = game_class(name)(capacity=64)
    tr = MancalaTracker(g, select=select, confirm_ms=1500)
    n_cells = tr.n_cells
    occ = bytearray(n_cells)
    t = 0
    tr.update(occ, t)
    state = {"pending": False}  # a selection of a player is shown in its sowing view

    def take(n):
        kinds = [tr.ev_kind[i] for i in range(n)]
        # one commit an update: the app records each by the game's last move (two in
        # one update recorded the second twice: both players lifting in one scan)
        assert kinds.count(T.EV_COMMITTED) <= 1, kinds
        for i in range(n):
            k = kinds[i]
            if k == T.EV_COMMITTED:
                m = tr.move
                assert m in ref.legal_moves()
                ref.push(m)
                state["pending"] = i > 0 and kinds[i - 1] == T.EV_SELECTED  # (not a pass)
            elif k == T.EV_CONFIRMED:
                state["pending"] = False
            elif k == T.EV_TAKEBACK:  # two pits at once (with an error), or the pending
                # selection withdrawn (its pit touched again, its balls put back): only
                # ever the move whose sowing view shows
                assert state["pending"] and ref.pop() == tr.move
                state["pending"] = False
            elif k == T.EV_SELECTED:
                assert T.EV_COMMITTED in kinds
            elif k == T.EV_ERROR:
                assert T.EV_COMMITTED not in kinds or T.EV_SELECTED in kinds
        assert g.fen() == ref.fen()

    for dt, c, v in changes:
        t += dt
        occ[c % n_cells] = v
        take(tr.update(occ, t))
    for tt in range(t + 10, t + 2000, 10):  # quiet: lifts held, a forced Tihbat pass, the view
        take(tr.update(occ, tt))
    assert tr.request.mode in (T.M_CHOOSE, T.M_OVER)

