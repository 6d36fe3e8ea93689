"""The board's health counters on flash: what the game records cannot tell.

Loaded only when a sensor fault first appears and for the link's ``C``
request, and dropped after (``playboard.compat.unload``): nothing of it stays in the
heap while a game is played. docs/museum-reference.md says what the counters mean.

The counters (``NAMES``; ints 0..2**30, counted since the host last took them):

- ``power_ups``: starts of the app (a switch-on, a reset, the watchdog's restart),
- ``wdt_resets``: of those, the ones the watchdog made (:func:`watchdog_reset`; a
  ``machine.reset()``, as ``mpremote reset`` and ``playboard deploy`` do, is a
  power-up; the simulated board has none: 0),
- ``restarts``: a locked board's daily restarts (``playboard.app.restart``), counted
  apart: neither power-ups nor watchdog resets,
- ``stuck`` / ``chatter``: sensors found stuck or chattering
  (``playboard.board.debounce``), each sensor counted once per kind and power-up,
- ``memory_errors``: frames the app survived a MemoryError in (``App.memory_errors``;
  ``playboard.app.museum.count_memory_errors`` appends them to the file ``memerr`` when
  the menu shows and at the link's ``C``; :func:`read` adds them),
- ``selftest``: sensors a judged self-test (``playboard.app.check``, ``selftest``)
  found stuck, dead or noisy (:func:`selftest`),
- ``faults``: frames an exception left, contained by the app (``playboard.app.contain``:
  counted when it happens; its traceback kept in the ring file ``faults``, the last 4;
  :func:`link` gives the newest as ``tracebacks``, ``[[count, ms, text]]``, its text's
  last 160 characters (the link's payload), and a take of ``[[count, ms]]`` drops it
  and the older ones),

and ``faulty``: the last 8 of those sensors as ``[sensor, kind]`` (kind 1
chatter, 2 stuck, 4 a self-test fault).

They live in the file ``health`` of the store's folder, one ``name value`` line
each (``faulty`` as ``sensor:kind`` words), rewritten whole through ``health.tmp``
and a rename, so a power cut leaves the old file or the new one, when a fault first
appears and when the host takes the counters, never per frame. A power-up appends
one byte to the file ``boots`` (``P``, or ``W`` after a watchdog reset; a daily
restart appends ``D`` before it, and the byte after a ``D`` is that restart's:
:func:`power_up`, called by ``playboard.app.startup``); :func:`read` adds
them, the host's take folds them into ``health`` and removes ``boots``. A line
that does not read is skipped with one line in the store's ``report``; the
counters that read are kept and the bad file is kept as ``health.bad`` for a
person to look at.
"""
from playboard.compat import const

NAMES = ("power_ups", "wdt_resets", "stuck", "chatter", "memory_errors", "selftest", "restarts", "faults")
KINDS = {1: "chatter", 2: "stuck"}  # playboard.board.debounce CHATTER, STUCK
SELFTEST = const(4)  # the faulty kind of a sensor a self-test judged bad
_MAX = const(8)  # faulty entries kept
_TOP = const(0x3FFFFFFF)


def _int(w):
    if not w.isdigit() or len(w) > 9:
        raise ValueError
    return int(w)


def read(store):
    """The counters on ``store``'s flash: dict of ``NAMES`` -> int and ``faulty`` ->
    list of [sensor, kind]; zeros when there is no file. Bad lines are skipped, the
    file kept as ``health.bad`` and one line added to ``store.report``. The power-ups
    appended to ``boots`` since the last take are included (and the daily restarts,
    ``restarts``, which are not power-ups)."""
    h = _load(store)
    b = _read(store, "/boots") or b""
    b = b.replace(b"DP", b"D").replace(b"DW", b"D")  # (a daily restart's start: not a power-up)
    d = b.count(b"D")
    h["restarts"] += d
    h["power_ups"] += len(b) - d
    h["wdt_resets"] += b.count(b"W")
    for w in (_read(store, "/memerr") or b"").split(b"\n"):
        if w.isdigit():  # (a line cut by a power cut mid-write: its digits, or none)
            h["memory_errors"] = min(_TOP, h["memory_errors"] + int(w))
    return h


