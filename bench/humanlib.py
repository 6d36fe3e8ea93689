"""How people play on the board, in time: the reply delay, contact bounce, bumps, stray
touches and a chattering sensor (issue 10's "human timing"), written once for the
benches that play the real firmware (bench/py_play.py; bench/py_soak.py's bounce).

Everything is a pure function of a ``random.Random`` and times in ms; the result is a
list of raw sensor actions ``(t_ms, sensor, value)`` for a driver to apply.

The reply delay (``reply_ms``), from the end of the last move's physical actions to the
first action of the reply, 0-3 s:

- 25 %: a *fast* reply, uniform 0-400 ms (the player had the move ready: the case
  issue 10 saw fail, a reply 0-300 ms after the engine's move is put down);
- 75 %: triangular on 0-3000 ms with its mode at 800 ms (a look at the board, then
  the hand).

Mean 0.25 x 200 + 0.75 x (0 + 800 + 3000) / 3 = 1000 ms; 10 % of all replies under
about 250 ms, the median about 1.0 s. Chess-clock studies of casual play put most
replies at 1-3 s; the fast quarter is the adversarial share (it is where the firmware
used to fail), not a claim about people.

Contact bounce (``bounced``): 0-3 flips, each 1-5 ms, before a sensor settles at its
new value (reed and hall contacts under a piece set down or a pit's balls dropped).

A bump (``bump_spans``): a sensor off its value for 100-300 ms and back (a piece knocked
and set right, a hand brushing a pit). A stray touch (``stray``): the same, at any
moment of a game, by someone who is not playing (10 % of games). A chattering sensor
(``Chatter``): a weak magnet whose sensor flips every 100 ms (5 Hz, each value
outlasting the debounce) for 2-8 s (10 % of games); laid over the true value, so it
rests at the truth when it stops.

A piece just put down is still under the mover's fingers: no other hand can take it
before they have opened and left it (``HAND_OFF_MS``, 100 ms from the moment it stood,
its contact bounce over). A ply that takes the piece the last ply put down (a Tobit
capture of it, the captured piece lifted first or between hops) touches that point no
sooner. Why 100 ms: the release of a grasp and the withdrawal of the hand take 100-200
ms in pick-and-place studies, and a person's quickest visual reaction to the piece
landing is about 150 ms; the same person carrying out both plies (the engine's and
their own) must also let go and grasp again. Without the bound the corpus made plies
taking the piece 7-24 ms after it landed (tobit two 101000619, 102000950, 101000697),
which no board can show standing (the debounce's 40 ms): 38-11 taken by 5:32 16 ms
after leaves the same boards as 38-18 or 38-25 then 5:32. 100 ms is over the debounce
and a scan, so the piece is seen standing, which is all the bound is for; it never
delays a reply that does not touch that piece.
"""
FAST_SHARE = 0.25
FAST_MS = 400
MAX_REPLY_MS = 3000
MODE_REPLY_MS = 800
BUMP_MS = (100, 300)
CHATTER_SHARE = 0.10
STRAY_SHARE = 0.10
CHATTER_FLIP_MS = 100  # 5 Hz
CHATTER_MS = (2000, 8000)
HAND_OFF_MS = 100  # a piece just put down is taken by another hand no sooner (above)


def reply_ms(rng):
    """A reply delay in ms (0..MAX_REPLY_MS), drawn as the module docstring says."""
    if rng.random() < FAST_SHARE:
        return rng.randint(0, FAST_MS)
    return int(rng.triangular(0, MAX_REPLY_MS, MODE_REPLY_MS))


def handed_off(changes, point, t_stood):
    """``changes`` (t, point, value), a ply's, begun no sooner than the hand that put a
    piece on ``point`` at ``t_stood`` can have left it: all shifted later so that none
    touches ``point`` before ``t_stood + HAND_OFF_MS``; unchanged if none does."""
    first = [t for (t, p, v) in changes if p == point]
    if not first or min(first) >= t_stood + HAND_OFF_MS:
        return changes
    d = t_stood + HAND_OFF_MS - min(first)
    return [(t + d, p, v) for (t, p, v) in changes]


def bounced(rng, t, sensor, value, other=None):
    """The actions of ``sensor`` going to ``value`` at ``t`` with 0-3 contact bounces
    (each 1-5 ms back at ``other``, default the opposite of a 0/1 value) before it;
    returns (actions, t when it settled)."""
    if other is None:
        other = 0 if value else 1
    out = []
    for _ in range(rng.randint(0, 3)):
        out.append((t, sensor, value))
        t += rng.randint(1, 5)
        out.append((t, sensor, other))
        t += rng.randint(1, 5)
    out.append((t, sensor, value))
    return out, t


def bump_spans(rng, t):
    """A bump at ``t``: the spans ``[(t0, t1), ...]`` (ms) during which a sensor reads the
    opposite of its true value: 100-300 ms, with 0-3 bounces of 1-5 ms at each end;
    returns (spans, t at the end). Laid over the true value (not set to a value), so a
    piece put down or lifted meanwhile is read right once the bump ends."""
    spans = []
    for _ in range(rng.randint(0, 3)):
        d = rng.randint(1, 5)
        spans.append((t, t + d))
        t += d + rng.randint(1, 5)
    d = rng.randint(*BUMP_MS)
    spans.append((t, t + d))
    t += d
    for _ in range(rng.randint(0, 3)):
        t += rng.randint(1, 5)
        d = rng.randint(1, 5)
        spans.append((t, t + d))
        t += d
    return spans, t


class Chatter:
    """A chattering sensor: ``sensor`` reads the opposite of its true value during the
    odd 100 ms periods of [t0, t1) (5 Hz), its true value otherwise."""

    def __init__(self, rng, t0, sensor):
        self.sensor = sensor
        self.t0 = t0
        self.t1 = t0 + rng.randint(*CHATTER_MS)

    def flipped(self, t):
        """True when the sensor reads the opposite of its true value at ``t``."""
        return self.t0 <= t < self.t1 and ((t - self.t0) // CHATTER_FLIP_MS) % 2 == 0

    def next_edge(self, t):
        """The first time after ``t`` at which the reading may change, or None."""
        if t >= self.t1:
            return None
        if t < self.t0:
            return self.t0
        k = (t - self.t0) // CHATTER_FLIP_MS + 1
        return min(self.t0 + k * CHATTER_FLIP_MS, self.t1)
