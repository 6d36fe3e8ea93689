"""A fault contained: an exception that left a frame (``App.frame``) is caught there,
counted, kept on flash and the board goes on from its record at once (docs/app.md,
"Containment"). Cold code: loaded when a fault happens, dropped after.

The traceback (its last ``TB_BYTES``, 1 KB) is kept in the file ``faults`` of the
store's folder, a ring of the last ``playboard.faultring.KEEP`` (4);
``playboard.health`` counts them (``faults``) and gives the ring to the link's ``C``
request (``tracebacks``); ``playboard sync`` stores them and ``playboard boards`` shows
the last one.
"""
import sys

from playboard.compat import const
from playboard.app.state import S_PLAY, S_SETUP, S_MENU, MODES, MASK

TB_BYTES = const(1024)  # the most of one traceback kept (its end: where it was raised)
QUICK_MS = const(2000)  # faults closer than this in a row count as one run
GIVE_UP = const(3)  # a run this long with a game: the game is ended ("*", abandoned)
SIGN_MS = const(1000)  # the sign stays this long at least (a player looking away sees it)


def contain(app, exc, now_ms):
    """``App.frame``'s handler of an exception ``exc`` that left the frame (not a
    MemoryError): :func:`recover`; a recovery that fails too opens the menu. Feeds the
    watchdog (no reset). Never raises."""
    try:
        recover(app, exc, now_ms)
    except Exception:  # noqa: BLE001 - the recovery failed (the heap, the flash)
        app.faults = getattr(app, "faults", 0) + 1
        app._pending = None
        try:
            app.release_game()
            app.open_menu(now_ms)
        except Exception:  # noqa: BLE001
            app.state = S_MENU
            app._menu_dirty = True
    import gc
    gc.collect()
    if app.wdt is not None:
        app.wdt.feed()


def sign(app, now_ms):
    """The fault's sign: every LED red, shown at once; it stays ``SIGN_MS`` (1 s) at
    least, then until the game begun again (or the menu) paints its own lights."""
    li = app.lights
    from playboard.board.lights import ERROR, ON
    li.clear()
    for led in range(li.n):
        li.mark(ERROR, led, ON)
    li.show_now(now_ms, SIGN_MS)


def text(exc):
    """The traceback of ``exc`` as text (MicroPython's ``sys.print_exception``, or
    CPython's ``traceback``), its last ``TB_BYTES`` characters."""
    pe = getattr(sys, "print_exception", None)
    if pe is not None:
        import io
        s = io.StringIO()
        pe(exc, s)
        t = s.getvalue()
    else:
        import traceback
        t = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if len(t) > TB_BYTES:
        t = "..." + t[len(t) - TB_BYTES + 3:]
    return t


def keep(store, exc, now_ms):
    """Count the fault (``health`` ``faults``) and keep its traceback in the ring.
    Never raises (a flash that fails loses the traceback, not the board)."""
    try:
        from playboard import health
        h = health.read(store)
        h["faults"] += 1
        n = h["faults"]
        health.write(store, h)
        from playboard import faultring
        ring = faultring.read_ring(store)
        ring.append((n, now_ms & 0x3FFFFFFF, text(exc)))
        faultring.write_ring(store, ring)
    except Exception:  # noqa: BLE001 - the counting itself failed: the board goes on
        pass


def recover(app, exc, now_ms):
    """After a frame raised ``exc`` (not a MemoryError: the frame survives those):
    count it and keep its traceback, then go on from the record at once - a game in
    play (or being begun) is begun again from its record (its moves replayed, as at a
    power-up), anything else opens the menu. The same fault over and over
    (``GIVE_UP`` within ``QUICK_MS`` of each other) ends the game on record as
    abandoned instead and opens the menu. The player sees a short sign (:func:`sign`)."""
    # (the App's attributes ``faults``, frames an exception left since power-up, and
    # ``fault``, [the last one's time, how many came one after another], are made by the
    # first fault: none in the App's table before, where they would cost the play's heap)
    app.faults = getattr(app, "faults", 0) + 1
    f = getattr(app, "fault", None)
    if f is None:
        f = app.fault = [now_ms, 0]
    if ((now_ms - f[0]) & MASK) < QUICK_MS and f[1]:
        f[1] += 1
    else:
        f[1] = 1
    f[0] = now_ms
    keep(app.store, exc, now_ms)
    app.emit("crash", {"n": app.faults, "msg": "%s: %s" % (type(exc).__name__, exc)})
    resumed = app._pending[0] if app._pending is not None else None
    app._pending = None
    was_game = app.state in (S_PLAY, S_SETUP) or resumed is not None
    app.check = None
    app.release_game()
    app._ev_i = app._ev_n = 0
    app._hold = -1
    try:
        app._retry()  # the record's queue on flash first: the game is read back from it
    except Exception:  # noqa: BLE001
        pass
    st = app.store
    gid = st.current
    if was_game and gid is not None and not app.pending and f[1] < GIVE_UP:
        try:
            r = st.read(gid)
        except Exception:  # noqa: BLE001 - a record that does not read: the menu
            r = None
        if r is not None:
            tags = r.tags
            m = tags.get("Mode", "two")
            app.game_name = r.name
            app.mode = m if m in MODES else "two"
            lv = tags.get("Level", "3")
            app.level = int(lv) if lv.isdigit() and 0 < int(lv) < 14 else 3
            app.new_game(now_ms, resumed=r)
            sign(app, now_ms)
            return
    if was_game and gid is not None:
        app._record("E", "*", "abandoned")
    app.result = None
    app.open_menu(now_ms)
    sign(app, now_ms)
    app._menu_dirty = True  # (the menu painted over it at the next frame)
