"""The move tracker: settled occupancy snapshots in, legal moves and what to light out.

Two trackers with one small interface (see docs/tracker.md for the whole story):

- :class:`TobitTracker` (``playboard.board.tobit_tracker``) for Tobit / Tobit 4x4
  (a presence or hall sensor under every point). ``occupancy`` is a ``bytearray``
  (or memoryview) indexed by *point* 1..N (index 0 unused, so its length is at
  least ``n_points + 1``): 0 empty, 1 occupied (presence-only boards) or 1 White /
  2 Black (hall boards with ``colour=True``).
- :class:`MancalaTracker` (``playboard.board.mancala_tracker``) for Toguz Kumalak
  and Tihbat (a sensor or stylus pad per pit). ``occupancy`` is indexed by *cell*,
  the index in ``game.pos`` (Toguz: 0..8 South pits, 9..17 North pits, 18/19
  kazans; Tihbat: 0,1 South, 2,3 North, 4/5 capture counters): 0 off, non-zero
  on. ``press(cell, now_ms)`` is the same selection as an explicit event (a
  button, the simulator).

``playboard.board.trackers.tracker_for(game, **settings)`` builds the right one (importing only its module:
each is compiled apart, which keeps the compiler's peak small on the RP2040).
Both::

    n = tracker.update(occupancy, now_ms)   # once per scan frame; returns n events
    for i in range(n):
        kind, arg = tracker.ev_kind[i], tracker.ev_arg[i]   # EV_* and a point / cell
    tracker.move       # the move of the last EV_COMMITTED / EV_TAKEBACK
    tracker.request    # a LightsRequest: what the LEDs should show (see its version)

The tracker owns the moves of its ``game``: it pushes a move when the board
shows it and pops one on a takeback; the app never pushes directly (the
engine's move goes through :meth:`TobitTracker.expect`). ``now_ms`` is any
millisecond clock that wraps at 2**30 (``time.ticks_ms()``).

Nothing allocates in a frame without a change; a frame with a change matches the
snapshot against masks precomputed once per position (two ints below 2**30 per
38-point mask). A new position (commit, takeback, new game) allocates a little.
"""
from playboard.compat import micropython, const, ptr8, ptr32, MICROPYTHON  # noqa: F401

_MASK = const(0x3FFFFFFF)  # ticks_ms period - 1

# --- events (ev_kind) --------------------------------------------------------------
EV_LIFTED = const(1)  # arg: point / cell whose sensor went off
EV_PLACED = const(2)  # arg: point / cell whose sensor went on (or changed colour)
EV_COMMITTED = const(3)  # arg: ply after the move; the move is ``tracker.move``
EV_TAKEBACK = const(4)  # arg: ply after the takeback; the move taken back is ``tracker.move``
EV_CORRECTION = const(5)  # correction needed: board and game disagree (request.mode CORRECTION)
EV_RESOLVED = const(6)  # the board matches a known position again
EV_AMBIGUOUS = const(7)  # two legal moves give this occupancy: candidates lit (arg: their count)
EV_SETUP_DONE = const(8)  # the set-up position stands
EV_SELECTED = const(9)  # mancala: arg: the pit (cell) selected; followed by EV_COMMITTED
EV_ERROR = const(10)  # mancala: arg: a cell whose event selects nothing (empty, tuzdyk, opponent's)
EV_CONFIRMED = const(11)  # mancala: the sowing was confirmed; arg: the last pit (cell)
_EV_MAX = const(48)

