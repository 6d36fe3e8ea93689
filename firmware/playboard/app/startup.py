"""The app's power-up (``playboard.app.loop``): the layouts read, the board
definition's buttons checked, the first frame (a power-up counted, the unfinished
game resumed or the menu). Loaded at start-up only and dropped after. Functions take
the ``App`` as their first argument.
"""
import gc

from playboard.compat import unload

from playboard.app.state import GAMES, MODES, clamp
from playboard.board.layout import load_layout, read_layout_file, boards_dir
from playboard.board.lights import USER, ON


def start(app, now_ms):
    """First frame's work: light the board, then resume the unfinished game found by
    the store (lighting what the pieces must be) or open the menu (on a hall board
    with no calibration, the guided calibration: playboard.app.check.first_boot)."""
    app.now = now_ms
    app.lights.mark(USER, 0, ON)
    app.lights.frame(now_ms)  # a lit board at once
    from playboard.health import power_up
    # a power-up counted (docs/museum.md); whether the watchdog made it was read
    # before the app started its own (playboard.app.onboard)
    power_up(app.store, app.wdt_reset)
    unload("playboard.health")
    app.emit("boot", {"games": app.store.count, "problems": len(app.store.report)})
    r = app.store.resume()
    if r is not None and app.settings.get("resume", "always") == "never":
        app.store.finish("*", "abandoned")  # a museum board starts afresh
        r = None
    from playboard.app.ui import fit_choice
    fit_choice(app)
    if r is not None and r.name in GAMES:
        resume(app, r, now_ms)  # the first frame replays it
        return
    elif r is not None:
        app.store.finish("*", "abandoned")
    app.open_menu(now_ms)
    if getattr(app.hw, "calibrated", True) is False:
        # a hall board with no calibration file: the guided calibration first (never
        # over a resumed game: it needs the board empty; then at a power-up with none)
        from playboard.app.check import first_boot
        first_boot(app)


def resume(app, r, now_ms):
    tags = r.tags
    mode = tags.get("Mode", "two")
    level = tags.get("Level", "3")
    app.game_name = r.name
    app.mode = mode if mode in MODES else "two"
    app.level = clamp(int(level) if level.isdigit() else 3, 1, 13)  # (above the game's top: the engine plays its top)
    app.new_game(now_ms, resumed=r)


def buttons(cfg, n_sensors):
    """The board definition's optional ``buttons`` (name -> sensor index), checked."""
    b = cfg.get("buttons")
    if not b:
        return None
    if not isinstance(b, dict):
        raise ValueError("board %s: buttons: expected an object" % cfg.get("name"))
    for k in b:
        if k not in ("menu", "draw", "resign", "draw_black", "resign_black", "takeback"):
            raise ValueError("board %s: buttons.%s: unknown button" % (cfg.get("name"), k))
        v = b[k]
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n_sensors:
            raise ValueError("board %s: buttons.%s: sensor %r not in 0..%d"
                             % (cfg.get("name"), k, v, n_sensors - 1))
    return b


def read_layouts(cfg, hw):
    """Every game's ``Layout`` on the board of definition ``cfg`` (dict game -> Layout),
    from one parse of its layout file; the parsed text is dropped. Call it early at
    start-up, while the heap is nearly empty (the parse makes many small objects).
    ValueError if the layout needs more sensors or LEDs than ``hw`` has."""
    data = read_layout_file("%s/layout_%s.json" % (boards_dir(), cfg.get("layout", "default")))
    if data.get("n_sensors", 0) > hw.n_sensors or data.get("n_leds", 0) > hw.n_leds:
        raise ValueError("board %s: the layout needs %r sensors and %r LEDs" % (
            cfg.get("name"), data.get("n_sensors"), data.get("n_leds")))
    out = {}
    for g in GAMES:
        out[g] = load_layout(g, data=data)
    del data
    gc.collect()
    return out
