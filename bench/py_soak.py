"""Issue 14's soak: 30 days of accelerated museum use of the real firmware on the simulated board.

The whole firmware (``SimBoard``, the chip's heap, virtual clock, a littlefs
image) with the museum profile and opening hours 09:00-17:00 set over the link
(``playboard settings``), its wall clock driven by the simulator's ``wall`` command.
Each simulated day: the night is skipped by jumping the wall clock (the board must
go dark at closing and light its menu at opening); visitors arrive at random
(seeded) moments of the open hours, wake the board, start Toguz Kumalak or Tihbat by
deliberate menu presses, play part or all of a game with human timing, resign or walk
away (the game must be recorded abandoned after ``idle_s`` and the board go back to
attract by itself). A visitor's move follows the board: a reply 0-3 s
(``humanlib.reply_ms``) after the last move's view, the pit touched (contact bounce,
held 150-600 ms), the board's ``move`` event waited for (its sowing view shown), the
balls sown (120-250 ms a ball); against the engine, its move shown (the ``engine``
event) waited for and carried out on the pits as the board shows it (a pause 0-3 s, its
pit lifted, its balls sown), then the view's confirmation watched on the LEDs before
the visitor's next move (``carry_out``; a view the board confirmed by time before the
pit was lifted, the soak's pits reading empty at rest, counted ``view_by_time``; one
never seen to end, ``view_unseen``). Before 2026-12-06 the visitor tapped its next pit
before the board had confirmed the last move, its pit during the engine's view was
refused, and engine games barely moved (seed 14: 2 engine moves in 30 days, 3,538
"moves a stray touch made first"; after: 192 and 32). Stray touches, hands sweeping
over the pits and power cuts (between frames, ``kill``, or inside a flash write,
``cut``) at random moments. The staff sync the games at each closing (``playboard sync``, the daily care of
docs/museum.md); the board's heap is read at each closing.

Checks (each a figure with its target): every synced record replays; no committed
move lost (the moves the firmware's events reported are in the records, each game's
found by the board's id: a game cut by the power may hold more, those committed after
the soak last read the events, which died with the process: ``match``); no state the board never
leaves (after each visitor: menu or attract within ``idle_s`` + 60 s); no watchdog
reset (the board's health counters); the heap at closing within 2 KB from day 2 on:
over days alike (no power-up that day, the same last game) and, in a second run of
the same days without power cuts, over days the board is never switched off (a
locked board restarts its firmware at each closing: ``playboard.app.restart``,
docs/museum.md "The daily restart"; ``SimBoard`` starts its process again, the
restarts counted, ``restarts``).

``SOAK_DAYS`` (default 30) and ``SOAK_SEED`` scale and vary it; ``SOAK_CUTS`` scales
the rate of power cuts (0: none, so that one firmware process lives all the days).
The 30 days play every game the museum profile offers: two-player Toguz Kumalak and
Tihbat, Toguz Kumalak against the engine (``SOAK_ENGINE``, the share of its
visitors, default 0.35) and Tobit begun by setting its pieces (``SOAK_TOBIT``, the
share of visitors, default 0.2); on the simulator's 64-bit model a game of theirs may
not begin once the link has been used (docs/museum-reference.md, "Known problems": counted,
"not begun"). A Tobit visitor leaves Tobit chosen in the menu; a later visitor whose
game press is spoiled (begun within QUIET_MS of a stray touch) has START begin Tobit's
set-up: counted "other game" as any game the menu's choice began; that visitor
presses START again, which takes a set-up nobody has begun back to the menu
(docs/app.md), and chooses their game once more (counted "left by START again"; a
second spoiled press and the visitor walks away). A Tobit visitor whose "two
players" press is spoiled begins Tobit in the menu's mode, perhaps against the engine:
on the 64-bit model that game's start is at the heap's edge after a day's play (one
given up, seed 14 before the way back: docs/museum-reference.md, "Known problems"), counted "not
begun". ``SOAK_DEBUG=1`` prints each miss with the day, the time and the events before
it, and sends the board no command of its own before a miss (the run it traces is the
run without it); ``SOAK_DEBUG=mem`` also where each memory error happens (it reads the
board's status at each advance: another run). bench/py_soak_heap.py runs the same
days again without power cuts (the heap over one firmware process; a script of its
own: each has the bench's ``BENCH_SCRIPT_S``). tests/host/test_soak.py runs 2 days of
the same code.
"""
import calendar
import contextlib
import io
import os
import random
import sys
import tempfile

sys.path.insert(0, "firmware")
sys.path.insert(0, "host_tools")
sys.path.insert(0, "bench")

from playboard.app.state import MENU_GAME, MENU_LEVEL, MENU_MODE, MENU_START  # noqa: E402
from playboard.board.layout import load_layout  # noqa: E402
from playboard.games.registry import new_game  # noqa: E402
from playboard.games.tihbat import PASS  # noqa: E402
from playboard_host import cli  # noqa: E402
from playboard_host.gestures import (PAD_BLACK_RESIGN, PAD_WHITE_RESIGN, physical_actions, press_pad,  # noqa: E402
                                     press_sensor, staff_gesture)
from playboard_host.simboard import SimBoard, SimDied  # noqa: E402

import humanlib  # noqa: E402 - bench/humanlib.py: the reply delay

HOURS = "09:00-17:00"
OPEN_S, CLOSE_S = 9 * 3600, 17 * 3600
DAY0 = calendar.timegm((2026, 12, 1, 0, 0, 0))  # the first day, midnight (the board's clock)
MARGIN_S = 60  # after idle_s, the board must be back to menu / attract within this
GAMES = (("toguz", 0, 9), ("tihbat", 3, 2))  # name, menu pad index, pits per side
LEFT = ("menu", "attract")
HEAP_SPREAD = 2048


