"""The app's shared names: games, modes, states, events, timings, the menu and play
pads, and small helpers. Every module of ``playboard.app`` imports from here; this
module imports nothing of the app (docs/architecture.md)."""
import time

from playboard.compat import const, CIRCUITPYTHON

if CIRCUITPYTHON:
    from playboard.compat import ticks_ms as _CP_TICKS  # (CircuitPython's time has no ticks_ms)
else:
    _CP_TICKS = None

GAMES = ("toguz", "tobit", "tobit4", "tihbat")
# (lists, read only: their names are interned with this module's code; a constant
# tuple's are str objects in the heap for ever, 64 B each in the unix model, unless
# a module loaded before this one interned them: docs/pico.md "Interned names")
MODES = ["two", "white", "black", "demo"]
STATE_NAMES = ["menu", "setup", "play", "over", "attract", "staff"]
# Event kinds (App.emit; kept as text here, not as a tuple in the heap):
# "boot", "menu", "game", "resumed", "setup", "move", "undo", "lift", "place",
# "correction", "resolved", "thinking", "engine", "arm", "over", "record-error",
# "attract", "dropped", "abandoned", "staff", "fault" (a sensor chatters / is stuck, or recovered),
# "error" (mancala: a pit event that selected nothing, and why), "stopped" (a takeback
# stopped the engine's search), "ready" (a side confirmed a tournament's pairing: ui.ready_press),
# "pairing" (a pairing sent or forgotten over the link: app.pairing)

S_MENU = const(0)
S_SETUP = const(1)
S_PLAY = const(2)
S_OVER = const(3)
S_ATTRACT = const(4)
S_STAFF = const(5)  # the staff menu (docs/museum.md)

MASK = const(0x3FFFFFFF)
ARM_MS = const(4000)  # a resign press must be confirmed within this
# Deliberate presses (menu choices, play pads; docs/app.md "Deliberate presses"):
HOLD_MS = const(800)  # a press is held at least this long (the fill on the LEDs)...
RELEASE_MS = const(4000)  # ...and let go before this: a pit filled, never let go, is no press
QUIET_MS = const(300)  # no other pad or pit changed this long before a press begins
REST_MS = const(3000)  # a board left unchanged this long: what it shows is the new rest
DRAW_MS = const(10000)  # a draw offer stands this long for the other player
HOURS_MS = const(30000)  # the opening hours are looked at this often
OVER_DELAY_MS = const(2500)  # the last move's view stays this long before the result
ATTRACT_STEP_MS = const(80)

# Menu pads: cells of the Toguz Kumalak layout (South pits 0..8, North pits 9..17).
MENU_GAME = (0, 1, 2, 3)  # South pits 1-4: toguz, tobit, tobit4, tihbat
MENU_MODE = (5, 6, 7, 8)  # South pits 6-9: two, white, black, demo
MENU_LEVEL = (9, 10, 11, 12, 13, 14, 15, 16)  # North pits 1-8: level 1..8
# each game's top engine level, as GAMES (the engine's level tables: a test checks),
# and where the board's search is native (Tobit's 13, Toguz Kumalak's 10: top_level).
# Above 8 a press of the level-8 pad at level 8 or more goes one level higher, from
# the top back to 8 (docs/app.md, the menu pads).
GAME_TOPS = (9, 11, 11, 9)
GAME_NATIVE_TOPS = (10, 13, 13, 9)
MENU_START = 17  # North pit 9
MENU_FLASH = 4  # South pit 5: blinks red while the flash is nearly full (sync the games)
STAFF_CORNERS = (0, 8, 9, 17)  # the staff gesture's pits: South 1 and 9, North 1 and 9
# Play pads (White draw, White resign, Black draw, Black resign) as cells of the
# pad game's layout: Toguz pits during Tobit, Tobit points during the mancala games.
# START (North pit 9) is never a play pad: presses of START never resign.
PADS_ON_TOGUZ = (0, 7, 9, 16)
PADS_ON_TOBIT = (1, 5, 34, 38)

# The app's settings beside the link's (kinds, ranges and the defaults of the others,
# read with .get where used: playboard.settings.SPEC)
APP_SETTINGS = {"attract_s": 120, "think_ms": 3000, "think_nodes": 3000}

# the code a game loads for itself (rules core, tracker, engine), dropped by
# App.release_game (on the board the code is in flash: only its objects in RAM go)
GAME_CODE = ("playboard.games.toguz", "playboard.games.tihbat", "playboard.games.snapshot",
             "playboard.games.mancala_text", "playboard.board.mancala_tracker",
             "playboard.games.tobit", "playboard.games.tobit_board", "playboard.games.tobit_fen",
             "playboard.board.tobit_tracker", "playboard.board.tobit_position", "playboard.games.registry",
             "playboard.engine.search", "playboard.engine.evaluation", "playboard.engine.tihbat_table")
# the native (viper) kernels: imported by App.__init__, at power-up, and never dropped
# (a module loaded once and kept for ever must sit with the other long-lived objects
# at the bottom of the heap: loaded by the first game that needs it, in the middle of
# the heap, it cut the room the next game needed into pieces)
NATIVE_CODE = ("playboard.games.toguz_native", "playboard.games.tobit_native",
               "playboard.games.tihbat_native", "playboard.engine.evaluation_native",
               "playboard.board.tobit_tracker_native")
if CIRCUITPYTHON:  # no native code there: the kernels are plain Python, loaded by
    # their games (the first import of each) and dropped with them, as game code
    GAME_CODE = GAME_CODE + NATIVE_CODE
    NATIVE_CODE = ()
RESERVE = const(16384)  # bytes of App._reserve: kept whole while a game's code loads

RESIGNED = "resignation"
AGREED = "agreed draw"


def top_level(game, cfg):
    """The top engine level of ``game`` (one of GAMES; 9 for another name) on the board
    of definition ``cfg``: 9, Tobit's 11; where ``cfg``'s ``engine.native`` gives the
    board its native searches, Tobit's 13 and Toguz Kumalak's 10 (docs/engine.md,
    "Levels"). Read by the menu (``ui.offered``) and the link's set-game request
    (``request.check_choice``)."""
    if game not in GAMES:
        return 9
    tops = GAME_NATIVE_TOPS if cfg.get("engine", {}).get("native") else GAME_TOPS
    return tops[GAMES.index(game)]


def ticks_ms():
    """The device clock in ms (wraps at 2**30): ``time.ticks_ms`` or a CPython stand-in."""
    t = getattr(time, "ticks_ms", None) or _CP_TICKS
    if t is not None:
        return t()
    return int(time.monotonic() * 1000) & MASK


def ticks_us():
    """The device clock in us (wraps at 2**30): ``time.ticks_us`` or a CPython stand-in."""
    t = getattr(time, "ticks_us", None)
    if t is not None:
        return t()
    return int(time.monotonic() * 1000000) & MASK


def clamp(v, lo, hi):
    if not isinstance(v, int) or isinstance(v, bool):
        return lo
    return lo if v < lo else (hi if v > hi else v)


