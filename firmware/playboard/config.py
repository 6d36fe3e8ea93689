"""Board definitions: load ``firmware/boards/<name>.json`` and validate it once at start-up.

A board definition is data (docs/hardware.md lists every field)::

    {"name": "pico-matrix", "title": "...", "backend": "rp2" | "circuitpython" | "sim",
     "module": "pico", "layout": "default", "n_sensors": 64,
     "sensor": {"kind": "matrix", "rows": [GP..], "cols": [GP..], "settle_us": 10,
                "bank_read": true, "reader": "keypad" | "scan" (circuitpython backend)}
            | {"kind": "shift_register", "chain": 8, "load": GP, "clk": GP, "data": GP,
               "reader": "spi" | "pio", "spi_id": 1, "mosi": GP, "baud": 2000000,
               "active_low": true}
            | {"kind": "hall_mux", "select": [4 GP], "muxes": [{"adc": 26, "en": GP or null}, ..],
               "settle_us": 25, "threshold": 2500, "polarity": 1,
               "calibration": "hall_cal.json"}
            | {"kind": "sim"} | {"kind": "sim_hall", "threshold": .., "polarity": .., "calibration": ..},
     "leds": {"pin": GP, "count": 58, "order": "GRB", "supply": "adapter" | "usb" | "sense",
              "budget_ma": 1500, "ma_per_led": 60, "idle_ma": 1, "brightness": 160,
              "vbus_pin": 24, "adapter_pin": GP or null},
     "scan": {"hz": 100, "stable_ms": 40, "max_on_ms": 5000},
     "pit_select": "lift" | "stylus"}

:func:`load_board` returns the dict with defaults filled in, or raises
:class:`ConfigError` naming the file and the field, e.g.
``board pico-matrix: sensor.rows[3]: GP25 is not a free pin on a pico``.
"""

BACKENDS = ("rp2", "circuitpython", "sim")
SENSOR_KINDS = ("matrix", "shift_register", "hall_mux", "sim", "sim_hall")
PIT_SELECT = ("lift", "stylus")
LED_ORDERS = ("RGB", "GRB", "BRG", "RBG", "GBR", "BGR")
# GPIOs a board may use, per module; the Pico wires GP23, 24, 25 and 29 inside.
MODULES = {
    "pico": tuple(range(0, 23)) + (26, 27, 28),
    "rp2040": tuple(range(0, 30)),
    # Adafruit Feather RP2040: the GPIOs on its headers (GP16 is its own NeoPixel)
    "feather_rp2040": (0, 1, 2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 18, 19, 20, 24, 25, 26, 27, 28,
                       29),
}
# Pins a module wires to something of its own that makes them useless as sensor lines
RESERVED = {
    "feather_rp2040": {13: "drives the Feather RP2040's red LED to ground (D13): a line there "
                           "reads active forever"},
}
ADC_PINS = (26, 27, 28, 29)
HALL_SETTLE_MIN_US = 13  # DRV5053 output into the mux and ADC capacitance: 13-25 us


class ConfigError(ValueError):
    """A board definition that cannot be used; the message names the board and the field."""



def _sense(c, d, leds, backend, free):
    """``leds.supply`` "sense": the firmware reads which source powers the board
    (playboard.hw.base.Board.source) and caps the LEDs at ``budget_ma`` (the adapter's
    LED budget, default 1500) on the adapter or at ``usb_budget_ma`` (filled in here:
    what the image's USB budget leaves, playboard.hw.pads.usb_led_budget; the board's own where
    USB feeds no LED, a hall board) on USB alone. ``vbus_pin``: the module's VBUS
    sense (the Pico's GPIO24, inside the module), ``adapter_pin``: a divider from the
    adapter's switched input (null: none; then USB with the adapter reads as USB, the
    cap the lower)."""
    from playboard.hw.pads import usb_led_budget
    leds["budget_ma"] = c.int_range(leds, "budget_ma", "leds.", 1, 20000, 1500)
    cap = usb_led_budget(d)
    leds["usb_budget_ma"] = min(leds["budget_ma"], cap) if cap > 0 else leds["budget_ma"]
    if backend == "sim":
        leds["vbus_pin"] = leds["adapter_pin"] = None
        return
    if backend != "rp2":
        c.fail("leds.supply", "sense reads the supply on the rp2 backend only (not %s)" % backend)
    vbus = c.int_range(leds, "vbus_pin", "leds.", 0, 29, 24)
    if vbus in c.used:
        c.fail("leds.vbus_pin", "GP%d already used by %s" % (vbus, c.used[vbus]))
    c.used[vbus] = "leds.vbus_pin"
    leds["vbus_pin"] = vbus
    a = leds.get("adapter_pin")
    leds["adapter_pin"] = None if a is None else c.pin(a, "leds.adapter_pin", free)

