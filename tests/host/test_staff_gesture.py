"""The staff gesture (docs/museum.md) against 10,000 random museum visitors.

Each trace is a minute of what visitors do on the Toguz Kumalak pits, drawn from a
mix of behaviours (their shares below): a child stirring the balls, deliberate
presses of one pit, two hands on two pits, emptying and refilling several pits,
resting hands on 1-4 pits for seconds, pits touched in a row. The traces go through
``playboard.app.ui.watch_change`` / ``watch_tick`` (the detector the board runs) with a tick every
50 ms; none may open the staff menu. The same generator's staff behaviour (the
four corners held 3.2 s, let go, held again) must open it every time, so the
detector is not simply deaf. The board itself (the App) recognising the gesture and
its menu: tests/firmware/test_app.py.
"""
import random

from playboard.app.ui import watch_change, watch_tick
from playboard.app.state import STAFF_CORNERS

TRACES = 10000


class StaffWatch:
    """The watch's state, as the App holds it (ints), with the board's two functions."""

    def __init__(self):
        self.sw_away = self.sw_phase = self.sw_t = 0

    def change(self, i, away, now_ms):
        watch_change(self, i, away, now_ms)

    def tick(self, now_ms):
        return watch_tick(self, now_ms)
TRACE_MS = 60000
TICK_MS = 50


def _visitor_actions(rnd, t_end):
    """Yield (t_ms, pit, away) for one visitor trace of about ``t_end`` ms."""
    away = [False] * 18
    events = []
    t = 0

    def flip(at, pit, value):
        events.append((at, pit, value))

    while t < t_end:
        kind = rnd.random()
        if kind < 0.25:  # stirring: a pit touched every 100-400 ms for 0.2-1.5 s
            stop = t + rnd.randrange(2000, 10000)
            while t < stop:
                p = rnd.randrange(18)
                d = rnd.randrange(200, 1500)
                flip(t, p, True)
                flip(t + d, p, False)
                t += rnd.randrange(100, 400)
        elif kind < 0.45:  # a deliberate press of one pit
            p = rnd.randrange(18)
            d = rnd.randrange(300, 3000)
            flip(t, p, True)
            flip(t + d, p, False)
            t += d + rnd.randrange(200, 2000)
        elif kind < 0.6:  # two hands on two pits
            a, b = rnd.sample(range(18), 2)
            d = rnd.randrange(300, 5000)
            flip(t, a, True)
            flip(t + rnd.randrange(0, 500), b, True)
            flip(t + d, a, False)
            flip(t + d + rnd.randrange(0, 500), b, False)
            t += d + rnd.randrange(500, 3000)
        elif kind < 0.8:  # hands resting on 1-4 pits (any), lifted and put back
            pits = rnd.sample(range(18), rnd.randrange(1, 5))
            d = rnd.randrange(1000, 8000)
            for p in pits:
                flip(t + rnd.randrange(0, 800), p, True)
            for p in pits:
                flip(t + d + rnd.randrange(0, 800), p, False)
            t += d + rnd.randrange(500, 4000)
        else:  # emptying several pits into the kazan one after another, then back
            pits = rnd.sample(range(18), rnd.randrange(2, 9))
            for p in pits:
                flip(t, p, True)
                t += rnd.randrange(300, 1500)
            t += rnd.randrange(1000, 6000)
            for p in pits:
                flip(t, p, False)
                t += rnd.randrange(300, 1500)
    events.sort(key=lambda e: e[0])
    # keep the sensor model consistent: a flip to the value it has is no change
    for at, p, v in events:
        if away[p] != v:
            away[p] = v
            yield at, p, v


def _staff_actions(rnd):
    t = rnd.randrange(0, 2000)
    for _ in range(2):
        for p in STAFF_CORNERS:
            yield t, p, True
            t += rnd.randrange(50, 400)
        t += 3200
        for p in STAFF_CORNERS:
            yield t, p, False
            t += rnd.randrange(50, 400)
        t += rnd.randrange(200, 2000)


def _opens(actions, end_ms):
    w = StaffWatch()
    t = 0
    for at, p, v in actions:
        while t + TICK_MS <= at:
            t += TICK_MS
            if w.tick(t):
                return True
        i = STAFF_CORNERS.index(p) if p in STAFF_CORNERS else -1
        w.change(i, v, at)
    while t < end_ms:
        t += TICK_MS
        if w.tick(t):
            return True
    return False


def test_no_random_visitor_opens_the_staff_menu_in_10000_traces():
    rnd = random.Random(20261201)
    found = [k for k in range(TRACES) if _opens(_visitor_actions(rnd, TRACE_MS), TRACE_MS + 10000)]
    assert found == []


def test_the_staff_gesture_itself_opens_it_every_time():
    rnd = random.Random(5)
    assert all(_opens(_staff_actions(rnd), 30000) for _ in range(200))
    # held 2.5 s instead of 3: not the gesture
    w = StaffWatch()
    for k in range(2):
        for i in range(4):
            w.change(i, True, 10000 * k)
        assert not w.tick(10000 * k + 2500)
        for i in range(4):
            w.change(i, False, 10000 * k + 2500)
    assert not w.tick(30000)
