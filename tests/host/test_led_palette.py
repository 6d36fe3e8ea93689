"""The LED colours never collide: every meaning lit during play (layers LEGAL..ERROR of
``playboard.board.lights``, colour and accent) looks unlike every other as the strip
shows it, at the default brightness after gamma.

How a colour is compared: the value the strip receives (``shown_colour``: gamma, then
brightness) drives the LED's PWM, so it is linear light. Divided by the full value at
that brightness it is a linear-RGB colour (the LED's primaries taken as sRGB's), which
coloraide converts to CIELAB and compares with CIEDE2000 (ΔE00).

The threshold, 20: ΔE00 about 1 is the smallest difference seen between two large
patches side by side; a player must instead *name* one small, bright dot seen alone,
from memory, often at the edge of sight - a task that needs colours of different names.
Neighbouring colour names in this palette (orange/yellow, sky/azure, purple/rose) sit
21-25 apart while the old pairs the issue named (amber from/to, purple from/to) measure
10.8 and 11.0 and the old capture orange / error red 18.7, so 20 separates "two names"
from "one name, two shades" here. Every pair is also checked at the other brightness
settings a user can choose, where quantisation to a few levels bites hardest.

Meanings told apart by a pattern, not a colour (documented in docs/tracker.md):
blinking (candidate points, a wrong-coloured piece, a Black piece wanted in set-up, the
winner's side, the count display of the USER layer) against steady; the USER layer
(menus, self-test, the count display) is never lit beside the same colour steady.
``test_every_role_a_tracker_lights_has_its_own_colour_or_pattern`` checks that no two
meanings of one game share a colour *and* a pattern.
"""
import itertools
import os
import re

import pytest

from playboard.board import lights
from playboard.board import tracker as T
from playboard.board.tracker_names import ROLE_NAMES
from playboard_host import leds

coloraide = pytest.importorskip("coloraide", reason="coloraide not installed: run `make setup`")

THRESHOLD = 20.0
PLAY_LAYERS = range(lights.ERROR + 1)  # LEGAL..ERROR: what the trackers and the app light in play


def _lab_colour(shown, brightness):
    top = (255 * (brightness + 1)) >> 8
    return coloraide.Color("srgb-linear", [v / top for v in shown])


def _pairs(brightness):
    cs = [(leds.LED_NAMES[layer][k][2], lights.shown_colour(lights.DEFAULT_COLOURS[layer][k], brightness))
          for layer in PLAY_LAYERS for k in (0, 1)]
    return [(a, b, _lab_colour(a[1], brightness).delta_e(_lab_colour(b[1], brightness), method="2000"))
            for a, b in itertools.combinations(cs, 2)]


def test_the_colour_distance_is_ciede2000_of_the_shown_values():
    # known answers: red against itself, red against green (large), and the old palette's
    # capture orange against error red as the strip received them at brightness 48
    red = _lab_colour((48, 0, 0), 48)
    assert red.delta_e(_lab_colour((48, 0, 0), 48), method="2000") == 0
    assert red.delta_e(_lab_colour((0, 48, 0), 48), method="2000") > 80
    old = _lab_colour((48, 9, 0), 48).delta_e(red, method="2000")
    assert 18 < old < 19.5  # under the threshold: the complaint, measured


def test_no_two_play_meanings_look_alike_at_the_default_brightness():
    pairs = _pairs(leds.DEFAULT_BRIGHTNESS)
    assert len(pairs) == 66  # 12 meanings
    close = [(a[0], b[0], a[1], b[1], round(d, 1)) for a, b, d in pairs if d < THRESHOLD]
    assert close == []
    assert min(d for _, _, d in pairs) > 24  # 24.8: green legal / mint "put a piece here"
    # every meaning reaches the strip as its own value (the demo and the page name them back)
    shown = [a[1] for a, _, _ in pairs] + [pairs[-1][1][1]]
    assert len(set(shown)) == 12


@pytest.mark.parametrize("brightness", [16, 32, 96, 255])
def test_and_at_the_other_brightness_settings(brightness):
    assert min(d for _, _, d in _pairs(brightness)) >= THRESHOLD


def test_the_old_palette_failed_this_test():
    # the colours before issue 17 (kept here as the measure of what was wrong)
    old = (((0, 160, 0), (0, 40, 200)), ((180, 120, 0), (200, 150, 0)), ((0, 110, 200), (0, 170, 255)),
           ((170, 0, 220), (220, 0, 255)), ((255, 120, 0), (255, 210, 0)), ((255, 0, 0), (255, 0, 90)))
    cs = [lights.shown_colour(c, 48) for layer in old for c in layer]
    bad = sum(1 for a, b in itertools.combinations(cs, 2)
              if _lab_colour(a, 48).delta_e(_lab_colour(b, 48), method="2000") < THRESHOLD)
    assert bad == 7


def test_each_led_is_named_back_as_its_own_meaning():
    for layer in PLAY_LAYERS:
        for k in (0, 1):
            shown = lights.shown_colour(lights.DEFAULT_COLOURS[layer][k], leds.DEFAULT_BRIGHTNESS)
            assert leds.led_name(shown) == leds.LED_NAMES[layer][k]


