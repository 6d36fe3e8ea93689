"""Beginning a game: the part of the app (``playboard.app.loop``) that runs when a
game begins (or is resumed), loaded then and dropped after, so that its code is not
in the heap while a game is played on the ``.mpy`` deploy (on the frozen image the
code is in flash and this costs nothing). Functions take the ``App`` as their first
argument. (The power-up's part: ``playboard.app.startup``.)
"""
import gc

from playboard.app.state import RESERVE, MASK, S_SETUP, S_PLAY, PADS_ON_TOGUZ, PADS_ON_TOBIT, MENU_START
from playboard.compat import CIRCUITPYTHON, const, unload


_SHARE_MS = const(4)  # a frame goes on to the start's next unit while it has run under this
_REPLAY_STEP = const(16)  # moves of a resumed game replayed per unit
_fresh = True  # this module was loaded by this frame: its first ``begin`` does no unit
# where that took the frame's share (the .mpy deploy: 40-50 ms; the frozen image: none)


def begin(app, now_ms, resumed=None):
    """A frame's share of beginning the chosen game (or of going on with ``resumed``,
    a record.GameRecord); True once the game has begun. ``App.begin_pending`` calls
    it in every other frame; the frames between scan the sensors, light the LEDs and
    feed the watchdog (``App._frame``).

    The start is a list of units (:func:`_unit`), each at most one module loaded, one
    collection or one kind of object. A frame does units while it has run under
    ``_SHARE_MS`` by ``app.clock``: on the frozen image (the code in flash) a unit
    takes a few ms and a game begins in a few frames; on the ``.mpy`` deploy, where an
    import takes 5 ms plus 8 ms a KB and a collection 20-30 ms (docs/pico.md), a
    unit a frame, each within 50 ms. This is the one place the ``.mpy`` deploy's cost
    of code shapes a start. A MemoryError anywhere: ``App.begin_pending`` begins again
    at unit 0 (the app's ``_pending``, ``[resumed, header queued, unit, (tracker
    class, core class), count]``, keeps the new game's header from being queued
    twice; ``count``: modules loaded in unit 4, moves replayed in unit 10)."""
    global _fresh
    clock = app.clock
    if _fresh:
        _fresh = False
        if ((clock() - now_ms) & MASK) >= _SHARE_MS:
            return False
    p = app._pending
    while not _unit(app, p, now_ms, resumed):
        if ((clock() - now_ms) & MASK) >= _SHARE_MS:
            return False
    return True


