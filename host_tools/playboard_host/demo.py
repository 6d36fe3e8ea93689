"""The demo's parts that need no board: the bundled record, reading a record file,
and the terminal picture of a board with its LED colours.

- :func:`demo_record_path` / :func:`make_demo_record`: our own Toguz Kumalak game
  (``data/demo-toguz.pgn``), played by the engine against itself with fixed seeds
  and node budgets, so the same code makes the same game again.
- :func:`load_record`: the game a record file holds, replayed through the rules core;
  :class:`DemoError` with a one-line reason for anything that is not a game record.
- :class:`Picture`: text pictures of one game's cells placed by the layout's x, y (mm),
  each cell in the colour its LED shows (ANSI 256 colours) or, in plain text, with a
  letter naming the colour (:data:`LED_NAMES`).
"""
import os
import sys
import time

from playboard import pgn
from playboard.board.layout import load_layout
from playboard.games.registry import new_game

from playboard_host.gestures import press_pad, new_board_game, physical_actions
from playboard_host.leds import meaning, led_name, display_colours
from playboard_host.words import about, game_over_words

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
DEMO_RECORD = "demo-toguz.pgn"
# how the bundled game was made (make_demo_record's defaults)
DEMO_SEEDS = (11, 111)
DEMO_LEVELS = (6, 5)
DEMO_NODES = 3000


class DemoError(Exception):
    """A record file the demo can't play (missing, unreadable, not a game record, illegal moves)."""


def demo_record_path():
    """Path of the bundled demo record (a Toguz Kumalak game of our own)."""
    return os.path.join(DATA_DIR, DEMO_RECORD)


def make_demo_record(seeds=DEMO_SEEDS, levels=DEMO_LEVELS, nodes=DEMO_NODES, date="2026.11.30"):
    """The text of a Toguz Kumalak record played by the engine against itself.

    ``seeds``/``levels``: (South, North) engine seeds and levels (1..9); ``nodes``:
    the node budget of each move (no clock, so the game is the same on any machine).
    Returns the record text (PGN-style, ends with a blank line)."""
    from playboard.engine.search import Engine

    g = new_game("toguz")
    engines = (Engine(tt_size=1024, seed=seeds[0]), Engine(tt_size=1024, seed=seeds[1]))
    texts = []
    while not g.is_game_over():
        e = engines[g.turn]
        e.think(g, level=levels[g.turn], nodes=nodes)
        texts.append(g.move_text(e.best_move))
        g.push(e.best_move)
    tags = {
        "Event": "Playboard demo game",
        "Site": "made by playboard_host.demo.make_demo_record (engine against itself)",
        "Date": date,
        "White": "Playboard engine L%d (seed %d)" % (levels[0], seeds[0]),
        "Black": "Playboard engine L%d (seed %d)" % (levels[1], seeds[1]),
        "Result": g.result(),
        "Game": "toguz",
        "Termination": g.termination,
        "FinalPosition": g.fen(),
    }
    return pgn.format_game(tags, texts)


def load_record(path, number=1):
    """``(record, game)``: game ``number`` (1-based) of the record file at ``path``,
    and the rules core after replaying it (its final position).

    DemoError, with the file's name and the reason, for a missing or unreadable file,
    a file that is not a PGN-style game record (binary, no tags, no Game tag, no
    moves), a game number past the file's games, or a move the rules refuse."""
    name = os.path.basename(path)
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise DemoError("can't read record file %s: %s" % (path, e.strerror or e))
    if b"\0" in raw:
        raise DemoError("%s is not a game record (it is a binary file)" % name)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise DemoError("%s is not a game record (not UTF-8 text)" % name)
    try:
        k = 0
        rec = None
        for rec in pgn.read_games(text.splitlines()):
            k += 1
            if k == number:
                break
    except pgn.RecordError as e:
        raise DemoError("%s is not a game record: %s" % (name, e))
    if k < number:
        if k == 0:
            raise DemoError("%s is not a game record (no [Tag \"value\"] lines, no moves)" % name)
        raise DemoError("%s holds %d game%s, no game %d" % (name, k, "" if k == 1 else "s", number))
    if not rec.moves:
        raise DemoError("%s: game %d has no moves to play" % (name, number))
    try:
        g, _ = pgn.replay(rec)
    except pgn.RecordError as e:
        raise DemoError("%s is not a playable game record: %s" % (name, e))
    return rec, g


