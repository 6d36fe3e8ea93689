"""One simulated board behind the web page: the real firmware under MicroPython
(``playboard_host.simboard``), its clock kept in step with the wall clock, and what
the page shows (LEDs, pieces, counts, moves, the engine's state) gathered into one
state dict that is published to the server's :class:`~playboard_host.websim.server.Hub`.

The page's actions (``Session.act``):

- ``{"op": "click", "cell": c}``: Tobit: lift the piece on point ``c`` or put the
  piece in the hand there (in set-up, put the piece the position wants there);
  mancala: tap pit ``c`` (the sensor flips and back: a stylus or a lifted handful).
- ``{"op": "new", "game": g, "mode": m, "level": n}``: a new game (mode ``two``,
  ``white``, ``black``; ``engine`` = ``white``).
- ``{"op": "setup"}``: stand every piece the set-up position wants.
- ``{"op": "putback"}``: put the lifted pieces back where they came from.
- ``{"op": "takeback"}``: take the last move back (Tobit: the previous position put
  back by hand, captured pieces too; the mancala games: the board's takeback button).
- ``{"op": "engine_move"}``: make the move the board shows for the engine.
- ``{"op": "menu"}``: the board's own menu; then clicks on the Toguz Kumalak pits
  choose the game, mode and level, and START (North's pit 9) starts it.
- ``{"op": "resign"}`` / ``{"op": "draw"}``: resign (the side to move, or the player
  against the engine) / agree a draw (two players), on the board's play pads.
- ``{"op": "lift" | "place" | "tap", "cell": c}``: one sensor action as it is.
- ``{"op": "press", "cell": c}``: a long press (held past its fill, then let go) on
  cell ``c``: in the menu and a game's result a Toguz Kumalak pit.
- ``{"op": "staff"}``: the staff gesture (the four corner pits held together, twice).
- ``{"op": "sync"}``: pull the board's finished games into the library (over the
  board's own USB link, as ``playboard sync --port PORT`` does).

Every action returns the new state. Errors a user can cause raise ValueError with
a message for the page; the firmware going away raises nothing here: the state says
so (``error``) and :meth:`alive` turns False.
"""
import contextlib
import shutil
import tempfile
import threading
import time

from playboard import pgn
from playboard.games.common import GAME_NAMES, GameError
from playboard.games.registry import new_game

from playboard_host.gestures import (PAD_BLACK_DRAW, PAD_BLACK_RESIGN, PAD_WHITE_DRAW, PAD_WHITE_RESIGN,
                                     new_board_game, physical_actions, press_pad,
                                     press_sensor, staff_gesture)
from playboard_host.leds import LED_NAMES, display_colours, led_name, legend as led_legend
from playboard_host.match import top_level
from playboard_host.simboard import SimBoard, SimError
from playboard_host.websim.model import Pieces, layout_data
from playboard_host.words import (about, capture_hint, event_words, plural, refusal_words, game_over_words,
                                  staff_words,
                                  sides, tobit_refusal_words)
from playboard.board.layout import load_layout

BOARD_DEF = "sim-takeback"  # the simulated board with a takeback button (firmware/boards)
MODES = {"two": "two", "white": "white", "black": "black", "demo": "demo", "engine": "white"}
TICK_S = 0.025
ACTION_MS = 150  # virtual ms the board runs after each action of the page
MAX_EVENTS = 60
SOWN_VIEW_MS = 2500  # a mancala move's sowing view lasts at least this long after the move (confirm_ms)
VIEW_MS = 2600  # a mancala move's or engine move's view (about 2.5 s) and a margin: a refusal
# because one was showing no longer applies after it (mancala_tracker WHY 4, 5)


class SessionError(Exception):
    """The simulated board could not be started (no MicroPython, the firmware failed)."""


