"""A scripted soak of the web page's simulator (issue 30): hours of board time on one
:class:`~playboard_host.websim.session.Session` whose virtual clock the script drives
(``pump=False``, :meth:`Session.advance`), so 8 board-hours run in minutes.

Every game (toguz, tobit, tobit4, tihbat) in every mode (two players, against the
engine as White and as Black, demo) in turn, New game ``new_games`` times evenly over
the run, the engine at the game's top level (``playboard_host.match.top_level``) in
every fourth round of the sixteen, the players' moves made through the page's own
actions (clicks: taps, lifts, places), takebacks (the page's ``takeback``), and every
``sync_min`` virtual minutes, in games too, with the board's clock running on the
wall clock meanwhile (:meth:`Session.clock_running`): the page's sync into a library
and a ``live`` follower attached over the same USB link (hello, status, live on,
events, the health counters, live off, as ``playboard live`` does).

:func:`run` returns the counts (dict, see there); the caller asserts them.
"""
import collections
import json
import os
import random
import tempfile
import shutil
import time

from playboard_host.gestures import physical_actions
from playboard_host.match import top_level

GAMES = ("toguz", "tobit", "tobit4", "tihbat")
MODES = ("two", "white", "black", "demo")
LIVE_S = 0.3  # wall seconds the follower listens at each attach


def _player_to_move(mode, turn):
    return mode == "two" or (mode == "white" and turn == 0) or (mode == "black" and turn == 1)