def _unit(app, p, now_ms, resumed):
    """One unit of the start, ``p[2]`` (a unit with nothing to do costs nothing); True
    once the game has begun. 0 the last game's objects, its engine and the code this
    one does not use go, a collection; 1, 2 the engine's code (its evaluation, its
    search); 3 the engine and its table, then a block kept whole (``RESERVE``) while the
    code loads, the flash's room; 4 the game's code, a module a unit (``_LOAD``); 5 the
    classes; 6 the reserve goes, a collection; 7 Tobit's geometry and keys; 8 the game;
    9 its tracker; 10 a resumed game's moves, ``_REPLAY_STEP`` a unit, then a
    collection; 11 the position seen by the tracker; 12 a collection; 13 the header on
    record; 14 the first view."""
    step = p[2]
    name = app.game_name
    tobit = name in ("tobit", "tobit4")
    engine = app.mode != "two"
    replay = resumed is not None and bool(resumed.moves)
    if step == 0:
        # every game begins on the same heap: the last game's objects and engine and
        # the code this one does not use go, then the engine's table, the code and the
        # objects come in that order
        code = _CODE[name]  # the modules of state.GAME_CODE this game uses
        app.release_game(code + _ENGINE_CODE if engine else code)
        if not CIRCUITPYTHON:  # (there kept: compiled from .py on the chip it once found
            # no room to come back; the .mpy staged now is not measured without it)
            app.drop_link()  # a game before the link: it loads again when the host speaks
        unload("playboard.app.ui")  # not needed in play
        unload("playboard.app.museum")
        unload("playboard.app.staff")
        unload("playboard.app.request")
        gc.collect()
    elif step == 1:
        if engine:
            import playboard.engine.evaluation  # noqa: F401 (its code; kept from the last game)
    elif step == 2:
        if engine:
            import playboard.engine.search  # noqa: F401
    elif step == 3:
        if engine:
            # the engine first: its table wants a block in one piece
            from playboard.engine.search import Engine
            seed = app.seed  # each game its own seed (docs/engine.md "Seeds")
            if seed is None:
                import os  # the RP2040: its ring oscillator
                seed = int.from_bytes(os.urandom(4), "little")
            else:  # given (a replayable run): the next game's drawn from it
                app.seed = (seed * 69069 + 1) & 0x3FFFFFFF
            app.engine = Engine(app._tt_size, seed=seed)
            app.engine.native = app.cfg.get("engine", {}).get("native", False)  # Tobit's 9-13
        if app._reserve is None and app._begin_tries == 0:
            # the last game's objects are gone: keep their room whole while the code
            # loads (not on a retry: the code itself did not fit beside it)
            try:
                app._reserve = bytearray(RESERVE)
            except MemoryError:
                pass
        if resumed is None and not p[1]:
            app.store.left_hint = app.store._left()  # the flash's room for the header (a statvfs)
    elif step == 4:
        code = _LOAD[name]
        k = p[4]
        __import__(code[k])
        p[4] = k + 1
        if k + 1 < len(code):
            return False  # the next module next unit
        p[4] = 0
    elif step == 5:
        if tobit:
            from playboard.board.tobit_tracker import TobitTracker as Tracker
        else:
            from playboard.board.mancala_tracker import MancalaTracker as Tracker
        from playboard.games.registry import game_class
        p[3] = (Tracker, game_class(name))
        del game_class
        unload("playboard.games.registry")  # the class is all a game needs of it
    elif step == 6:
        app._reserve = None  # the block kept whole for this moment (see App.__init__)
        gc.collect()
    elif step == 7:
        if tobit:
            p[3][1].tables()  # Tobit's geometry and keys, a unit before its game
    elif step == 8:
        # undo room for 32 plies now (more, a chunk at a time, as it goes)
        app.game = p[3][1](fen=resumed.fen if resumed is not None and resumed.fen else None, capacity=32)
        app.lay = app.load_layout(name)
    elif step == 9:
        Tracker = p[3][0]
        p[3] = None
        g = app.game
        # the tracker's tables next (the largest blocks), before a replay's garbage
        if tobit:
            # (against the engine too: the player's move put back during its search)
            takeback = app.mode != "demo" and bool(app.settings.get("takeback", True))
            app.tracker = Tracker(g, takeback=takeback, colour=app.colour, setup=True)
        else:
            app.tracker = Tracker(g, select="tap" if app.stylus else "lift")
            # a reply made during a sowing view is played: never for the engine's side
            app.tracker.engines = app.engine_side(0) | app.engine_side(1) << 1
    elif step == 10:
        if replay:
            moves = resumed.moves
            k = p[4]
            end = min(k + _REPLAY_STEP, len(moves))
            g = app.game
            while k < end:
                g.push_text(moves[k])
                k += 1
            p[4] = k
            if k < len(moves):
                return False  # more next unit
            gc.collect()
    elif step == 11:
        if replay:
            app.tracker.new_position()
    elif step == 12:
        gc.collect()  # the header's and the first view's garbage never sets off one
    elif step == 13:
        if resumed is None and not p[1]:
            # the new game's header on record (on flash now, or queued and retried)
            mode = app.mode
            engine = "Playboard L%d" % app.level  # the engine's name as a player
            tags = {"Event": "Playboard",
                    "White": engine if mode == "demo" or mode == "black" else "Player",
                    "Black": engine if mode == "demo" or mode == "white" else "Player", "Mode": mode}
            if mode != "two":
                tags["Level"] = str(app.level)
            pairing = getattr(app, "pairing", None)
            if pairing is not None and mode == "two":  # a tournament's game (app.request): this one only
                tags.update(pairing)
                app.pairing = None
                app.ready = 0
            app._record("G", name, tags)
            p[1] = True
    else:
        # the last unit: the event, the state
        g = app.game
        app.occ = bytearray(app.lay.n_cells)
        app._occ_dirty = True
        app.result = None
        app.termination = None
        pads(app, tobit)
        app._ended = False
        if resumed is None:
            gid = app.store.current if not app.pending else None
            app.emit("game", {"game": name, "mode": app.mode, "level": app.level, "id": gid})
        else:
            app.emit("resumed", {"game": name, "mode": app.mode, "level": app.level,
                                  "id": resumed.id, "ply": g.ply, "fen": g.fen()})
        app._enter(S_SETUP if tobit else S_PLAY, now_ms)
        if tobit:
            app.emit("setup", {"fen": g.fen()})
        else:
            app._turn_check = True
        if g.is_game_over():  # a record whose last move ended the game
            app._game_over(g.result(), g.termination, now_ms)
        return True
    p[2] = step + 1
    return False


