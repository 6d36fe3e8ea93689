"""A locked board's daily restart (docs/museum-reference.md, "The daily restart"): the firmware
starts afresh once a day at a moment nobody plays, so that every day begins on a
whole heap, as after a power-up (a heap broken up by weeks of play in one process
can no longer give a game's start its pieces).

When (a locked board, settings ``locked``, in attract with no game in play, nothing
waiting to be written, the link between requests):

- at closing (``App._check_hours`` turned ``closed`` on), once up at least
  ``2 * HOURS_MS`` (a board started while closed, as just after this restart itself,
  turns ``closed`` on at its first look at the hours: no restart again);
- with no opening hours in effect (none set, or a clock never set), once it has
  been up 24 h; with hours, after 48 h (a closing that never came).

The uptime is the app's frames since start-up times its scan period (``App.frames``
and ``period_ms``: a count, which never wraps, unlike the RP2040's ``ticks_ms`` at
2**30 ms, 12.4 days; frames that overran their period make it short, never long).

How: the record queue written first (a restart only once it is empty), the memory
errors not yet counted appended to flash, then one byte ``D`` appended to the file
``boots`` (``playboard.health.read`` counts the next power-up's byte as this
restart, ``restarts``, not as a power-up or a watchdog reset), then
``machine.soft_reset()``: the heap is made anew and main.py runs again; the RTC
keeps the wall clock; the hardware watchdog keeps running and main.py starts it
again within its 8 s. On the MicroPython unix port ``soft_reset`` raises
``SystemExit``: the simulator's bridge (``playboard.sim.bridge``) ends its process
with the exit status ``RESTART_EXIT`` (75) and ``SimBoard`` starts it again on the
same flash, link port and wall clock.

Loaded by ``App._scan_and_play`` only at those moments and dropped at once.
Functions take the ``App``.
"""
from playboard.app.state import S_ATTRACT, HOURS_MS

DAY_MS = 86400000  # 24 h (App._scan_and_play looks from then on too)


def up_ms(app):
    """The app's uptime (ms) by its frames: ``frames * period_ms``."""
    return app.frames * app.period_ms


def due(app, closing):
    """True when the board should restart now: ``closing`` is ``app.closed`` (the app
    asks when this look at the hours turned it on, or once up 24 h). See the module's
    docstring for the rules."""
    if not app.settings.get("locked"):
        return False
    if app._pending is not None or app.check is not None:
        return False
    lk = app.link
    if lk is not None and (lk.dec.state != 0 or lk.live):
        return False  # the host is talking: the next look
    if app.state != S_ATTRACT:
        return False  # (attract: no game in play; a finished game's objects may stay)
    up = up_ms(app)
    if closing:
        return up >= 2 * HOURS_MS
    hours = app.settings.get("hours", "")
    if hours and app.wallclock()[0] >= 2024:
        return up >= 2 * DAY_MS
    return up >= DAY_MS


def restart(app):
    """Write what is pending, mark the restart on flash and soft-reset (on the unix
    port: ``SystemExit``). Returns False (nothing done) when the record queue could
    not be emptied or a game is still open on record: the next look tries again."""
    if app.pending and not app._retry():
        return False
    if app.store.current is not None:
        return False  # a game not closed on record: not a moment nobody plays
    try:
        from playboard.app.museum import count_memory_errors
        app.mem_t = None  # (now, not a minute after the last count)
        count_memory_errors(app)
    except (ImportError, MemoryError):
        pass
    st = app.store
    try:
        f = st.fs.open(st.root + "/boots", "ab")
        try:
            f.write(b"D")
        finally:
            f.close()
    except OSError:
        pass  # (counted as a power-up then: the restart goes on)
    app.emit("restart", {"up_s": up_ms(app) // 1000, "why": "daily"})
    if app.wdt is not None:
        app.wdt.feed()  # (a whole 8 s for main.py to start the watchdog again)
    import machine
    machine.soft_reset()  # (SystemExit: the caller's ``finally`` closes the store)


def check(app, closing):
    """Restart the board if it is :func:`due` (never returns then)."""
    if due(app, closing):
        restart(app)