def _read(store, name):
    try:
        f = store.fs.open(store.root + name, "rb")
    except OSError:
        return None
    try:
        return f.read()
    finally:
        f.close()


def _load(store):
    # the counters of the file ``health`` alone
    h = {"faulty": []}
    for k in NAMES:
        h[k] = 0
    path = store.root + "/health"
    data = _read(store, "/health")
    if data is None:
        return h
    bad = 0
    for line in data.split(b"\n"):
        if not line:
            continue
        try:
            w = line.decode().split(" ")
            if w[0] in NAMES and len(w) == 2:
                h[w[0]] = _int(w[1])
            elif w[0] == "faulty":
                for x in w[1:]:
                    s, k = x.split(":")
                    h["faulty"].append([_int(s), _int(k)])
            else:
                raise ValueError
        except ValueError:  # (UnicodeError too)
            bad += 1
    if bad:
        try:
            store.fs.rename(path, path + ".bad")
        except OSError:
            pass
        r = store.report
        r.append("health: %d bad lines skipped, file kept as health.bad" % bad)
        if len(r) > 32:  # (as the store keeps its report)
            del r[0]
        write(store, h)  # the counters that read, kept
    return h


def write(store, h):
    """Write the counters ``h`` (as :func:`read` gives) power-safe; True once on flash,
    False (``store.error`` set) when the flash fails."""
    out = []
    for k in NAMES:
        out.append("%s %d\n" % (k, min(h[k], _TOP)))
    if h["faulty"]:
        out.append("faulty %s\n" % " ".join("%d:%d" % (s, k) for s, k in h["faulty"]))
    path = store.root + "/health"
    try:
        f = store.fs.open(path + ".tmp", "wb")
        try:
            f.write("".join(out).encode())
            f.flush()
        finally:
            f.close()
        try:
            store.fs.rename(path + ".tmp", path)
        except OSError:  # a file system whose rename will not replace (FAT)
            store.fs.remove(path)
            store.fs.rename(path + ".tmp", path)
        return True
    except OSError as e:
        store.error = "health: %r" % (e,)
        return False


_SCRATCH4 = const(0x4005801C)  # RP2040 WATCHDOG SCRATCH4 (datasheet 4.7; kept across its resets)


def watchdog_reset(machine=None, platform=None):
    """True if the last reset was the watchdog's own (its timer ran out): ``machine.
    reset_cause()`` is WDT_RESET and, on the RP2040, SCRATCH4 holds 0x6ab73121, the
    mark pico-sdk's ``watchdog_enable`` (``machine.WDT``) leaves there. MicroPython's
    ``machine.reset()`` (``mpremote reset``, ``playboard deploy``'s last step) also
    resets through the watchdog, so reset_cause() says WDT_RESET after it too, but it
    writes 0 there (``watchdog_reboot``): a power-up then, not a watchdog reset.
    False where the port cannot tell (the unix port). Read it before ``machine.WDT``
    is made (it writes the mark again). ``machine``, ``platform``: the module and
    ``sys.platform`` (tests stand in for them)."""
    try:
        if machine is None:
            import machine
        if machine.reset_cause() != machine.WDT_RESET:
            return False
        if platform is None:
            import sys
            platform = sys.platform
        return platform != "rp2" or machine.mem32[_SCRATCH4] == 0x6AB73121
    except (ImportError, AttributeError):
        return False


def power_up(store, wdt=None):
    """Count one power-up on flash: one byte appended to ``boots`` (``W`` if ``wdt``,
    default: :func:`watchdog_reset`; never where the port cannot tell, as the unix
    port). False if the flash failed. Called by ``playboard.app.startup.start``."""
    if wdt is None:
        wdt = watchdog_reset()
    try:
        f = store.fs.open(store.root + "/boots", "ab")
        try:
            f.write(b"W" if wdt else b"P")
        finally:
            f.close()
        return True
    except OSError:
        return False


