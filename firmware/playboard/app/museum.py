"""Museum mode's rarer parts of the menu (docs/museum.md): a Tobit game begun by setting
its pieces, the app's memory errors counted on flash. Loaded by ``playboard.app.ui``
when needed and dropped when a game begins (``playboard.app.gamestart``), so that
neither the menu's nor a game's heap carries it. Functions take the ``App``."""
from playboard.app.state import MASK

MEMERR_MS = 60000  # memory errors are appended to the flash at most this often


def count_memory_errors(app):
    """Count on flash the app's MemoryErrors not yet counted (``app.memory_errors``
    since power-up, ``app.mem_counted`` of them counted): one line ``n`` appended to the
    file ``memerr`` of the store's folder, which ``playboard.health.read`` adds up (no
    module loaded: the heap may be short just then), at most once a ``MEMERR_MS``. A
    MemoryError or a flash failure while doing it loses that count, and is never
    retried for its own error."""
    n = app.memory_errors - getattr(app, "mem_counted", 0)
    t = getattr(app, "mem_t", None)
    if n <= 0 or (t is not None and ((app.now - t) & MASK) < MEMERR_MS):
        return  # (at most once a MEMERR_MS: a heap failing frame after frame writes little)
    app.mem_t = app.now
    app.mem_counted = app.memory_errors + 1  # (a MemoryError below counts one more)
    st = app.store
    try:
        f = st.fs.open(st.root + "/memerr", "ab")
        try:
            f.write(b"%d\n" % n)
        finally:
            f.close()
    except OSError:
        pass
    app.mem_counted = app.memory_errors


TOBIT_POINTS = 38  # playboard.games.tobit: L=5, T=4, points 1..38 = the layout's cells
TOBIT_SIDE = 12  # a side's pieces at the start: White on points 1..12, Black on 27..38


def set_position(app, now_ms):
    """A sensor off the menu's pits changed with no game in play (the menu, a result):
    if the Tobit points now hold the start position (RULES.md 2.3: White's 12 pieces
    on its two rows, Black's on the other two, the middle empty; a colour-sensing board
    also checks each piece's colour) and Tobit is offered (locked mode: ``games``),
    a Tobit game begins in the menu's mode and level, as in Sentio's boards: setting
    the pieces is the visitor's START. Closed (outside the opening hours): nothing."""
    ui = app._ui()  # (not imported here: ui loads this module)
    if app.closed or "tobit" not in ui.offered(app)[0]:
        return
    lay = app.layouts.get("tobit")
    if lay is None:
        return
    st = app.scanner.deb.stable
    col = app.colour
    for p in range(1, TOBIT_POINTS + 1):
        v = st[lay.sensor_of(p)]
        if p <= TOBIT_SIDE:
            want = 1
        elif p > TOBIT_POINTS - TOBIT_SIDE:
            want = 2 if col else 1
        else:
            want = 0
        if (v if col else (1 if v else 0)) != want:
            return
    app.game_name = "tobit"
    ui.fit_choice(app)
    app.emit("menu", {"game": "tobit", "mode": app.mode, "level": app.level, "set": True})
    app.new_game(now_ms)