# --- lights request: roles of cells ----------------------------------------------
R_NONE = const(0)
R_TARGET = const(1)  # a legal destination of the piece in hand / a pit the mover may play
R_SELECTED = const(2)  # where the piece in hand came from / the selected pit
R_PATH = const(3)  # a turning point of a capture path (or the engine's path)
R_REMOVE = const(4)  # a piece to take off (captured)
R_CANDIDATE = const(5)  # a point that tells two candidate moves apart (ambiguous)
R_MISSING = const(6)  # correction / set-up: put a (White's, Tobit) piece here
R_EXTRA = const(7)  # correction / set-up: take the piece here off
R_WRONG_COLOUR = const(8)  # hall boards: a piece of the wrong colour stands here
R_ENGINE_FROM = const(9)  # engine move or hint: the piece to move
R_ENGINE_TO = const(10)  # engine move or hint: where it goes
R_SOW = const(11)  # mancala: the pit receives a ball (sow[cell] of them)
R_LAST = const(12)  # mancala: the pit where the last ball lands
R_CAPTURE = const(13)  # mancala: the pit is captured (its balls go to the kazan)
R_TUZDYK = const(14)  # mancala: a tuzdyk (new, in the sowing view; standing, in the choose view)
R_KAZAN = const(15)  # mancala: a kazan / capture counter that grows
R_ERROR = const(16)  # mancala: flash: this event selected nothing
R_LAST_FROM = const(17)  # idle: the last move's start
R_LAST_TO = const(18)  # idle: the last move's end
R_MISSING_BLACK = const(19)  # Tobit correction / set-up: put a Black piece here

# request modes
M_IDLE = const(0)  # the board matches the game; last move shown
M_MOVE = const(1)  # a move in progress: guidance
M_CORRECTION = const(2)  # missing / extra points shown until the board matches
M_SETUP = const(3)  # points to fill / empty for the start position
M_ENGINE = const(4)  # the engine's move to make
M_HINT = const(5)  # a hint shown on the idle board
M_AMBIGUOUS = const(6)  # candidates shown: show the path
M_CHOOSE = const(7)  # mancala: the mover's legal pits
M_SOWING = const(8)  # mancala: the sowing shown, waiting for confirmation
M_OVER = const(9)  # the game is over

# Role -> (lights layer, mark) for paint(): layers and marks of playboard.board.lights
# (LEGAL 0, LAST 1, SOWING 2, ENGINE 3, CAPTURE 4, ERROR 5; marks ON 1, ACCENT 2, BLINK 3,
# ACCENT_BLINK 4).
ROLE_LIGHT = (
    (255, 0), (0, 1), (0, 2), (2, 1), (4, 1), (0, 3), (5, 2), (5, 1), (5, 3),
    (3, 1), (3, 2), (2, 1), (2, 2), (4, 1), (4, 2), (1, 2), (5, 3), (1, 1), (1, 2), (5, 4),
)


class EventOutbox:
    """What one ``update`` (or ``press``) reports: ``n_events`` events, each a kind
    (EV_*) in ``ev_kind`` and an argument (a cell, a count) in ``ev_arg``; at most
    48 a call, preallocated (the rest are dropped)."""

    def _init_events(self):
        self.ev_kind = bytearray(_EV_MAX)
        self.ev_arg = bytearray(_EV_MAX)
        self.n_events = 0

    def _emit(self, kind, arg):
        k = self.n_events
        if k < _EV_MAX:
            self.ev_kind[k] = kind
            self.ev_arg[k] = arg
            self.n_events = k + 1


class LightsRequest:
    """What the tracker wants lit, per cell (a point 1..N, or a ``game.pos`` index).

    - ``roles``: ``bytearray(n_cells)``, one ``R_*`` per cell (0 nothing).
    - ``pair``: ``bytearray(n_cells)``; in correction, each ``R_EXTRA`` cell names
      the ``R_MISSING`` cell its piece should go to (and back), 0 if unpaired.
    - ``sow``: ``bytearray(n_cells)``; mancala sowing view: balls each cell receives.
    - ``mode``: one ``M_*``; ``last``: the mancala last pit cell (255 none).
    - ``count_cell`` / ``count_value`` / ``count_since``: a count display request
      (cell 255: none); see :func:`count_blink`.
    - ``fault``: ``bytearray(n_cells)``; non-zero: the cell's sensor is faulty
      (chattering, stuck) and isolated: ``paint`` shows it as ``R_ERROR`` whatever
      its role (``playboard.board.isolate``).
    - ``version``: grows (mod 2**30) whenever anything above changes: redraw then.
    """

    def __init__(self, n_cells):
        self.n_cells = n_cells
        self.roles = bytearray(n_cells)
        self.pair = bytearray(n_cells)
        self.sow = bytearray(n_cells)
        self.fault = bytearray(n_cells)
        self.mode = M_IDLE
        self.last = 255
        self.count_cell = 255
        self.count_value = 0
        self.count_since = 0
        self.version = 0

    def clear(self, mode):
        """Forget every role and pair; set ``mode``; bump the version."""
        _fill(self.roles, len(self.roles), 0)
        _fill(self.pair, len(self.pair), 0)
        self.mode = mode
        self.version = (self.version + 1) & _MASK


