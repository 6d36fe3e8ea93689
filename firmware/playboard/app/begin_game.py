"""Beginning a game, its last steps (8-14, after ``playboard.app.gamestart``'s 0-7):
the game, its tracker, a resumed game's moves, the header on record, the first view.
Loaded by ``gamestart.begin`` in a frame of its own before step 5 (on the RP2040's
.mpy deploy an import takes 5 ms plus 8 ms a KB: two modules, two frames well within
50 ms where one was at the limit; docs/pico.md), held by gamestart alone (not in
``sys.modules``) and gone from the heap with it once the game has begun. Functions
take the ``App`` as their first argument.
"""
import gc

from playboard.compat import const
from playboard.app.state import S_SETUP, S_PLAY, PADS_ON_TOGUZ, PADS_ON_TOBIT, MENU_START


_REPLAY_STEP = const(16)  # moves of a resumed game replayed per frame


def begin(app, now_ms, resumed=None):
    """One step of beginning the game, from step 8 on (called by
    ``playboard.app.gamestart.begin``, which did 0-7, leaving (tracker class, core
    class) in ``app._pending[3]``); True once
    it has begun: 8 the game (Tobit's tables a frame before); 9 its tracker; 10 a
    resumed game's moves, ``_REPLAY_STEP`` a frame, then a collection; 11 the new
    position seen by the tracker; 12 a collection; 13 the header on record; 14 the
    first view. A step with nothing to do takes no frame. A MemoryError: see
    ``gamestart.begin``."""
    p = app._pending
    name = app.game_name
    tobit = name in ("tobit", "tobit4")
    replay = resumed is not None and bool(resumed.moves)
    step = p[2]
    # a step with nothing to do here takes no frame of its own
    while ((step == 10 or step == 11) and not replay) or (step == 13 and (resumed is not None or p[1])):
        step += 1
    p[2] = step
    if step == 8:
        if tobit and not p[4]:
            p[3][1].tables()  # Tobit's geometry and keys, a frame before its game
            p[4] = 1
            return False
        p[4] = 0
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
        moves = resumed.moves
        k = p[4]
        end = min(k + _REPLAY_STEP, len(moves))
        g = app.game
        while k < end:
            g.push_text(moves[k])
            k += 1
        p[4] = k
        if k < len(moves):
            return False  # more next frame
        gc.collect()
    elif step == 11:
        app.tracker.new_position()
    elif step == 12:
        gc.collect()  # the header's and the first view's garbage never sets off one
    elif step == 13:
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
        app._record("G", name, tags)
        p[1] = True
    else:
        # the last step: the event, the state
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
