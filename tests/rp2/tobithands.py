"""A player's hands on a Tobit game on the emulated Pico's matrix (tests/rp2): the
pieces of a position stood on their points, a move made as a person makes it (lift,
put down, the captured pieces taken off one by one)."""
from playboard.board.layout import load_layout


def tobit_stand(name, g):
    """The sensors under the pieces of Tobit game ``g`` (``name``: tobit or tobit4; a set)."""
    lay = load_layout(name)
    return set(lay.sensor_of(pt) for pt in range(1, g.n_points + 1) if g.board[pt])


def tobit_move(p, name, stand, g, m):
    """Move ``m`` of Tobit game ``g`` made on ``p``'s matrix (lift at +100 ms, put down
    150 ms later, captures taken off 100 ms apart), ``stand`` (the closed sensors) and
    ``g`` updated; waits until 2 emulated s after the lift (the move committed)."""
    lay = load_layout(name)
    t = p.time_us + 100000
    stand.discard(lay.sensor_of(m[1]))
    p.set_closed(stand, t)
    stand.add(lay.sensor_of(m[-1]))
    p.set_closed(stand, t + 150000)
    for i, pt in enumerate(g.captured_points(m)):
        stand.discard(lay.sensor_of(pt))
        p.set_closed(stand, t + 300000 + 100000 * i)
    g.push(m)
    p.wait_for(lambda q: q.time_us > t + 2000000, 300, "the move committed")