def paint(req, lights, layout=None):
    """Show ``req`` on a ``playboard.board.lights.Lights``: clear layers LEGAL..ERROR
    and mark each cell's role there (``ROLE_LIGHT``). ``layout``: a
    ``playboard.board.layout.Layout`` (its ``led_of(cell)``), a sequence of LED
    indices by cell (negative: no LED), or None (cell == LED). A cell whose sensor is
    faulty (``req.fault``) shows ``R_ERROR``. Call it when ``req.version`` changed;
    allocation-free with a sequence or None."""
    for layer in range(6):
        lights.clear(layer)
    roles = req.roles
    fault = req.fault
    by_method = layout is not None and hasattr(layout, "led_of")
    for c in range(len(roles)):
        r = R_ERROR if fault[c] else roles[c]
        if r:
            if layout is None:
                led = c
            elif by_method:
                try:
                    led = layout.led_of(c)
                except IndexError:
                    led = -1
            else:
                led = layout[c]
            if led >= 0:
                layer_mark = ROLE_LIGHT[r]
                lights.mark(layer_mark[0], led, layer_mark[1])


def count_blink(value, t_ms):
    """Blink code for showing ``value`` (0..255) on one LED, ``t_ms`` after the start.

    Hundreds, tens, units in turn, each digit d as d flashes (hundreds and tens
    long: 500 ms on / 300 off; units short: 150 on / 250 off), 800 ms dark between
    digits and 2 s dark before repeating; a 0 digit (and the value 0) is one
    40 ms flicker. Returns 0 (dark), 1 (short flash) or 2 (long flash)."""
    digits = (value // 100, (value // 10) % 10, value % 10)
    start = 0 if value >= 100 else (1 if value >= 10 else 2)
    period = 0
    for k in range(start, 3):
        period += _digit_ms(digits[k], k) + 800
    period += 1200
    t = t_ms % period
    for k in range(start, 3):
        d = digits[k]
        on, off = (500, 300) if k < 2 else (150, 250)
        if d == 0:
            if t < 40:
                return 1
            t -= 40 + off
        else:
            span = d * (on + off)
            if t < span:
                return (2 if k < 2 else 1) if t % (on + off) < on else 0
            t -= span
        if t < 800:
            return 0
        t -= 800
    return 0


def _digit_ms(d, k):
    on, off = (500, 300) if k < 2 else (150, 250)
    return 40 + off if d == 0 else d * (on + off)


# --- viper helpers (plain Python on CPython) ---------------------------------------
@micropython.viper
def _fill(buf: ptr8, n: int, v: int):
    i = 0
    while i < n:
        buf[i] = v
        i += 1


@micropython.viper
def _differs(a: ptr8, b: ptr8, n: int) -> int:
    """1 if a[0:n] != b[0:n] else 0."""
    i = 0
    while i < n:
        if a[i] != b[i]:
            return 1
        i += 1
    return 0


@micropython.viper
def _take(src: ptr8, dst: ptr8, n: int, chg: ptr8, cap: int) -> int:
    """Copy src into dst; write the indices that changed into chg (up to cap); return how many."""
    k = 0
    i = 0
    while i < n:
        v = src[i]
        if dst[i] != v:
            dst[i] = v
            if k < cap:
                chg[k] = i
                k += 1
        i += 1
    return k


if not MICROPYTHON:  # CPython (host tools, tests): the same answers, at C speed
    def _differs(a, b, n):  # noqa: F811
        return 1 if bytes(a[0:n]) != bytes(b[0:n]) else 0

    def _fill(buf, n, v):  # noqa: F811
        buf[0:n] = bytes([v]) * n


def check_ms(name, v, lo, hi=600000):
    """ValueError unless v is an int in lo..hi (a time setting in ms)."""
    if not isinstance(v, int) or not lo <= v <= hi:
        raise ValueError("tracker: %s must be an int %d..%d ms, got %r" % (name, lo, hi, v))
