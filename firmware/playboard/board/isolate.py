"""Faulty sensors in a game: the tracker isolates them (docs/tracker.md, "Faulty sensors").

Cold code: the app imports it when the debouncer reports a fault change (rare) and
unloads it after, so that it costs the heap nothing during play::

    from playboard.board import isolate
    lay.occupancy(deb.fault, faulty)             # fault by cell (0 sound)
    n = isolate.isolate(tracker, faulty, now_ms)  # events, as tracker.update's

A cell whose sensor is faulty lights ``R_ERROR`` whatever its role
(``LightsRequest.fault``, painted by ``tracker.paint``). Tobit: the point reads as
the game says, whatever its sensor reads; a move that starts, ends or captures
there waits until the sensor recovers (nothing on the board can show it). Toguz
Kumalak and Tihbat: its sensor events select nothing and do not hold up the sowing
view's confirmation; a pit of the view's sowing that was empty no longer tells a
withdrawal (balls put back, none sown there: its sensor cannot say). A later call with
the cell sound again trusts it again.
"""


def isolate(tr, faulty, now_ms):
    """Isolate the cells of tracker ``tr`` whose ``faulty`` value (a bytearray by cell,
    at least ``len(tr.request.fault)`` long) is non-zero, trust the others; returns the
    number of events (``tr.ev_kind`` / ``ev_arg``), 0 when nothing changed."""
    tr.n_events = 0
    req = tr.request
    f = req.fault
    n = len(f)
    if bytes(faulty[0:n]) == bytes(f):
        return 0
    f[0:n] = faulty[0:n]
    req.version = (req.version + 1) & 0x3FFFFFFF
    if hasattr(tr, "_fill"):  # mancala: an isolated pit cannot show the sowing's balls
        for c in range(n):  # (nor their absence: a withdrawal; corpus tihbat 102001104)
            if f[c]:
                tr._fill &= ~(1 << c)
    elif hasattr(tr, "_snap"):  # Tobit: masks of the isolated points (1..29 low, 30..58 high)
        lo = hi = 0
        for p in range(1, n):
            if f[p]:
                if p < 30:
                    lo |= 1 << (p - 1)
                else:
                    hi |= 1 << (p - 30)
        tr._iso = (lo, hi) if lo | hi else None
        if tr._started:
            tr._snap()
            tr._classify(now_ms)
    return tr.n_events