class Soak:
    """One soak run: ``minutes`` of virtual board time, ``new_games`` New games,
    a sync and a live attach every ``sync_min`` virtual minutes, ``seed`` for the
    players' choices and pauses (0-3 s)."""

    def __init__(self, minutes=480, new_games=200, sync_min=10, seed=30, progress=None):
        from playboard_host.websim.session import Session

        self.minutes, self.new_games, self.sync_min = minutes, new_games, sync_min
        self.rng = random.Random(seed)
        self.progress = progress
        self.dir = tempfile.mkdtemp(prefix="playboard-soak-")
        self.library = os.path.join(self.dir, "library.sqlite")
        self.c = collections.Counter()
        self.played = collections.Counter()  # (game, moves) of each game with moves
        self.refusals = []  # the link's refused or failed requests, in words
        self.min_free = None
        self.over = False
        self.s = Session(None, game="toguz", mode="two", pump=False, library=self.library,
                         flash_dir=os.path.join(self.dir, "flash"))
        self.pid = self.s.board.proc.pid
        board = self.s.board
        restart = board.restart

        def counted_restart():  # (the host's retry after a MemoryError: a restart too)
            self.c["host_restarts"] += 1
            return restart()
        board.restart = counted_restart

    def now(self):
        return self.s.board.ping()

    def wait(self, ms):
        self.s.advance(ms)

    def act(self, body):
        self.c["actions"] += 1
        try:
            return self.s.act(body)
        except ValueError as e:
            if not self.s.alive():
                raise
            self.c["page_refused"] += 1  # a refusal the position makes (counted, not a failure)
            if self.progress and self.c["page_refused"] <= 5:
                self.progress("page refused %s: %s" % (body, e))
            return None

    # --- the link: the page's sync and a live follower ---------------------------------
    def checkpoint(self):
        """The page's sync, then a live follower attached; the board's clock runs meanwhile."""
        from playboard_host.serial_link import BoardLink, LinkError, open_port

        with self.s.clock_running():
            try:
                new, old = self.s.sync_games()
                self.c["syncs"] += 1
                self.c["synced_new"] += new
            except ValueError as e:
                self.refusals.append("sync: %s" % e)
            try:
                port = open_port(self.s.board.port)
                try:
                    link = BoardLink(port, timeout=5.0, alive=self.s.board.alive)
                    link.hello()
                    link.status()
                    link.live(True)
                    self.step()  # play on while it follows
                    self.c["live_events"] += len(link.wait_events(LIVE_S))
                    h = link.health()
                    self.c["memory_errors_link"] = max(self.c["memory_errors_link"],
                                                       int(h.get("memory_errors", 0)))
                    link.live(False)
                    self.c["live_attaches"] += 1
                finally:
                    port.close()
            except LinkError as e:
                self.refusals.append("live: %s" % e)
        free = self.s.board.mem()["free"]
        self.min_free = free if self.min_free is None else min(self.min_free, free)

    # --- a game ----------------------------------------------------------------------------
    def keep_played(self):
        moves = tuple(self.s._move_texts())
        if moves:
            self.played[(self.s.game_name, moves)] += 1

    def new_game(self, i):
        game, mode = GAMES[i % 4], MODES[(i // 4) % 4]
        level = 2
        if mode != "two" and (i // 16) % 4 == 0:
            level = top_level(game)
            self.c["top_level_games"] += 1
        self.keep_played()
        self.over = False
        self.act({"op": "new", "game": game, "mode": mode, "level": level})
        self.c["new_games"] += 1
        self.c["games_" + game] += 1
        self.c["modes_" + mode] += 1

    def player_move(self):
        s = self.s
        g = s.game
        if g.ply and self.rng.random() < 0.1:
            if self.act({"op": "takeback"}) is not None:
                self.c["takebacks"] += 1
            return
        moves = g.legal_moves()
        if not moves:
            self.wait(1000)
            return
        m = self.rng.choice(moves)
        if not s.game_name.startswith("tobit"):
            self.act({"op": "click", "cell": g.turn * g.n_pits + m})
        else:
            s.act({"op": "putback"})
            for _, point in physical_actions(g, m):
                self.act({"op": "click", "cell": point})
        self.c["player_moves"] += 1

    def step(self):
        s = self.s
        if s.app_state == "setup" or (s.correction and s.game_name.startswith("tobit")):
            # set-up, or the board asks for a correction: the pieces where the LEDs show
            self.act({"op": "setup"})
            self.c["corrections"] += s.app_state == "play"
            self.wait(300)
        elif s.app_state != "play":
            self.wait(1000)
        elif s.engine_move == "pass":  # (Tihbat) the board commits a forced pass itself
            self.wait(500)
            self.c["engine_pass_waits"] += 1
        elif s.engine_move:
            self.wait(self.rng.randint(300, 3000))
            if s.engine_move and self.act({"op": "engine_move"}) is not None:
                self.c["engine_moves"] += 1
        elif s.mode == "demo" or not _player_to_move(s.mode, s.game.turn):
            self.wait(250)  # the engine thinks
        else:
            # a player's pause: 0.4-3 s (the board commits a move 300 ms after its last
            # sensor change), then the player looks again before moving
            ply = s.game.ply
            self.wait(self.rng.randint(400, 3000))
            if (s.app_state == "play" and s.game.ply == ply and not s.engine_move and not s.correction
                    and _player_to_move(s.mode, s.game.turn)):
                self.player_move()
        if s.app_state == "over" and not self.over:
            self.over = True
            self.c["finished"] += 1

    # --- the run ---------------------------------------------------------------------------
    def run(self):
        """Run the soak; return the counts (dict): ``new_games``, ``syncs``, ``live_attaches``,
        ``refused`` (the link's requests refused or failed), ``memory_errors`` (the health
        counters' over the link, the library's and MemoryError in the firmware's stderr and
        events), ``restarts`` (SimBoard.restarts + the host's restarts + process changes),
        ``played`` / ``library_games`` (games with moves) and ``missing``/``extra``/``twice``
        (games played but not synced, synced but not played, synced more than once),
        ``player_moves``, ``engine_moves``, ``takebacks``, ``min_free`` (heap bytes),
        ``board_minutes``, ``wall_s``."""
        t0 = time.monotonic()
        total = self.minutes * 60000
        start = self.now()
        slot = total // self.new_games
        next_sync = start + self.sync_min * 60000
        for i in range(self.new_games):
            self.new_game(i)
            end = start + (i + 1) * slot
            while self.now() < end and self.s.alive():
                if self.now() >= next_sync:
                    self.checkpoint()
                    next_sync += self.sync_min * 60000
                self.step()
            if self.progress:
                self.progress("game %d/%d %s %s: %.0f board-min, %.0f s" % (
                    i + 1, self.new_games, self.s.game_name, self.s.mode,
                    (self.now() - start) / 60000, time.monotonic() - t0))
        # the last game finished (a resignation on the pads: the menu would keep it to
        # resume), then the last sync takes it
        if self.s.app_state == "play":
            self.act({"op": "resign"})
        self.wait(1000)
        self.keep_played()
        self.checkpoint()
        return self.counts(start, t0)

    def counts(self, start, t0):
        from playboard_host.library import Library

        c = dict(self.c)
        lib = Library(self.library)
        try:
            got = collections.Counter()
            uids = collections.Counter()
            for g in lib.games():
                uids[(g.board, g.uid)] += 1
                if g.moves:
                    got[(g.game, tuple(g.moves))] += 1
            health = lib.boards()[0]["health"] if lib.boards() else {}
        finally:
            lib.close()
        stderr = self.s.board.stderr()
        events_mem = sum(1 for e in self.s.events_text if "MemoryError" in e)
        c.update({
            "board_minutes": round((self.now() - start) / 60000, 1),
            "wall_s": round(time.monotonic() - t0, 1),
            "refused": len(self.refusals), "refusals": self.refusals[:5],
            "memory_errors": max(int(health.get("memory_errors", 0)), c.get("memory_errors_link", 0))
            + stderr.count(b"MemoryError" if isinstance(stderr, bytes) else "MemoryError") + events_mem,
            "restarts": self.s.board.restarts + c.get("host_restarts", 0)
            + (0 if self.s.board.proc.pid == self.pid and self.s.alive() else 1),
            "alive": self.s.alive(),
            "played": sum(self.played.values()), "library_games": sum(got.values()),
            "missing": sum((self.played - got).values()),
            "missing_games": [(g, len(m), m[-3:]) for (g, m) in (self.played - got)][:3],
            "extra_games": [(g, len(m), m[-3:]) for (g, m) in (got - self.played)][:3], "extra": sum((got - self.played).values()),
            "twice": sum(v - 1 for v in uids.values() if v > 1),
            "min_free": self.min_free,
        })
        c.pop("memory_errors_link", None)
        return c

    def close(self):
        self.s.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def run(minutes=480, new_games=200, sync_min=10, seed=30, progress=None):
    """Run one soak (see the module text) and return :meth:`Soak.run`'s counts."""
    soak = Soak(minutes, new_games, sync_min, seed, progress)
    try:
        return soak.run()
    finally:
        soak.close()


if __name__ == "__main__":  # a quick look: python -m playboard_host.websim.soak MINUTES NEW_GAMES
    import sys

    a = [int(x) for x in sys.argv[1:3]] or [45, 20]
    print(json.dumps(run(*a, progress=print), indent=1, default=str))