def pads(app, tobit):
    """Map the resign / draw pads (or buttons) of the game about to start."""
    ps = app.pad_sensors
    for i in range(len(ps)):
        ps[i] = 255
    b = app.buttons
    # (real pad buttons replace the pads; a board with only menu / takeback buttons keeps its pads)
    if b and ("draw" in b or "resign" in b or "draw_black" in b or "resign_black" in b):
        for k, name in ((0, "draw"), (1, "resign"), (2, "draw_black"), (3, "resign_black")):
            s = b.get(name, -1)
            if s >= 0:
                ps[s] = k
        app.pad_leds = [-1, -1, -1, -1]
        return
    pad_game = "toguz" if tobit else "tobit"
    lay = app.menu_lay if tobit else app.load_layout(pad_game)
    cells = PADS_ON_TOGUZ if tobit else PADS_ON_TOBIT
    if tobit and app.mode != "demo":
        # START too: pressed in a set-up nobody has begun, the menu (App._pad_press)
        cells = cells + (MENU_START,)
        if len(app.pad_leds) < 5:
            app.pad_leds.append(-1)
    for k in range(len(cells)):
        s = lay.sensor_of(cells[k])
        if s >= 0 and app.lay.cell_of_sensor(s) < 0:
            ps[s] = k
        app.pad_leds[k] = lay.led_of(cells[k])


# the game's code, the modules in the order loaded (the ones imported by the next
# first), a unit each (unit 4): the tracker's, then the rules core's
_LOAD = {"toguz": ("playboard.board.mancala_tracker", "playboard.games.mancala_text",
                   "playboard.games.snapshot", "playboard.games.toguz"),
         "tihbat": ("playboard.board.mancala_tracker", "playboard.games.mancala_text",
                    "playboard.games.snapshot", "playboard.games.tihbat"),
         "tobit": ("playboard.board.tobit_position", "playboard.board.tobit_tracker",
                   "playboard.games.tobit_board", "playboard.games.tobit"),
         "tobit4": ("playboard.board.tobit_position", "playboard.board.tobit_tracker",
                    "playboard.games.tobit_board", "playboard.games.tobit")}
_ENGINE_CODE = ("playboard.engine.search", "playboard.engine.evaluation")
# the modules of state.GAME_CODE each game keeps from the last game's (unit 0)
_CODE = {"toguz": ("playboard.games.toguz", "playboard.games.snapshot", "playboard.games.mancala_text",
                   "playboard.board.mancala_tracker"),
         "tihbat": ("playboard.games.tihbat", "playboard.games.snapshot", "playboard.games.mancala_text",
                    "playboard.board.mancala_tracker", "playboard.engine.tihbat_table"),
         "tobit": ("playboard.games.tobit", "playboard.games.tobit_board", "playboard.games.tobit_fen",
                   "playboard.board.tobit_tracker", "playboard.board.tobit_position"),
         "tobit4": ("playboard.games.tobit", "playboard.games.tobit_board", "playboard.games.tobit_fen",
                    "playboard.board.tobit_tracker", "playboard.board.tobit_position")}