class Session:
    """The board behind the page. ``hub``: where states are published (or None);
    ``game``/``mode``/``level``: the first game; ``pump``: keep the board's clock
    running in a thread (False: the caller advances with :meth:`advance`, for tests);
    ``board``: a started SimBoard to use instead of starting one (``board_def``: the
    board definition to start, default sim-takeback: the takeback button); ``heap``: the
    firmware's MicroPython heap (None: the model's, the RP2040's); ``flash_dir``: the
    board's flash folder (kept: its games survive; None: a temporary folder removed
    on :meth:`close`); ``library``: the library file the page's "sync" fills (None:
    ``playboard_host.library.default_path()``); ``board_id``: the id its link's hello
    gives (None: "sim"; each board of a hall needs its own)."""

    def __init__(self, hub=None, game="toguz", mode="two", level=3, pump=True, flash_dir=None, board=None,
                 heap=None, library=None, board_id=None, board_def=BOARD_DEF):
        self.hub = hub
        self.library = library
        self.sync_text = ""
        self.lock = threading.RLock()
        self._tmp = None
        if flash_dir is None:
            self._tmp = tempfile.mkdtemp(prefix="playboard-sim-")
            flash_dir = self._tmp
        self.flash_dir = flash_dir
        self._layout_data = layout_data()
        self.layouts = {g: load_layout(g, data=None) for g in GAME_NAMES}
        self.version = 0
        self.events_text = []
        self.error = None
        self.note = ""
        self.engine = {"state": "idle", "text": "idle"}
        self.game_name = game
        self.mode = "two"
        self.level = level
        self.app_state = "menu"
        self.game = new_game(game)
        self.pieces = Pieces()
        self.leds = []
        self.sensors = []
        self.result = "*"
        self.termination = None
        self.engine_move = None
        self.game_id = None  # the board's id of the game on show (its record), from its event
        self.resumed = False  # the board resumed a game at power-up (its ``resumed`` event)
        self.engine_cell = None  # mancala: the pit of the engine's move on show, to be sown by hand
        self.sown = None  # mancala: (cell, board ms) of the player's last move, while it may be on show
        self.menu_choice = None
        self.staff_note = ""  # the staff menu's last answer (its ``staff`` events)
        self.pairing = None  # a tournament's pairing the board keeps (its status's tags), or None
        self.ready = 0  # which sides confirmed it (bits: 1 White, 2 Black)
        self.pairing_game = game  # the game it is for (the board's choice)
        self.closed = None  # outside the opening hours: what the status says (docs/museum.md), or None
        self.refusal = ""  # the last refusal in words (what happened. What to do), until the next move
        self.correction = False  # Tobit: the board asked for a correction (until resolved)
        self.correction_why = ""  # Tobit: why, in words (the correction event's reason), or ""
        self.refusal_until = None  # the board's ms when a refusal bound to a view stops applying
        self.board_ms = 0  # the board's clock at the last advance
        self._dead = None
        self._stop = threading.Event()
        try:
            if board is None:
                board = SimBoard(heap=heap) if heap else SimBoard()
                board.start(board_def, fs_dir=flash_dir, think="nodes", board_id=board_id)
            self.board = board
            self.buttons = board_buttons(getattr(board, "_args", {}).get("board_def", board_def))
            for _ in range(80):  # a hall board's first power-up: its calibration, the board clear
                if "check" not in board.status():
                    break
                board.advance(1000)
            self._poll()
            if not self.resumed:  # a game resumed from the flash (a power cut, a Ctrl-C) goes on
                self.new(game, mode, level)
        except SimError as e:
            self.close()
            raise SessionError("the simulated board did not start: %s" % e)
        self._thread = None
        if pump:
            self._thread = threading.Thread(target=self._pump, daemon=True)
            self._thread.start()

    # --- life ------------------------------------------------------------------------
    def alive(self):
        """True while the firmware runs."""
        return self._dead is None

    def failure(self):
        """Why the board stopped (text), or None."""
        return self._dead

    def close(self):
        """Stop the clock thread and the firmware; remove the temporary flash."""
        self._stop.set()
        t = getattr(self, "_thread", None)
        if t is not None and t is not threading.current_thread():
            t.join(2)
        b = getattr(self, "board", None)
        if b is not None:
            try:
                b.stop()
            except (SimError, OSError):
                pass
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    @contextlib.contextmanager
    def clock_running(self):
        """Within it the board's clock runs on the wall clock (as ``pump``) when the
        caller drives it otherwise (``pump=False``): what answers the USB link (the
        page's sync, a ``live`` follower) while a script advances board time itself."""
        if self._thread is not None:
            yield
            return
        stop = threading.Event()
        self._thread = threading.Thread(target=self._pump, args=(stop,), daemon=True)
        self._thread.start()
        try:
            yield
        finally:
            stop.set()
            self._thread.join(2)
            self._thread = None

    def _pump(self, stop=None):
        stop = stop or self._stop
        last = time.monotonic()
        while not stop.is_set() and not self._stop.is_set():
            time.sleep(TICK_S)
            now = time.monotonic()
            ms = int(min(now - last, 0.2) * 1000)
            last = now
            if ms <= 0:
                continue
            try:
                with self.lock:
                    self.advance(ms)
            except SimError as e:
                if not self.board.alive():
                    self._died(e)
                    return
                self.error = "the board refused: %s" % e
            except Exception as e:  # a bug here must not stop the board's clock
                import traceback
                traceback.print_exc()
                self.error = "%s: %s" % (type(e).__name__, e)

    def _died(self, e):
        self._dead = str(e)
        self.error = "the simulated board stopped: %s" % e
        self._publish()

    # --- the board's clock, events and LEDs ------------------------------------------------
    def advance(self, ms):
        """Run the firmware ``ms`` virtual ms, then take its events and LEDs and publish."""
        with self.lock:
            t = self.board.advance(ms)
            if isinstance(t, int):
                self.board_ms = t
            self._poll()

    def _poll(self):
        changed = False
        if self.refusal_until is not None and self.board_ms >= self.refusal_until:
            # the view the refusal was about has ended: its words no longer apply
            self.refusal, self.refusal_until = "", None
            changed = True
        for ev in self.board.events():
            self._event(ev)
            changed = True
        leds = self.board.leds()
        if leds != self.leds:
            self.leds = leds
            changed = True
        sensors = self.board.sensors()
        if sensors != self.sensors:
            self.sensors = sensors
            changed = True
        if changed:
            self._publish()

    def _event(self, ev):
        kind = ev.get("ev")
        g = self.game
        line = event_words(ev, self.game_name, g.turn)  # (the side to move before the event)
        if kind in ("move", "undo", "game", "resumed", "menu", "over", "resolved") or (
                kind == "place" and not self.game_name.startswith("tobit")):
            # a refusal's words stay only while they apply: until the board matches or
            # moves on, or (mancala) the next touch of a pit, which may be refused anew
            self.refusal = ""
            self.refusal_until = None
            self.correction = False
            self.correction_why = ""
        if kind == "error":
            what, do = refusal_words(ev.get("why"), self.game_name, ev.get("cell"), g.turn)
            self.refusal = "Refused: %s. What to do: %s." % (what, do)
            # refused because a view is showing (mancala_tracker WHY 4, 5: about 2.5 s):
            # the words go when it ends
            t = ev.get("t")
            self.refusal_until = t + VIEW_MS if ev.get("why") in (4, 5) and isinstance(t, int) else None
        elif kind == "correction":
            self.correction = True
            said = tobit_refusal_words(ev, g.turn) if self.game_name.startswith("tobit") else None
            self.correction_why = "Refused: %s. What to do: %s." % said if said else ""
        elif kind == "stopped":
            self.refusal = "The engine stopped thinking: your move was taken back. Play again."
        if kind in ("game", "resumed"):
            self.resumed = kind == "resumed"
            self.game_id = ev.get("id")
            self.game_name = ev.get("game", self.game_name)
            self.game = new_game(self.game_name, ev.get("fen"))
            if self.resumed:  # with its moves from the board's record (the page lists them)
                self.game = self._kept_moves(ev) or self.game
            self.mode = ev.get("mode", self.mode)
            self.level = ev.get("level", self.level)
            self.result, self.termination = "*", None
            self.engine = {"state": "idle", "text": "idle"}
            self.engine_move = None
            self.app_state = "play"
            if self.game_name.startswith("tobit"):
                self.pieces = Pieces()
        elif kind == "setup":
            self.app_state = "play" if ev.get("done") else "setup"
            self.note = "" if ev.get("done") else "set up the pieces where the LEDs show"
        elif kind == "move":
            shown = None  # mancala: the engine's move, played at once and shown until made
            origin = None  # mancala: the pit played (its cell)
            if not self.game_name.startswith("tobit") and ev.get("move") != "pass":
                try:
                    origin = g.turn * g.n_pits + g.parse_move(ev["move"])
                except (GameError, ValueError):
                    origin = None
            if self.engine.get("state") == "move" and ev.get("move") == self.engine_move:
                shown = origin
            # a player's move: its sowing view is on for 2.5 s at least (touching its
            # pit again then takes it back: docs/player.md, why 4)
            self.sown = (origin, ev.get("t")) if shown is None and origin is not None \
                and isinstance(ev.get("t"), int) else None
            try:
                g.push_text(ev["move"])
            except GameError as e:  # the host's copy is lost: take the board's position
                self.game = new_game(self.game_name, ev.get("fen"))
                self.note = "resynchronised with the board (%s)" % e
            if self.game_name.startswith("tobit"):
                self.pieces.after_move(self.game)
            self.engine_cell = shown
            if shown is None:
                self.engine_move = None
                if self.engine.get("state") == "move":
                    self.engine = {"state": "idle", "text": "idle"}
        elif kind == "lift" and self.engine_cell is not None and ev.get("cell") == self.engine_cell:
            self._engine_made()  # its pit lifted: the engine's move is being made
        elif kind == "undo":
            if g.ply:
                g.pop()
                if self.game_name.startswith("tobit"):
                    self.pieces.after_move(g)
        elif kind == "thinking":
            self.engine = {"state": "thinking", "text": "thinking (level %s) ..." % ev.get("level", self.level)}
        elif kind == "engine":
            self.engine_move = ev.get("move")
            depth = ev.get("depth")
            self.engine = {"state": "move", "text": "plays %s (looked %s ahead): make it on the board"
                           % (ev.get("move"), plural(depth, "ply") if isinstance(depth, int) else "?"),
                           "move": ev.get("move"), "depth": ev.get("depth"), "nodes": ev.get("nodes")}
        elif kind == "over":
            self.result = ev.get("result", "*")
            self.termination = ev.get("termination")
            self.app_state = "over"
            self.engine = {"state": "idle", "text": "idle"}
        elif kind == "hours":  # the board closed (dark, idle) or opened by its opening hours
            self.closed = None if ev.get("open", True) else closed_words(ev.get("hours"))
        elif kind == "ready":  # a side confirmed the pairing kept (firmware app.ui.ready_press)
            r = ev.get("ready")
            self.ready = r if isinstance(r, int) else 0
        if kind in ("undo", "over", "game", "resumed", "menu"):
            self.sown = None
        if self.engine_cell is not None and kind in ("undo", "over", "game", "resumed", "menu"):
            self._engine_made()
        if kind in ("pairing", "game", "resumed"):  # a pairing sent (a hall, tournament send), or taken
            self._read_pairing()
        if kind == "menu":
            self.app_state = "menu"
            self.menu_choice = {k: ev.get(k) for k in ("game", "mode", "level")}
            self.menu_choice.update(self._offered(ev.get("game")))
            self.note = ""
            self.engine = {"state": "idle", "text": "idle"}
        elif kind == "staff":  # the staff menu (firmware app.staff, docs/museum.md)
            if ev.get("open"):
                self.app_state = "staff"
                self.staff_note = ""
            else:
                self.staff_note = staff_words(ev)
        if line:
            self.events_text.append(line)
            del self.events_text[:-MAX_EVENTS]

    def _offered(self, game):
        """What the board's menu offers (firmware ``app.ui.offered``), from its settings
        (the bridge's status): ``games``, ``modes`` (lists, as the menu's pits order
        them) and ``top`` (the highest level of ``game``); a locked (museum) menu only
        its settings' ``games``, ``modes`` and levels up to ``max_level``."""
        from playboard.app.state import GAMES, MODES, top_level as game_top
        s = self.board.status().get("settings") or {}
        top = game_top(game, {})
        if not s.get("locked"):
            return {"games": list(GAMES), "modes": list(MODES), "top": top}
        return {"games": [g for g in GAMES if g in s.get("games", GAMES)],
                "modes": [m for m in MODES if m in s.get("modes", MODES)],
                "top": min(top, s.get("max_level", top))}

    def _engine_made(self):
        """Mancala: the engine's move on show is made (its pit lifted), or no longer
        applies: the engine's panel goes idle."""
        self.engine_cell = None
        self.engine_move = None
        self.engine = {"state": "idle", "text": "idle"}

    def _read_pairing(self):
        """Take the pairing the board keeps, and who is ready, from its status."""
        st = self.board.status()
        self.pairing = st.get("pairing") or None
        self.ready = st.get("ready", 0) if self.pairing else 0
        self.pairing_game = st.get("game") or self.game_name

    def pairing_state(self):
        """The pairing the board keeps for the page (None without one): dict ``tags``
        (Event, Round, White, Black), ``ready`` (bits), ``line`` ("Spring, round 1.1: Aru:
        White, South (white lights) - Bek: Black, North (blue lights)") and ``waiting``
        ("waiting for Bek (Black)"; tournament.results)."""
        from playboard_host.tournament.results import sides_text, waiting_text
        t = self.pairing
        if not t:
            return None
        w, b = t.get("White", "White"), t.get("Black", "Black")
        return {"tags": dict(t), "ready": self.ready, "waiting": waiting_text(w, b, self.ready),
                "line": "%s, round %s: %s" % (t.get("Event", "?"), t.get("Round", "?"),
                                              sides_text(self.pairing_game, w, b))}

    def _publish(self):
        self.version += 1
        if self.hub is not None:
            self.hub.publish(self.state())

    # --- what the page reads ------------------------------------------------------------------
    def layout_data(self):
        """The layout data for drawing (see websim.model.layout_data)."""
        return self._layout_data

    def state(self):
        """The page's state: dict with ``version``, ``game``, ``mode``, ``level``,
        ``app_state``, ``turn``, ``ply``, ``result``, ``termination``, ``moves`` (texts),
        ``leds`` (hex "rrggbb" per LED, as they glow), ``pieces`` (point -> w b W B),
        ``hand``, ``counts`` (mancala ``pos``: pits, then kazans / captures), ``tuzdyks``
        (cells), ``engine`` (``state``: idle, thinking, move; ``text``), ``legend``
        ([hex, name, meaning, lit] of every colour the game and state can show: steady),
        ``result_text`` (who won, the score, why), ``about`` (the game and how to win),
        ``sides``, ``events`` (text lines in players' terms), ``note``, ``error``,
        ``port`` (the board's serial port), ``flash``, ``library``, ``synced``, ``pairing``
        (:meth:`pairing_state`: the tournament's pairing the board keeps, or None)."""
        with self.lock:
            g = self.game
            leds = self.leds or []
            glow = display_colours(leds)
            hexes = ["%02x%02x%02x" % c for c in glow]
            legend = led_legend(self.game_name, self.app_state, leds)
            st = {
                "version": self.version, "game": self.game_name, "mode": self.mode, "level": self.level,
                "app_state": self.app_state, "turn": g.turn, "ply": g.ply,
                "result": self.result, "termination": self.termination,
                "result_text": game_over_words(self.game_name, self.result, self.termination, g),
                "about": about(self.game_name), "sides": list(sides(self.game_name)),
                "moves": self._move_texts(), "leds": hexes, "legend": legend,
                "events": list(self.events_text), "engine": dict(self.engine),
                "note": self.note, "error": self.error, "alive": self.alive(),
                # the cells to draw: the menu lives on the Toguz Kumalak pits
                "draw": "toguz" if self.app_state in ("menu", "staff") else self.game_name,
                "menu": self.menu_choice if self.app_state == "menu" else None,
                "staff": self.staff_note if self.app_state == "staff" else None,
                "port": getattr(self.board, "port", None), "flash": self.flash_dir,
                "library": self.library_path(), "synced": self.sync_text,
                "pairing": self.pairing_state(), "closed": self.closed,
            }
            if self.game_name.startswith("tobit"):
                # a piece is drawn where the sensors say: in the colour the table has it,
                # or as "?" where a sensor reads a piece the table does not know
                on = self.pieces.symbols()
                pieces = {}
                tlay = self.layouts[self.game_name]
                for p in range(1, g.n_points + 1):
                    sen = tlay.sensor_of(p)
                    if 0 <= sen < len(self.sensors) and self.sensors[sen]:
                        pieces[str(p)] = on.get(p, "?")
                st["pieces"] = pieces
                st["hand"] = [s for s, _ in self.pieces.hand]
                st["hint"] = self._tobit_hint(leds, pieces)
                st["counts"] = None
                st["tuzdyks"] = []
            else:
                n = 2 * g.n_pits + 2
                st["pieces"] = {}
                st["hand"] = []
                st["hint"] = self.refusal if self.app_state == "play" else ""
                st["counts"] = list(g.pos[:n])
                st["tuzdyks"] = [t for t in (g.tuzdyk_of(0), g.tuzdyk_of(1)) if t is not None] \
                    if self.game_name == "toguz" else []
            return st

    def _tobit_hint(self, leds, pieces):
        """Plain words for the Tobit player now (RULES.md 2.7, 2.8): a lifted man that may
        not move because a capture is compulsory elsewhere, the captured men to take
        off (the points lit in the capture colour where a piece still stands), or the
        board in correction: what to put back where and what to take off."""
        if self.app_state != "play":
            return ""
        g = self.game
        tlay = self.layouts[self.game_name]
        for sym, frm in self.pieces.hand:  # the board's pieces are still as before the move
            hint = capture_hint(g, frm)
            if hint:
                return hint
        take = []
        for p in range(1, g.n_points + 1):
            led = tlay.led_of(p)
            if str(p) in pieces and 0 <= led < len(leds) and (leds[led][0] or leds[led][1] or leds[led][2]):
                nm = led_name(leds[led])
                if nm and nm[2] == "capture, take off":
                    take.append(p)
        if take:
            return "Captured: take the piece%s on point%s %s off the board" % (
                "" if len(take) == 1 else "s", "" if len(take) == 1 else "s", ", ".join(map(str, take)))
        if self.correction:
            board = self._correction_hint(pieces)
            if self.correction_why:
                return self.correction_why + (" " + board if board else "")
            return board or self.refusal
        return self.refusal

    def _correction_hint(self, pieces):
        """Tobit in correction: the pieces to put back and to take off, in words (the
        board lights the same points: mint to put a piece there, red to take it off)."""
        g = self.game
        want = Pieces(g).symbols()
        put = [(p, want[p]) for p in sorted(want) if str(p) not in pieces]
        off = [p for p in range(1, g.n_points + 1) if str(p) in pieces and p not in want]
        names = {"w": "White's man", "b": "Black's man", "W": "White's tobit", "B": "Black's tobit"}
        parts = ["put %s back on point %d" % (names.get(sym, "a piece"), p) for p, sym in put]
        if off:
            parts.append("take the piece%s off point%s %s" % ("" if len(off) == 1 else "s",
                                                              "" if len(off) == 1 else "s",
                                                              ", ".join(map(str, off))))
        if not parts:
            return ""
        return ("The board differs from the game: %s (the LEDs show the same: mint, put a piece there; red, "
                "take it off). Nothing is played until it matches." % "; ".join(parts))

    def _move_texts(self):
        g = self.game.copy()
        moves = []
        while g.ply:
            m = g.pop()
            moves.append(g.move_text(m))
        moves.reverse()
        return moves

    def _kept_moves(self, ev):
        """The game the board resumed (its ``resumed`` event: id, game, fen) replayed from
        its record on the flash folder, so that the page shows its moves; None when the
        record is missing or does not reach the event's position (the page then starts
        from that position, with no moves listed)."""
        from playboard_host.boardflash import kept_game

        try:
            rec = kept_game(self.flash_dir, ev.get("id"))
            if rec is None or rec.name != self.game_name:
                return None
            g = new_game(self.game_name, rec.fen)
            for m in rec.moves:
                g.push_text(m)
        except (OSError, ValueError, TypeError, GameError):
            return None
        return g if g.fen() == ev.get("fen") else None

    def record_text(self):
        """The current game as a PGN-style record: the board's record of it (its flash
        folder, as the board keeps it) written by ``playboard export``'s own exporter
        (``export.board_record_pgn``), so the page's Export record is what export gives
        once synced. A game the board keeps no record of (none begun): the page's own
        copy (tags: Game, Event, Site, Date, White, Black, Result, Termination, Mode,
        Level; FEN for a set-up position)."""
        from playboard_host.boardflash import kept_game
        from playboard_host.export import board_record_pgn

        with self.lock:
            gid = self.game_id
            rec = None
            if gid:
                try:
                    rec = kept_game(self.flash_dir, gid)
                except (OSError, ValueError):
                    rec = None
            if rec is not None and rec.name == self.game_name:
                board_id = getattr(self.board, "_args", {}).get("board_id") or "sim"
                return board_record_pgn(board_id, rec)
            g = self.game
            engine = "Playboard engine L%d" % self.level
            white = engine if self.mode == "black" else "Player"
            black = engine if self.mode == "white" else "Player"
            if self.mode == "two":
                white, black = "White player", "Black player"
            tags = {"Event": "Playboard simulator game", "Site": "playboard sim",
                    "Date": time.strftime("%Y.%m.%d"), "White": white, "Black": black,
                    "Result": self.result, "Game": self.game_name}
            if g.root_fen != new_game(self.game_name).fen():
                tags["FEN"] = g.root_fen
            if self.termination:
                tags["Termination"] = self.termination
            tags["Mode"] = self.mode
            tags["Level"] = str(self.level)
            first = new_game(self.game_name, g.root_fen)
            return pgn.format_game(tags, self._move_texts(), self.result, first.turn,
                                   getattr(first, "fullmove", 1))

    # --- actions ---------------------------------------------------------------------
    def act(self, body):
        """Do one page action (see the module text); return the new state.
        ValueError for an unknown action or one the position refuses."""
        op = body.get("op")
        if op == "sync":  # outside the lock: the board's clock must run while it answers
            self.sync_games()
            return self.state()
        with self.lock:
            if self._dead:
                raise ValueError("the simulated board stopped: %s" % self._dead)
            self.error = None
            try:
                if op == "new":
                    self.new(body.get("game", self.game_name), body.get("mode", "two"),
                             body.get("level", self.level))
                elif op == "click":
                    self.click(_cell(body))
                elif op == "setup":
                    self.setup()
                elif op == "putback":
                    for p in self.pieces.put_back():
                        self.board.place(p)
                elif op == "engine_move":
                    self.make_engine_move()
                elif op == "menu":
                    self.open_menu()
                elif op == "takeback":
                    self.takeback()
                elif op == "press":
                    self.long_press(_cell(body))
                elif op == "staff":
                    self.staff()
                elif op == "resign":
                    self.resign()
                elif op == "draw":
                    self.agree_draw()
                elif op in ("lift", "place", "tap"):
                    getattr(self.board, op)(_cell(body))
                else:
                    raise ValueError("unknown action %r" % (op,))
                # a hand needs this long between two touches; the sensors' debounce
                # (40 ms) must see each one
                self.board.advance(ACTION_MS)
                self._poll()
            except SimError as e:
                if not self.board.alive():
                    self._died(e)
                raise ValueError("the board refused: %s" % e)
            self._publish()
            return self.state()

    def library_path(self):
        """The library file the page's sync fills."""
        from playboard_host.library import default_path

        return self.library or default_path()

    def sync_games(self, timeout=5.0):
        """Pull the board's finished games into the library over the board's USB link
        (its pseudo-terminal), acknowledging each once stored; returns (new, already
        stored). Needs the board's clock running (``pump``). ValueError with one line
        if the library or the link fails."""
        from playboard_host.commands.sync import sync, sync_health
        from playboard_host.library import Library, LibraryError
        from playboard_host.serial_link import BoardLink, LinkError, open_port

        if self._thread is None:
            raise ValueError("the board's clock is not running (a test session): nothing answers the link")
        try:
            lib = Library(self.library_path())
        except LibraryError as e:
            raise ValueError(str(e))
        try:
            port = open_port(self.board.port)
            try:
                link = BoardLink(port, timeout=timeout, alive=self.board.alive)  # (answers late when loaded)
                hello = link.hello()
                board_id = hello["board"]
                new, old = sync(link, board_id, lib, progress=False)
                sync_health(link, board_id, lib, hello.get("fw"))  # its health counters too
            finally:
                port.close()
        except LinkError as e:
            raise ValueError("sync: %s" % e)
        finally:
            lib.close()
        with self.lock:
            self.sync_text = "%d new game%s synced into %s%s" % (
                new, "" if new == 1 else "s", lib.path, " (%d already there)" % old if old else "")
            self._publish()
        return new, old

    def new(self, game, mode="two", level=3):
        """Start ``game`` (a GAME_NAMES name) in ``mode`` at ``level`` on the board."""
        if game not in GAME_NAMES:
            raise ValueError("unknown game %r (one of %s)" % (game, ", ".join(GAME_NAMES)))
        if mode not in MODES:
            raise ValueError("unknown mode %r (two, white, black, demo)" % (mode,))
        top = top_level(game)  # 9, Tobit's 11
        try:
            level = int(level)
        except (TypeError, ValueError):
            raise ValueError("level must be a number 1..%d" % top)
        if not 1 <= level <= top:
            raise ValueError("level must be 1..%d for %s, not %d" % (top, game, level))
        with self.lock:
            # take every piece off the old game's area first: the board starts from an empty table
            self._clear_table()
            self.game_name = game
            self.game = new_game(game)
            self.mode = MODES[mode]
            self.level = level
            self.events_text = []
            self.note = ""
            new_board_game(self.board, game, self.mode, level)
            self._poll()

    def _clear_table(self):
        """Take every Tobit piece off the board and let the sensors settle (a new game,
        or the menu, takes the sensors as its rest values: pieces lifted later would
        read as pads pressed)."""
        if self.game_name.startswith("tobit") and self.pieces.on:
            for p in list(self.pieces.on):
                self.board.lift(p)
            self.board.advance(300)
            self._poll()
        self.pieces = Pieces()

    def open_menu(self):
        """The board's own menu (docs/app.md): the game, mode and level chosen on the
        Toguz Kumalak pits, START on North's pit 9."""
        self._clear_table()
        self.board.menu()

    def menu_tap(self, cell):
        """Press Toguz Kumalak pit ``cell`` (0..17) as a menu pad: deliberately (held
        past the fill, then let go: docs/app.md "Deliberate presses")."""
        sen = self.layouts["toguz"].sensor_of(cell)
        press_sensor(self.board, sen, 0 if self.sensors and self.sensors[sen] else 1)

    def setup(self):
        """Stand every piece of the game's position on its point (Tobit)."""
        if not self.game_name.startswith("tobit"):
            raise ValueError("only the Tobit games set up pieces")
        want = Pieces(self.game)
        for p, sym in want.on.items():
            if p not in self.pieces.on:
                self.pieces.on[p] = sym
                self.board.place(p)
        for p in list(self.pieces.on):
            if p not in want.on:
                del self.pieces.on[p]
                self.board.lift(p)
        self.pieces.hand = []

    def click(self, cell):
        """The user's click or touch on ``cell`` (see the module text). ValueError on a
        board closed by its opening hours (a touch wakes nothing: the hint says so)."""
        if self.closed:
            raise ValueError("%s: a touch wakes nothing until then" % self.closed)
        if self.app_state in ("menu", "staff") or (self.app_state == "over" and self.pairing):
            # (a finished game's result with a pairing kept: the status asks for a
            # deliberate press on a pit of each side's row, as in the ready view)
            if not 0 <= cell < 18:
                where = {"menu": "menu", "staff": "staff menu"}.get(
                    self.app_state, "pairing's ready view")
                raise ValueError("the %s is on the Toguz Kumalak pits (cells 0..17)" % where)
            self.menu_tap(cell)
            return
        lay = self.layouts[self.game_name]
        try:
            if lay.sensor_of(cell) < 0:
                raise IndexError
        except IndexError:
            raise ValueError("cell %d of %s has no sensor to touch" % (cell, self.game_name))
        if not self.game_name.startswith("tobit"):
            sown = self.sown
            if (sown is not None and sown[0] == cell and self.app_state == "play"
                    and self.board_ms - sown[1] < SOWN_VIEW_MS and cell // self.game.n_pits != self.game.turn
                    and (self.buttons or {}).get("takeback") is not None):
                # the sown pit touched again while its view is on: the move is taken back
                # (docs/player.md, why 4). A click is a touch and a let-go, which a lift
                # board reads as the balls put back and lifted again (the move made
                # again): the page takes it back as the board's takeback button does
                self.sown = None
                self.takeback()
                return
            self.board.tap(cell)
            return
        if cell in self.pieces.on:
            self.pieces.lift(cell)
            self.board.lift(cell)
            return
        if not self.pieces.hand:
            # a piece from beside the board: set-up, or one the game has there and the
            # board lacks (a captured piece put back for a takeback, a piece knocked off)
            sym = Pieces(self.game).on.get(cell)
            if sym is None and self.app_state == "play" and self.game.ply:
                prev = self.game.copy()  # a takeback: the previous position's pieces come back
                prev.pop()
                sym = Pieces(prev).on.get(cell)
            if sym is None:
                if self.app_state == "setup":
                    raise ValueError("no piece stands on point %d at the start" % cell)
                raise ValueError("nothing in the hand: lift a piece first (the game has no piece on point %d "
                                 "to put back)" % cell)
            self.pieces.on[cell] = sym
            self.board.place(cell)
            return
        self.pieces.place(cell, self.game.turn)
        self.board.place(cell)

    def takeback(self):
        """Take the last move back as a player does on the board (docs/app.md "Takeback"):
        Tobit, the previous position put back by hand (the moved piece back, the captured
        ones back from beside the board); Toguz Kumalak and Tihbat, the board's takeback
        button (its board definition's ``buttons.takeback``). ValueError when there is no
        move to take back or the board has no takeback button."""
        if self.app_state != "play" or not self.game.ply:
            raise ValueError("no move to take back")
        if not self.game_name.startswith("tobit"):
            sen = (self.buttons or {}).get("takeback")
            if sen is None:
                raise ValueError("this board has no takeback button (a board definition with "
                                 "\"buttons\": {\"takeback\": N}, e.g. sim-takeback)")
            self.board.set_sensor(sen, 1)  # a real button: it acts at once
            self.board.advance(100)
            self.board.set_sensor(sen, 0)
            return
        prev = self.game.copy()
        prev.pop()
        self._put_back(prev)
        side = None if self.mode == "two" else (0 if self.mode == "white" else 1)
        if side is not None and prev.ply and prev.turn != side:
            # against the engine the player takes their own move back: the engine's
            # answer first, seen (the board waits 2.5 s before the engine answers again:
            # docs/app.md "Takeback"), then their move
            self.board.advance(600)
            prev.pop()
            self._put_back(prev)

    def _put_back(self, prev):
        """Make the pieces on the board those of position ``prev`` (a Tobit game) as a
        player does: lift what it has not, then put back what it has."""
        want = Pieces(prev).on
        self.pieces.put_back()
        for p in range(1, prev.n_points + 1):  # lift what the previous position has not
            if p not in want and p in self.pieces.on:
                self.pieces.lift(p)
                self.board.lift(p)
                self.board.advance(60)
        for p in sorted(want):  # then put back what it has: the moved piece, the captured ones
            if p in self.pieces.on and self.pieces.on[p] != want[p]:  # the other side's piece there
                self.pieces.lift(p)
                self.board.lift(p)
                self.board.advance(60)
            if p not in self.pieces.on:
                self.pieces.hand = []
                self.pieces.on[p] = want[p]
                self.board.place(p)
                self.board.advance(60)
        self.pieces.hand = []

    def long_press(self, cell):
        """A long press (a deliberate press, docs/app.md "Deliberate presses": held past
        its fill, then let go) on ``cell`` of the game drawn: in the menu and the result
        a Toguz Kumalak pit (the result: back to the menu), else the cell's sensor."""
        game = "toguz" if self.app_state in ("menu", "over", "staff") else self.game_name
        lay = self.layouts[game]
        try:
            sen = lay.sensor_of(cell)
        except IndexError:
            sen = -1
        if sen < 0:
            raise ValueError("cell %d of %s has no sensor to press" % (cell, game))
        press_sensor(self.board, sen, 0 if self.sensors and self.sensors[sen] else 1)

    def staff(self):
        """The staff gesture (docs/museum.md): the four corner pits of Toguz Kumalak held
        together 3 s, twice; the staff menu opens (from the menu or a game's result)."""
        self._clear_table()
        staff_gesture(self.board)

    def resign(self):
        """The player resigns on the board's pads (pressed twice): in two-player mode the
        side to move, against the engine the player's side."""
        if self.app_state not in ("play", "setup"):
            raise ValueError("no game is being played")
        side = self.game.turn if self.mode == "two" else (0 if self.mode == "white" else 1)
        for _ in range(2):
            press_pad(self.board, self.game_name, PAD_WHITE_RESIGN if side == 0 else PAD_BLACK_RESIGN)

    def agree_draw(self):
        """Both players agree a draw: White's draw pad, then Black's (two-player mode)."""
        if self.app_state not in ("play", "setup"):
            raise ValueError("no game is being played")
        if self.mode != "two":
            raise ValueError("the engine does not agree draws: play on, or resign")
        press_pad(self.board, self.game_name, PAD_WHITE_DRAW)
        press_pad(self.board, self.game_name, PAD_BLACK_DRAW)

    def make_engine_move(self):
        """Make on the board the move the board shows for the engine."""
        text = self.engine_move
        if not text:
            raise ValueError("the engine has no move to make now")
        g = self.game
        if text == "pass":  # (Tihbat, 3.6) a forced pass: the board commits it by itself
            raise ValueError("the engine passes (its pits are empty): the board makes the pass itself, "
                             "nothing to do on the board")
        if not self.game_name.startswith("tobit"):
            if self.engine_cell is not None:  # (played on the board already: shown to be sown)
                self.board.tap(self.engine_cell)
            else:
                self.board.tap(g.turn * g.n_pits + int(text[0]) - 1)
            return
        try:
            m = g.parse_move(text)
        except GameError as e:
            raise ValueError("the engine's move %s: %s" % (text, e))
        self.pieces.put_back()
        for sensor_action, point in physical_actions(g, m):
            if sensor_action == "lift":
                self.pieces.lift(point)
                self.board.lift(point)
            else:
                self.pieces.place(point, g.turn)
                self.board.place(point)
            self.board.advance(60)


def closed_words(hours):
    """The status of a board closed by its opening hours ``hours`` ("HH:MM-HH:MM", the
    settings' ``hours``; None or "" if unknown)."""
    if hours and "-" in hours:
        return "Closed: outside the opening hours %s (the board's clock); it opens at %s" % (
            hours, hours.split("-")[0])
    return "Closed: outside the opening hours (the board's clock)"


def board_buttons(name):
    """The ``buttons`` of board definition ``name`` (firmware/boards; name -> sensor),
    or None."""
    from playboard.config import ConfigError, load_board

    try:
        return load_board(name).get("buttons")
    except (ConfigError, OSError, ValueError):
        return None


def _cell(body):
    try:
        return int(body["cell"])
    except (KeyError, TypeError, ValueError):
        raise ValueError("the action needs a cell number")


__all__ = ["Session", "SessionError", "physical_actions", "new_board_game", "LED_NAMES"]
