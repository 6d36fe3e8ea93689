"""Where each point or pit of a game sits on the physical board: sensor, LED, x/y in mm.

A layout file (``firmware/boards/layout_<name>.json``, made by
``hardware/layout_gen.py``; the default board is described in docs/hardware.md)
lists, for each game, its *cells* as ``[cell, sensor, led, x_mm, y_mm, kind]``:

- cells are the rules cores' indices: Tobit points 1..N (``g.board`` index),
  Toguz Kumalak pits 0..17 and kazans 18, 19 (``g.pos`` index), Tihbat pits 0..3
  and captured-counter displays 4, 5 (``g.pos`` index);
- sensor / led: index into the board's sensor scan / LED chain, -1 for none
  (kazans and counters have an LED but no sensor);
- x, y in mm from White's (South's) bottom-left corner, y away from White;
- kind: ``point``, ``pit``, ``kazan`` or ``counter``.

>>> lay = load_layout("tobit")
>>> lay.sensor_of(7), lay.led_of(7), lay.xy_mm(7)
(6, 26, (120, 280))
>>> lay.cell_of_sensor(6)
7

Lookups are table reads (bytearrays), no allocation except ``xy_mm`` and the list
helpers. ``occupancy(stable, out)`` maps a sensor snapshot to cells in one pass.
"""
from array import array

from playboard.compat import const, exists

_NONE = const(255)
KINDS = ("point", "pit", "kazan", "counter")
GAMES = ("toguz", "tobit", "tobit4", "tihbat")