def faults(store, deb):
    """Count the sensors of ``deb`` (a Debouncer) whose fault appeared this frame
    (``fault_changes``) and is not yet marked in ``deb.seen`` (a bytearray made here
    at the first fault, one byte per sensor: the kinds seen this power-up OR-ed):
    marks them, writes the file once if any was new. Returns the number counted."""
    seen = getattr(deb, "seen", None)
    new = []
    for i in range(deb.n_fault_changes):
        s = deb.fault_changes[i]
        k = deb.fault[s]
        if k in KINDS and (seen is None or not seen[s] & k):
            if seen is None:
                seen = deb.seen = bytearray(deb.n)
            seen[s] |= k
            new.append((s, k))
    if new:
        h = _load(store)
        for s, k in new:
            h[KINDS[k]] += 1
            h["faulty"].append([s, k])
        h["faulty"] = h["faulty"][-_MAX:]
        write(store, h)
    return len(new)


def add(store, counts, faulty=()):
    """Add ``counts`` (dict name -> n, names of ``NAMES``) and the ``faulty`` entries
    ([sensor, kind] each) to the counters on flash, written once. True once on flash."""
    h = _load(store)
    for k in counts:
        h[k] += counts[k]
    if faulty:
        h["faulty"] = (h["faulty"] + list(faulty))[-_MAX:]
    return write(store, h)




def selftest(store, summary):
    """Count the sensors a finished self-test (``SelfTest.summary()``) judged stuck,
    dead or noisy: ``selftest`` and one faulty entry each. Returns how many."""
    bad = summary["stuck"] + summary["dead"] + summary["noisy"]
    if bad:
        add(store, {"selftest": len(bad)}, [[s, SELFTEST] for s in bad])
    return len(bad)


def link(store, req, app=None):
    """The link's ``C`` request (docs/protocol.md): ``{}`` reads the counters;
    ``{"take": {name: n, ..., "faulty": [[sensor, kind], ...]}}`` takes back what
    the host has stored (each counter less ``n``, never below 0; those faulty entries
    dropped), so counts made in between are kept. ValueError (one line) for a bad
    request; then nothing changes. ``app`` (the App, or None): its memory errors not
    yet on flash are counted first (``playboard.app.museum.count_memory_errors``)."""
    for k in req:
        if k != "take":
            raise ValueError("health: only take")
    if app is not None:  # (as playboard.app.museum.count_memory_errors, which the menu runs)
        e = getattr(app, "memory_errors", 0)  # (a link's app without the counter: none)
        n = e - getattr(app, "mem_counted", 0)
        if n > 0:
            app.mem_counted = e
            try:
                f = store.fs.open(store.root + "/memerr", "ab")
                try:
                    f.write(b"%d\n" % n)
                finally:
                    f.close()
            except OSError:
                pass
    h = read(store)
    if app is not None and hasattr(app, "cfg"):  # the board definition it runs (/board.txt)
        h["definition"] = app.cfg.get("name")
    h["tracebacks"] = []
    ring = None
    if _read(store, "/faults") is not None:  # (its code loaded only when there are some)
        from playboard import faultring
        ring = faultring.read_ring(store)
        h["tracebacks"] = faultring.newest(ring)
    t = req.get("take")
    if t is None:
        return h
    if not isinstance(t, dict):
        raise ValueError("take: an object")
    for k in t:
        v = t[k]
        if k == "faulty" or k == "tracebacks":
            if not isinstance(v, list):
                raise ValueError("take: %s: a list" % k)
        elif k not in NAMES:
            raise ValueError("take: no counter %r" % (k,))
        elif not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise ValueError("take: %s: an int >= 0" % k)
    for k in NAMES:
        h[k] = max(0, h[k] - t.get(k, 0))
    for e in t.get("faulty", ()):
        if e in h["faulty"]:
            h["faulty"].remove(e)
    # the power-ups of ``boots`` are in ``health`` from here on (a cut between the
    # two steps counts them twice: the one window)
    if not write(store, h):
        raise OSError(store.error)
    if ring:
        h["tracebacks"] = faultring.take(store, ring, t.get("tracebacks", ()))
    for name in ("/boots", "/memerr"):
        try:
            store.fs.remove(store.root + name)
        except OSError:
            pass
    return h