def _dirname(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else ("/" if i == 0 else ".")


def boards_dir():
    """Folder of the board definitions (``<firmware>/boards``; ``/boards`` on the board)."""
    from playboard.board.layout import boards_dir as bd
    return bd()


class _Checker:
    def __init__(self, name):
        self.name = name
        self.used = {}
        self.module = None

    def fail(self, field, msg):
        raise ConfigError("board %s: %s: %s" % (self.name, field, msg))

    def get(self, d, key, field, kind, default=None, required=True):
        if key not in d:
            if required and default is None:
                self.fail(field + key, "missing")
            return default
        v = d[key]
        if kind is int and (not isinstance(v, int) or isinstance(v, bool)):
            self.fail(field + key, "expected an integer, got %r" % (v,))
        if kind is bool and not isinstance(v, bool):
            self.fail(field + key, "expected true or false, got %r" % (v,))
        if kind is str and not isinstance(v, str):
            self.fail(field + key, "expected text, got %r" % (v,))
        if kind is list and not isinstance(v, list):
            self.fail(field + key, "expected a list, got %r" % (v,))
        if kind is dict and not isinstance(v, dict):
            self.fail(field + key, "expected an object, got %r" % (v,))
        return v

    def int_range(self, d, key, field, lo, hi, default=None):
        v = self.get(d, key, field, int, default)
        if not lo <= v <= hi:
            self.fail(field + key, "%r not in %d..%d" % (v, lo, hi))
        return v

    def pin(self, v, field, free, shared=False):
        if not isinstance(v, int) or isinstance(v, bool):
            self.fail(field, "expected a GPIO number, got %r" % (v,))
        if v not in free:
            self.fail(field, "GP%d is not a free pin on this module" % v)
        why = RESERVED.get(self.module or "", {}).get(v)
        if why:
            self.fail(field, "GP%d %s" % (v, why))
        if v in self.used and not shared:
            self.fail(field, "GP%d already used by %s" % (v, self.used[v]))
        self.used.setdefault(v, field)
        return v

    def pins(self, d, key, field, free, n_min=1, n_max=30):
        v = self.get(d, key, field, list)
        if not n_min <= len(v) <= n_max:
            self.fail(field + key, "expected %d..%d pins, got %d" % (n_min, n_max, len(v)))
        for i, p in enumerate(v):
            self.pin(p, "%s%s[%d]" % (field, key, i), free)
        return v


def _hall_calibration(c, s):
    """Check and default a hall board's ``sensor.threshold``, ``polarity`` and
    ``calibration`` (``hall_mux`` and the simulated ``sim_hall``)."""
    s["threshold"] = c.int_range(s, "threshold", "sensor.", 1, 32767, 2500)
    pol = c.get(s, "polarity", "sensor.", int, 1)
    if pol not in (1, -1):
        c.fail("sensor.polarity", "expected 1 or -1, got %r" % (pol,))
    s["polarity"] = pol
    s["calibration"] = c.get(s, "calibration", "sensor.", str, "hall_cal.json")


def validate_board(d, name=None):
    """Check a parsed board definition; return it with defaults filled. ConfigError if bad."""
    if not isinstance(d, dict):
        raise ConfigError("board %s: expected a JSON object" % (name,))
    name = d.get("name", name)
    c = _Checker(name)
    backend = c.get(d, "backend", "", str)
    if backend not in BACKENDS:
        c.fail("backend", "%r not one of %s" % (backend, ", ".join(BACKENDS)))
    module = c.get(d, "module", "", str, "pico")
    if module not in MODULES:
        c.fail("module", "%r not one of %s" % (module, ", ".join(sorted(MODULES))))
    d["module"] = module
    c.module = module
    free = MODULES[module]
    n_sensors = c.int_range(d, "n_sensors", "", 1, 255)
    s = c.get(d, "sensor", "", dict)
    kind = c.get(s, "kind", "sensor.", str)
    if kind not in SENSOR_KINDS:
        c.fail("sensor.kind", "%r not one of %s" % (kind, ", ".join(SENSOR_KINDS)))
    if (kind in ("sim", "sim_hall")) != (backend == "sim"):
        c.fail("sensor.kind", "%r does not go with backend %r" % (kind, backend))
    if kind == "matrix":
        rows = c.pins(s, "rows", "sensor.", free, 1, 16)
        cols = c.pins(s, "cols", "sensor.", free, 1, 16)
        have = len(rows) * len(cols)
        s["settle_us"] = c.int_range(s, "settle_us", "sensor.", 0, 1000, 10)
        s["bank_read"] = c.get(s, "bank_read", "sensor.", bool, True)
        if s.get("reader", "keypad") not in ("keypad", "scan"):  # (circuitpython backend)
            c.fail("sensor.reader", "%r not keypad or scan" % (s.get("reader"),))
    elif kind == "shift_register":
        chain = c.int_range(s, "chain", "sensor.", 1, 32)
        have = 8 * chain
        for key in ("load", "clk", "data"):
            c.pin(c.get(s, key, "sensor.", int), "sensor." + key, free)
        reader = c.get(s, "reader", "sensor.", str, "spi")
        if reader not in ("spi", "pio"):
            c.fail("sensor.reader", "%r not spi or pio" % (reader,))
        s["reader"] = reader
        s["spi_id"] = c.int_range(s, "spi_id", "sensor.", 0, 1, 1 if reader == "spi" else 0)
        if reader == "spi":
            from playboard.hw.pads import check_spi
            check_spi(c, s, free)
        s["baud"] = c.int_range(s, "baud", "sensor.", 10000, 20000000, 2000000)
        s["active_low"] = c.get(s, "active_low", "sensor.", bool, True)
    elif kind == "hall_mux":
        c.pins(s, "select", "sensor.", free, 4, 4)
        muxes = c.get(s, "muxes", "sensor.", list)
        if not 1 <= len(muxes) <= 8:
            c.fail("sensor.muxes", "expected 1..8 multiplexers, got %d" % len(muxes))
        adc_used = {}
        for i, m in enumerate(muxes):
            f = "sensor.muxes[%d]." % i
            if not isinstance(m, dict):
                c.fail(f[:-1], "expected an object {adc, en}")
            adc = c.get(m, "adc", f, int)
            if adc not in ADC_PINS or adc not in free:
                c.fail(f + "adc", "GP%r is not an ADC pin of this module" % (adc,))
            c.pin(adc, f + "adc", free, shared=adc in adc_used)
            en = m.get("en")
            if en is not None:
                c.pin(en, f + "en", free)
            elif adc in adc_used:
                c.fail(f + "en", "multiplexers sharing ADC GP%d need enable pins" % adc)
            adc_used[adc] = en
            m["en"] = en
        for i, m in enumerate(muxes):
            if m["en"] is None and sum(1 for o in muxes if o["adc"] == m["adc"]) > 1:
                c.fail("sensor.muxes[%d].en" % i,
                       "multiplexers sharing ADC GP%d need enable pins" % m["adc"])
        have = 16 * len(muxes)
        s["settle_us"] = c.int_range(s, "settle_us", "sensor.", HALL_SETTLE_MIN_US, 1000, 25)
        _hall_calibration(c, s)
    elif kind == "sim_hall":  # the simulated hall board (playboard.sim.hall)
        have = n_sensors
        _hall_calibration(c, s)
    else:
        have = n_sensors
    if n_sensors > have:
        c.fail("n_sensors", "%d sensors but the %s reads only %d" % (n_sensors, kind, have))
    leds = c.get(d, "leds", "", dict)
    count = c.int_range(leds, "count", "leds.", 0, 1024)
    if backend != "sim":
        c.pin(c.get(leds, "pin", "leds.", int), "leds.pin", free)
    order = c.get(leds, "order", "leds.", str, "GRB")
    if order not in LED_ORDERS:
        c.fail("leds.order", "%r not one of %s" % (order, ", ".join(LED_ORDERS)))
    leds["order"] = order
    leds["ma_per_led"] = c.int_range(leds, "ma_per_led", "leds.", 1, 200, 60)
    leds["idle_ma"] = c.int_range(leds, "idle_ma", "leds.", 0, 10, 1)
    supply = c.get(leds, "supply", "leds.", str, "adapter")
    if supply not in ("adapter", "usb", "sense"):
        c.fail("leds.supply", "%r not adapter, usb or sense" % (supply,))
    leds["supply"] = supply
    if supply == "sense":
        _sense(c, d, leds, backend, free)
    elif supply == "usb":
        from playboard.hw.pads import usb_led_budget, usb_ma
        cap = usb_led_budget(d)
        if cap <= 0:
            c.fail("leds.supply", "this board cannot run from USB only: USB feeds only its "
                   "Pico (power-<board>.md)")
        leds["budget_ma"] = c.int_range(leds, "budget_ma", "leds.", 1, 20000, cap)
        if leds["budget_ma"] > cap:
            c.fail("leds.budget_ma", "%d mA over USB: %d mA in all, the Pico and the sensors "
                   "need the rest: at most %d for the LEDs" % (leds["budget_ma"], usb_ma(), cap))
    else:
        leds["budget_ma"] = c.int_range(leds, "budget_ma", "leds.", 1, 20000, 1500)
    if leds["budget_ma"] <= leds["idle_ma"] * count:
        c.fail("leds.budget_ma", "%d mA cannot feed %d idle LEDs" % (leds["budget_ma"], count))
    if supply == "sense" and leds["usb_budget_ma"] <= leds["idle_ma"] * count:
        c.fail("leds.supply", "over USB %d mA are left for the LEDs: they cannot feed %d idle "
               "LEDs" % (leds["usb_budget_ma"], count))
    # the LEDs' brightness when the user never set one (None: the firmware's default);
    # a brightness the user saved wins over it (docs/hardware.md)
    if leds.get("brightness") is not None:
        leds["brightness"] = c.int_range(leds, "brightness", "leds.", 0, 255)
    else:
        leds["brightness"] = None
    scan = d.get("scan") or {}
    if not isinstance(scan, dict):
        c.fail("scan", "expected an object")
    scan["hz"] = c.int_range(scan, "hz", "scan.", 20, 2000, 100)
    scan["stable_ms"] = c.int_range(scan, "stable_ms", "scan.", 1, 1000, 40)
    if scan["stable_ms"] * scan["hz"] < 2000:
        c.fail("scan.stable_ms", "%d ms at %d Hz is fewer than 2 scans: too short to debounce"
               % (scan["stable_ms"], scan["hz"]))
    scan["max_on_ms"] = c.int_range(scan, "max_on_ms", "scan.", 0, 60000, 5000)
    d["scan"] = scan
    sel = c.get(d, "pit_select", "", str, "lift")
    if sel not in PIT_SELECT:
        c.fail("pit_select", "%r not one of %s" % (sel, ", ".join(PIT_SELECT)))
    d["pit_select"] = sel
    layout = c.get(d, "layout", "", str, "default")
    d["layout"] = layout
    # Tobit's native search loaded at power-up or not (onboard.native_wanted)
    eng = c.get(d, "engine", "", dict, {}, False)
    if "native" in eng:
        c.get(eng, "native", "engine.", bool)
    return d


def check_layout(d, layout_data):
    """Check that the layout fits the board (sensor and LED indices exist). ConfigError if not."""
    name = d.get("name")
    if layout_data["n_sensors"] > d["n_sensors"]:
        raise ConfigError("board %s: layout %s needs %d sensors, the board has %d"
                          % (name, layout_data.get("name"), layout_data["n_sensors"], d["n_sensors"]))
    if layout_data["n_leds"] > d["leds"]["count"]:
        raise ConfigError("board %s: layout %s needs %d LEDs, the board has %d"
                          % (name, layout_data.get("name"), layout_data["n_leds"], d["leds"]["count"]))


def read_board(name_or_path):
    """The board definition ``name_or_path`` (a name: ``boards/<name>.json``, on flash
    or else the image's own copy; or a path) as parsed, not checked: ``(dict, its
    file's base name, its path)``. ConfigError for a missing file or bad JSON."""
    import json
    path = name_or_path
    if not path.endswith(".json"):
        path = "%s/%s.json" % (boards_dir(), name_or_path)
    try:
        with open(path) as f:
            d = json.load(f)
    except OSError:
        d = None
    except ValueError as e:
        raise ConfigError("board definition %s is not valid JSON: %s" % (path, e))
    if d is None:
        from playboard.compat import frozen_file
        data = frozen_file(path)  # the image's own copy where flash has none
        if data is None:
            raise ConfigError("board definition %s not found" % path)
        d = json.loads(data)  # (checked when the image was built: tests/host)
    return d, path[path.rfind("/") + 1:-5], path


def load_board(name_or_path, with_layout=True):
    """Load and validate a board definition by name (``boards/<name>.json``) or path.

    Returns the dict (defaults filled). With ``with_layout`` the named layout file is
    read and checked against the board too. ConfigError for a missing file, bad JSON,
    or any bad field. (A hardware board's definition for the simulated board, which
    stands in for its hardware: ``playboard.sim.standin.load_stand_in``.)
    """
    d, base, path = read_board(name_or_path)
    d = validate_board(d, base)
    if with_layout:
        from playboard.board.layout import read_layout_file, LayoutError
        try:
            lay = read_layout_file("%s/layout_%s.json" % (_dirname(path), d["layout"]))
        except LayoutError as e:
            raise ConfigError("board %s: layout: %s" % (d.get("name"), e))
        check_layout(d, lay)
    return d


def list_boards():
    """Names of the board definitions in boards_dir() and in the frozen image, sorted."""
    import os
    out = []
    try:
        for f in os.listdir(boards_dir()):
            if f.endswith(".json") and not f.startswith("layout_"):
                out.append(f[:-5])
    except OSError:  # no folder on flash: the frozen image's own
        pass
    try:
        from playboard.frozen_files import BOARDS  # type: ignore[import-not-found]  # (generated)
        out += [b for b in BOARDS if b not in out]
    except ImportError:
        pass
    out.sort()
    return out
