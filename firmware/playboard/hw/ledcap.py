"""The LED current cap on a raw RGB buffer, for the light paths that write the buffer
themselves: the builder's checks (playboard.hw.selftest, playboard.hw.calibrate,
playboard.hw.guided). The arithmetic of playboard.board.lights.Lights, which composes
its layers under the same cap. A module of its own, loaded only while a check runs.
"""


def cap_leds(leds, n, budget_ma, ma_per_led=60, idle_ma=1):
    """Scale an RGB buffer (``leds[0:3n]``, 0..255 a channel) down by one factor so that
    its estimated current (``idle_ma`` a LED plus each channel's duty at ``ma_per_led``
    / 3 for full on) stays within ``budget_ma``; return the estimated mA after: the
    arithmetic of playboard.board.lights.Lights (which composes its layers under it),
    for the light paths that write the buffer themselves (the builder's checks:
    playboard.hw.selftest, playboard.hw.calibrate, playboard.hw.guided). Allocates
    nothing. ValueError if the budget cannot even feed the dark LEDs."""
    room = (budget_ma - idle_ma * n) * 765 // ma_per_led
    if room <= 0:
        raise ValueError("lights: budget %d mA cannot feed %d LEDs idling at %d mA"
                         % (budget_ma, n, idle_ma))
    units = 0
    for j in range(3 * n):
        units += leds[j]
    if units > room:
        f = room * 256 // units
        units = 0
        for j in range(3 * n):
            v = (leds[j] * f) >> 8
            leds[j] = v
            units += v
    return idle_ma * n + units * ma_per_led // 765
