"""The board's application: one cooperative loop from switch-on to game over.

::

    app = App(hw, cfg, store, transport=StdioTransport())   # cfg: playboard.config
    app.start(time.ticks_ms())      # resume an unfinished game, or the menu
    while True:
        app.frame(time.ticks_ms())  # scan, track, light, think, link: never blocks
        ...sleep until app.next_due...

``frame(now_ms)`` does one slice of everything: scan the sensors (debounced),
feed the move tracker, record each committed move at once (``playboard.record``),
send live events (``playboard.link``), step the engine for one slice when it is
its turn, compose the LEDs, answer link requests, feed the watchdog. The clock is
injected: ``now_ms`` is any millisecond clock wrapping at 2**30
(``time.ticks_ms()`` on the board, a virtual clock in the simulator and tests).

States (``state``, names in ``STATE_NAMES``): ``menu`` (choose game, mode and
level on the menu pads), ``setup`` (Tobit: the tracker lights where the pieces
go; a resumed game lights what the pieces must be), ``play`` (the players' and
the engine's turns), ``over`` (the result on the LEDs), ``attract`` (an LED
animation after ``attract_s`` idle seconds; any sensor change ends it).

Modes (``MODES``): ``two`` (two players), ``white`` / ``black`` (the player has
that side against the engine at ``level``), ``demo`` (engine against engine).

Gestures: see docs/app.md. The *pads* are cells of another game's area of the
board that the current game never uses (so normal play cannot press them): the
menu is on the Toguz Kumalak pits; during Tobit the resign / draw pads are Toguz
pits, during Toguz Kumalak and Tihbat they are Tobit points. A pad (or menu pit) is
pressed *deliberately*: its sensor leaves its rest value (a stylus put on, a ball or
piece lifted), stays away ``HOLD_MS`` (its row of pits fills on the LEDs) and comes
back before ``RELEASE_MS``, while no other sensor of the pad area changes and none
changed for ``QUIET_MS`` before: a brief touch, a child stirring the balls or staff
filling the pits press nothing. A board left unchanged for ``REST_MS`` takes what it
shows as its new rest (a filled pit is then pressed by lifting its balls). A board
definition may name sensors as buttons instead (``"buttons": {"menu": 58,
"resign": 59, "draw": 60}``, see docs/app.md).

Events (for the link's live mode and the simulator): ``sink(kind, fields)`` is
called with ``kind`` one of the event kinds listed in ``playboard.app.state`` and a small dict.
"""
import gc
import time

from playboard.compat import const, unload
from playboard.board import tracker as T
from playboard.board.lights import Lights, ENGINE, CAPTURE, ERROR, USER, ON, ACCENT, BLINK
from playboard.board.scan import Scanner
from playboard.hw.base import ADAPTER, USB
from playboard.app.state import (STATE_NAMES, S_MENU, S_SETUP, S_PLAY, S_OVER, S_ATTRACT, S_STAFF,
                                 MASK, ARM_MS, DRAW_MS, OVER_DELAY_MS, ATTRACT_STEP_MS, HOURS_MS,
                                 HOLD_MS, RELEASE_MS, QUIET_MS, REST_MS,
                                 APP_SETTINGS, GAME_CODE, NATIVE_CODE, RESERVE, RESIGNED, AGREED, ticks_ms, ticks_us,
                                 clamp)

# slices of a search between two planned collections (``App._think``): a Tobit slice
# leaves about 3 KB of garbage on the RP2040 (a Toguz Kumalak one 0.4 KB), so that
# many slices stay well within the free heap a collection leaves (>= 64 KB); a native
# search (engine.native) leaves none of its own: only the frame's (issue 35)
_SLICES = const(32)
_SLICES_TOBIT = const(8)
_SLICES_NATIVE = const(64)
# a thinking frame's time on average (us; issue 35: <= 10 ms, less the margin a
# search's first and last frames, about 22 ms each, take over 300 frames): while the
# thinking frames so far (collections, the thinking light's blink, the move's
# hand-off) ran over it, slices are 1 ms shorter (``App._over``, within these bounds)
_FRAME_US = const(9600)
_OVER_MAX = const(40000)
_CREDIT_MAX = const(2000)


_UNDO_GRACE_MS = const(2500)  # after a takeback the engine waits this long (yours may follow)
_COLD_RETRY_MS = const(1000)  # cold code that did not load (MemoryError): tried again after this


def _load(name):
    """Import module ``name`` (dotted) and return it."""
    __import__(name)
    import sys
    return sys.modules[name]

