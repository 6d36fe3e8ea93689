"""The board's settings: each one's kind, range and meaning, and the check of a change.

Loaded by the link only while it answers a settings write (``W``), and by the host
tools (``playboard settings``), then dropped: the play path keeps only the values
(``DEFAULT_SETTINGS`` here, read at start-up, and the app's). docs/museum-reference.md lists them.

``SPEC``: name -> (kind, a, b) where kind is ``"int"`` (a..b inclusive), ``"bool"``,
``"one"`` (one of the tuple a) or ``"set"`` (a non-empty list of distinct members of
the tuple a, at most b of them).
"""

from playboard.games.common import GAME_NAMES as GAMES

MODES = ("two", "white", "black", "demo")  # as playboard.app.state.MODES

# what a board starts with before anything is saved (the app adds state.APP_SETTINGS)
DEFAULT_SETTINGS = {"brightness": 48, "level": 3, "takeback": True, "hints": True}

SPEC = {
    "brightness": ("int", 0, 255),  # LED brightness (0 off .. 255 full), under the current cap
    "max_brightness": ("int", 0, 255),  # a cap on brightness, whoever sets it (staff, link)
    "hours": ("hours", 0, 0),  # opening hours "HH:MM-HH:MM" (every day; "" always open):
    # outside them the board is dark and starts nothing (docs/museum.md)
    "level": ("int", 1, 13),  # the engine's level offered first in the menu (at most the game's top)
    "takeback": ("bool", 0, 0),  # not in demo: the previous position put back takes back
    "hints": ("bool", 0, 0),  # legal targets lit when a piece is lifted
    "attract_s": ("int", 0, 86400),  # menu / result idle this long -> attract (0 never)
    "idle_s": ("int", 0, 86400),  # a game untouched this long is abandoned (0 never)
    "think_ms": ("int", 100, 60000),  # the engine's time per move (device clock)
    "think_nodes": ("int", 10, 1000000),  # the engine's nodes per move (virtual clock)
    "games": ("set", GAMES, 4),  # the games the menu offers (locked mode)
    "modes": ("set", MODES, 4),  # the modes the menu offers (locked mode)
    "max_level": ("int", 1, 13),  # the highest engine level the menu offers (locked mode; 9, 10, 11 or 13 is the game's top)
    "locked": ("bool", 0, 0),  # museum mode: only allowed choices, staff menu by gesture
    "lock_link": ("bool", 0, 0),  # locked mode: the link refuses changes until unlocked
    "resume": ("one", ("always", "never"), 0),  # at power-up: resume the unfinished game,
    # or close it as abandoned ("never": a museum board starts fresh)
}


# The defaults of the settings the board keeps only once changed (the app reads them
# with these defaults); the others' defaults: DEFAULT_SETTINGS, app.state.APP_SETTINGS
DEFAULTS = {"idle_s": 0, "games": list(GAMES), "modes": list(MODES), "max_level": 13,
            "locked": False, "lock_link": True, "resume": "always", "max_brightness": 255,
            "hours": ""}


def parse_hours(text):
    """Opening hours "HH:MM-HH:MM" -> (opening, closing) in minutes after midnight (a
    closing before the opening runs past midnight), or None if ``text`` is not that
    (or opens and closes at the same minute)."""
    if not isinstance(text, str) or len(text) != 11 or text[2] != ":" or text[5] != "-" \
            or text[8] != ":":
        return None
    try:
        h1, m1, h2, m2 = int(text[0:2]), int(text[3:5]), int(text[6:8]), int(text[9:11])
    except ValueError:
        return None
    if not (0 <= h1 < 24 and 0 <= h2 < 24 and 0 <= m1 < 60 and 0 <= m2 < 60):
        return None
    a, b = 60 * h1 + m1, 60 * h2 + m2
    return None if a == b else (a, b)

LOCKED = "the board is locked (museum mode): unlock the link with the staff gesture"


def link_locked(settings, app=None):
    """True while the link must refuse changes: locked (museum) mode with ``lock_link``
    and the staff have not unlocked it (``app.unlocked``; docs/museum.md)."""
    return (bool(settings.get("locked")) and bool(settings.get("lock_link", True))
            and not getattr(app, "unlocked", False))


def check(name, value):
    """ValueError (one line naming the setting and what it takes) unless ``value`` is
    a valid value of setting ``name``. Returns the value to store (a list for a set)."""
    sp = SPEC.get(name)
    if sp is None:
        raise ValueError("unknown setting %r (one of %s)" % (name, ", ".join(sorted(SPEC))))
    kind, a, b = sp
    if kind == "bool":
        if value is not True and value is not False:
            raise ValueError("setting %s takes true or false, not %r" % (name, value))
    elif kind == "int":
        if not isinstance(value, int) or isinstance(value, bool) or not a <= value <= b:
            raise ValueError("setting %s takes an integer %d..%d, not %r" % (name, a, b, value))
    elif kind == "hours":
        if parse_hours(value) is None and value != "":
            raise ValueError('setting %s takes "HH:MM-HH:MM" (opening, closing; "" always open), '
                             'not %r' % (name, value))
    elif kind == "one":
        if value not in a or not isinstance(value, str):
            raise ValueError("setting %s takes one of %s, not %r" % (name, ", ".join(a), value))
    else:
        if (not isinstance(value, list) or not value or len(value) > b
                or any(v not in a or not isinstance(v, str) for v in value)
                or len(set(value)) != len(value)):
            raise ValueError("setting %s takes a list of distinct names from %s, not %r"
                             % (name, ", ".join(a), value))
        value = list(value)
    return value


def check_all(changes, current):
    """The settings ``current`` (dict) with ``changes`` (dict) applied, every change
    checked first: a new dict, or ValueError for the first bad one (nothing changed).
    A ``max_level`` below the ``level`` or a ``games`` / ``modes`` list is checked as a
    whole with the other settings."""
    if not isinstance(changes, dict) or not changes:
        raise ValueError("settings: give at least one setting to change")
    new = dict(current)
    for k in changes:
        new[k] = check(k, changes[k])
    if new.get("level", 1) > new.get("max_level", 13):
        raise ValueError("setting level %d is above max_level %d" % (new["level"], new["max_level"]))
    return new


# The museum kiosk profile (docs/museum.md): locked, the link locked, every game
# against the engine or two players at the lower levels, a game left alone for 5
# minutes abandoned, attract after a minute, never resuming a visitor's game.
MUSEUM = {"locked": True, "lock_link": True, "games": ["toguz", "tobit", "tihbat"],
          "modes": ["two", "white"], "level": 2, "max_level": 4, "idle_s": 300,
          "attract_s": 60, "resume": "never", "takeback": True, "hints": True,
          "brightness": 64}
PROFILES = {"museum": MUSEUM}
