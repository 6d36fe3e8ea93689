"""Starting a game: the part of the app (``playboard.app.loop``) that runs when a game
begins (or is resumed) and at start-up, loaded then and dropped after, so that its
code is not in the heap while a game is played (on the RP2040 the code is frozen in
flash and this costs nothing). Functions take the ``App`` as their first argument.
"""
import gc

from playboard.app.state import GAMES, MODES, RESERVE, clamp
from playboard.compat import unload
from playboard.board.layout import load_layout, read_layout_file, boards_dir
from playboard.board.lights import USER, ON


def start(app, now_ms):
    """First frame's work: light the board, then resume the unfinished game found by
    the store (lighting what the pieces must be) or open the menu."""
    app.now = now_ms
    app.lights.mark(USER, 0, ON)
    app.lights.frame(now_ms)  # a lit board at once
    # a power-up counted (docs/museum.md): as playboard.health.power_up, whose code is
    # not loaded now (it would cut the heap just before a game is resumed)
    w = b"P"
    try:
        import machine
        if machine.reset_cause() == machine.WDT_RESET:
            w = b"W"
    except (ImportError, AttributeError):
        pass
    try:
        f = app.store.fs.open(app.store.root + "/boots", "ab")
        f.write(w)
        f.close()
    except OSError:
        pass
    app.emit("boot", {"games": app.store.count, "problems": len(app.store.report)})
    r = app.store.resume()
    if r is not None and app.settings.get("resume", "always") == "never":
        app.store.finish("*", "abandoned")  # a museum board starts afresh
        r = None
    from playboard.app.ui import fit_choice
    fit_choice(app)
    if r is not None and r.name in GAMES:
        resume(app, r, now_ms)  # the first frame replays it
        return
    elif r is not None:
        app.store.finish("*", "abandoned")
    app.open_menu(now_ms)


def resume(app, r, now_ms):
    tags = r.tags
    mode = tags.get("Mode", "two")
    level = tags.get("Level", "3")
    app.game_name = r.name
    app.mode = mode if mode in MODES else "two"
    app.level = clamp(int(level) if level.isdigit() else 3, 1, 13)  # (above the game's top: the engine plays its top)
    app.new_game(now_ms, resumed=r)


def buttons(cfg, n_sensors):
    """The board definition's optional ``buttons`` (name -> sensor index), checked."""
    b = cfg.get("buttons")
    if not b:
        return None
    if not isinstance(b, dict):
        raise ValueError("board %s: buttons: expected an object" % cfg.get("name"))
    for k in b:
        if k not in ("menu", "draw", "resign", "draw_black", "resign_black", "takeback"):
            raise ValueError("board %s: buttons.%s: unknown button" % (cfg.get("name"), k))
        v = b[k]
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n_sensors:
            raise ValueError("board %s: buttons.%s: sensor %r not in 0..%d"
                             % (cfg.get("name"), k, v, n_sensors - 1))
    return b


begin_game = None  # the module playboard.app.begin_game, once begin has loaded it