def test_the_legend_is_steady_every_meaning_of_the_game_listed_lit_or_not():
    from playboard_host.leds import legend

    shown = lights.shown_colour(lights.DEFAULT_COLOURS[lights.LEGAL][0], leds.DEFAULT_BRIGHTNESS)
    dark = legend("tobit", "play", [])
    lit = legend("tobit", "play", [shown])
    assert [row[:3] for row in dark] == [row[:3] for row in lit]  # the same rows, lit or not
    assert [row[3] for row in lit].count(True) == 1 and lit[0][1:4] == ["green", "legal", True]
    names = [row[2] for row in dark]
    assert "captured: take off" in names and "tuzdyk" not in names and "sowing" not in names
    toguz = [row[2] for row in legend("toguz", "play", [])]
    assert "tuzdyk" in toguz and "sowing" in toguz and "last ball" in toguz and "put a piece here" not in toguz
    # a game just over: its last move is still lit a while before the result, so the
    # game's colours stay listed, green and lavender saying the result
    over = legend("toguz", "over", [lights.shown_colour(lights.DEFAULT_COLOURS[lights.ENGINE][0],
                                                        leds.DEFAULT_BRIGHTNESS)])
    said = {"legal": "the winner's side", "last move": "a draw",
            "selected": "selected; a press held long enough: let go for the menu",
            "kazan grows": "last move; a press filling its row: hold on"}
    assert [row[2] for row in over] == [said.get(m, m) for m in toguz]
    assert [row[2] for row in over if row[3]] == ["engine's move from"]
    menu = [row[2] for row in legend("toguz", "menu", [])]
    assert menu == ["a choice", "chosen", "levels below", "the level", "START"]
    # Tihbat: no tuzdyk, no kazan
    tihbat = [row[2] for row in legend("tihbat", "play", [])]
    assert "tuzdyk" not in tihbat and not any("kazan" in m for m in tihbat)
    assert "captured counters grow" in tihbat and "sowing" in tihbat


def _roles_lit_by(module):
    """The R_* roles that a tracker module's source paints (its own private consts too)."""
    path = os.path.join(os.path.dirname(T.__file__), module + ".py")
    with open(path) as f:
        src = f.read()
    names = set(re.findall(r"\b_?(R_[A-Z_]+)\b", src)) - {"R_NONE"}
    return sorted(getattr(T, n) for n in names)


@pytest.mark.parametrize("module", ["tobit_position", "mancala_tracker"])
def test_every_role_a_tracker_lights_has_its_own_colour_or_pattern(module):
    roles = _roles_lit_by(module)
    assert len(roles) >= 9
    shown = {}
    for r in roles:
        layer, mark = T.ROLE_LIGHT[r]
        assert 0 <= layer <= lights.ERROR and lights.ON <= mark <= lights.ACCENT_BLINK
        # a colour (the layer's colour or accent) and a pattern (steady or blinking)
        look = (lights.DEFAULT_COLOURS[layer][0 if mark in (lights.ON, lights.BLINK) else 1],
                mark >= lights.BLINK)
        shown.setdefault(look, []).append(ROLE_NAMES[r])
    assert [names for names in shown.values() if len(names) > 1] == []


def test_set_up_asks_for_white_and_black_pieces_with_one_colour_two_patterns():
    # the collision: set-up lit one mint for both colours
    assert T.ROLE_LIGHT[T.R_MISSING] == (lights.ERROR, lights.ACCENT)
    assert T.ROLE_LIGHT[T.R_MISSING_BLACK] == (lights.ERROR, lights.ACCENT_BLINK)
    assert "missing-black" in ROLE_NAMES and len(ROLE_NAMES) == len(T.ROLE_LIGHT)
    said = [row[2] for row in leds.legend("tobit", "setup", []) if row[1] == "mint"]
    assert said == ["put a piece here: White's steady, Black's blinking"]


def test_the_role_table_lights_each_role_as_docs_tracker_md_says():
    L = lights
    want = {T.R_TARGET: (L.LEGAL, L.ON), T.R_SELECTED: (L.LEGAL, L.ACCENT), T.R_PATH: (L.SOWING, L.ON),
            T.R_REMOVE: (L.CAPTURE, L.ON), T.R_CANDIDATE: (L.LEGAL, L.BLINK), T.R_MISSING: (L.ERROR, L.ACCENT),
            T.R_EXTRA: (L.ERROR, L.ON), T.R_WRONG_COLOUR: (L.ERROR, L.BLINK), T.R_ENGINE_FROM: (L.ENGINE, L.ON),
            T.R_ENGINE_TO: (L.ENGINE, L.ACCENT), T.R_SOW: (L.SOWING, L.ON), T.R_LAST: (L.SOWING, L.ACCENT),
            T.R_CAPTURE: (L.CAPTURE, L.ON), T.R_TUZDYK: (L.CAPTURE, L.ACCENT), T.R_KAZAN: (L.LAST, L.ACCENT),
            T.R_ERROR: (L.ERROR, L.BLINK), T.R_LAST_FROM: (L.LAST, L.ON), T.R_LAST_TO: (L.LAST, L.ACCENT),
            T.R_MISSING_BLACK: (L.ERROR, L.ACCENT_BLINK)}
    assert len(T.ROLE_LIGHT) == len(want) + 1
    assert {r: T.ROLE_LIGHT[r] for r in want} == want
