"""Whole-board fuzzing (issue 31): what people and hardware do to a board, at human and
inhuman timings, driven into the real firmware through ``SimBoard``, with invariants
checked after every step. Seeded: ``run(seed, frames)`` replays the same steps.

Steps (``STEPS``, each drawn with its weight): a lift, a place, a slide (off one
cell, onto the next 30-400 ms later), a bump (off and back 5-600 ms: the quick lifts
of a stir), contact bounce on every flip, chatter (a sensor flipping every 10-150 ms
for up to 3 s), a stuck sensor (held on or off 6-12 s, then let go), both hands at
once (two or three cells in one scan), a deliberate press of a pad or a menu pit,
the link (garbage bytes on the USB port, any but Ctrl-C, which stops the app by
design; then status and health requests), the menu,
a power cut (kill, then
switched on again on the same flash), settings changes (level, mode, game through
the control channel's ``game``), a mancala move made properly (its pit lifted past
``LIFT_MS``, its first ball back), an idle wait (up to 4 s); timings drawn from 0 ms
(inhuman: the same scan) to seconds. On lift-selection boards, one step in 200
(``LATE_SHARE``, drawn from ``late_rng``) is real play's late hands instead
(``playboard_host.fuzz_late``): a mancala game against the engine, its moves carried out
late, the last into the result, captures taken off after the next move is shown.

Invariants after every step (``Fuzz.check``): no exception left a frame (no
``crash`` event, no traceback on the firmware's stderr, no
refused ``adv``); the board's position is the rules core's replay of the game on its
flash (the game in play as the board keeps it, its file and the record's journal
(``boardflash.kept_game``): its moves replayed from its set-up position give the
status's fen); the LEDs are not all dark while a game is played
(the lights match a state that shows something); a takeback press against the engine
once it has answered leaves the player to move, the ply two lower (``_check_takeback``,
on the board definitions with a takeback button); the board answers (``status``)
within the control channel's timeout, and its link answers after garbage. At the end
of a run (``recovers``) the board is brought back to a normal game by an obvious
gesture (the pits left alone, a new game, a move: read). Frames: ``SimBoard.advance(ms)`` runs one a scan
period (10 ms on ``sim``).
"""
import random
import shutil

from playboard.board.layout import load_layout
from playboard.board.mancala_tracker import LIFT_MS
from playboard.games.registry import new_game

from playboard_host.boardflash import kept_game
from playboard_host.simboard import SimError

GAMES = ("toguz", "tihbat", "tobit", "tobit4")
MODES = ("two", "white", "black", "demo")
FRAME_MS = 10  # the sim board's scan period (100 Hz)
_JUNK = [x for x in range(256) if x != 3]  # garbage on the link: any byte but Ctrl-C
LATE_SHARE = 0.005  # the steps that begin a late hands' game (lift-selection boards)


class FuzzFailure(AssertionError):
    """An invariant broken: the message names the seed, the step and what was seen."""


