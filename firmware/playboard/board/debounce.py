"""Per-sensor debounce: stable snapshots, change lists and faulty-sensor detection.

A raw sensor value counts only after it has stayed the same for ``stable_ms``
(default 40 ms; scan at 100 Hz or faster). Each ``update(raw, now_ms)`` returns how
many sensors changed their *stable* value in that frame; their indices are
``changes[0:n_changes]`` and the stable snapshot is ``stable[0:n]`` (one byte per
sensor, the raw value that held: 0 empty, 1 occupied / White, 2 Black).

Faults (``fault[i]``; the new ones and cleared ones of a frame are
``fault_changes[0:n_fault_changes]``):

- ``CHATTER``: a sensor whose raw value flips more than ``chatter_limit`` times
  within ``window_ms`` (a broken wire, a magnet on the edge): its stable value is
  frozen (no further changes are reported) until it has held one value for
  ``recover_ms``; then it is debounced as usual again.
  A sensor whose *stable* value changes too often is CHATTER too (a weak magnet
  flipping every 100-200 ms: each flip outlasts ``stable_ms``, so the flip count
  above stays low): every stable change adds 16 to the sensor's bucket and every
  ``window_ms`` (1 s) takes 32 off it; a change that would lift the bucket over 112
  is not reported and the sensor is CHATTER, frozen at its value before that
  change. So the 8th change of a burst trips it, a sensor flipping 10 times a
  second is caught within 0.8 s and 5 times a second within about 2.5 s, while a
  person (a piece lifted and put back, a stylus tapping the same pit three times,
  two changes a second for ever) never is. See docs/tracker.md, "Faulty sensors".
- ``STUCK``: a *momentary* sensor (a stylus or touch pad that selects a pit, see
  ``set_momentary``) that is on at start-up or stays on longer than ``max_on_ms``:
  its stable value is forced to 0 (reported as a change if it was 1) so that it
  cannot select anything; it recovers once it has read 0 for ``stable_ms``.

Presence sensors under pieces stay on for a whole game: they are not momentary.
A presence sensor on where the game says empty is the tracker's business.

Nothing is allocated per frame: the work is one viper loop over preallocated
buffers (``update`` runs under ``micropython.heap_lock()``); with no raw change
and nothing pending it touches each sensor once. Times are ``time.ticks_ms()``
values (they wrap at 2**30) or any int clock in ms.
"""
from array import array

from playboard.compat import micropython, const, ptr8, ptr16  # noqa: F401

OK = const(0)
CHATTER = const(1)
STUCK = const(2)

_MASK = const(0x3FFFFFFF)  # ticks_ms period - 1
_MAX_DT = const(1000)      # a gap longer than 1 s counts as 1 s

# header of the ages array (array 'H'): parameters and outputs of _step
_H_N = const(0)
_H_STABLE = const(1)
_H_MAXON = const(2)
_H_CHATTER = const(3)
_H_WINDOW = const(4)
_H_WELAPSED = const(5)
_H_RECOVER = const(6)
_H_NFAULT = const(7)
_H_FIRST = const(8)
_HDR = const(10)

# sections of the state bytearray, each n bytes: (section index) * n
_S_CAND = const(0)
_S_STABLE = const(1)
_S_FAULT = const(2)
_S_FLIPS = const(3)
_S_CHANGES = const(4)
_S_FCHANGES = const(5)
_S_MOMENTARY = const(6)
_S_BUCKET = const(7)
_SECTIONS = const(8)
# the stable-change bucket (see the module text): add per change, leak per window, limit
_B_ADD = const(16)
_B_LEAK = const(32)
_B_LIMIT = const(112)


@micropython.viper
def _step(st: ptr8, ages: ptr16, raw: ptr8, dt: int) -> int:
    n = int(ages[0])
    stable_ms = int(ages[1])
    max_on = int(ages[2])
    chatter = int(ages[3])
    recover = int(ages[6])
    first = int(ages[8])
    # chatter window
    we = int(ages[5]) + dt
    if we >= int(ages[4]):
        we = 0
        for i in range(n):
            st[3 * n + i] = 0
            b = int(st[7 * n + i])
            st[7 * n + i] = b - _B_LEAK if b > _B_LEAK else 0
    ages[5] = we
    n_changes = 0
    n_faults = 0
    o_st = n
    o_fa = 2 * n
    o_fl = 3 * n
    o_ch = 4 * n
    o_fc = 5 * n
    o_mo = 6 * n
    o_bk = 7 * n
    for i in range(n):
        r = int(raw[i])
        a = int(ages[10 + i])
        if r != int(st[i]):
            # raw change: restart the age, count the flip
            st[i] = r
            ages[10 + i] = 0
            if first:
                # first frame: take the value as it is, no change reported
                st[o_st + i] = r
                if max_on and r and int(st[o_mo + i]):
                    st[o_fa + i] = 2
                    st[o_st + i] = 0
                    st[o_fc + n_faults] = i
                    n_faults += 1
                continue
            fl = int(st[o_fl + i])
            if fl < 255:
                fl += 1
                st[o_fl + i] = fl
            if fl > chatter and int(st[o_fa + i]) == 0:
                st[o_fa + i] = 1
                st[o_fc + n_faults] = i
                n_faults += 1
            continue
        a += dt
        if a > 65535:
            a = 65535
        ages[10 + i] = a
        f = int(st[o_fa + i])
        if f == 0:
            if a >= stable_ms and int(st[o_st + i]) != r:
                b = int(st[o_bk + i]) + _B_ADD
                if b > _B_LIMIT:  # changes too often: CHATTER, frozen before this one
                    st[o_fa + i] = 1
                    st[o_fc + n_faults] = i
                    n_faults += 1
                    continue
                st[o_bk + i] = b
                st[o_st + i] = r
                st[o_ch + n_changes] = i
                n_changes += 1
            if max_on and r and a >= max_on and int(st[o_mo + i]):
                st[o_fa + i] = 2
                st[o_fc + n_faults] = i
                n_faults += 1
                if int(st[o_st + i]):
                    st[o_st + i] = 0
                    st[o_ch + n_changes] = i
                    n_changes += 1
        elif f == 1:
            if a >= recover:
                st[o_fa + i] = 0
                st[o_fl + i] = 0
                st[o_bk + i] = 0
                st[o_fc + n_faults] = i
                n_faults += 1
                if int(st[o_st + i]) != r:
                    st[o_st + i] = r
                    st[o_ch + n_changes] = i
                    n_changes += 1
        else:
            if r == 0 and a >= stable_ms:
                st[o_fa + i] = 0
                st[o_fc + n_faults] = i
                n_faults += 1
    ages[7] = n_faults
    ages[8] = 0
    return n_changes


