"""The board's LED colours by name, for the demo's text pictures and the web page:
which lights colour (``playboard.board.lights``) an LED shows, and what it means
in each game and state (docs/tracker.md, docs/app.md)."""
from playboard.board.lights import DEFAULT_COLOURS, shown_colour as lights_shown_colour

# (letter, name, meaning) of each lights layer's colour and accent (playboard.board.lights)
LED_NAMES = (
    (("g", "green", "legal"), ("b", "blue", "selected")),
    (("v", "lavender", "last move from"), ("h", "white", "last move to, kazan grows")),
    (("s", "sky blue", "sowing, path"), ("z", "azure", "last ball")),
    (("p", "purple", "engine's move from"), ("q", "rose", "engine's move to")),
    (("o", "orange", "capture, take off"), ("y", "yellow", "tuzdyk")),
    (("r", "red", "error, extra piece"), ("m", "mint", "put a piece here")),
    (("w", "white", "menu, count"), ("u", "blue", "menu, count")),
)


# what a colour means in a game of each kind, where it differs (the tracker's roles:
# docs/tracker.md); other meanings stay as in LED_NAMES
_MEANINGS = {
    "tobit": {"last move to, kazan grows": "last move to", "sowing, path": "path",
              "capture, take off": "captured: take off",
              # one colour, two patterns (set-up and correction: tobit_tracker R_MISSING,
              # R_MISSING_BLACK): said in full, since one frame cannot show a blink
              "put a piece here": "put a piece here: White's steady, Black's blinking"},
    "mancala": {"last move to, kazan grows": "kazan grows", "sowing, path": "sowing",
                "capture, take off": "capture", "last move from": "last move"},
    # Tihbat has no kazans and no tuzdyks: its stores are the captured counters (RULES.md 3)
    "tihbat": {"last move to, kazan grows": "captured counters grow", "sowing, path": "sowing",
               "capture, take off": "capture", "last move from": "last move"},
}


_STATES = {
    # the board shows a result: the winner's half blinks green, a draw lights all amber;
    # a Toguz pit pressed fills its row white, then blue: let go, the menu opens
    # (docs/app.md "Deliberate presses"; the same colours as the last move's and a
    # selection's, which show only before the result does)
    "over": {"legal": "the winner's side", "last move from": "a draw",
             "selected": "selected; a press held long enough: let go for the menu",
             "last move to, kazan grows": "last move; a press filling its row: hold on"},
    # the menu on the Toguz Kumalak pits (docs/app.md)
    "menu": {"legal": "a choice", "selected": "chosen", "last move from": "levels below",
             "last move to, kazan grows": "the level", "engine's move from": "START"},
}


def meaning(name, game, state=None):
    """(letter, colour name, meaning) ``name`` (from :func:`led_name`) with the meaning
    said the way ``game`` ("toguz", "tobit", ...) uses that colour; ``state``: "over"
    (the board shows a result) or "menu" (the board's menu), else None (play)."""
    said = _STATES.get(state, {}).get(name[2])
    if said:
        return (name[0], name[1], said)
    kind = "tobit" if game.startswith("tobit") else "tihbat" if game == "tihbat" else "mancala"
    return (name[0], name[1], _MEANINGS[kind].get(name[2], name[2]))


DEFAULT_BRIGHTNESS = 48  # playboard.link.DEFAULT_SETTINGS["brightness"]: what the board starts with


def shown_colour(colour, brightness=DEFAULT_BRIGHTNESS):
    """What the LED chain receives for a layer ``colour`` (r, g, b) at ``brightness``
    (playboard.board.lights.shown_colour, the firmware's own arithmetic)."""
    return lights_shown_colour(colour, brightness)


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


# (layer, mark index) of the colours each kind of game and state can light (a steady
# legend lists them all: docs/tracker.md's roles; the app's menu and result, docs/app.md)
_SHOWN = {
    "tobit": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (3, 0), (3, 1), (4, 0), (5, 0), (5, 1)),
    "mancala": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (4, 1), (5, 0)),
    "tihbat": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (5, 0)),  # no tuzdyk
    "menu": ((0, 0), (0, 1), (1, 0), (1, 1), (3, 0)),
}


def legend(game, state, leds, brightness=DEFAULT_BRIGHTNESS):
    """The steady legend of ``game`` in ``state`` ("play", "setup", "over", "menu"):
    every colour that can light there, in layer order, each as [hex "rrggbb" as drawn,
    colour name, meaning, lit now (bool)], whether lit or not, so that the list does
    not change while LEDs blink. ``leds``: the LEDs as sent to the strip. "over" lists the
    game's colours too: the last move stays lit a while before the result shows."""
    kind = state if state == "menu" else ("tobit" if game.startswith("tobit") else
                                          "tihbat" if game == "tihbat" else "mancala")
    lit = {_nearest(c, brightness)[1] for c in leds if c[0] or c[1] or c[2]}
    rows = []
    for layer, k in _SHOWN[kind]:
        nm = LED_NAMES[layer][k]
        said = meaning(nm, game, state if state in ("over", "menu") else None)
        hexc = "%02x%02x%02x" % display_colours([shown_colour(DEFAULT_COLOURS[layer][k], brightness)],
                                                brightness)[0]
        rows.append([hexc, said[1], said[2], nm in lit])
    return rows