class App:
    """The board's state machine. Build once at start-up, then ``start`` and ``frame``.

    hw: a ``playboard.hw`` Board; cfg: a validated board definition
    (``playboard.config.load_board``); store: a ``playboard.record.Store``.
    transport: the link's byte channel (``playboard.hw.stdio.StdioTransport``) or None
    for no link. clock: ms function for the link and ``run`` (default device clock).
    wdt: an object with ``feed()`` (``machine.WDT``) or None. layouts: dict game
    name -> ``Layout`` (:func:`read_layouts`; read from the boards folder when None). sink: a function
    ``sink(kind, fields)`` getting every event (the simulator), or None.
    think: ``"ms"`` (the engine thinks ``think_ms`` per move, ``slice_ms`` per
    frame) or ``"nodes"`` (``think_nodes`` per move, ``slice_nodes`` per frame:
    deterministic, for a virtual clock). tt_size: engine transposition table entries.
    seed: None (each game's engine seeded from ``os.urandom``: the board's) or an int
    (the games' engine seeds drawn from it in turn: a run replays, docs/engine.md "Seeds").
    ValueError for a bad board definition field the app reads (``buttons``).
    """

    # a running self-test or calibration (playboard.app.check): a class default, so
    # that the instance's attributes (and their table in the heap) stay as they were
    check = None

    def __init__(self, hw, cfg, store, transport=None, clock=None, wdt=None, layouts=None,
                 sink=None, think="ms", slice_ms=8, slice_nodes=60, tt_size=None, settings=None,
                 seed=None):
        for name in NATIVE_CODE:  # first: kept for ever (state.NATIVE_CODE)
            __import__(name)
        self.hw = hw
        self.cfg = cfg
        self.store = store
        self.clock = clock or ticks_ms
        self.wdt = wdt
        self.sink = sink
        if think not in ("ms", "nodes"):
            raise ValueError("think must be 'ms' or 'nodes', got %r" % (think,))
        self.think = think
        self.slice_ms = slice_ms
        self.slice_nodes = slice_nodes
        self.seed = seed
        if layouts is None:
            from playboard.app.startup import read_layouts
            layouts = read_layouts(cfg, hw)
        self.layouts = layouts
        if settings is None:
            from playboard.settings import DEFAULT_SETTINGS
            defaults = dict(DEFAULT_SETTINGS)
            unload("playboard.settings")  # start-up only (a setting's change loads it again)
            defaults.update(APP_SETTINGS)
            if cfg["leds"].get("brightness") is not None:
                # the board file's brightness, unless the user saved one (docs/hardware.md)
                defaults["brightness"] = cfg["leds"]["brightness"]
            settings = store.load_settings(defaults)
        self.settings = settings
        leds = cfg["leds"]
        self.closed = False  # outside the opening hours (settings "hours"): dark, idle
        self.wallclock = time.localtime  # (year, month, day, hour, minute, ...): the RTC
        self._hours = None  # ("HH:MM-HH:MM", (opening, closing) in minutes) parsed
        self._t_hours = 0
        # the LED cap per power source (leds.supply "sense": adapter, USB alone), read
        # every frame from the backend (Board.source); None: the board file's one cap
        self._budgets = None
        self.source = ADAPTER
        budget = leds["budget_ma"]
        if leds["supply"] == "sense":
            self._budgets = (leds["budget_ma"], leds["usb_budget_ma"])
            self.source = hw.source()
            budget = self._budgets[self.source]
        self.lights = Lights(hw, budget, leds["ma_per_led"], leds["idle_ma"],
                             self._brightness())
        self.stylus = cfg.get("pit_select") == "stylus"
        self.colour = cfg.get("sensor", {}).get("kind") == "hall_mux"
        momentary = ()
        if self.stylus:
            momentary = []
            for g in ("toguz", "tihbat"):
                lay = self.load_layout(g)
                for c in range(2 * (9 if g == "toguz" else 2)):
                    s = lay.sensor_of(c)
                    if s >= 0 and s not in momentary:
                        momentary.append(s)
        self.scanner = Scanner.from_config(hw, cfg, momentary)
        self.period_ms = self.scanner.period_ms
        from playboard.app.startup import buttons
        self.buttons = buttons(cfg, hw.n_sensors)
        del buttons
        self.rest = bytearray(hw.n_sensors)  # each sensor's value when the state began
        self.menu_lay = self.load_layout("toguz")
        self.menu_sensors = bytearray(b"\xff" * hw.n_sensors)  # sensor -> menu cell
        for c in range(18):
            s = self.menu_lay.sensor_of(c)
            if s >= 0:
                self.menu_sensors[s] = c
        self.pad_sensors = bytearray(b"\xff" * hw.n_sensors)  # sensor -> pad 0..3
        self.pad_leds = [-1, -1, -1, -1]
        tt = tt_size if tt_size is not None else cfg.get("engine", {}).get("tt_size", 128)
        self._tt_size = tt
        self.engine = None  # built when a game with the engine begins (first of its objects)
        # a block kept whole for the next game's largest objects (undo chunks, the
        # tracker's tables): loading a game's code cuts the heap into small holes, so
        # this is given back only once that code is in, just before those are made
        # (none when the heap has no such block now: open_menu and begin try again)
        self._reserve = None
        try:
            self._reserve = bytearray(RESERVE)
        except MemoryError:
            pass
        # the link's code is loaded once the host first sends something (open_link):
        # a board nobody connects to keeps its heap for play
        self.transport = transport
        self.link = None
        self._cold_t = -1  # when a cold module last did not load (App.cold; -1: never)
        self.board_id = None  # the link's hello gives this id, when set, not the chip's
        # the choice (menu / link)
        self.game_name = "toguz"
        self.mode = "two"
        self.level = clamp(settings.get("level", 3), 1, 13)  # (the menu: the game's top)
        # the game in play
        self.game = None
        self.lay = None
        self.tracker = None
        self.occ = None
        self.state = S_MENU
        self.thinking = False
        self._slices = 0  # slices the search may run before the next planned collection
        self._over = 0  # us the thinking frames ran over _FRAME_US each, in all (bounded)
        self.expecting = None  # the engine's move shown, waiting for the board
        self.result = None
        self.termination = None
        # the record queue: every record operation ("G" a game's header, "M" a move, "U" a
        # takeback, "E" the end) is put here first and taken off once it is on flash, in
        # order; whatever fails (OSError, MemoryError) stays and is retried each frame
        self.pending = []
        self._ended = False  # the end of the game in play is queued
        # the tracker's events of the last update, handled one by one: a frame cut short
        # by a MemoryError leaves the rest (and the one it was in) to the next frame
        self._ev_i = 0
        self._ev_n = 0
        self._ev_rec = -1  # the event whose record operation is queued already
        self._shown = -1
        self._occ_dirty = True
        self.iso = bytearray(64)  # faulty sensors by cell of the game (tracker.isolate)
        self._iso_dirty = False  # a sensor's fault changed: tell the tracker (2: told, failed)
        self._n_faulty = 0  # sensors faulty now
        self._turn_check = False
        self._t_undo = -1  # when the last takeback was made (-1: none pending; _next_turn)
        self._t_state = 0
        self._t_idle = 0
        self._armed = -1
        self._t_armed = 0
        self._draw_offer = -1
        self._t_draw = 0
        self._attract_i = 0
        self._t_attract = 0
        self._over_painted = False
        self._menu_dirty = True
        self._count_on = False
        self._fen = None
        self.now = 0
        self.next_due = 0
        self.frames = 0
        self.memory_errors = 0
        self.wdt_reset = None  # the last reset was the watchdog's (onboard reads it; None: ask machine)
        self._pending = None  # a game being begun, a share a frame: [resumed record or None,
        # its header queued (bool), the unit, the classes, a count] (gamestart.begin)
        self._begin_tries = 0  # attempts to begin or resume a game that hit a MemoryError
        self._start_scan = False  # a game being begun: this frame scans, no share of it
        self._hold = -1  # the sensor of a deliberate press in progress (-1 none)
        self._t_hold = 0  # when it left its rest value
        self._t_busy = -QUIET_MS  # the last change of a pad or pit (not a press's own)
        self._rested = True  # rest[] holds the board as it stands (see REST_MS)
        self._settled = True  # False in the result until the board first rests (_controls)
        self.unlocked = False  # locked mode: the staff unlocked the link (until power-off)
        self.sw_away = 0  # the staff gesture's watch (ui.watch_change): corners away,
        self.sw_phase = 0  # its step,
        self.sw_t = 0  # and when it began
        self.last_ply = 0

    def load_layout(self, game):
        """The ``playboard.board.layout.Layout`` of ``game`` on this board (built at start-up)."""
        return self.layouts[game]

    def _ui(self):
        """The menu / result / start-up module (loaded when needed, dropped in play)."""
        from playboard.app import ui
        return ui

    def start(self, now_ms):
        """First frame's work: light the board, then resume the unfinished game found by
        the store (lighting what the pieces must be) or open the menu."""
        from playboard.app import startup
        try:
            startup.start(self, now_ms)
        finally:
            del startup
            unload("playboard.app.startup")  # start-up only

    def choose(self, game=None, mode=None, level=None):
        """Set the next game's name, mode and level (as the menu does). ValueError if bad."""
        self._ui().choose(self, game, mode, level)

    def link_set_game(self, req):
        """The link's ``G`` request: ``{"game", "mode", "level", "start": true,
        "force": false, "resign": 0|1, "draw": true, "menu": true}``. Starting a game
        while one with moves is being played needs ``force``. ValueError to refuse."""
        from playboard.app import request  # dropped when a game begins or the menu opens
        return request.link_set_game(self, req)

    # ---- events --------------------------------------------------------------

    def emit(self, kind, fields=None):
        """Send event ``kind`` (see playboard.app.state) with ``fields`` (dict) to the sink and the link."""
        if self.sink is not None:
            self.sink(kind, fields)
        if self.link is not None and self.link.live:
            self.link.event(kind, fields)

    # ---- start-up ------------------------------------------------------------


    # ---- the menu ------------------------------------------------------------

    def open_menu(self, now_ms):
        """Show the menu (game, mode, level, start pads); the finished game stays on record."""
        self._end_game_objects()
        if self._reserve is None:  # the last game's objects are gone: keep their room
            gc.collect()
            try:
                self._reserve = bytearray(RESERVE)
            except MemoryError:
                pass
        unload("playboard.app.staff")  # the staff menu's code: only while it is open
        unload("playboard.app.request")
        unload("playboard.hw.selftest")
        self._enter(S_MENU, now_ms)
        self._menu_dirty = True
        self.emit("menu", {"game": self.game_name, "mode": self.mode, "level": self.level})

    def _end_game_objects(self):
        if self.engine is not None:
            self.engine.stop()
        self.thinking = False
        self.expecting = None
        self.tracker = None
        self.game = None
        self.lay = None
        self.occ = None

    def cold(self, name):
        """The cold module ``name`` (dotted), loaded, or None while it cannot be. The one
        place a cold import is tried again: what the ``.mpy`` deploy needs, where a
        module's code comes into the heap (on the frozen image it is in flash and an
        import takes a few hundred bytes). A MemoryError: counted once in
        ``memory_errors`` (not at each try), the heap swept and, with no game in play,
        the last game's code and objects dropped (``make_room``), then tried once
        more; failing still, every cold import answers None for ``_COLD_RETRY_MS``
        (the caller tries again later; the frames go on meanwhile)."""
        t = self._cold_t
        if t >= 0 and ((self.now - t) & MASK) < _COLD_RETRY_MS:
            return None
        try:
            m = _load(name)
        except MemoryError:
            if t < 0:
                self.memory_errors += 1  # (once, however many tries)
            self._cold_t = self.now
            gc.collect()
            if not self.make_room():
                return None  # a game in play keeps its heap
            try:
                m = _load(name)
            except MemoryError:
                gc.collect()
                return None
        self._cold_t = -1
        return m

    def poll_link(self):
        """Answer the host (Link.poll), the link loaded first when the host has just
        spoken (``cold``: no room for it, the host asks again)."""
        if self.link is None:
            if self.transport is None or not self.transport.ready() or self.open_link() is None:
                return
        self.link.poll()

    def drop_link(self, live=False):
        """Drop the link's code and buffers for a game being begun (a game comes before
        the link) when it is between requests and, unless ``live``, sends no live
        events (a host watching keeps it: dropped only on a retry, the host's keep-alive
        loads it again). It loads again when the host next speaks."""
        lk = self.link
        if lk is not None and lk.dec.state == 0 and (live or not lk.live):
            self.link = None
            unload("playboard.link")

    def make_room(self):
        """Called when the link runs out of memory or a host's session begins: with no
        game in play (the menu, a finished game's result, attract) the last game's code
        and objects and the next game's reserve go (a result shown gives way to the
        menu) and the heap is swept: True (worth trying again). A game in play keeps
        its heap, and nothing to drop: False."""
        if self.state in (S_SETUP, S_PLAY) or self._pending is not None:
            return False
        import sys
        had = self._reserve is not None or self.game is not None or self.engine is not None
        for name in GAME_CODE:
            had = had or name in sys.modules
        if not had:
            return False  # nothing to drop
        self._reserve = None  # (made again by the menu or the next game's start)
        self.release_game()
        if self.state == S_OVER:  # no result to show without the game: the menu
            self._enter(S_MENU, self.now)
            self._menu_dirty = True
        gc.collect()
        return True

    def open_link(self):
        """Load the link (playboard.link.Link) on ``transport``; the app calls this
        when the host first sends something. Returns the Link, or None while its code
        does not load (``cold``)."""
        if self.link is None:
            m = self.cold("playboard.link")
            if m is None:
                return None
            self.link = m.Link(self.transport, self.store, app=self, settings=self.settings,
                               clock=self.clock)
        return self.link

    def release_game(self, keep=()):
        """Drop the game's objects, the engine and the game code (state.GAME_CODE)
        but the modules named in ``keep``: the heap a game needs is whole again. Done
        before a game begins (keeping the code it uses: every game begins on the same
        heap, whatever the last one left) and, keeping nothing, when beginning one is
        given up (the menu then holds no game code)."""
        self._end_game_objects()
        self.engine = None
        for name in GAME_CODE:
            if name not in keep:
                unload(name)

    def _enter(self, state, now_ms):
        self.state = state
        self._t_state = now_ms
        self._t_idle = now_ms
        self.rest[:] = self.scanner.deb.stable
        self._hold = -1
        self.sw_away = self.sw_phase = 0
        self._armed = -1
        self._draw_offer = -1
        self._shown = -1
        self.lights.clear()


    # ---- a game ----------------------------------------------------------------


    def new_game(self, now_ms, resumed=None):
        """Start the chosen game (or continue ``resumed``, a record.GameRecord) at the
        next frame: record its header, then set-up (Tobit) or play. The next frame does
        it from this module, so that the menu's code is out of the heap by then."""
        self._pending = [resumed, False, 0, None, 0]  # see gamestart.begin
        self._start_scan = False  # (its first frame a share of it: App._frame)


    def engine_side(self, side):
        """True if ``side`` (0 White/South, 1 Black/North) is played by the engine."""
        m = self.mode
        return m == "demo" or (m == "white" and side == 1) or (m == "black" and side == 0)


    def _pad_press(self, k, now_ms):
        """Pad k: 0 White draw, 1 White resign, 2 Black draw, 3 Black resign; 4 START
        during Tobit (gamestart.pads): a set-up nobody has begun goes, the menu opens."""
        if k > 3:
            if self.state == S_SETUP and self.game.ply == 0:
                self.release_game()  # (the menu's code then has the game's room)
                self._ui().abandon(self, now_ms, True)
            return
        side = k >> 1
        if k & 1:  # resign: press twice within ARM_MS
            if self._armed == k and ((now_ms - self._t_armed) & MASK) < ARM_MS:
                self._armed = -1
                self._game_over("0-1" if side == 0 else "1-0", RESIGNED, now_ms)
                return
            self._armed = k
            self._t_armed = now_ms
            self.emit("arm", {"what": "resign", "side": side})
        else:  # draw: one side offers, the other accepts within DRAW_MS
            if self._draw_offer >= 0 and self._draw_offer != side and \
                    ((now_ms - self._t_draw) & MASK) < DRAW_MS:
                self._draw_offer = -1
                self._game_over("1/2-1/2", AGREED, now_ms)
                return
            self._draw_offer = side
            self._t_draw = now_ms
            self.emit("arm", {"what": "draw", "side": side})
        self._shown = -1

    def _game_over(self, result, termination, now_ms):
        if self.engine is not None:
            self.engine.stop()
        self.thinking = False
        self.expecting = None
        self.result = result
        self.termination = termination
        self.last_ply = self.game.ply if self.game is not None else 0
        if not self._ended:  # (a frame cut short and done again queues it once)
            self._record("E", result, termination)
            self._ended = True
        self._enter(S_OVER, now_ms)
        self._rested = self._settled = False
        self._over_painted = False
        self.emit("over", {"result": result, "termination": termination,
                           "ply": self.game.ply if self.game else 0})


    # ---- turns and the engine --------------------------------------------------

    def _next_turn(self, now_ms):
        g = self.game
        if g is None or self.state != S_PLAY:
            return
        if g.is_game_over():
            self._game_over(g.result(), g.termination, now_ms)
            return
        if not self.engine_side(g.turn) or self.thinking or self.expecting is not None:
            return
        tr = self.tracker
        if hasattr(g, "n_points") and not tr.held:
            tr.expect(None, now_ms)  # the engine's turn: no move accepted (a takeback is)
        if tr.state:
            return  # a sowing view, a board not at the game's position: think once it is
        if self._t_undo >= 0:
            if self.mode != "demo" and ((now_ms - self._t_undo) & MASK) < _UNDO_GRACE_MS:
                return  # its move just taken back: the player's may go back too (Tobit, by hand)
            self._t_undo = -1
        s = self.settings
        # a search churns small lists: the next frame collects (``_think``), this one,
        # which may have played a move and put it on flash, only starts the search
        self._slices = 0
        self._fen = (g.fen(), g.ply, g.turn)
        # the search pushes and pops on the game itself (no copy: heap); the frames
        # leave the game alone until it is done
        if self.think == "nodes":
            self.engine.start(g, self.level, nodes=s.get("think_nodes", 3000), copy=False)
        else:
            self.engine.start(g, self.level, ms=s.get("think_ms", 3000), copy=False)
        self.thinking = True
        self._shown = -1  # repaint: the thinking light
        self.emit("thinking", {"side": g.turn, "level": self.level})

    def _think(self, now_ms):
        """One slice of the search, or, every ``_SLICES`` slices (Tobit's:
        ``_SLICES_TOBIT``; a native search's: ``_SLICES_NATIVE``) and before the
        first, a planned collection instead, in a frame of its own: a collection the
        heap asked for inside a slice would make that frame a slice and a collection
        long (13-28 ms on the RP2040). A slice is ``slice_ms``, 1 ms less while the
        thinking frames ran over their mean's target (``_FRAME_US``, ``frame``)."""
        eng = self.engine
        k = self._slices
        if k <= 0:
            gc.collect()
            if eng._g is None:  # a native search (engine.search: none of its game copy)
                self._slices = _SLICES_NATIVE
            else:
                self._slices = _SLICES_TOBIT if hasattr(self.game, "n_points") else _SLICES
            return
        self._slices = k - 1
        try:
            if self.think == "nodes":
                done = eng.step(nodes=self.slice_nodes)
            else:
                ms = self.slice_ms
                if self._over > 0 and ms > 2:
                    ms -= 1
                done = eng.step(ms=ms)
        except MemoryError:
            # the heap is too cut up for a deeper search: play the best move found so
            # far (the search's moves are taken back by stop)
            eng.stop()
            gc.collect()
            self.emit("record-error", {"msg": "engine: out of memory, search cut short"})
            done = True
        if not done:
            return
        g = self.game
        m = eng.best_move
        if m is None:
            self.thinking = False
            self._shown = -1
            return
        # the hand-off: what can fail (the text) first; the turn passes to the tracker
        # and ``thinking`` ends together, so a frame cut short by a MemoryError before
        # it does it again (the search is done: ``step`` answers at once) and after it
        # finds the move's events still queued (``_ev_n``)
        text = g.move_text(m)
        tr = self.tracker
        n = 0
        if hasattr(g, "n_points"):
            tr.expect(m, now_ms)
            self.expecting = m
        elif 0 <= m < g.n_pits:
            n = tr.press(m + g.turn * g.n_pits, now_ms, True)  # its pit lit till sown
        self.thinking = False
        self._shown = -1
        self._occ_dirty = True  # what changed on the board during the search: read now
        self._ev_i = 0
        self._ev_n = n
        self._ev_rec = -1
        self.emit("engine", {"move": text, "ply": g.ply + 1, "depth": eng.depth, "nodes": eng.nodes})
        self._drain(now_ms)

    # ---- the frame ---------------------------------------------------------------

    def frame(self, now_ms):
        """One pass of the loop at ``now_ms``: scan, track, record, think, light, link.
        Never blocks; ``next_due`` is when the next scan is due. A MemoryError in a
        frame is survived: the heap is swept and the next frame does the work left
        undone (the tracker's events not yet handled, the record queue, the turn
        check, the sensors' occupancy read again); see docs/app.md, "Memory"."""
        was = self.thinking
        t0 = ticks_us()
        try:
            self._frame(now_ms)
        except MemoryError:
            self._occ_dirty = True  # the tracker is fed the whole occupancy again
            gc.collect()
            self.memory_errors += 1
        except Exception as e:  # noqa: BLE001 - any other fault: contained (docs/app.md)
            from playboard.app import contain  # (cold: counted, kept, the game begun again)
            contain.contain(self, e, now_ms)
            unload("playboard.app.contain")
        if was or self.thinking:  # a thinking frame: its time against the mean's target
            v = self._over + ((ticks_us() - t0) & MASK) - _FRAME_US
            self._over = _OVER_MAX if v > _OVER_MAX else (-_CREDIT_MAX if v < -_CREDIT_MAX else v)

    def _frame(self, now_ms):
        self.now = now_ms
        if self._budgets is not None:   # the LEDs' cap follows the power source
            src = self.hw.source()
            if src != self.source:
                self.source = src
                self.lights.set_budget(self._budgets[src])
        if self.check is not None:  # the self-test or calibration instead of play
            from playboard.app import check
            check.frame(self, now_ms)
            return
        if self._pending is not None:
            # a game is being begun: a frame does a share of it (gamestart.begin), the
            # next scans the sensors (their changes read by the game's first frame:
            # the whole occupancy), lights the LEDs and feeds the watchdog, and so on
            # (never both in a frame: a unit on the .mpy deploy takes up to 45 ms, an
            # LED frame up to 20 on the RP2040); played from the frame after the last unit
            if self._start_scan:
                self._start_scan = False
                if self.scanner.poll(now_ms) >= 0:
                    self.next_due = (now_ms + self.period_ms) & MASK
                self.lights.frame(now_ms)
                if self.wdt is not None:
                    self.wdt.feed()
            else:
                self._start_scan = True
                self.begin_pending(now_ms)
            return
        self._scan_and_play(now_ms)

    def begin_pending(self, now_ms):
        """A frame's share of beginning the game asked for by ``new_game``
        (gamestart.begin). Call it from outside the menu code
        (a frame, the simulator's bridge, which calls it until ``_pending`` is None)."""
        if self._pending is not None:
            resumed = self._pending[0]
            done = again = False
            try:
                from playboard.app import gamestart  # a MemoryError here too: try again
                done = gamestart.begin(self, now_ms, resumed)
                if done:
                    self._pending = None
                    self._begin_tries = 0
            except MemoryError:
                # the heap was too broken up for the game's code or tables (the boot's
                # garbage): a game is never given up for that at once; begin again next
                # frame on a swept heap (begin drops whatever this attempt built)
                if self._begin_tries >= 3:
                    # given up (the menu then, not a game half gone: START again, or
                    # the board switched off and on, begins it on a whole heap)
                    self._pending = None
                    self._begin_tries = 0
                    self.release_game()  # the menu holds no game code
                    if resumed is None and self.store.current is not None:
                        # the game left for the new one is over: switched off and on,
                        # the board opens the menu, not that game, on a whole heap
                        self._record("E", "*", "abandoned")
                    self.state = S_MENU
                    self._menu_dirty = True
                    raise
                self._begin_tries += 1
                self.drop_link(True)  # its code may be just where the game's must go
                self._end_game_objects()
                self.engine = None  # rebuilt first, in one piece, by the next attempt
                self._reserve = None  # the code did not fit beside it: the next has the room
                p = self._pending
                p[2], p[3], p[4] = 0, None, 0  # from the first step again
                again = True
                gc.collect()
                return
            except (ValueError, IndexError, OSError) as e:
                done = True
                self._pending = None
                if resumed is None:
                    raise
                # a record that does not replay: close it, keep it for the host, go on
                self.emit("record-error", {"msg": "resume: %s" % e})
                self._record("E", "*", "abandoned")
                self.open_menu(now_ms)
            finally:
                if done or again or self._pending is None:
                    unload("playboard.app.gamestart")  # start-up of a game only (or anew)

    def _scan_and_play(self, now_ms):
        self.frames += 1
        if self._ev_i < self._ev_n:  # a frame cut short: its events first, before the
            self._drain(now_ms)  # tracker's next update writes over them
        sc = self.scanner
        n = sc.poll(now_ms)
        if n >= 0:
            self.next_due = (now_ms + self.period_ms) & MASK
            if sc.frames == 1:
                # the first scan: the sensors as the board was switched on are their
                # rest (taken before it, every pit holding balls rested as "empty": a
                # lift pressed nothing, putting the balls back began the hold, issue 31)
                self.rest[:] = sc.deb.stable
            if n > 0:
                self._changes(n, now_ms)
            k = sc.deb.n_fault_changes
            if k:  # a sensor became faulty (1 chatter, 2 stuck) or recovered (0): the
                self._iso_dirty = True  # tracker isolates it (docs/tracker.md "Faulty sensors")
                for j in range(k):
                    s = sc.deb.fault_changes[j]
                    f = sc.deb.fault[s]
                    self._n_faulty += 1 if f else -1
                    self.emit("fault", {"sensor": s, "fault": f})
                from playboard import health  # counted on flash (docs/museum.md; dropped at once)
                unload("playboard.health")
                health.faults(self.store, sc.deb)
            if self.state != S_ATTRACT:
                self._controls(now_ms)
            tr = self.tracker
            # Tobit: the tracker runs while the engine thinks too (it accepts no move
            # then, expect(None): the game, holding the search's moves, is not touched)
            if tr is not None and (not self.thinking or hasattr(tr, "n_points")):
                iso = self._iso_dirty or (self._occ_dirty and self._n_faulty)
                if self._occ_dirty or n > 0:
                    self.lay.occupancy(sc.deb.stable, self.occ)
                    self._occ_dirty = False
                if self.state in (S_SETUP, S_PLAY):
                    if self.thinking and tr.state == 1:
                        # the board shows the takeback's position (the only one the
                        # tracker takes while the engine thinks): stop before it is taken
                        self._stop_search()
                    self._events(tr.update(self.occ, now_ms), now_ms)
                    if iso and self.tracker is tr and (self._iso_dirty != 2 or not self.frames & 127):
                        # (after update: a recovered sensor's change is read isolated;
                        # 2: its code did not load or run, MemoryError: tried again 128
                        # frames later, the frames going on meanwhile, not failing one
                        # after another)
                        self._iso_dirty = 2
                        isolate = self.cold("playboard.board.isolate")
                        if isolate is not None:
                            self.lay.occupancy(sc.deb.fault, self.iso)
                            self._events(isolate.isolate(tr, self.iso, now_ms), now_ms)
                            self._iso_dirty = False
                            unload("playboard.board.isolate")  # rare: cold code
        if self.pending:
            self._retry()
        elif (self.store.current is not None and self.game is None and self._pending is None
              and (self.state == S_MENU or self.state == S_ATTRACT)):
            # a game left at the menu: ended as abandoned a step a frame here, not in
            # the next game's start frames (record.Store.put_away)
            if not self.store.put_away():
                self.pending.append(("E", "*", "abandoned"))  # (retried, as any record)
        if (not self._turn_check and self.state == S_PLAY and not self.thinking
                and self.expecting is None and self.game is not None
                and self.engine_side(self.game.turn)):
            self._turn_check = True  # the engine's turn, and nothing under way: look
        if self._turn_check:
            self._next_turn(now_ms)  # (cleared once done: a MemoryError leaves it set)
            self._turn_check = False
        elif self.thinking:  # (not in the frame that started the search)
            self._think(now_ms)
        if ((now_ms - self._t_hours) & MASK) >= HOURS_MS:
            self._t_hours = now_ms
            c = self.closed
            self._check_hours(now_ms)
            # a locked board's daily restart (app.restart): at closing, or 24 h up
            if self.settings.get("locked") and self.state == S_ATTRACT and (
                    self.closed > c or self.frames * self.period_ms >= 86400000):
                from playboard.app import restart
                unload("playboard.app.restart")
                restart.check(self, self.closed)
        self._paint(now_ms)
        self.lights.frame(now_ms)
        self.poll_link()
        if self.wdt is not None:
            self.wdt.feed()

    def _stop_search(self):
        """A takeback during the search: the search stops (the game whole again: the
        tracker may take the move back); the engine thinks again once it is its turn
        and the board shows the game's position (``_next_turn``)."""
        self.engine.stop()
        self.thinking = False
        self._shown = -1
        self.emit("stopped", {"side": self._fen[2]})

    def _changes(self, n, now_ms):
        deb = self.scanner.deb
        st = self.state
        self._t_idle = now_ms
        self._rested = False
        if st == S_ATTRACT:
            if not self.closed:  # closed: a touch wakes nothing
                self.open_menu(now_ms)
            return
        b = self.buttons
        game = st == S_PLAY or st == S_SETUP
        for i in range(n):
            s = deb.changes[i]
            v = deb.stable[s]
            r0 = self.rest[s]
            if s == self._hold:
                if v == r0:  # let go: a press if held HOLD_MS..RELEASE_MS
                    ok = HOLD_MS <= ((now_ms - self._t_hold) & MASK) < RELEASE_MS
                    self._end_hold()
                    if ok:
                        if game:
                            self._pad_press(self.pad_sensors[s], now_ms)
                        elif not self.closed:
                            self._ui().press(self, s, st, now_ms)
                        if self.state != st or self._pending is not None:
                            return
                continue
            if b and v != r0:  # real buttons act at once
                if s == b.get("menu", -1) and st != S_MENU:
                    self.open_menu(now_ms)
                    return
                if s == b.get("takeback", -1):
                    if st == S_PLAY:
                        self.takeback(now_ms)
                    continue
            # the pits and pads of the controls: in a game the sensors it does not use,
            # else the Toguz pits
            if game:
                if self.lay is None or self.lay.cell_of_sensor(s) >= 0:
                    continue
                target = self.pad_sensors[s] != 255
            else:
                target = self.menu_sensors[s] != 255
                if st != S_STAFF:  # the staff watch; off the pits, a Tobit start position
                    self._ui().staff_change(self, s, now_ms)
                    if self._pending is not None:
                        return  # (a Tobit game begins: museum.set_position)
                if not target:
                    continue
            if self._hold >= 0:
                self._end_hold()  # another pit: the board is being filled or stirred
            quiet = ((now_ms - self._t_busy) & MASK) >= QUIET_MS
            self._t_busy = now_ms
            if st == S_OVER and not v and self._carried_out(s):
                continue  # the engine's last move being carried out: no press
            if v != r0 and self._hold < 0 and quiet and target:
                self._hold = s
                self._t_hold = now_ms

    def _carried_out(self, s):
        """In the result of a game the engine's mancala move ended (lift selection):
        True for sensor ``s`` lifted if it is that move's pit, not lifted since the
        move was shown. Its player carries the move out as the board showed it, into
        the result: lifting the pit's balls and dropping the first back into it 0.5-1 s
        later is the gesture of a deliberate press of a menu pit, which opened the
        menu over the result (corpus toguz black 101000402). That first lift is then
        no press (the tracker marks the pit lifted: a later lift is one)."""
        tr = self.tracker
        return (tr is not None and self.lay is not None and hasattr(tr, "engine_lift")
                and tr.engine_lift(self.lay.cell_of_sensor(s)))

    def _end_hold(self):
        self._hold = -1
        self.lights.clear(USER)
        self._menu_dirty = True
        self._shown = -1

    def _controls(self, now_ms):
        """Per frame in the menu, the result and a game: a press held past RELEASE_MS is a
        pit filled (its value becomes its rest); a board unchanged REST_MS is at rest."""
        h = self._hold
        if self.sw_phase and self._ui().watch_tick(self, now_ms):
            self._ui().staff_open(self, now_ms)
            return
        if h >= 0 and ((now_ms - self._t_hold) & MASK) >= RELEASE_MS:
            self.rest[h] = self.scanner.deb.stable[h]
            self._end_hold()
        elif (h < 0 and not self._rested and ((now_ms - self._t_idle) & MASK) >= REST_MS
              and not (self.sw_phase and self._settled)):
            # (corners off their rest and left so 3 s are not the staff gesture, whose
            # four go together; nor the four before the board first rests in the result:
            # the last sowing goes on into it, filling pits, corners among them)
            self.rest[:] = self.scanner.deb.stable
            self.sw_away = self.sw_phase = 0
            self._rested = self._settled = True

    def takeback(self, now_ms):
        """Take the player's last move back (a button; Toguz Kumalak and Tihbat, whose
        pits cannot show it): with the ``takeback`` setting on, not in demo. Against the
        engine it is the player's move that goes: during the engine's search the search
        stops and the move goes; once the engine has answered, its answer goes too (two
        plies), so that the player is to move again. True if done."""
        tr = self.tracker
        g = self.game
        if (self.mode == "demo" or not self.settings.get("takeback", True) or g is None
                or g.ply == 0 or not hasattr(tr, "takeback")):
            return False
        if self.thinking:
            self._stop_search()
        self._events(tr.takeback(now_ms), now_ms)
        if self.game is g and g.ply and self.engine_side(g.turn) and self.state == S_PLAY:
            self._events(tr.takeback(now_ms), now_ms)  # the engine's answer went: yours too
        return True

    def _events(self, n, now_ms):
        """Handle the ``n`` events the tracker just gave (``ev_kind`` / ``ev_arg``)."""
        self._ev_i = 0
        self._ev_n = n
        self._ev_rec = -1
        self._drain(now_ms)

    def _drain(self, now_ms):
        """Handle the tracker's events from ``_ev_i`` on. Each is done whole or, cut short
        by a MemoryError, done again by the next frame; its record operation is queued
        once and its ``move`` event sent once (``_ev_rec``)."""
        tr = self.tracker
        g = self.game
        if tr is None:  # the game is gone (a new one begins): its events with it
            self._ev_i = self._ev_n
            return
        while self._ev_i < self._ev_n:
            i = self._ev_i
            kind = tr.ev_kind[i]
            arg = tr.ev_arg[i]
            if kind == T.EV_COMMITTED:
                # _ev_rec: i once its record is queued, -2 - i once its event is sent
                # too: a frame cut short by a MemoryError redoes only what is not done
                if self._ev_rec != -2 - i:
                    m = tr.move
                    g.pop()
                    try:
                        text = g.move_text(m)
                    finally:
                        g.push(m)  # (into the undo slot just freed: no allocation)
                    if self._ev_rec != i:
                        self._record("M", text)
                        self._ev_rec = i
                    if self.sink is not None or (self.link is not None and self.link.live):
                        self.emit("move", {"ply": g.ply, "move": text, "fen": g.fen()})
                    self._ev_rec = -2 - i
                self.expecting = None
                self._t_idle = now_ms  # a move (the engine's too) is not idleness
                self._turn_check = True
                if g.is_game_over():
                    self._game_over(g.result(), g.termination, now_ms)  # (redone whole if cut)
                    self._ev_i = self._ev_n  # the rest of the events do not matter
                    return
            elif kind == T.EV_TAKEBACK:
                if self._ev_rec != i:
                    self._record("U", None)
                    self._ev_rec = i
                self._turn_check = True
                self._t_undo = now_ms  # (the engine waits: _UNDO_GRACE_MS)
                ply = g.ply  # the ply after this undo: the later undos of the batch not yet
                for j in range(i + 1, self._ev_n):  # (a Tihbat forced pass goes with its move)
                    if tr.ev_kind[j] == T.EV_TAKEBACK:
                        ply += 1
                self.emit("undo", {"ply": ply})
            elif kind == T.EV_SETUP_DONE:
                if self.state == S_SETUP:
                    self.state = S_PLAY
                    self.emit("setup", {"done": True})
                    self._turn_check = True
            elif kind == T.EV_CONFIRMED:
                self._turn_check = True
            elif kind == T.EV_LIFTED:
                self.emit("lift", {"cell": arg})
            elif kind == T.EV_PLACED:
                self.emit("place", {"cell": arg})
            elif kind == T.EV_CORRECTION:
                self.emit("correction", self._why_wrong(tr, g))
            elif kind == T.EV_ERROR:  # mancala: why nothing was selected (WHY_*)
                self.emit("error", {"cell": arg, "why": tr.why})
            elif kind == T.EV_RESOLVED:
                self.emit("resolved", None)
            self._ev_i = i + 1

    def _why_wrong(self, tr, g):
        """Tobit: why the board went to correction, in the rules' terms (the cold
        ``playboard.board.tobit_why``, loaded for this once: never in the scan loop), as
        the ``correction`` event's fields; None for the mancala games, no reason, or a
        heap too short for it (the correction is still sent, its LEDs still lit)."""
        if not hasattr(g, "n_points"):
            return None
        try:
            from playboard.board import tobit_why
            return tobit_why.reason(g, tr.occ, self.expecting)
        except MemoryError:
            return None
        finally:
            unload("playboard.board.tobit_why")

    def _record(self, op, a, b=None):
        """Queue one record operation and write the queue: ``op`` "M" (``a`` the move
        text), "U" (takeback), "E" (``a`` result, ``b`` termination) or "G" (a new game:
        ``a`` its name, ``b`` its tags). Once queued it is on flash or in ``pending``,
        retried each frame, in order: the record never has a gap."""
        self.pending.append((op, a, b))  # first: a MemoryError before it changes nothing
        # from here on nothing raises: the caller marks the operation queued after this
        try:
            if not self._retry():
                self.emit("record-error", {"msg": self.store.error, "queue": len(self.pending)})
        except MemoryError:
            pass  # (the event only) the operation is queued: a later frame writes it

    def _record_op(self, op, a, b):
        st = self.store
        if op == "M":
            return st.add_move(a)
        if op == "U":
            return st.undo()
        if op == "G":
            return st.new_game(a, b) is not None
        if st.current is None:
            return True  # no game is being recorded: nothing to end
        return st.finish(a, b)

    def _retry(self):
        """Write the queued record operations in order; True once the queue is empty.
        Any failure (False from the store, OSError, MemoryError) keeps the operation
        at the head of the queue for the next frame; one the store refuses as bad
        (StoreError: never writable) is dropped with a ``record-error`` event."""
        q = self.pending
        while q:
            op, a, b = q[0]
            try:
                ok = self._record_op(op, a, b)
            except ValueError as e:  # StoreError: this operation can never be written
                q.pop(0)
                self.emit("record-error", {"msg": "dropped %s: %s" % (op, e)})
                continue
            except Exception:  # noqa: BLE001 - MemoryError, OSError: kept, retried
                self.store.error = "record queue: out of memory or flash failed"
                return False
            if not ok:
                return False
            q.pop(0)
        return True

    # ---- lights --------------------------------------------------------------------

    def _paint(self, now_ms):
        st = self.state
        li = self.lights
        if st == S_MENU:
            s = self.settings.get("attract_s", 0)
            if s and ((now_ms - self._t_idle) & MASK) >= 1000 * s:
                self._enter(S_ATTRACT, now_ms)
                self.emit("attract", None)
                return
            if self._menu_dirty:
                self._ui().paint_menu(self)
            if self._hold >= 0:
                self._ui().paint_hold(self, now_ms)
            return
        if st == S_STAFF:
            self._ui().paint_staff(self, now_ms)
            return
        if st == S_ATTRACT:
            if ((now_ms - self._t_attract) & MASK) >= ATTRACT_STEP_MS:
                self._t_attract = now_ms
                self._ui().attract_step(self)
            return
        if st == S_OVER:
            if not self._over_painted and ((now_ms - self._t_state) & MASK) >= OVER_DELAY_MS:
                self._ui().paint_over(self)
            elif not self._over_painted:
                self._paint_tracker()
            s = self.settings.get("attract_s", 0)
            if s and ((now_ms - self._t_idle) & MASK) >= 1000 * s:
                self.open_menu(now_ms)
                return
            if self._hold >= 0:
                self._ui().paint_hold(self, now_ms)
            return
        idle = self.settings.get("idle_s", 0)
        if idle and self.mode != "demo" and ((now_ms - self._t_idle) & MASK) >= 1000 * idle:
            if self.game is not None:
                self.last_ply = self.game.ply  # (the abandoned game's length, for its event)
            # the game, abandoned, goes first: the menu's code never loads beside it
            self._end_game_objects()
            self._ui().abandon(self, now_ms)
            return
        if self.tracker is None:  # a game's start cut short by a MemoryError: begun again
            return
        self._paint_tracker()
        if self.tracker is None:
            return  # the game is being begun again (begin_pending met a MemoryError)
        req = self.tracker.request
        if req.count_cell != 255:
            v = T.count_blink(req.count_value, (now_ms - req.count_since) & MASK)
            li.mark(USER, self.lay.led_of(req.count_cell), (ON, ON, ACCENT)[v] if v else 0)
            self._count_on = True
        elif self._count_on:
            li.clear(USER)
            self._count_on = False
            self._shown = -1
        # armed pads blink until they time out
        if self._armed >= 0 and ((now_ms - self._t_armed) & MASK) >= ARM_MS:
            self._armed = -1
            self._shown = -1
        if self._draw_offer >= 0 and ((now_ms - self._t_draw) & MASK) >= DRAW_MS:
            self._draw_offer = -1
            self._shown = -1
        h = self._hold
        if h >= 0:  # a pad being pressed blinks white, then shows blue: let go now
            li.mark(USER, self.pad_leds[self.pad_sensors[h]],
                    ACCENT if ((now_ms - self._t_hold) & MASK) >= HOLD_MS else BLINK)

    def _paint_tracker(self):
        tr = self.tracker
        if tr is None:
            return
        req = tr.request
        if req.version == self._shown:
            return
        self._shown = req.version
        T.paint(req, self.lights, self.lay)
        li = self.lights
        if not self._count_on:
            li.clear(USER)
        if self.thinking:
            # the engine is thinking: its side's light blinks purple (Tobit: its pads;
            # the mancala games: its kazan / counter)
            side = self._fen[2]
            g = self.game
            if hasattr(g, "n_points"):
                li.mark(ENGINE, self.pad_leds[2 * side], BLINK)
                li.mark(ENGINE, self.pad_leds[2 * side + 1], BLINK)
            else:
                li.mark(ENGINE, self.lay.led_of(2 * g.n_pits + side), BLINK)
        for k in range(4):
            led = self.pad_leds[k]
            if led < 0:
                continue
            if k == self._armed:
                li.mark(ERROR, led, BLINK)
            elif (k & 1) == 0 and self._draw_offer == (k >> 1):
                li.mark(CAPTURE, led, BLINK)



    # ---- the link's hooks ------------------------------------------------------------

    def link_status(self):
        """Status fields for the link's ``S`` request (dict)."""
        g = self.game
        d = {"state": STATE_NAMES[self.state], "game": self.game_name, "mode": self.mode,
             "level": self.level, "thinking": self.thinking}
        if g is not None and self.thinking:
            # the game holds the search's moves: read nothing from it
            d["fen"], d["ply"], d["turn"] = self._fen
        elif g is not None:
            d["ply"] = g.ply
            d["turn"] = g.turn
            d["fen"] = g.fen()
        if self.result is not None:
            d["result"] = self.result
            d["termination"] = self.termination
            if g is None:
                d["ply"] = self.last_ply  # the finished game's length
        d["queue"] = len(self.pending)  # record operations not yet on flash
        d["flash_low"] = self.store.low  # nearly full (also a red blink on the menu)
        if self.pending:
            d["pending"] = len(self.pending)
        if self.memory_errors:
            d["memory_errors"] = self.memory_errors
        if self._budgets is not None:
            d["supply"] = "usb" if self.source == USB else "adapter"
            d["led_cap_ma"] = self.lights.budget_ma
        p = getattr(self, "pairing", None)
        if p is not None:  # a tournament's pairing kept for the next game: its tags, and
            d["pairing"] = p  # which sides are ready (bit 0 White, bit 1 Black; ui.ready_press)
            d["ready"] = getattr(self, "ready", 0)
        if self.check is not None:
            d["check"] = self.check[0]  # a self-test or calibration instead of play
        if g is not None and getattr(self.tracker, "correcting", False):
            d["correcting"] = True  # (Tobit) the board shows a mistake to put right
        return d


    def _brightness(self):
        """The LEDs' brightness: the setting under its cap (``max_brightness``), 0 while
        the board is closed (outside the opening hours)."""
        s = self.settings
        if self.closed:
            return 0
        return min(clamp(s.get("brightness", 48), 0, 255), clamp(s.get("max_brightness", 255), 0, 255))

    def apply_brightness(self):
        """Set the LEDs' brightness from the settings (``_brightness``)."""
        self.lights.set_brightness(self._brightness())

    def _check_hours(self, now_ms):
        """Every HOURS_MS: outside the opening hours (settings "hours", on the board's
        clock) a board with no game in play goes dark and starts nothing; it lights
        the menu again at opening. A clock not set (a year before 2024: the RP2040's
        restarts in 2021 after a power cut until the PC sets it) counts as open."""
        h = self.settings.get("hours", "")
        closed = False
        if h:
            if self._hours is None or self._hours[0] != h:
                from playboard.settings import parse_hours
                self._hours = (h, parse_hours(h))
                unload("playboard.settings")
            span = self._hours[1]
            t = self.wallclock()
            if span is not None and t[0] >= 2024:
                m = 60 * t[3] + t[4]
                a, b = span
                closed = not (a <= m < b) if a < b else (b <= m < a)
        if closed == self.closed or (closed and self.state not in (S_MENU, S_ATTRACT, S_OVER)):
            return  # (a game in play goes on: it ends, or is abandoned when idle)
        self.closed = closed
        self.apply_brightness()
        self.emit("hours", {"open": not closed, "hours": h})  # (the host says until when)
        if closed:
            self._enter(S_ATTRACT, now_ms)
        else:
            self.open_menu(now_ms)

    def link_settings(self, changed):
        """Apply settings the host changed (already checked and saved on flash)."""
        if "brightness" in changed or "max_brightness" in changed:
            self.apply_brightness()
        if "hours" in changed:
            self._t_hours = (self.now - HOURS_MS) & MASK  # looked at by the next frame
        if "level" in changed and self.state == S_MENU:
            self.level = clamp(self.settings["level"], 1, 13)
        if self.state == S_MENU:
            self._ui().fit_choice(self)
            self._menu_dirty = True
            # the choice may have changed (a level, a locked menu's games and modes): said
            self.emit("menu", {"game": self.game_name, "mode": self.mode, "level": self.level,
                               "settings": True})

    # ---- running ----------------------------------------------------------------------

    def run(self, sleep_ms=None):
        """Run forever on ``clock``: ``start``, then ``frame`` at the scan rate."""
        if sleep_ms is None:
            sleep_ms = getattr(time, "sleep_ms", None) or (lambda ms: time.sleep(ms / 1000))
        clock = self.clock
        self.start(clock())
        while True:
            now = clock()
            self.frame(now)
            wait = (self.next_due - clock()) & MASK
            if 0 < wait <= self.period_ms:
                sleep_ms(wait)