def colour_wanted(stream, mode="auto"):
    """Whether to write ANSI colours to ``stream``: ``mode`` "always", "never" or
    "auto" (a terminal that is not ``TERM=dumb``, and no ``NO_COLOR`` set)."""
    if mode == "always":
        return True
    if mode == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("TERM", "") in ("", "dumb"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _ansi256(rgb):
    r, g, b = (int(v * 5 / 255 + 0.5) for v in rgb)
    return 16 + 36 * r + 6 * g + b


class Picture:
    """Text pictures of ``game``'s cells on the physical layout ``layout_name``.

    Cells are placed by their x, y in mm (North/Black at the top), ``CELL`` characters
    wide. ``render(contents, leds, colour)``: ``contents`` maps cell -> short text
    (a piece letter, a count); ``leds`` is the list of all LEDs' (r, g, b) as shown.
    """

    CELL = 4

    def __init__(self, game, layout_name="default", layout=None):
        self.layout = layout or load_layout(game, layout_name)
        lay = self.layout
        xs = sorted(set(lay.xy_mm(c)[0] for c in lay.cells))
        diffs = [b - a for a, b in zip(xs, xs[1:])]
        # the grid pitch: the commonest gap between neighbouring x values
        self.pitch = max(set(diffs), key=diffs.count) if diffs else 40
        self.x0 = xs[0]
        self.rows = sorted(set(lay.xy_mm(c)[1] for c in lay.cells), reverse=True)
        self.game = game

    def column(self, cell):
        """Character column of ``cell``'s left edge."""
        x = self.layout.xy_mm(cell)[0]
        return int(round((x - self.x0) * self.CELL / float(self.pitch)))

    def render(self, contents, leds, colour=False, margin="  "):
        """The picture (str, lines joined by newlines, no trailing newline)."""
        lay = self.layout
        shown = display_colours(leds)
        lines = []
        for y in self.rows:
            cells = sorted((c for c in lay.cells if lay.xy_mm(c)[1] == y), key=self.column)
            line = ""
            for c in cells:
                col = self.column(c)
                if len(line) < col:
                    line += " " * (col - len(line))
                text = contents.get(c, "")
                led = lay.led_of(c)
                rgb = leds[led] if 0 <= led < len(leds) else (0, 0, 0)
                w = max(self.CELL, len(text) + 2)
                if colour:
                    body = text.center(w - 1) + " "
                    if rgb[0] or rgb[1] or rgb[2]:
                        d = shown[led]
                        fg = 16 if (d[0] * 299 + d[1] * 587 + d[2] * 114) > 110000 else 231
                        body = "\x1b[48;5;%d;38;5;%dm%s\x1b[0m" % (_ansi256(d), fg, body[:-1]) + " "
                    line += body
                else:
                    nm = led_name(rgb)
                    line += (text.rjust(w - 2) + (nm[0] if nm else " ") + " ")
            if self.game.startswith("tobit"):  # the point numbers the moves are written in (RULES.md 2.2)
                line = line.rstrip().ljust(self.width()) + "   points %d-%d" % (min(cells), max(cells))
            lines.append(margin + self.row_label(cells).ljust(6) + line.rstrip())
        return "\n".join(lines)

    def width(self):
        """Characters of the widest row of cells (the point numbers are written beside it)."""
        return max(self.column(c) for c in self.layout.cells) + self.CELL

    def row_label(self, cells):
        """"North" / "South" for a row of mancala pits, "kazans" / "capt." for the row of
        stores (each written S:n, N:n), "" otherwise."""
        if self.game.startswith("tobit"):
            return ""
        pits = [c for c in cells if self.layout.kind(c) == "pit"]
        if not pits:
            return "kazans" if self.game == "toguz" else "capt."
        n = 9 if self.game == "toguz" else 2
        return "South" if pits[0] < n else "North"

    def legend(self, leds, colour=False):
        """One line naming the colours lit in ``leds`` and what they mean."""
        seen = []
        for c in self.layout.cells:
            led = self.layout.led_of(c)
            if 0 <= led < len(leds):
                nm = led_name(leds[led])
                if nm:
                    nm = meaning(nm, self.game)
                    if nm not in seen:
                        seen.append(nm)
        if not seen:
            return "LEDs: all dark"
        if colour:
            return "LEDs: " + "; ".join("%s = %s" % (n[1], n[2]) for n in seen)
        return "LEDs: " + "; ".join("%s %s = %s" % (n[0], n[1], n[2]) for n in seen)


def contents_of(g, occupancy=None):
    """Cell texts of rules core ``g``: Tobit pieces (w b W B, or what the sensors say
    in ``occupancy``: a dict point -> 0/1), mancala pit counts, ``X`` on a tuzdyk and
    the kazans / capture counters."""
    out = {}
    if g.name in ("tobit", "tobit4"):
        sym = {0: ".", 1: "w", 2: "b", 5: "W", 6: "B"}
        for p in range(1, g.n_points + 1):
            v = g.board[p]
            s = sym.get(v, "?")
            if occupancy is not None:
                on = occupancy.get(p, 0)
                if on and not v:
                    s = "o"  # a piece the sensors see where the game has none
                elif v and not on:
                    s = "_"  # lifted
            out[p] = s
        return out
    pos = g.pos
    n = 2 * g.n_pits
    for c in range(n):
        out[c] = "%d" % pos[c]
    if g.name == "toguz":
        for side in (0, 1):
            t = g.tuzdyk_of(side)
            if t is not None:
                out[t] = "X"
    # South's and North's kazans (Tihbat's captured counters): their row says which
    out[n] = "S:%d" % pos[n]
    out[n + 1] = "N:%d" % pos[n + 1]
    return out


def write(stream, text):
    """Write a line to ``stream`` and flush it (the demo shows progress as it goes)."""
    stream.write(text + "\n")
    stream.flush()


# --- the demo run on the simulated board ------------------------------------------------------
SIDES = {"toguz": ("South", "North"), "tihbat": ("South", "North"), "tobit": ("White", "Black"),
         "tobit4": ("White", "Black")}
CONFIRM_MS = 2600  # the board confirms a sowing this long after the last sensor event (lift mode: 2500)
STEP_MS = 50
MAX_TOBIT_PLIES = 120


class Runner:
    """Plays games on a started ``playboard_host.simboard.SimBoard`` through its sensors and
    prints what happens to ``out``: moves, pictures with LED colours, captures, results."""

    def __init__(self, board, out, colour=False, every=1, quiet=False):
        self.board = board
        self.out = out
        self.colour = colour
        self.every = max(1, every)
        self.quiet = quiet
        self.pictures = {}
        self.last_picture = None
        self.pending = []  # events read but not yet used
        self.seen = []

    def say(self, text=""):
        write(self.out, text)

    # --- the board ----------------------------------------------------------------------
    def wait_for(self, kinds, max_ms, step=STEP_MS, when=None):
        """Advance the board in ``step`` ms until an event of one of ``kinds`` (for which
        ``when(event)`` is true, if given) arrives; returns it (events before it are kept
        in ``seen``), or None after ``max_ms``."""
        waited = 0
        while True:
            while self.pending:
                ev = self.pending.pop(0)
                self.seen.append(ev)
                if ev.get("ev") in kinds and (when is None or when(ev)):
                    return ev
            if waited >= max_ms:
                return None
            self.board.advance(step)
            waited += step
            self.pending.extend(self.board.events())

    def picture(self, g):
        if self.quiet:
            return
        pic = self.pictures.get(g.name)
        if pic is None:
            pic = self.pictures[g.name] = Picture(g.name)
        occ = None
        if g.name.startswith("tobit"):
            sensors = self.board.sensors()
            occ = {p: sensors[pic.layout.sensor_of(p)] for p in range(1, g.n_points + 1)}
        leds = self.board.leds()
        text = pic.render(contents_of(g, occ), leds, self.colour)
        if text == self.last_picture:
            return  # the board looks as it did in the last picture
        self.last_picture = text
        self.say(text)
        self.say("  " + pic.legend(leds, self.colour))

    def new_game(self, name, mode, level=3):
        self.seen = []
        new_board_game(self.board, name, mode, level)
        self.pending = []
        self.board.advance(100)
        self.pending.extend(self.board.events())

    def set_up(self, g):
        """Stand ``g``'s Tobit pieces on the board and wait until the board has seen them."""
        for p in range(1, g.n_points + 1):
            if g.board[p]:
                self.board.place(p)
        if self.wait_for(("setup",), 3000, when=lambda ev: ev.get("done")) is None:
            raise DemoError("the board did not accept the set-up position")

    def physical(self, g, m):
        """Make move ``m`` of game ``g`` on the board's sensors (before the host pushes it)."""
        if g.name.startswith("tobit"):
            for act, p in physical_actions(g, m):
                if act == "lift":
                    self.board.lift(p)
                else:
                    self.board.place(p)
                self.board.advance(120)
                self.pending.extend(self.board.events())
        elif m != getattr(g, "PASS", -1) and 0 <= m < g.n_pits:
            self.board.tap(g.turn * g.n_pits + m)

    def committed(self, g, text, max_ms=6000):
        """Wait for the board to commit a move; check it is ``text`` (in ``g`` before the push)."""
        ev = self.wait_for(("move",), max_ms)
        if ev is None:
            raise DemoError("the board did not commit %s (ply %d)" % (text, g.ply + 1))
        if g.parse_move(ev["move"]) != g.parse_move(text):
            raise DemoError("the board committed %s where the game has %s (ply %d)"
                            % (ev["move"], text, g.ply + 1))
        return ev["move"]

    # --- a recorded game -----------------------------------------------------------------
    def play_record(self, rec, final):
        """Play every move of record ``rec`` on the board; compare with ``final`` (the
        rules core replayed on the host). Returns the board's game (host copy)."""
        name = rec.tags["Game"]
        sides = SIDES[name]
        g = new_game(name, rec.tags.get("FEN"))
        # what is true: the record's game (its players as it names them) replayed by hand
        # on the board, which records a two-player game (Mode "two": Player - Player)
        self.say("== %s: the recorded game %s, its moves made by hand on the board"
                 % (name, " - ".join(rec.tags.get(k, "?") for k in ("White", "Black"))))
        self.say("   (the board records it as a game for two: Player - Player)")
        self.about(name)
        if rec.tags.get("Event"):
            self.say("   %s, %s" % (rec.tags["Event"], rec.tags.get("Date", "?")))
        if rec.tags.get("FEN"):
            raise DemoError("the demo plays games from the start position (this one has a FEN tag)")
        self.new_game(name, "two")
        if name.startswith("tobit"):
            self.set_up(g)
        elif not self.quiet:
            self.say("   (each player numbers the pits 1..%d from their own left: South's run left to right, "
                     "North's right to left; the row between them: %s, S: South's, N: North's)"
                     % (g.n_pits, "the kazans" if name == "toguz" else "the captured counters"))
        self.picture(g)
        for i, text in enumerate(rec.moves):
            m = g.parse_move(text)
            before = bytearray(g.pos) if hasattr(g, "pos") else None
            self.physical(g, m)
            board_text = self.committed(g, text)
            line = "%3d%s %s %-8s" % (g.ply // 2 + 1, "." if g.turn == 0 else "...", sides[g.turn], board_text)
            cap = g.captured_points(m) if name.startswith("tobit") else None
            g.push(m)
            line += self.describe(g, before, cap)
            self.say(line)
            if not self.quiet and ((i + 1) % self.every == 0 or i + 1 == len(rec.moves)):
                self.picture(g)
            if not name.startswith("tobit"):
                self.board.advance(CONFIRM_MS)  # the sowing view, then the board confirms it
                self.pending.extend(self.board.events())
        over = None
        if g.is_game_over():
            over = self.wait_for(("over",), 4000)
        else:
            res = rec.tags.get("Result", rec.result or "*")
            if res in ("1-0", "0-1"):
                self.say("The record ends %s without the rules ending the game: %s resigns on the board's pads"
                         % (res, sides[0 if res == "0-1" else 1]))
                over = self.resign(0 if res == "0-1" else 1, name)
            elif res == "1/2-1/2":
                self.say("The record ends in a draw by agreement: both players press their draw pads")
                over = self.agree_draw(name)
        self.report(g, rec, final, over)
        return g

    def about(self, name):
        """Say what the game is and how it is won (playboard_host.words.ABOUT), unless quiet."""
        if not self.quiet:
            import textwrap

            for line in textwrap.wrap(about(name), 92):
                self.say("   " + line)

    def describe(self, g, before, captured):
        if captured is not None:
            return ("  captures %s" % ", ".join(str(p) for p in captured)) if captured else ""
        n = 2 * g.n_pits
        got = [g.pos[n] - before[n], g.pos[n + 1] - before[n + 1]]
        mover = 1 - g.turn
        sides = SIDES[g.name]
        store = "kazan" if g.name == "toguz" else "captures"
        parts = []
        for side in (mover, 1 - mover):
            if got[side]:  # the other side's kazan grows when the sowing feeds its tuzdyk
                parts.append("+%d to %s's %s%s" % (got[side], sides[side], store,
                                                   "" if side == mover else " (its tuzdyk)"))
        if g.name == "toguz" and g.last_flags() & 2:
            parts.append("tuzdyk")
        store = "kazans" if g.name == "toguz" else "captured"
        return "%-44s %s %d : %d" % ("  " + ", ".join(parts), store, g.pos[n], g.pos[n + 1])

    def report(self, g, rec, final, over):
        if hasattr(g, "pos"):
            n = 2 * g.n_pits
            mine = (g.pos[n], g.pos[n + 1])
            theirs = (final.pos[n], final.pos[n + 1])
            store = "kazans" if g.name == "toguz" else "captures"
            self.say("Final %s on the board %d : %d; the record's %d : %d: %s"
                     % (store, mine[0], mine[1], theirs[0], theirs[1], "equal" if mine == theirs else "DIFFERENT"))
            if mine != theirs:
                raise DemoError("the board's final %s differ from the record's" % store)
        if g.fen() != final.fen():
            raise DemoError("the board's final position %s differs from the record's %s" % (g.fen(), final.fen()))
        res = over["result"] if over else rec.tags.get("Result", "*")
        why = (over or {}).get("termination") or rec.tags.get("Termination", "")
        self.say("Result %s: %s (the record: %s); %d moves, all committed by the board"
                 % (res, game_over_words(g.name, res, why or None, g), rec.tags.get("Result", "*"), len(rec.moves)))

    # --- Tobit against the engine ---------------------------------------------------------
    def play_engine_game(self, name="tobit", level=3, player_level=8, seed=6, player_nodes=3000):
        """A game of ``name``: the demo player (the host's engine at ``player_level``)
        has White and moves the pieces; the board's engine at ``level`` has Black, and
        the demo makes each move its LEDs show. Returns (game, result, termination)."""
        from playboard.engine.search import Engine

        sides = SIDES[name]
        g = new_game(name)
        self.say("")
        self.say("== %s against the board's engine (level %d): White is the demo player" % (name, level))
        self.about(name)
        self.new_game(name, "white", level)
        self.set_up(g)
        self.picture(g)
        me = Engine(tt_size=1024, seed=seed)
        over = None
        while not g.is_game_over() and g.ply < MAX_TOBIT_PLIES:
            who = "the demo player" if g.turn == 0 else "the board's engine"
            if g.turn == 0:
                me.think(g, level=player_level, nodes=player_nodes)
                m = me.best_move
                note = ""
            else:
                ev = self.wait_for(("engine", "over"), 30000)
                if ev is None or ev.get("ev") == "over":
                    over = ev
                    break
                m = g.parse_move(ev["move"])
                note = ("  (its only move; LEDs show it in purple)" if not ev.get("nodes") else
                        "  (searched to depth %s, %s nodes; LEDs show it in purple)"
                        % (ev.get("depth"), ev.get("nodes")))
                if not self.quiet:
                    self.say("%3d... the board's engine shows %s%s" % (g.ply // 2 + 1, ev["move"], note))
                    self.picture(g)
            text = g.move_text(m)
            cap = g.captured_points(m)
            self.physical(g, m)
            board_text = self.committed(g, text)
            line = "%3d%s %s %-12s" % (g.ply // 2 + 1, "." if g.turn == 0 else "...", sides[g.turn], board_text)
            g.push(m)
            line += " (%s)" % who
            if cap:
                line += "  captures %s" % ", ".join(str(p) for p in cap)
            self.say(line)
            if not self.quiet and (g.ply % self.every == 0 or g.is_game_over()):
                self.picture(g)
        if over is None:
            over = self.wait_for(("over",), 4000)
        if over is None and not g.is_game_over():
            self.say("The demo player resigns after %d plies" % g.ply)
            over = self.resign(0)
        res = over["result"] if over else g.result()
        why = (over or {}).get("termination") or g.termination
        self.say("Result %s: %s, after %d plies" % (res, game_over_words(name, res, why, g), g.ply))
        return g, res, why

    def press_pad(self, game, k):
        """Press play pad ``k`` during ``game`` (see :func:`press_pad`)."""
        press_pad(self.board, game, k)
        self.pending.extend(self.board.events())

    def resign(self, side, game="tobit"):
        """Side ``side`` (0 White/South, 1 Black/North) resigns: its resign pad pressed
        twice. Returns the board's ``over`` event (or None)."""
        for _ in range(2):
            self.press_pad(game, 1 if side == 0 else 3)
        return self.wait_for(("over",), 3000)

    def agree_draw(self, game):
        """White offers a draw on its pad and Black accepts on its own."""
        self.press_pad(game, 0)
        self.press_pad(game, 2)
        return self.wait_for(("over",), 3000)


def sync_and_export(board, library, out, export_path=None):
    """Run ``playboard sync`` on the board's link (its pseudo-terminal) into ``library``,
    then ``playboard export``; the board's clock runs in a thread meanwhile.
    Returns the exported text."""
    import contextlib
    import io
    import threading

    from playboard_host import cli

    stop = threading.Event()
    failed = []

    def pump():
        while not stop.is_set():
            try:
                board.advance(10)
            except Exception as e:  # the board died: the sync reports it
                failed.append(e)
                return
            time.sleep(0.002)

    t = threading.Thread(target=pump, daemon=True)
    t.start()
    try:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            # 3 s an answer: a board short of heap after a game loads the link's code
            # again a second after a MemoryError (docs/app.md "Memory"); past the
            # tries, the link waits while the board's process runs (a busy machine
            # runs it late: serial_link.SIMULATED_PORTS), and stops once it has ended
            code = cli.main(["sync", "--port", board.port, "--library", library, "--quiet",
                             "--timeout", "3"])
    finally:
        stop.set()
        t.join(5)
    write(out, buf.getvalue().rstrip())
    if code:
        raise DemoError("the sync of the simulated board failed%s" % (": %s" % failed[0] if failed else ""))
    buf = io.StringIO()
    args = ["export", "--library", library]
    with contextlib.redirect_stdout(buf):
        code = cli.main(args)
    if code:
        raise DemoError("playboard export failed")
    text = buf.getvalue()
    if export_path:
        with open(export_path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    return text


def run_demo(args, rec, final, out):
    """The whole `playboard demo` (see commands/demo.py); returns the exit status."""
    import shutil
    import tempfile

    from playboard_host.simboard import MODEL_HEAP, SimBoard, SimError

    colour = colour_wanted(out, args.colour)
    tmp = tempfile.mkdtemp(prefix="playboard-demo-")
    library = args.library or os.path.join(tmp, "library.sqlite")
    t0 = time.monotonic()
    board = None
    try:
        board = SimBoard(heap=getattr(args, "heap", None) or MODEL_HEAP)
        ready = board.start("sim", fs_dir=os.path.join(tmp, "flash"), think="nodes")
        write(out, "The real firmware runs under MicroPython (heap %s) on the simulated board: %d sensors, %d LEDs."
              % (board.heap, ready["n_sensors"], ready["n_leds"]))
        write(out, "Every move below is made through the board's sensors; the pictures show its LEDs%s."
              % (" in colour" if colour else " (letters name the colours)"))
        write(out, "")
        r = Runner(board, out, colour, args.every, args.quiet)
        r.play_record(rec, final)
        n_games = 1
        if args.tobit:
            r.play_engine_game("tobit", args.level)
            n_games += 1
        write(out, "")
        write(out, "== syncing the games over the board's USB serial link (%s) into %s" % (board.port, library))
        text = sync_and_export(board, library, out, args.export)
        recs = list(pgn.read_games(text.splitlines()))
        write(out, "== exported records (playboard export):")
        write(out, text.rstrip())
        mine = [x for x in recs if x.tags.get("Game") == rec.tags["Game"] and x.moves == rec.moves]
        write(out, "")
        if rec.tags.get("Result", rec.result or "*") == "*" and not final.is_game_over():
            write(out, "The record's game has no result: the board keeps it as an unfinished game, not synced.")
        else:
            write(out, "The exported %s game's %d moves are %s the record's."
                  % (rec.tags["Game"], len(rec.moves), "equal to" if mine else "NOT equal to"))
            if not mine:
                raise DemoError("the exported game differs from the record")
        synced = len(recs)
        write(out, "Demo done in %.1f s (%d game%s played, %d synced and exported)."
              % (time.monotonic() - t0, n_games, "" if n_games == 1 else "s", synced))
        return 0
    except SimError as e:
        from playboard_host.cli import CommandError

        raise CommandError("the simulated board failed: %s" % e)
    except DemoError as e:
        from playboard_host.cli import CommandError

        raise CommandError(str(e))
    finally:
        if board is not None:
            try:
                board.stop()
            except Exception:
                pass
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":  # regenerate the bundled record: python -m playboard_host.demo > FILE
    sys.stdout.write(make_demo_record())