class Debouncer:
    """Debounce ``n`` sensors (1..255).

    stable_ms: time a raw value must hold before it counts (ms, 1..60000).
    max_on_ms: longest plausible press of a momentary sensor (ms; 0 = no limit).
    chatter_limit: raw flips per ``window_ms`` above which a sensor is CHATTER.
    recover_ms: quiet time after which a CHATTER sensor is trusted again.
    ValueError for values out of range.
    """

    def __init__(self, n, stable_ms=40, max_on_ms=0, chatter_limit=20, window_ms=1000,
                 recover_ms=2000):
        if not 0 < n <= 255:
            raise ValueError("debounce: n must be 1..255, got %r" % (n,))
        for name, v, lo in (("stable_ms", stable_ms, 1), ("max_on_ms", max_on_ms, 0),
                            ("window_ms", window_ms, 1), ("recover_ms", recover_ms, 1)):
            if not lo <= v <= 60000:
                raise ValueError("debounce: %s must be %d..60000 ms, got %r" % (name, lo, v))
        if not 1 <= chatter_limit <= 250:
            raise ValueError("debounce: chatter_limit must be 1..250, got %r" % (chatter_limit,))
        self.n = n
        self._st = bytearray(_SECTIONS * n)
        self._ages = array("H", bytes(2 * (_HDR + n)))
        h = self._ages
        h[_H_N] = n
        h[_H_STABLE] = stable_ms
        h[_H_MAXON] = max_on_ms
        h[_H_CHATTER] = chatter_limit
        h[_H_WINDOW] = window_ms
        h[_H_RECOVER] = recover_ms
        mv = memoryview(self._st)
        self.stable = mv[_S_STABLE * n:(_S_STABLE + 1) * n]
        self.fault = mv[_S_FAULT * n:(_S_FAULT + 1) * n]
        self.changes = mv[_S_CHANGES * n:(_S_CHANGES + 1) * n]
        self.fault_changes = mv[_S_FCHANGES * n:(_S_FCHANGES + 1) * n]
        self.momentary = mv[_S_MOMENTARY * n:(_S_MOMENTARY + 1) * n]
        self.stable_ms = stable_ms
        self.max_on_ms = max_on_ms
        self.n_changes = 0
        self.n_fault_changes = 0
        self.frames = 0
        self._last = 0
        self.reset()

    def reset(self):
        """Forget everything: the next update takes the raw values as the stable ones."""
        st = self._st
        for i in range(len(st)):
            st[i] = 0
        h = self._ages
        for i in range(self.n):
            h[_HDR + i] = 0
        h[_H_FIRST] = 1
        h[_H_WELAPSED] = 0
        self.n_changes = 0
        self.n_fault_changes = 0
        self.frames = 0

    def set_momentary(self, sensors, on=1):
        """Mark sensors (an iterable of indices) as momentary (stylus/touch): see STUCK."""
        for i in sensors:
            if not 0 <= i < self.n:
                raise IndexError("sensor %r out of range 0..%d" % (i, self.n - 1))
            self.momentary[i] = 1 if on else 0

    def update(self, raw, now_ms):
        """Take one frame of raw values (bytearray of n) read at ``now_ms``.

        Returns the number of stable changes (indices in ``changes``). The first
        update after construction or reset() takes the raw values as stable and
        reports no change (momentary sensors on then are STUCK). No allocation.
        """
        if self.frames:
            dt = (now_ms - self._last) & _MASK
            if dt > _MAX_DT:
                dt = _MAX_DT
        else:
            dt = 0
        self._last = now_ms
        if self.frames < 0x3FFFFFFF:  # saturate: stays a small int on the RP2040
            self.frames += 1
        k = _step(self._st, self._ages, raw, dt)
        self.n_changes = k
        self.n_fault_changes = self._ages[_H_NFAULT]
        return k

    def value(self, i):
        """Stable value of sensor i."""
        return self.stable[i]

    def faults(self):
        """List of (sensor, kind) for every faulty sensor (allocates: not for the loop)."""
        return [(i, self.fault[i]) for i in range(self.n) if self.fault[i]]