def _dirname(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else ("/" if i == 0 else ".")


def boards_dir():
    """Folder of board definitions and layouts: ``<firmware>/boards`` (``/boards`` on the
    board); where that is missing, ``playboard/boards`` inside the package (an installed
    wheel of the host tools packs them there: pyproject.toml)."""
    f = __file__.replace("\\", "/")
    here = _dirname(_dirname(_dirname(f)))
    d = (here if here != "/" else "") + "/boards" if here not in (".", "") else "boards"
    if not exists(d):
        packed = _dirname(_dirname(f)) + "/boards"
        if exists(packed):
            return packed
    return d


class LayoutError(ValueError):
    """A layout file that is missing, malformed or inconsistent (the message says where)."""


class Layout:
    """One game's cells on one physical board. Build with :func:`load_layout`.

    Attributes: ``game``, ``name`` (the physical layout), ``cells`` (list of cell
    numbers in file order), ``n_sensors``, ``n_leds``, ``size_mm`` ((w, h)).
    """

    def __init__(self, game, name, rows, n_sensors, n_leds, size_mm=(0, 0)):
        where = "layout %r, game %r" % (name, game)
        self.game = game
        self.name = name
        self.n_sensors = n_sensors
        self.n_leds = n_leds
        self.size_mm = (size_mm[0], size_mm[1])
        if not rows:
            raise LayoutError("%s: no cells" % where)
        top = 0
        for row in rows:
            if len(row) != 6:
                raise LayoutError("%s: cell %r: expected [cell, sensor, led, x, y, kind]" % (where, row))
            if not (isinstance(row[0], int) and 0 <= row[0] < 250):
                raise LayoutError("%s: bad cell number %r" % (where, row[0]))
            top = max(top, row[0])
        n = top + 1
        self.n_cells = n
        self._sensor = bytearray(b"\xff" * n)
        self._led = bytearray(b"\xff" * n)
        self._kind = bytearray(b"\xff" * n)
        self._xy = array("h", bytes(4 * n))
        self._cell_of_sensor = bytearray(b"\xff" * n_sensors)
        self._cell_of_led = bytearray(b"\xff" * n_leds)
        self.cells = []
        for row in rows:
            c, s, led, x, y, kind = row
            if self._kind[c] != _NONE:
                raise LayoutError("%s: cell %d listed twice" % (where, c))
            if kind not in KINDS:
                raise LayoutError("%s: cell %d: kind %r not one of %s" % (where, c, kind, KINDS))
            if not (isinstance(s, int) and -1 <= s < n_sensors):
                raise LayoutError("%s: cell %d: sensor %r not in -1..%d" % (where, c, s, n_sensors - 1))
            if not (isinstance(led, int) and -1 <= led < n_leds):
                raise LayoutError("%s: cell %d: led %r not in -1..%d" % (where, c, led, n_leds - 1))
            if not (isinstance(x, int) and isinstance(y, int) and 0 <= x <= 30000 and 0 <= y <= 30000):
                raise LayoutError("%s: cell %d: x, y %r, %r not whole mm in 0..30000" % (where, c, x, y))
            if s >= 0:
                if self._cell_of_sensor[s] != _NONE:
                    raise LayoutError("%s: sensor %d under cells %d and %d"
                                      % (where, s, self._cell_of_sensor[s], c))
                self._cell_of_sensor[s] = c
                self._sensor[c] = s
            if led >= 0:
                if self._cell_of_led[led] != _NONE:
                    raise LayoutError("%s: LED %d under cells %d and %d"
                                      % (where, led, self._cell_of_led[led], c))
                self._cell_of_led[led] = c
                self._led[c] = led
            self._kind[c] = KINDS.index(kind)
            self._xy[2 * c] = x
            self._xy[2 * c + 1] = y
            self.cells.append(c)

    def _check(self, cell):
        if not (0 <= cell < self.n_cells) or self._kind[cell] == _NONE:
            raise IndexError("%s layout has no cell %r" % (self.game, cell))

    def sensor_of(self, cell):
        """Sensor index under ``cell``, or -1 if it has none. IndexError for an unknown cell."""
        self._check(cell)
        s = self._sensor[cell]
        return -1 if s == _NONE else s

    def led_of(self, cell):
        """LED index under ``cell``, or -1 if it has none. IndexError for an unknown cell."""
        self._check(cell)
        v = self._led[cell]
        return -1 if v == _NONE else v

    def cell_of_sensor(self, sensor):
        """Cell above sensor index ``sensor``, or -1 when the game does not use it."""
        if not 0 <= sensor < self.n_sensors:
            return -1
        c = self._cell_of_sensor[sensor]
        return -1 if c == _NONE else c

    def cell_of_led(self, led):
        """Cell above LED index ``led``, or -1."""
        if not 0 <= led < self.n_leds:
            return -1
        c = self._cell_of_led[led]
        return -1 if c == _NONE else c

    def xy_mm(self, cell):
        """(x, y) of ``cell`` in mm from White's bottom-left corner."""
        self._check(cell)
        return (self._xy[2 * cell], self._xy[2 * cell + 1])

    def kind(self, cell):
        """``"point"``, ``"pit"``, ``"kazan"`` or ``"counter"``."""
        self._check(cell)
        return KINDS[self._kind[cell]]

    def sensors(self):
        """List of the sensor indices this game uses, ascending."""
        return [s for s in range(self.n_sensors) if self._cell_of_sensor[s] != _NONE]

    def occupancy(self, stable, out):
        """Fill out[cell] = stable[sensor_of(cell)] for every cell with a sensor (0 else).

        ``stable``: sensor snapshot (e.g. Debouncer.stable); ``out``: bytearray of at
        least n_cells. No allocation.
        """
        sen = self._sensor
        for c in range(self.n_cells):
            s = sen[c]
            out[c] = 0 if s == _NONE else stable[s]


def read_layout_file(path):
    """Parse a layout JSON file into a dict (where flash has none, the frozen image's
    copy); LayoutError if missing or not JSON."""
    import json
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        pass
    except ValueError as e:
        raise LayoutError("layout file %s is not valid JSON: %s" % (path, e))
    from playboard.compat import frozen_file
    data = frozen_file(path)  # the image's own copy where flash has none
    if data is None:
        raise LayoutError("layout file %s not found" % path)
    return json.loads(data)


def load_layout(game, name="default", path=None, data=None):
    """The :class:`Layout` of ``game`` on the physical board ``name``.

    Reads ``<boards_dir>/layout_<name>.json`` (or ``path``, or an already parsed
    ``data`` dict). LayoutError for a missing file, an unknown game or bad data.
    """
    if data is None:
        if path is None:
            path = "%s/layout_%s.json" % (boards_dir(), name)
        data = read_layout_file(path)
    games = data.get("games") or {}
    if game not in games:
        raise LayoutError("layout %r has no game %r (it has %s)"
                          % (data.get("name", name), game, ", ".join(sorted(games))))
    try:
        n_sensors = int(data["n_sensors"])
        n_leds = int(data["n_leds"])
        size = data.get("size_mm", (0, 0))
    except (KeyError, TypeError, ValueError):
        raise LayoutError("layout %r: needs integer n_sensors and n_leds" % (name,))
    return Layout(game, data.get("name", name), games[game]["cells"], n_sensors, n_leds, size)