class Fuzz:
    """One fuzzed board: ``Fuzz(board_factory, seed, folder).run(frames)``.

    board_factory: a function giving a new, not started ``SimBoard``; folder: the flash
    folder (made anew). ``frames``: how many scan frames (virtual ms / 10) to run.
    Counts: ``frames``, ``steps``, ``faults`` (contained exceptions seen: an invariant
    failure too), ``inconsistent`` (position differing from the record's replay),
    ``unanswered`` (status requests that got no answer), ``takebacks`` (takeback presses
against the engine once it had answered, checked: the player to move, two plies gone),
``wrong_takebacks`` (of those, the ones that were not), ``late_results``,
``late_captures`` and ``late_wrong`` (the late hands', ``playboard_host.fuzz_late``).
    """

    def __init__(self, board_factory, seed, folder, board_def="sim"):
        self.rng = random.Random(seed)
        self.seed = seed
        self.folder = folder
        shutil.rmtree(folder, ignore_errors=True)
        self.b = board_factory()
        from playboard.sim.standin import load_stand_in
        self.cfg = cfg = load_stand_in(board_def)  # (a hardware board's too)
        self.layout = cfg.get("layout", "default")
        self.stylus = cfg.get("pit_select") == "stylus"  # a pit chosen by a touch
        self.takeback = cfg.get("buttons", {}).get("takeback", -1)  # its sensor, or -1
        self.b.start(board_def, fs_dir=folder, seed=seed)  # the engine's moves replay too
        self.frames = 0
        self.steps = 0
        self.log = []
        self.faults = self.inconsistent = self.unanswered = 0
        self.takebacks = 0  # takebacks against the engine checked (_check_takeback)
        self.wrong_takebacks = 0  # ... of which the invariant failed
        self.game = "toguz"
        # the locked board's requests (locked_requests) draw from a generator of their
        # own: the other steps are drawn as before
        self.lock_rng = random.Random(seed * 7919 + 1)
        self.refusals = 0  # requests outside a locked board's limits, refused as they must be
        self.locked_games = 0  # games begun within them, at a level within max_level
        # the late hands (playboard_host.fuzz_late) draw from a generator of their own too
        self.late_rng = random.Random(seed * 104729 + 3)
        self.late_results = 0  # engine's last moves carried out 1-2 s into the result
        self.late_captures = 0  # captures taken off after the next move was shown
        self.late_wrong = 0  # ... of those hands, misread by the board (a failure)

    def close(self):
        self.b.stop()

    # ---- time -------------------------------------------------------------------
    def adv(self, ms):
        ms = max(0, int(ms))
        self.b.advance(ms)
        self.frames += ms // FRAME_MS

    # ---- the steps -----------------------------------------------------------------
    def _cells(self):
        lay = load_layout(self.game, self.layout)
        lo = 1 if self.game.startswith("tobit") else 0  # (Tobit's points 1..N)
        return lay, [c for c in range(lo, lay.n_cells) if lay.sensor_of(c) >= 0]

    def _flip(self, s, v, bounce=True):
        r = self.rng
        if bounce:
            for _ in range(r.randint(0, 3)):
                self.b.set_sensor(s, v)
                self.adv(r.randint(1, 5))
                self.b.set_sensor(s, 1 - v if v in (0, 1) else 0)
                self.adv(r.randint(1, 5))
        self.b.set_sensor(s, v)

    def step(self):
        if not self.stylus and self.late_rng.random() < LATE_SHARE:
            self.late_game()
            self.steps += 1
            return
        r = self.rng
        b = self.b
        lay, cells = self._cells()
        sens = b.sensors()
        k = r.random()
        if k < 0.03:  # a new game, mode, level (settings changed)
            game = r.choice(GAMES)
            mode = r.choice(MODES)
            level = r.randint(1, 9)
            if not self._new_game(game, mode, level):
                return
            if self.game.startswith("tobit") and r.random() < 0.8:
                self.adv(r.randint(0, 300))
                b.set_up()
        elif k < 0.04:  # a power cut, switched on again
            self.log.append(("cut",))
            b.kill()
            b.restart()
        elif k < 0.05:  # the menu
            self.log.append(("menu",))
            b.menu()
        elif k < 0.07:  # the link: garbage, then requests (each must be answered)
            self.log.append(("link",))
            self.link_step()
        elif k < 0.30:  # lift / place / bump one cell (a stir, a brush)
            c = r.choice(cells)
            s = lay.sensor_of(c)
            v = 0 if sens[s] else 1
            hold = r.choice((r.randint(0, 60), r.randint(30, LIFT_MS), r.randint(LIFT_MS, 3000)))
            self.log.append(("bump", c, v, hold))
            self._flip(s, v)
            self.adv(hold)
            if r.random() < 0.7:
                self._flip(s, 1 - v)
        elif k < 0.40:  # both hands: two or three cells in one scan
            cs = r.sample(cells, min(len(cells), r.randint(2, 3)))
            self.log.append(("hands", cs))
            for c in cs:
                s = lay.sensor_of(c)
                b.set_sensor(s, 0 if sens[s] else 1)
            self.adv(r.randint(0, 900))
            if r.random() < 0.6:
                for c in cs:
                    s = lay.sensor_of(c)
                    b.set_sensor(s, sens[s])
        elif k < 0.47:  # a slide: off one cell, onto another
            a, c = r.sample(cells, 2)
            self.log.append(("slide", a, c))
            self._flip(lay.sensor_of(a), 0)
            self.adv(r.randint(30, 400))
            self._flip(lay.sensor_of(c), 1)
        elif k < 0.50:  # chatter: a weak magnet
            s = lay.sensor_of(r.choice(cells))
            per = r.randint(10, 150)
            n = r.randint(2, 3000 // per)
            self.log.append(("chatter", s, per, n))
            v0 = sens[s]
            for i in range(n):
                b.set_sensor(s, (v0 + i + 1) & 1)
                self.adv(per)
            b.set_sensor(s, v0)
        elif k < 0.52:  # a stuck sensor, then let go
            s = r.randrange(b.n_sensors)
            self.log.append(("stuck", s))
            v0 = sens[s]
            b.set_sensor(s, 1 - (v0 & 1))
            self.adv(r.randint(6000, 12000))
            b.set_sensor(s, v0)
        elif k < 0.60:  # a deliberate press of any sensor (a pad, a menu pit)
            s = r.randrange(b.n_sensors)
            self.log.append(("press", s))
            v0 = sens[s]
            self._flip(s, 1 - (v0 & 1))
            self.adv(r.randint(800, 1400))
            self._flip(s, v0)
        elif k < 0.64 and self.takeback >= 0:  # the takeback button: pressed, let go
            if r.random() < 0.5:  # (a game against the engine, a move, its answer first)
                self.answered_game()
            self.press_takeback()
        elif k < 0.80 and not self.game.startswith("tobit"):  # a proper mancala move
            self.sow(r.choice([x for x in cells if x < (18 if self.game == "toguz" else 4)]))
        else:  # waiting
            ms = r.choice((r.randint(0, 30), r.randint(100, 4000)))
            self.log.append(("wait", ms))
        self.adv(r.randint(0, 600))
        self.steps += 1

    def late_game(self):
        """A mancala game against the engine played on the pits with real play's late
        hands: its moves carried out 1-2 s after they are shown (the last one into the
        result), captures taken off after the next move is shown
        (``playboard_host.fuzz_late.engine_game``: its checks, its counts)."""
        from playboard_host import fuzz_late
        fuzz_late.engine_game(self)

    def _new_game(self, game, mode, level):
        """A new game begun over the board's link, logged; False (logged too) where the
        board refuses it while a check runs (a hall board's calibration), any other
        refusal raised (SimError)."""
        self.log.append(("game", game, mode, level))
        try:
            self.b.new_game(game, mode, level)
        except SimError as e:
            if "is running" not in str(e):
                raise
            self.log.append(("refused", str(e)))
            return False
        self.game = game
        return True

    def sow(self, c):
        """A mancala move made properly on cell ``c`` (any: it may be refused): on a
        stylus board the pit touched (on, held, off), else its balls lifted (held past
        ``LIFT_MS``) and the first put back."""
        r = self.rng
        lay, cells = self._cells()
        s = lay.sensor_of(c)
        self.log.append(("sow", c))
        if self.stylus:
            self._flip(s, 1)
            self.adv(r.randint(50, 400))
            self._flip(s, 0)
        else:
            if not self.b.sensors()[s]:
                self._flip(s, 1)
                self.adv(r.randint(50, 400))
            self._flip(s, 0)
            self.adv(r.randint(LIFT_MS + 50, 900))
            self._flip(s, 1)

    def press_takeback(self):
        """The takeback button pressed (bounce, held 60-700 ms) and let go; against the
        engine once it has answered, the invariant checked (``_check_takeback``)."""
        self.log.append(("takeback",))
        due = self._takeback_due()
        self._flip(self.takeback, 1)
        self.adv(self.rng.randint(60, 700))
        self._flip(self.takeback, 0)
        if due is not None:
            self._check_takeback(due)

    def answered_game(self):
        """What a player does before a takeback against the engine: a Toguz Kumalak or
        Tihbat game against it (level 1-3, either side), a legal move of theirs made
        properly (after the engine's first, carried out on the board, where it has
        White), the engine's answer
        waited for (up to 8 s). The pits are left alone first (a stuck sensor let go, before the new game),
        a bounce may still lose the move (then no answer comes, and ``_takeback_due``
        says so)."""
        r = self.rng
        game = r.choice(("toguz", "tihbat"))
        mode = r.choice(("white", "black"))
        player = 0 if mode == "white" else 1
        for s in range(self.b.n_sensors):  # the pits left alone (the sim board's rest: 0)
            self.b.set_sensor(s, 0)
        self.adv(r.randint(300, 1500))
        level = r.randint(1, 3)
        if not self._new_game(game, mode, level):
            return
        self.adv(r.randint(300, 1000))
        ply = 1 if mode == "black" else 0  # (the engine, White, moves first)
        st = self._wait_turn(player, ply)
        if st is None or st.get("ply") != ply:
            return
        if ply:  # the engine's first move, carried out by the player (its sowing view)
            gid = st["store"]["current"]
            rec = kept_game(self.folder, gid) if gid is not None else None
            if rec is None or len(rec.moves) != 1:
                return
            self.sow(new_game(game).parse_move(rec.moves[0]))  # (White's pits: cells 0..)
            self.adv(r.randint(1500, 3000))
        g = new_game(game, fen=st["fen"])
        moves = [m for m in g.legal_moves() if 0 <= m < g.n_pits]  # (not a forced pass)
        if moves:
            self.sow(player * g.n_pits + r.choice(moves))
            self._wait_turn(player, ply + 2)  # the engine's answer

    def _wait_turn(self, player, ply, ms=8000):
        """Frames until the status says ``player`` to move at ``ply`` or later, the
        engine not thinking; that status, or None after ``ms``."""
        waited = 0
        while waited < ms:
            st = self.b.status()
            if (st.get("state") == "play" and not st.get("thinking") and st.get("turn") == player
                    and st.get("ply", -1) >= ply):
                return st
            self.adv(250)
            waited += 250
        return None

    def link_step(self):
        """Bytes of garbage on the board's USB link (random, a frame's start byte among
        them), a tournament's pairing now and then (long names), then a status and a
        health request over ``BoardLink``: each answered,
        or ``unanswered`` counts it and the run fails."""
        from playboard_host.serial_link import BoardLink, LinkError, open_port

        r = self.rng
        s = open_port(self.b.port)
        link = BoardLink(s, timeout=0.5, retries=2, alive=self.b.alive, patience=30)
        try:
            # (never 0x03: a Ctrl-C on the USB port stops the app by design, docs/app.md)
            junk = bytes(r.choice(_JUNK) for _ in range(r.randint(0, 300)))
            s.write(junk)
            s.flush()
            try:
                if self.lock_rng.random() < 0.5:
                    self.locked_requests(link)
                if r.random() < 0.3:
                    # a tournament's pairing with long names in Cyrillic and Kazakh: the
                    # status then carries it (a status over a frame once went unanswered)
                    n = r.randint(1, 40)
                    link.set_game(pairing={"event": "Весенний турнир", "round": "%d.%d" % (r.randint(1, 9), r.randint(1, 9)),
                                           "white": ("Әлия" * 10)[:n], "black": ("Бекзат" * 7)[:n]})
                st = link.status()
                link.health()
            except LinkError as e:
                self.unanswered += 1
                self.fail("a link request unanswered after %d bytes of garbage: %s" % (len(junk), e))
            if not isinstance(st, dict) or "state" not in st:
                self.unanswered += 1
                self.fail("a link status without a state: %r" % (st,))
        finally:
            link.close()

    def locked_requests(self, link):
        """The board locked over ``link`` (museum mode, the link left open: ``lock_link``
        false) with limits drawn from ``lock_rng`` (``max_level`` 1-8, some games and
        modes), then 1-3 ``G`` requests for a game, mode or level outside them, forced:
        each refused with one clear line (``refusals``), the board's game, mode and level
        as they were; now and then one within them (the level given or not), forced: the
        game begun at a level within ``max_level`` (``locked_games``). Then the settings
        as they were. A refusal missing, or not one line saying why, fails the run."""
        from playboard.app.state import top_level
        from playboard.settings import DEFAULTS
        from playboard_host.serial_link import BoardError

        r = self.lock_rng
        was = link.settings()
        keep = {k: was.get(k, DEFAULTS.get(k)) for k in ("locked", "lock_link", "max_level", "games", "modes")}
        keep["level"] = was["level"]
        mx = r.randint(1, 8)
        games = r.sample(GAMES, r.randint(1, 3))
        modes = r.sample(MODES, r.randint(1, 3))
        link.set_settings(locked=True, lock_link=False, max_level=mx, games=games, modes=modes,
                          level=r.randint(1, mx))
        self.log.append(("locked", mx, games, modes))
        try:
            for _ in range(r.randint(1, 3)):
                req = {"game": r.choice(games), "mode": r.choice(modes), "force": True}
                kind = r.choice(("level", "game", "mode"))
                if kind == "game" and len(games) < len(GAMES):
                    req["game"] = r.choice([g for g in GAMES if g not in games])
                    why = "is not offered on this board"
                elif kind == "mode" and len(modes) < len(MODES):
                    req["mode"] = r.choice([m for m in MODES if m not in modes])
                    why = "is not offered on this board"
                else:  # a level above max_level (or above the game's top)
                    top = top_level(req["game"], self.cfg)
                    req["level"] = r.randint(mx + 1, top + 2)
                    why = "above max_level %d" % mx if req["level"] <= top else "level must be 1..%d" % top
                st0 = self.b.status()
                self.log.append(("locked G", req))
                try:
                    link.set_game(**req)
                except BoardError as e:
                    msg = e.msg or ""
                    if "\n" in msg or not (why in msg or "is running" in msg):
                        self.fail("a locked board refused %r with %r, not one line saying %r" % (req, msg, why))
                else:
                    self.fail("a locked board (max_level %d, games %s, modes %s) took %r"
                              % (mx, games, modes, req))
                st = self.b.status()
                if (st["game"], st["mode"], st["level"]) != (st0["game"], st0["mode"], st0["level"]):
                    self.fail("a refused request changed the choice: %s -> %s" % (st0, st))
                self.refusals += 1
            if r.random() < 0.5:  # one within the limits: begun, within max_level
                game = r.choice(games)
                req = {"game": game, "mode": r.choice(modes), "force": True}
                if r.random() < 0.7:
                    req["level"] = r.randint(1, min(mx, top_level(game, self.cfg)))
                self.log.append(("locked G", req))
                try:
                    link.set_game(**req)
                except BoardError as e:
                    if "is running" not in (e.msg or ""):  # (a hall board's calibration)
                        self.fail("a locked board refused %r, within its limits: %s" % (req, e))
                    return
                self.adv(300)
                st = self.b.status()
                if st["level"] > mx or (st["state"] in ("play", "setup") and st["game"] != game):
                    self.fail("a game begun on a locked board (max_level %d) by %r: %s" % (mx, req, st))
                self.game = game
                self.locked_games += 1
        finally:
            link.set_settings(**keep)

    def recovers(self):
        """The board brought back to a normal state by an obvious gesture: the pits
        left alone (the sim board's rest: 0), a new Toguz Kumalak game for two, South
        pit 1 lifted (past LIFT_MS) and its first ball put back, or on a stylus board
        touched: the move is read."""
        b = self.b
        for s in range(b.n_sensors):
            b.set_sensor(s, 0)
        self.adv(3000)
        for _ in range(70):  # a check (a hall board's calibration at power-up) ends by itself
            if "check" not in b.status():
                break
            self.adv(1000)
        self.game = "toguz"
        b.new_game("toguz", "two", 3)
        self.adv(600)
        s = load_layout("toguz", self.layout).sensor_of(0)
        b.set_sensor(s, 1)
        self.adv(300)
        b.set_sensor(s, 0)
        if not self.stylus:
            self.adv(LIFT_MS + 300)
            b.set_sensor(s, 1)
        self.adv(3500)
        st = self.check()
        if st["state"] != "play" or st.get("ply") != 1:
            self.fail("not back to a normal game by a new game and a move: %s" % st)

    # ---- the invariants -------------------------------------------------------------
    def fail(self, what):
        raise FuzzFailure("seed %d, step %d (%s): %s\nlast steps: %s" % (
            self.seed, self.steps, self.log[-1] if self.log else "-", what, self.log[-8:]))

    def check(self):
        b = self.b
        try:
            st = b.status()
        except Exception as e:  # noqa: BLE001 - no answer: counted, reported
            self.unanswered += 1
            self.fail("no answer to status: %s" % e)
        evs = b.events()
        crash = [e for e in evs if e.get("ev") == "crash"]
        if crash:
            self.faults += 1
            self.fail("a frame raised (contained): %s" % (crash or st))
        if "Traceback" in b.stderr():
            self.faults += 1
            self.fail("traceback on stderr: %s" % b.stderr()[-1500:])
        if st["state"] in ("play", "setup") and st.get("fen") and not st.get("thinking"):
            gid = st["store"]["current"]
            if gid is not None and not st.get("pending"):
                # the game as the board keeps it: its file and the record's journal
                rec = kept_game(self.folder, gid)
                if rec is not None and rec.name == st["game"]:
                    g = new_game(rec.name, fen=rec.fen) if rec.fen else new_game(rec.name)
                    try:
                        for t in rec.moves:
                            g.push_text(t)
                    except Exception as e:  # noqa: BLE001 - a record that does not replay
                        self.inconsistent += 1
                        self.fail("the record on flash does not replay (%r): %s" % (e, rec.moves))
                    if g.fen() != st["fen"]:
                        self.inconsistent += 1
                        self.fail("position %s, the record's replay %s (%d moves)"
                                  % (st["fen"], g.fen(), len(rec.moves)))
            if st["state"] == "play" and not any(b.leds()):
                self.fail("every LED dark in play")
        return st

    def _takeback_due(self):
        """What a takeback press must give now (docs/app.md; App.takeback): against the
        engine once it has answered (a game in play, ``mode`` white or black, not
        thinking, the player to move, two plies or more), its answer and the player's
        move go: ``(ply - 2, the player's side)``. None where that rule does not say
        it all: another state or mode, Tobit (no takeback button), a Tihbat game whose
        last two plies hold a forced pass (a pass goes with the move before it) or
        whose record is not on flash yet."""
        st = self.b.status()
        mode = st.get("mode")
        if (st.get("state") != "play" or mode not in ("white", "black") or st.get("thinking")
                or st.get("game") not in ("toguz", "tihbat") or st.get("pending")):
            return None
        player = 0 if mode == "white" else 1
        ply = st.get("ply", 0)
        if st.get("turn") != player or ply < 2:
            return None
        if st["game"] == "tihbat":
            gid = st["store"]["current"]
            rec = kept_game(self.folder, gid) if gid is not None else None
            if rec is None or len(rec.moves) != ply or "pass" in rec.moves[-2:]:
                return None
        return ply - 2, player

    def _check_takeback(self, due):
        """The invariant of a takeback against the engine once it has answered
        (``_takeback_due`` gave ``due``): the player is to move, the ply fell by two
        (the engine waits ``_UNDO_GRACE_MS`` before it thinks again). Counted in
        ``takebacks``; FuzzFailure if not."""
        st = self.b.status()
        got = (st.get("ply"), st.get("turn"))
        self.takebacks += 1
        if st.get("state") != "play" or got != due:
            self.wrong_takebacks += 1
            self.fail("a takeback against the engine once it answered: (ply, turn) %s, "
                      "expected %s (its answer and the player's move gone): %s" % (got, due, st))

    def run(self, frames):
        """Steps and checks until ``frames`` frames ran; returns self (counts)."""
        while self.frames < frames:
            self.step()
            self.check()
        self.recovers()
        return self