class _Hands:
    """What gestures.press_sensor needs of a board, with the soak's clock kept."""

    def __init__(self, soak):
        self.soak = soak

    def set_sensor(self, s, v):
        self.soak.b.set_sensor(s, v)

    def advance(self, ms):
        return self.soak.adv(ms)


class Soak:
    """One soak run in folder ``workdir``: ``run(days)`` returns the figures (dict)."""

    def __init__(self, workdir, seed=14, idle_s=None, cuts=1.0, engine=0.35, tobit=0.2):
        self.dir = workdir
        self.rng = random.Random(seed)
        self.seed = seed  # (the board's engine is seeded from it too: a run replays)
        self.b = SimBoard()
        self.image = os.path.join(workdir, "flash.img")
        self.db = os.path.join(workdir, "library.sqlite")
        self.hands = _Hands(self)
        self.killed = False
        self.t = 0  # the board's clock at the last advance (ms)
        self.last_state = ""  # the state at the last status asked for
        self.cuts = cuts  # the power cuts' rate (0: none; the heap then shows a long run)
        self.engine = engine  # the share of Toguz Kumalak visitors who play the engine
        self.tobit = tobit  # the share of visitors who set up Tobit's pieces
        self.idle_s = idle_s  # None: the museum profile's
        self.wall = 0.0  # the board's wall clock (s since 1970), kept here across restarts
        self.lays = {name: load_layout(name) for name in ("toguz", "tihbat", "tobit")}
        self.log = []  # per game started: {"game", "moves": committed move texts, "cut"}
        self.heap = []  # alloc at each closing
        self.heap_kind = []  # (the last game played, power-ups so far) at each closing
        self.power_ups = 1
        self.n = dict(days=0, visitors=0, started=0, finished=0, abandoned=0, moves=0, kills=0, cuts=0,
                      recovered=0, stray=0, sweeps=0, stuck=0, events_lost=0, misread=0, start_failed=0, start_again=0, desync=0, other_game=0, undone=0,
                      not_dark=0, not_lit=0, max_leave_s=0.0,
                      staff=0, staff_failed=0, chatter=0, engine_games=0, engine_moves=0, engine_silent=0,
                      tobit=0, tobit_failed=0, carried_out=0, view_unseen=0, view_by_time=0,
                      engine_not_begun=0, sync_again=0, sync_failed=0, sync_retried=0, back=0, back_failed=0)
        self.engine_move = None  # the last "engine" event's move, until played
        self.engine_pit = None  # a mancala engine move to carry out: (cell, balls)
        self.trail = []  # SOAK_DEBUG: the last events and notes, printed with a miss
        self._mem_seen = {}  # SOAK_DEBUG=mem: memory errors seen, per power-up

    # ---- the board ------------------------------------------------------------------

    def adv(self, ms):
        t = self.b.advance(ms)
        self.t = t  # the board's clock (ms), for SOAK_DEBUG's lines
        self.wall += ms / 1000.0
        if os.environ.get("SOAK_DEBUG") == "mem":  # where a memory error happens
            st = self.b.status()
            k = st.get("memory_errors", 0)
            if k > self._mem_seen.get(self.power_ups, 0):
                self._mem_seen[self.power_ups] = k
                self.dbg("memory error", k, st, self.b.mem())
                for e in self.trail[-6:]:
                    print("   ", e, file=sys.stderr)
        return t

    def set_wall(self, seconds):
        self.wall = float(seconds)
        self.b._command("wall", int(seconds))

    def status(self):
        st = self.b.status()
        self.last_state = st["state"]  # (SOAK_DEBUG reads it: no command of its own)
        return st

    def events(self):
        d = self.b._command("events")
        self.n["events_lost"] += d.get("lost", 0)
        if os.environ.get("SOAK_DEBUG"):
            self.trail.extend((round(self.wall - DAY0, 1), e) for e in d["events"])
            del self.trail[:-40]
        return d["events"]

    def dbg(self, *a):
        """SOAK_DEBUG: a line to stderr, with the day and the board's time of day."""
        if os.environ.get("SOAK_DEBUG"):
            t = self.wall - DAY0
            print("day %d %s" % (t // 86400, "%02d:%02d:%02d" % (t % 86400 // 3600, t % 3600 // 60, t % 60)), *a,
                  file=sys.stderr)
            self.trail.append((round(t, 1), " ".join(str(x) for x in a)))

    def configure(self):
        """Opening hours (and idle_s, when given) first, then the museum profile (it locks
        the link); then the board switched off and on, as docs/museum.md's set-up says
        (a set-up step of its own)."""
        port = ["--port", self.b.port, "--timeout", "5"]
        words = ["hours", HOURS]
        if self.idle_s is not None:
            words += ["idle_s", str(self.idle_s)]
        with contextlib.redirect_stdout(io.StringIO()):
            if cli.main(["settings", "set"] + words + port) != 0:
                raise RuntimeError("settings refused")
            if cli.main(["settings", "--profile", "museum"] + port) != 0:
                raise RuntimeError("the museum profile was refused")
            if self.idle_s is not None and cli.main(["settings", "get", "idle_s"] + port) != 0:
                raise RuntimeError("settings unreadable")
        if self.idle_s is None:
            self.idle_s = 300  # the museum profile's (firmware/playboard/settings.py)
        self.b.restart()
        self.set_wall(self.wall)
        self.adv(31000)  # (the hours looked at: before opening, the board goes dark)

    def recover(self):
        """Switch the board on again after a power cut; the wall clock set again (the
        staff's PC, as at a sync: the RP2040 has no battery clock)."""
        ready = self.b.restart()
        self.power_ups += 1
        self.dbg("power-up", self.power_ups, ready.get("report") or "")
        self.set_wall(self.wall)
        self.adv(200)
        st = self.status()
        if st["state"] in LEFT:
            self.n["recovered"] += 1
        self.events()

    def safe(self, fn, *a):
        """Run ``fn``; a power cut in it (SimDied) is recovered from. True if no cut."""
        try:
            fn(*a)
            return True
        except SimDied:
            self.n["cuts"] += 1
            self.recover()
            return False

    # ---- what visitors do -------------------------------------------------------------

    def sensor(self, game, cell):
        return self.lays[game].sensor_of(cell)

    def touch(self, s, hold_ms):
        """A pit touched ``hold_ms`` with contact bounce at both ends (sensor rest 0)."""
        self._bounce(s, 1)
        self.b.set_sensor(s, 1)
        self.adv(hold_ms)
        self._bounce(s, 0)
        self.b.set_sensor(s, 0)

    def _bounce(self, s, v):
        """0-3 contact bounces of sensor ``s`` going to ``v`` (3 ms at ``v``, 2 ms back)."""
        for _ in range(self.rng.randint(0, 3)):
            self.b.set_sensor(s, v)
            self.adv(3)
            self.b.set_sensor(s, 1 - v)
            self.adv(2)

    def stray(self):
        """A passer-by brushes one or two pits (0.1-0.3 s)."""
        self.n["stray"] += 1
        for _ in range(self.rng.randint(1, 2)):
            c = self.rng.randrange(18)
            self.touch(self.sensor("toguz", c), self.rng.randint(60, 300))
            t = self.t
            self.adv(self.rng.randint(50, 800))
            self.dbg("stray touch of pit", c, "ended at", t)

    def sweep(self):
        """A hand slides over a row of pits (each touched 30-90 ms), or rests on a few
        pits for a while and lifts."""
        self.n["sweeps"] += 1
        rng = self.rng
        start = rng.randrange(18)
        cells = [(start + k) % 18 for k in range(rng.randint(3, 9))]
        if rng.random() < 0.5:
            for c in cells:
                self.touch(self.sensor("toguz", c), rng.randint(30, 90))
        else:
            for c in cells[:4]:
                self.b.set_sensor(self.sensor("toguz", c), 1)
                self.adv(rng.randint(20, 200))
            self.adv(rng.randint(500, 5000))
            for c in cells[:4]:
                self.b.set_sensor(self.sensor("toguz", c), 0)
                self.adv(rng.randint(20, 200))
        self.adv(rng.randint(300, 2000))

    def staff(self):
        """The morning's care (docs/museum.md): the staff gesture (the four corner pits
        held 3.2 s, twice), the flash view looked at and closed, back to the menu."""
        from playboard.app.staff import STAFF_EXIT, STAFF_FLASH
        st0 = self.last_state  # (the last status asked for: day() asked it just before)
        staff_gesture(self.hands, lambda: self.rng.randint(50, 300))
        if self.status()["state"] != "staff":
            if os.environ.get("SOAK_DEBUG"):
                self.events()
                self.dbg("staff not open, before the gesture:", st0, self.status(), self.b.mem())
                for t in self.trail[-12:]:
                    print("   ", t, file=sys.stderr)
            self.n["staff_failed"] += 1
            return
        for cell in (STAFF_FLASH, STAFF_FLASH, STAFF_EXIT):
            self.adv(self.rng.randint(500, 2000))
            press_sensor(self.hands, self.sensor("toguz", cell))
        self.adv(500)
        if self.status()["state"] != "menu":
            if os.environ.get("SOAK_DEBUG"):
                print("staff not closed", self.status(), self.b.mem(), file=sys.stderr)
            self.n["staff_failed"] += 1
        self.n["staff"] += 1
        self.events()

    def chatter(self):
        """A loose wire: a Tobit point's sensor (no game of the menu uses it) flips every
        10-20 ms for 1-2 s, then rests: the board must count it, isolate it and go on."""
        s = self.sensor("tobit", self.rng.randint(13, 26))
        v = 0
        for _ in range(self.rng.randint(60, 120)):
            v = 1 - v
            self.b.set_sensor(s, v)
            self.adv(self.rng.randint(10, 20))
        self.b.set_sensor(s, 0)
        self.adv(3000)
        self.n["chatter"] += 1
        self.events()

    def wake(self):
        """A visitor at a board in attract touches a pit and looks at the menu."""
        if self.status()["state"] == "attract":
            self.touch(self.sensor("toguz", self.rng.randrange(18)), self.rng.randint(100, 300))
            self.adv(self.rng.randint(700, 2000))  # looking at the menu

    def start_game(self, name, pad, mode=0, level=0, back=False):
        """Choose game ``pad``, mode ``mode`` (0 two players, 1 White against the
        engine at ``level``) and press START; the game's name once it is in play.
        ``back``: this visitor already went back from a Tobit set-up they did not want."""
        self.wake()
        cells = [MENU_GAME[pad], MENU_MODE[mode]] + ([MENU_LEVEL[level - 1]] if mode else []) + [MENU_START]
        for cell in cells:
            press_sensor(self.hands, self.sensor("toguz", cell))
            self.adv(self.rng.randint(0, 1500))
        st = self.status()
        if st["state"] == "menu":  # a press too soon after the last: START again
            self.n["start_again"] += 1
            self.adv(self.rng.randint(500, 2000))
            press_sensor(self.hands, self.sensor("toguz", MENU_START))
            st = self.status()
        if st["state"] == "setup" and st["game"] != name:
            # START began the menu's choice: Tobit, left chosen by the last visitor's set
            # pieces (museum.set_position), this visitor's game press spoiled (a stray
            # touch or the wake less than QUIET_MS before it). The board lights the Tobit
            # points to fill; the visitor, who wanted a mancala game, presses START again
            # (the press that began it: a set-up nobody has begun goes back to the menu,
            # docs/app.md) and chooses their game once more
            self.n["other_game"] += 1
            self.dbg("tobit set-up begun by START", name, mode)
            if back:
                return None  # (twice: the visitor gives up)
            self.adv(self.rng.randint(1000, 4000))  # looking at the lit points
            press_sensor(self.hands, self.sensor("toguz", MENU_START))
            self.adv(self.rng.randint(500, 1500))
            if self.status()["state"] != "menu":
                self.n["back_failed"] += 1
                return None
            self.n["back"] += 1
            return self.start_game(name, pad, mode, level, True)
        if st["state"] != "play":
            if os.environ.get("SOAK_DEBUG"):
                self.events()  # (into the trail: what began, or not)
                self.dbg("not begun", name, mode, st, self.b.mem(), self.log[-1]["game"] if self.log else "")
                for t in self.trail:
                    print("   ", t, file=sys.stderr)
            self.n["engine_not_begun" if mode else "start_failed"] += 1
            return None
        if st["game"] != name:  # the game press spoiled: START began the menu's choice
            self.n["other_game"] += 1
        return st["game"]

    def wait_engine(self, g, rec):
        """The engine's turn: wait (up to 30 s) for its move's events (the ``engine``
        event, the move shown, and its ``move``); True once it moved."""
        ply = g.ply
        for _ in range(300):
            self.adv(100)
            for e in self.events():
                self.note(e, g, rec)
            if g.ply > ply or g.is_game_over():
                self.n["engine_moves"] += 1
                return True
        self.n["engine_silent"] += 1
        return False

    def wait_move(self, g, rec, ply, limit_ms=3000):
        """After the visitor's own pit: the board's ``move`` event (its sowing view shown),
        read 100 ms at a time for up to ``limit_ms``; the move texts committed."""
        got = []
        waited = 0
        while waited < limit_ms:
            self.adv(100)
            waited += 100
            for e in self.events():
                got += self.note(e, g, rec)
            if g.ply > ply or g.is_game_over():
                break
        return got

    def sow(self, balls):
        """The balls of the pit just lifted sown by hand, one pit after another (120-250
        ms a ball, the first 20; the pits' sensors do not change as they fill)."""
        for _ in range(min(balls, 20)):
            self.adv(self.rng.randint(120, 250))

    def view_confirmed(self, shown, waited=0, limit_ms=6000, early=None):
        """Wait, as the visitor watches the lights, for the sowing view (``shown``: its
        LEDs, read as the pit was lifted; ``waited`` ms since) to be confirmed (2.5 s
        after the last sensor event: the view's lights give way to the next player's);
        True when the lights changed within ``limit_ms``, else counted (``view_unseen``).
        ``early``: called with the events of each step, True when they show the view was
        confirmed by time before the lift (counted ``view_by_time``)."""
        if self.b.leds() != shown:
            return True
        while waited < limit_ms:
            self.adv(100)
            waited += 100
            if self.b.leds() != shown:
                self.adv(100)  # (the next frame: the view's lights gone whole)
                return True
            if early is not None and early(self.events()):
                self.n["view_by_time"] += 1  # (the lift read as the opponent's pit)
                return True
        self.n["view_unseen"] += 1
        if os.environ.get("SOAK_DEBUG"):
            self.events()  # (into the trail: what the board did meanwhile)
            self.dbg("view not seen to end", self.status(), [i for i, v in enumerate(self.b.sensors()) if v])
            for t in self.trail[-14:]:
                print("   ", t, file=sys.stderr)
        return False

    def carry_out(self, name, per_side, g, rec):
        """The engine's mancala move (shown: ``self.engine_pit``, its pit and balls)
        carried out by the visitor: a human pause, its pit's balls lifted, sown; then the
        view's confirmation waited for. Nothing to do for a pass."""
        if self.engine_pit is None:
            return
        cell, balls = self.engine_pit
        self.engine_pit = None
        before = self.b.leds()  # the engine's view as it came
        self.adv(humanlib.reply_ms(self.rng))
        # the soak's pits read empty at rest (its touches flip a sensor on and off): the
        # board confirms the engine's view by time, 2.5 s after it came, if its pit is
        # not lifted sooner (mancala_tracker: an empty pit has nothing to carry out);
        # the visitor sows its balls all the same (the board reads the lift as a pit of
        # the opponent's: an ``error`` event, nothing played)
        early = self.b.leds() != before
        self.touch(self.sensor(name, cell), self.rng.randint(150, 600))
        self.adv(100)
        shown = self.b.leds()  # the view as the balls are sown
        for e in self.events():  # (the view confirmed in the frames before the lift)
            self.note(e, g, rec)
            early = early or (e["ev"] == "error" and e.get("cell") == cell)
        t = self.t
        self.sow(balls)
        def by_time(events):  # (the board's error event for the pit, a frame or more later)
            hit = False
            for e in events:
                self.note(e, g, rec)
                hit = hit or (e["ev"] == "error" and e.get("cell") == cell)
            return hit

        if early:
            self.n["view_by_time"] += 1
        else:
            self.view_confirmed(shown, self.t - t, early=by_time)
        self.n["carried_out"] += 1

    def play(self, name, per_side, plies, finish, engine=-1):
        """Play ``plies`` plies (the whole game when ``finish``), then resign if
        ``finish`` and the game goes on; ``engine``: the side the engine plays (-1
        none): its moves are waited for. The host's game follows the firmware's move events."""
        g = new_game(name)
        rec = {"game": name, "moves": [], "cut": False, "touches": 0, "seen": 0}
        self.log.append(rec)
        self.n["started"] += 1
        for e in self.events():
            self.note(e, g, rec)
        kill_at = self.rng.randrange(plies + 2) if self.rng.random() < 0.12 * self.cuts else -1
        if self.rng.random() < 0.12 * self.cuts:
            self.b.cut_after(self.rng.randrange(1, 3000))  # the power goes inside a write
        k = 0
        while not g.is_game_over() and (finish or k < plies):
            if k == kill_at:
                self.b.kill()
                self.n["kills"] += 1
                self.killed = True
                raise SimDied("killed")
            if g.turn == engine:
                if not self.wait_engine(g, rec):
                    break
                self.carry_out(name, per_side, g, rec)
                k += 1
                continue
            legal = g.legal_moves()
            if name == "tihbat" and legal == [PASS]:  # the board passes by itself
                self.adv(500)
                for e in self.events():
                    self.note(e, g, rec)
                if not g.is_game_over() and g.legal_moves() == [PASS]:
                    self.n["misread"] += 1
                    break
                continue
            m = self.rng.choice(legal)
            self.adv(humanlib.reply_ms(self.rng))  # (after the last move's view: human timing)
            if self.rng.random() < 0.04:
                self.stray()
            rec["touches"] += 1
            want = g.move_text(m)
            balls = g.pos[m + per_side * g.turn]
            self.touch(self.sensor(name, m + per_side * g.turn), self.rng.randint(150, 600))
            got = self.wait_move(g, rec, g.ply)  # the board's move event: its view shown
            self.sow(balls)  # (against the engine: its reply comes once the view is confirmed)
            if not got or got[0] != want:  # (a Tihbat pass may follow: the board makes it)
                if os.environ.get("SOAK_DEBUG"):
                    print("misread", name, want, got, file=sys.stderr)
                self.n["misread"] += 1
            k += 1
        self.adv(3000)
        for e in self.events():
            self.note(e, g, rec)
        if finish and self.status()["state"] == "play":
            side = self.rng.randrange(2)
            pad = PAD_WHITE_RESIGN if side == 0 else PAD_BLACK_RESIGN
            press_pad(self.hands, name, pad)
            press_pad(self.hands, name, pad)
            for e in self.events():
                self.note(e, g, rec)
        self.b.cut_after(0)

    def note(self, e, g, rec):
        """Follow one event of the firmware; returns the move texts it committed."""
        if e["ev"] == "move":
            rec["moves"].append(e["move"])
            rec["seen"] = rec.get("touches", 0)  # (the touches made when a move was last seen)
            try:
                g.push_text(e["move"])
            except ValueError:  # (GameError) not a move of the game the host follows
                self.n["desync"] += 1
            self.n["moves"] += 1
            return [e["move"]]
        if e["ev"] == "undo":  # taken back (takeback on: the previous position put back)
            self.n["undone"] += len(rec["moves"]) - e["ply"]
            del rec["moves"][e["ply"]:]
            while g.ply > e["ply"]:
                g.pop()
        elif e["ev"] == "game" and not rec["moves"]:
            # the board's game id (``match`` finds its record by it): the last game
            # begun before a move is seen (a Tobit set-up begun by START and left has
            # one of its own)
            rec["id"] = e.get("id")
        elif e["ev"] == "engine":
            self.engine_move = e["move"]
            self.engine_pit = None
            if not hasattr(g, "n_points") and hasattr(g, "parse_move"):  # a mancala game's
                try:
                    m = g.parse_move(e["move"])
                    if m != PASS or g.name != "tihbat":
                        cell = m + g.n_pits * g.turn
                        self.engine_pit = (cell, g.pos[cell])
                except (ValueError, TypeError, AttributeError):
                    pass
        elif e["ev"] == "over":
            self.n["finished"] += 1
        elif e["ev"] == "abandoned":
            self.n["abandoned"] += 1
        return []

    def leave(self):
        """The visitor walks away: within idle_s + MARGIN_S the board is at menu / attract."""
        waited = 0
        while waited < self.idle_s + MARGIN_S:
            st = self.status()
            if st["state"] in LEFT:
                break
            self.adv(5000)
            waited += 5
        else:
            st = self.status()
        rec = self.log[-1] if self.log else {"game": "", "moves": [], "cut": False}
        for e in self.events():
            self.note(e, _Null(), rec)  # (a sweep's move, if any, is committed too)
        if st["state"] not in LEFT:
            self.n["stuck"] += 1
            self.b.menu()  # the staff come (counted: the figure must stay 0)
            self.adv(1000)
            self.events()
        self.n["max_leave_s"] = max(self.n["max_leave_s"], waited)

    def visitor(self):
        rng = self.rng
        self.n["visitors"] += 1
        if rng.random() < 0.3:
            self.stray()
        if rng.random() < self.tobit:
            self.tobit_visitor()
            return
        name, pad, per_side = GAMES[rng.randrange(len(GAMES))]
        mode = 1 if name == "toguz" and rng.random() < self.engine else 0  # against the engine
        name = self.start_game(name, pad, mode, rng.randint(1, 4))
        if name is None:  # the visitor gives up
            self.leave()
            return
        per_side = dict((g[0], g[2]) for g in GAMES)[name]
        finish = rng.random() < 0.25
        plies = rng.randint(1, 30)
        engine = 1 if self.status().get("mode") == "white" else -1
        if engine >= 0:
            self.n["engine_games"] += 1
        self.dbg("visitor plays", name, "engine" if engine >= 0 else "two", plies, "plies" if not finish else "to the end")
        try:
            self.play(name, per_side, plies, finish, engine)
        except SimDied:
            self.log[-1]["cut"] = True
            self.dbg("cut in game", self.log[-1])
            if self.killed:
                self.killed = False
            else:
                self.n["cuts"] += 1
            self.safe(self.recover)
            return
        if rng.random() < 0.25:
            self.sweep()
        self.leave()

    def tobit_visitor(self):
        """A visitor sets the Tobit pieces' start position (two players chosen first:
        the menu keeps the last visitor's mode): the game begins by itself (no START);
        plays a few moves with the hands, walks away; then the pieces are swept off."""
        rng = self.rng
        self.wake()
        press_sensor(self.hands, self.sensor("toguz", MENU_MODE[0]))
        self.adv(rng.randint(300, 1500))
        pts = list(range(1, 13)) + list(range(27, 39))
        rng.shuffle(pts)
        try:
            for p in pts:
                s = self.sensor("tobit", p)
                self._bounce(s, 1)
                self.b.set_sensor(s, 1)
                self.adv(rng.randint(250, 1200))
            self.adv(1000)
            st = self.status()
        except SimDied:
            # the power cut while the pieces were set: the visitor leaves, the pieces are
            # swept off (left on the board, they would begin Tobit for the next visitor)
            self.n["cuts"] += 1
            self.safe(self.recover)
            self.safe(self.leave)
            self.safe(self.clear_tobit)
            return
        if st["state"] not in ("setup", "play") or st["game"] != "tobit":
            if os.environ.get("SOAK_DEBUG"):
                self.events()  # (into the trail: what the board said meanwhile)
                self.dbg("tobit not begun", st, self.b.mem(), self.log[-1]["game"] if self.log else "",
                         "sensors on:", [p for p in range(1, 39) if self.b.sensors()[self.sensor("tobit", p)]])
                for t in self.trail:
                    print("   ", t, file=sys.stderr)
            self.n["tobit_failed"] += 1
        else:
            self.n["tobit"] += 1
            plies = rng.randint(0, 8)
            self.dbg("tobit begun", st, "plies", plies)
            try:
                self.play_tobit(plies, 1 if st.get("mode") == "white" else -1)
            except SimDied:
                self.log[-1]["cut"] = True
                self.n["cuts"] += 1
                self.dbg("tobit cut")
                self.safe(self.recover)
        self.safe(self.leave)
        self.dbg("tobit left", self.status())
        self.safe(self.clear_tobit)
        self.dbg("tobit cleared", self.status())

    def play_tobit(self, plies, engine):
        """``plies`` Tobit plies made with the hands (lift, put down, take the captured
        off); the engine's (``engine`` its side, -1 none) made as its lights ask."""
        rng = self.rng
        g = new_game("tobit")
        rec = {"game": "tobit", "moves": [], "cut": False, "touches": 0, "seen": 0}
        self.log.append(rec)
        self.n["started"] += 1
        self.engine_move = None
        for e in self.events():
            self.note(e, g, rec)
        for _ in range(plies):
            if g.is_game_over():
                break
            if g.turn == engine:
                for _ in range(60):
                    if self.engine_move is not None:
                        break
                    self.adv(500)
                    for e in self.events():
                        self.note(e, g, rec)
                if self.engine_move is None:
                    self.n["engine_silent"] += 1
                    break
                m = g.parse_move(self.engine_move)
                self.engine_move = None
                self.n["engine_moves"] += 1
            else:
                self.adv(rng.randint(1500, 5000))
                m = rng.choice(g.legal_moves())
            want = g.move_text(m)
            rec["touches"] += 1
            for act, p in physical_actions(g, m):
                self.b.set_sensor(self.sensor("tobit", p), 1 if act == "place" else 0)
                self.adv(rng.randint(100, 400))
            self.adv(1300)
            got = []
            for e in self.events():
                got += self.note(e, g, rec)
            if not got or got[0] != want:
                if os.environ.get("SOAK_DEBUG"):
                    print("misread tobit", want, got, file=sys.stderr)
                self.n["misread"] += 1

    def clear_tobit(self):
        """The Tobit pieces swept off the board (the board at its menu or attract)."""
        sens = self.b.sensors()
        for p in range(1, 39):
            s = self.sensor("tobit", p)
            if sens[s]:
                self.b.set_sensor(s, 0)
                self.adv(self.rng.randint(40, 200))
        self.adv(1000)
        self.events()

    # ---- days ---------------------------------------------------------------------------

    def day(self, d):
        base = DAY0 + 86400 * d
        self.set_wall(base + OPEN_S - 30)  # the night skipped: 30 s before opening
        self.adv(31000)
        self.adv(31000)
        if self.status()["state"] != "menu":
            self.n["not_lit"] += 1
        self.events()
        if d % 3 == 0:
            self.safe(self.staff)
        if d % 5 == 1 or self.rng.random() < 0.2:
            self.safe(self.chatter)
        arrivals = sorted(self.rng.randint(OPEN_S + 300, CLOSE_S - 1800) for _ in range(self.rng.randint(3, 6)))
        for a in arrivals:
            if self.wall < base + a:
                self.set_wall(base + a)  # the board idled in attract meanwhile
                self.adv(self.rng.randint(61000, 65000))
            if not self.safe(self.visitor):
                self.safe(self.leave)
            if self.rng.random() < 0.05 * self.cuts:  # a power cut while nobody is there
                self.b.kill()
                self.n["kills"] += 1
                self.recover()
        self.set_wall(max(self.wall, base + CLOSE_S))
        self.adv(31000)
        self.adv(31000)
        if self.status()["state"] != "attract" or any(any(c) for c in self.b.leds()):
            self.n["not_dark"] += 1
        self.events()
        self.sync()
        self.heap.append(self.b.mem()["alloc"])
        self.heap_kind.append((self.log[-1]["game"] if self.log else "", self.power_ups))
        self.n["days"] += 1

    def sync(self):
        """The staff's ``playboard sync`` at closing; refused (the board short of heap),
        it is run again once, as the staff would (counted: ``sync_again``)."""
        for k in range(2):
            err = io.StringIO()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                code = cli.main(["sync", "--port", self.b.port, "--library", self.db, "-q"])
            # (a request refused for memory: `playboard sync` runs its session again once)
            self.n["sync_retried"] += err.getvalue().count("syncing again")
            if code == 0:
                return
            self.n["sync_again"] += 1
            self.adv(2000)
        self.n["sync_failed"] += 1  # the games stay on the board: the next closing's sync

    def run(self, days):
        self.b.start("sim", image=self.image, blocks=64, seed=self.seed)
        self.set_wall(DAY0 + OPEN_S - 3600)
        self.configure()
        self.adv(100)
        self.events()
        try:
            for d in range(days):
                self.day(d)
        finally:
            self.b.stop()
        return self.check()

    # ---- after the run ------------------------------------------------------------------

    def check(self):
        from playboard_host.library import Library
        lib = Library(self.db, create=False)
        recs = sorted(lib.games_from("sim"), key=lambda r: r.id)
        health = lib.health("sim")
        lib.close()
        bad = 0
        for r in recs:
            g = new_game(r.game)
            try:
                for text in r.moves:
                    g.push_text(text)
            except Exception:  # noqa: BLE001 - a record that does not replay
                bad += 1
        lost, unmatched, unseen = match(self.log, recs)
        if os.environ.get("SOAK_DEBUG"):
            for rec, near in unmatched:
                print("unmatched", rec, [(r.board_game, r.game, r.result, r.moves) for r in near], file=sys.stderr)
        spread = (max(self.heap[1:]) - min(self.heap[1:])) if len(self.heap) > 1 else 0
        # days alike: from day 2, no power-up that day, the same last game (its code is
        # kept until another game needs the room): a leak shows there, a restart does not
        groups = {}
        for d in range(1, len(self.heap)):
            if self.heap_kind[d][1] == self.heap_kind[d - 1][1]:
                groups.setdefault(self.heap_kind[d][0], []).append(self.heap[d])
        alike = max([max(v) - min(v) for v in groups.values()] or [0])
        n_alike = sum(len(v) for v in groups.values())
        out = dict(self.n)
        out.update(started_empty=sum(1 for rec in self.log if not rec["moves"]), rec_finished=sum(1 for r in recs if r.result in ("1-0", "0-1", "1/2-1/2")),
                   rec_abandoned=sum(1 for r in recs if r.result == "*"), records=len(recs), bad_records=bad, lost=lost,
                   unseen=unseen, wdt_resets=health["wdt_resets"],
                   chatter_counted=health["chatter"], memory_errors=health.get("memory_errors", 0),
                   power_ups=health["power_ups"], restarts=self.b.restarts,
                   restarts_counted=health.get("restarts", 0), heap_spread=spread, heap_alike=alike, n_alike=n_alike,
                   heap=self.heap,
                   heap_kind=self.heap_kind)
        return out


def match(log, recs):
    """The soak's games (``log``: per game begun its name ``game``, the ``moves`` the
    firmware's events said it committed, ``cut`` if the power went during it, ``id``
    the board's game id from its ``game`` event, ``touches`` the visitor's moves made
    and ``seen`` how many of them were made when a move event was last read) against
    the records synced (``recs``: library rows, in the order synced). Returns ``(lost,
    unmatched, unseen)``: the committed moves not on record, the games missed (each
    ``(game, records near where it should be)``), and the moves on record after the
    last one the soak saw in games cut by the power.

    A game is found by the board's id (else, as the events gave none, by its place
    among the records: the first of its name from the last one matched on whose moves
    begin with its own). Its record must hold every move the soak saw committed, in
    order, and after them: none for a game the soak saw to its end; for a game cut by
    the power, the moves the board committed after the soak last read its events,
    which died with the process: the move being written, and for each of the
    visitor's moves since (made after that read, or waiting for its sowing view's
    confirmation, 2.5 s after the touch) that move, the engine's reply and a pass the
    board makes (at most 3). Those moves replay (the records' check) but the soak
    cannot know them: ``unseen``. A game with no move made is not recorded (issue 34)."""
    lost = unseen = 0
    unmatched = []
    by_id = dict((r.board_game, r) for r in recs)
    i = 0
    for rec in log:
        have = rec["moves"]
        if not have:
            continue
        extra = 0
        if rec["cut"]:
            extra = 1 + 3 * (rec.get("touches", 0) - rec.get("seen", 0) + 1)

        def fits(r):
            return (r.game == rec["game"] and r.moves[:len(have)] == have
                    and len(r.moves) <= len(have) + extra)

        if rec.get("id") is not None:
            r = by_id.get(rec["id"])
            if r is None or not fits(r):
                lost += len(have)
                unmatched.append((rec, [r] if r is not None else []))
            else:
                unseen += len(r.moves) - len(have)
                i = recs.index(r) + 1
            continue
        j = i
        while j < len(recs) and not fits(recs[j]):
            j += 1
        if j == len(recs):
            lost += len(have)
            unmatched.append((rec, recs[max(0, i - 1):i + 3]))
        else:
            unseen += len(recs[j].moves) - len(have)
            i = j + 1
    return lost, unmatched, unseen


class _Null:
    ply = 0

    def push_text(self, text):
        pass


def soak(days, seed=14, workdir=None, idle_s=None, cuts=1.0, engine=0.35, tobit=0.2):
    """Run the soak ``days`` simulated days (``cuts``: the power cuts' rate, 1 the usual,
    0 none; ``engine``: the share of Toguz Kumalak visitors who choose to play the
    engine; ``tobit``: the share of visitors who begin Tobit by setting its pieces);
    returns its figures (dict)."""
    if workdir is None:
        workdir = tempfile.mkdtemp(prefix="soak")
    return Soak(workdir, seed, idle_s, cuts, engine, tobit).run(days)


def main():
    from benchlib import report
    days = int(os.environ.get("SOAK_DAYS", "30"))
    # the 30 days: every game the museum profile offers (SOAK_ENGINE / SOAK_TOBIT: 0
    # leaves those out)
    f = soak(days, int(os.environ.get("SOAK_SEED", "14")), cuts=float(os.environ.get("SOAK_CUTS", "1")),
             engine=float(os.environ.get("SOAK_ENGINE", "0.35")), tobit=float(os.environ.get("SOAK_TOBIT", "0.2")))
    report("soak: simulated museum days", f["days"], "days", days, f["days"] == days)
    report("soak: visitors", f["visitors"], "visitors")
    report("soak: games started / finished / abandoned (records)", "%d / %d / %d" % (
        f["records"], f["rec_finished"], f["rec_abandoned"]), "games")
    report("soak: games begun with no move made (not recorded)", f["started_empty"], "games")
    report("soak: games started / finished / abandoned (events)", "%d / %d / %d" % (
        f["started"], f["finished"], f["abandoned"]), "games")
    report("soak: moves committed (firmware events)", f["moves"], "moves")
    report("soak: power cuts (between frames / in a write)", "%d / %d" % (f["kills"], f["cuts"]), "cuts")
    report("soak: stray touches / hands sweeping", "%d / %d" % (f["stray"], f["sweeps"]), "faults")
    report("soak: chattering sensor injected / counted (health)", "%d / %d" % (f["chatter"], f["chatter_counted"]),
           "faults", ">= 1 counted if injected", f["chatter"] == 0 or f["chatter_counted"] >= 1)
    report("soak: staff visits (gesture, flash view, back) / failed", "%d / %d" % (f["staff"], f["staff_failed"]),
           "visits", "0 failed", f["staff_failed"] == 0)
    report("soak: memory errors (health)", f["memory_errors"], "errors")
    report("soak: syncs the board refused for memory, run again by `playboard sync` itself",
           f["sync_retried"], "syncs")
    report("soak: syncs refused (the board short of heap): run again / failed twice", "%d / %d" % (
        f["sync_again"], f["sync_failed"]), "syncs", "0 / 0", f["sync_again"] + f["sync_failed"] == 0)
    cuts = f["kills"] + f["cuts"]
    report("soak: power cuts recovered (menu/attract)", f["recovered"], "cuts",
           "== %d" % cuts, f["recovered"] == cuts)
    report("soak: records synced / not replaying", "%d / %d" % (f["records"], f["bad_records"]), "records",
           "0 not replaying", f["bad_records"] == 0)
    report("soak: committed moves lost", f["lost"], "moves", "0", f["lost"] == 0)
    report("soak: moves on record after the last the soak saw, in games cut by the power",
           f["unseen"], "moves")
    report("soak: visitors leaving a state never left", f["stuck"], "visitors", "0", f["stuck"] == 0)
    report("soak: longest wait for menu/attract", f["max_leave_s"], "s", "<= idle_s + %d" % MARGIN_S,
           f["stuck"] == 0)
    report("soak: watchdog resets", f["wdt_resets"], "resets", "0", f["wdt_resets"] == 0)
    report("soak: heap at closing, days alike (%d), spread" % f["n_alike"], f["heap_alike"], "B",
           "<= %d" % HEAP_SPREAD, f["n_alike"] > 0 and f["heap_alike"] <= HEAP_SPREAD)
    report("soak: heap at closing, all days from 2, spread", f["heap_spread"], "B")
    report("soak: heap at closing, all days from 2, range", "%d..%d" % (min(f["heap"][1:] or [0]),
                                                                    max(f["heap"][1:] or [0])), "B")
    report("soak: hours missed (lit at close / dark at open)", "%d / %d" % (f["not_dark"], f["not_lit"]),
           "days", "0 / 0", f["not_dark"] + f["not_lit"] == 0)
    report("soak: moves taken back (takeback)", f["undone"], "moves")
    report("soak: moves a stray touch made first", f["misread"], "moves")
    report("soak: START again / other game / no game", "%d / %d / %d" % (
        f["start_again"], f["other_game"], f["start_failed"]), "visitors", "no game: 0", f["start_failed"] == 0)
    report("soak: a Tobit set-up not wanted, left by START again / not left", "%d / %d" % (
        f["back"], f["back_failed"]), "visitors", "0 not left", f["back_failed"] == 0)
    report("soak: moves not of the game followed", f["desync"], "moves", "0", f["desync"] == 0)
    report("soak: events lost (the bridge's 32)", f["events_lost"], "events", "0", f["events_lost"] == 0)
    report("soak: games against the engine / not begun", "%d / %d" % (
        f["engine_games"], f["engine_not_begun"]), "games", "0 not begun", f["engine_not_begun"] == 0)
    report("soak: engine moves / engine silent", "%d / %d" % (f["engine_moves"], f["engine_silent"]),
           "moves", "0 silent", f["engine_silent"] == 0)
    report("soak: engine moves carried out on the pits / their view confirmed by time before / not seen confirmed",
           "%d / %d / %d" % (f["carried_out"], f["view_by_time"], f["view_unseen"]), "moves", "0 not seen",
           f["view_unseen"] == 0)
    report("soak: Tobit begun by setting its pieces / not begun", "%d / %d" % (
        f["tobit"], f["tobit_failed"]), "games", "0 not begun", f["tobit_failed"] == 0)

if __name__ == "__main__":
    main()
