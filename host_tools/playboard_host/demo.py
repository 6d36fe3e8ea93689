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

from playboard import pgn
from playboard.board.layout import load_layout
from playboard.board.lights import DEFAULT_COLOURS
from playboard.games import new_game

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

    ``seeds``/``levels``: (South, North) engine seeds and levels (1..8); ``nodes``:
    the node budget of each move (no clock, so the game is the same on any machine).
    Returns the record text (PGN-style, ends with a blank line)."""
    from playboard.engine import Engine

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
            raw = f.read(8 << 20)
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


# --- LED colours by name -------------------------------------------------------------------
# (letter, name, meaning) of each lights layer's colour and accent (playboard.board.lights)
LED_NAMES = (
    (("g", "green", "legal"), ("b", "blue", "selected")),
    (("a", "amber", "last move from"), ("A", "amber", "last move to")),
    (("c", "cyan", "sowing"), ("C", "cyan", "last ball")),
    (("p", "purple", "engine from"), ("P", "purple", "engine to")),
    (("o", "orange", "capture"), ("y", "yellow", "tuzdyk")),
    (("r", "red", "error"), ("m", "magenta", "error")),
    (("w", "white", "menu"), ("u", "blue", "menu")),
)


DEFAULT_BRIGHTNESS = 48  # playboard.link.DEFAULT_SETTINGS["brightness"]: what the board starts with
_GAMMA = 2.2


def shown_colour(colour, brightness=DEFAULT_BRIGHTNESS):
    """What the LED chain receives for a layer ``colour`` (r, g, b) at ``brightness``
    (0..255): the brightness, then the gamma table, as playboard.board.lights does."""
    br = brightness + 1
    return tuple(int(255 * (((v * br) >> 8) / 255.0) ** _GAMMA + 0.5) for v in colour)


_REFS_CACHE = {}


def _refs(brightness):
    r = _REFS_CACHE.get(brightness)
    if r is None:
        r = [(shown_colour(DEFAULT_COLOURS[layer][k], brightness), DEFAULT_COLOURS[layer][k], LED_NAMES[layer][k])
             for layer in range(len(DEFAULT_COLOURS)) for k in (0, 1)]
        _REFS_CACHE[brightness] = r
    return r


def _nearest(rgb, brightness):
    best = None
    bd = None
    for shown, designed, name in _refs(brightness):
        d = (rgb[0] - shown[0]) ** 2 + (rgb[1] - shown[1]) ** 2 + (rgb[2] - shown[2]) ** 2
        if bd is None or d < bd:  # a tie goes to the lower layer (the commoner meaning)
            bd = d
            best = (designed, name)
    return best


def led_name(rgb, brightness=DEFAULT_BRIGHTNESS):
    """(letter, name, meaning) of the lights colour whose shown value at ``brightness``
    is nearest ``rgb`` (an LED as the strip received it), or None for a dark LED."""
    if not (rgb[0] or rgb[1] or rgb[2]):
        return None
    return _nearest(rgb, brightness)[1]


def display_colours(leds, brightness=DEFAULT_BRIGHTNESS):
    """The LED colours ``leds`` (list of (r, g, b) as sent to the strip, dimmed by the
    brightness and gamma) as the page and the terminal draw them: each lit LED in the
    full colour of the lights colour it shows (dark stays (0, 0, 0))."""
    out = []
    for c in leds:
        if not (c[0] or c[1] or c[2]):
            out.append((0, 0, 0))
            continue
        designed = _nearest(c, brightness)[0]
        top = max(designed) or 1
        out.append(tuple(int(v * 255 / top + 0.5) for v in designed))
    return out


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
            lines.append(margin + line.rstrip())
        return "\n".join(lines)

    def legend(self, leds, colour=False):
        """One line naming the colours lit in ``leds`` and what they mean."""
        seen = []
        for c in self.layout.cells:
            led = self.layout.led_of(c)
            if 0 <= led < len(leds):
                nm = led_name(leds[led])
                if nm and nm not in seen:
                    seen.append(nm)
        if not seen:
            return "LEDs: all dark"
        if colour:
            return "LEDs: " + ", ".join("%s = %s" % (n[1], n[2]) for n in seen)
        return "LEDs: " + ", ".join("%s %s = %s" % (n[0], n[1], n[2]) for n in seen)


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
    out[n] = "K:%d" % pos[n]
    out[n + 1] = "K:%d" % pos[n + 1]
    return out


def write(stream, text):
    """Write a line to ``stream`` and flush it (the demo shows progress as it goes)."""
    stream.write(text + "\n")
    stream.flush()


if __name__ == "__main__":  # regenerate the bundled record: python -m playboard_host.demo > FILE
    sys.stdout.write(make_demo_record())