def begin(app, now_ms, resumed=None):
    """One step of beginning the chosen game (or of going on with ``resumed``, a
    record.GameRecord); True once the game has begun. The steps before the game
    exists (0-7) are here, the later ones (8-14) in ``playboard.app.begin_game``,
    loaded by a frame of its own before step 5, with the game's code, while the
    reserve keeps the objects' room whole (two imports, each a frame's work, where
    one was at the limit of a frame on the RP2040; docs/pico.md), and called from
    here.
    ``App.begin_pending`` calls it once a frame, so no frame blocks the scan for long:
    each step loads at most one module, does at most one collection or makes one kind
    of object (on the RP2040's .mpy deploy an import takes 15-50 ms, a collection 20
    ms, a game 20 ms: a step stays within a 50 ms frame; docs/pico.md):

    0 nothing more (this module was loaded by the frame); 1 the last game's objects,
    its engine and the code this one does not use go; 2, 3 the engine's code (its
    evaluation, its search); 4 the engine's table, then a block kept whole
    (``RESERVE``), the flash's room; 5 the tracker's code (Tobit's base module a
    frame before); 6 the rules core's code, a module a frame (``_CORE``), then its
    class; 7 the reserve goes, a collection. A step with nothing to do takes no
    frame. A MemoryError anywhere: ``App.begin_pending`` begins again at step 0 (the
    app's ``_pending``, ``[resumed, header queued, step, (tracker class, core
    class), count]``, keeps the new game's header from being queued twice;
    ``count``: modules loaded in steps 5 and 6, Tobit's tables made in 8, moves
    replayed in step 10)."""
    global begin_game
    p = app._pending
    step = p[2]
    if step >= 5 and begin_game is None:
        # the later steps' module, code among the game's code, loaded in a frame of its
        # own and held only here: it goes from the heap with this module
        # (App.begin_pending drops this one once the game has begun, or to begin again
        # after a MemoryError). (Loaded before step 1, or after step 7 in the reserve's
        # room, it left the in-process rig's heap too broken up: tests/test_micropython.py)
        _load(app, __import__, "playboard.app.begin_game")  # (beside the reserve if it fits)
        from playboard.app import begin_game
        unload("playboard.app.begin_game")
        return False
    if step >= 8:
        return begin_game.begin(app, now_ms, resumed)
    name = app.game_name
    tobit = name in ("tobit", "tobit4")
    engine = app.mode != "two"
    if (step == 2 or step == 3) and not engine:
        step = 4  # a step with nothing to do here takes no frame of its own
    if step == 1:
        # every game begins on the same heap: the last game's objects and engine and
        # the code this one does not use go, then the engine's table, the code and the
        # objects come in that order, so the holes one game leaves never decide
        # whether the next one fits
        code = _CODE[name]  # the modules of state.GAME_CODE this game uses
        app.release_game(code + _ENGINE_CODE if engine else code)
        app.drop_link()  # a game before the link: it loads again, above, when the host speaks
        unload("playboard.app.ui")  # not needed in play: give the heap to the game
        unload("playboard.app.museum")
        unload("playboard.app.staff")
        unload("playboard.app.request")
        gc.collect()
    elif step == 2:
        import playboard.engine.evaluation  # noqa: F401 (its code; kept from the last game)
    elif step == 3:
        import playboard.engine.search  # noqa: F401
    elif step == 4:
        if engine:
            # the engine first: its table wants a block in one piece
            from playboard.engine.search import Engine
            import os  # each game its own seed (docs/engine.md "Seeds"; the RP2040: its ring oscillator)
            app.engine = Engine(app._tt_size, seed=int.from_bytes(os.urandom(4), "little"))
            app.engine.native = app.cfg.get("engine", {}).get("native", False)  # Tobit's 9-13
        if app._reserve is None and app._begin_tries == 0:
            # the last game's objects are gone: keep their room whole while the code
            # loads (not on a retry: the code itself did not fit beside it)
            try:
                app._reserve = bytearray(RESERVE)
            except MemoryError:
                pass
        if resumed is None and not p[1]:
            # the flash's room for the header (a statvfs, 15 ms on the RP2040: here,
            # not beside step 12's collection; nothing is written before step 13,
            # begin_game)
            app.store.left_hint = app.store._left()
    elif step == 5:
        # the code first, while the heap has room in one piece, then the objects
        if tobit and not p[4]:
            # Tobit's tracker is two modules: its base a frame before (docs/pico.md)
            _load(app, __import__, "playboard.board.tobit_position")
            p[4] = 1
            return False
        p[4] = 0
        if tobit:
            _load(app, __import__, "playboard.board.tobit_tracker")
            from playboard.board.tobit_tracker import TobitTracker as Tracker
        else:
            _load(app, __import__, "playboard.board.mancala_tracker")
            from playboard.board.mancala_tracker import MancalaTracker as Tracker
        p[3] = Tracker
    elif step == 6:
        code = _CORE[name]
        k = p[4]
        if k < len(code):
            _load(app, __import__, code[k])
            p[4] = k + 1
            return False  # the next module next frame
        p[4] = 0
        from playboard.games.registry import game_class
        p[3] = (p[3], _load(app, game_class, name))
        del game_class
        unload("playboard.games.registry")  # the class is all a game needs of it
    elif step == 7:
        app._reserve = None  # the block kept whole for this moment (see App.__init__)
        gc.collect()
    p[2] = step + 1
    return False


def _load(app, f, arg=None):
    """``f(arg)`` (``f()`` without ``arg``), which loads code; where it does not fit
    beside the reserve, the reserve goes first and it is done again in its room."""
    try:
        return f() if arg is None else f(arg)
    except MemoryError:
        app._reserve = None
        gc.collect()
        return f() if arg is None else f(arg)


# the rules core's code of each game, the modules in the order loaded (the ones
# imported by the next first), one a frame (begin, step 6)
_CORE = {"toguz": ("playboard.games.mancala_text", "playboard.games.snapshot", "playboard.games.toguz"),
         "tihbat": ("playboard.games.mancala_text", "playboard.games.snapshot", "playboard.games.tihbat"),
         "tobit": ("playboard.games.tobit_board", "playboard.games.tobit"),
         "tobit4": ("playboard.games.tobit_board", "playboard.games.tobit")}
_ENGINE_CODE = ("playboard.engine.search", "playboard.engine.evaluation")
_CODE = {"toguz": ("playboard.games.toguz", "playboard.games.snapshot", "playboard.games.mancala_text",
                   "playboard.board.mancala_tracker"),
         "tihbat": ("playboard.games.tihbat", "playboard.games.snapshot", "playboard.games.mancala_text",
                    "playboard.board.mancala_tracker", "playboard.engine.tihbat_table"),
         "tobit": ("playboard.games.tobit", "playboard.games.tobit_board", "playboard.games.tobit_fen",
                   "playboard.board.tobit_tracker", "playboard.board.tobit_position"),
         "tobit4": ("playboard.games.tobit", "playboard.games.tobit_board", "playboard.games.tobit_fen",
                   "playboard.board.tobit_tracker", "playboard.board.tobit_position")}


def read_layouts(cfg, hw):
    """Every game's ``Layout`` on the board of definition ``cfg`` (dict game -> Layout),
    from one parse of its layout file; the parsed text is dropped. Call it early at
    start-up, while the heap is nearly empty (the parse makes many small objects).
    ValueError if the layout needs more sensors or LEDs than ``hw`` has."""
    data = read_layout_file("%s/layout_%s.json" % (boards_dir(), cfg.get("layout", "default")))
    if data.get("n_sensors", 0) > hw.n_sensors or data.get("n_leds", 0) > hw.n_leds:
        raise ValueError("board %s: the layout needs %r sensors and %r LEDs" % (
            cfg.get("name"), data.get("n_sensors"), data.get("n_leds")))
    out = {}
    for g in GAMES:
        out[g] = load_layout(g, data=data)
    del data
    gc.collect()
    return out
