"""The LED current cap on a raw RGB buffer, for the light paths that write the buffer
themselves: the builder's checks (playboard.hw.selftest, playboard.hw.calibrate,
playboard.hw.guided). The arithmetic of playboard.board.lights.Lights, which composes
its layers under the same cap; and the checks' one way of painting and showing the
buffer (``blank``, ``paint``, ``paint_rest``, ``show``). A module of its own, loaded
only while a check runs.
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


def set_cap(check, budget_ma, ma_per_led, idle_ma):
    """Give a check its LED cap (``budget_ma``, mA; ``ma_per_led`` a full-white LED's
    mA, ``idle_ma`` a dark one's) and its highest estimate so far (``max_ma``, 0): what
    ``show`` reads."""
    check.budget_ma = budget_ma
    check.ma_per_led = ma_per_led
    check.idle_ma = idle_ma
    check.max_ma = 0


def beside_leds(sensor_led, n_sensors, n_leds):
    """The sensors (0..n_sensors-1, in order) with an LED beside them: ``sensor_led[s]``
    neither 255 (none) nor past the chain's ``n_leds`` (allocates: for a summary)."""
    return [s for s in range(n_sensors) if sensor_led[s] != 255 and sensor_led[s] < n_leds]


def blank(leds):
    """Every channel of the RGB buffer ``leds`` to 0."""
    for j in range(len(leds)):
        leds[j] = 0


def paint(leds, led, level, rgb):
    """LED ``led`` of ``leds`` to ``rgb`` (each channel 0..4, quarters of ``level``)."""
    j = 3 * led
    leds[j] = level * rgb[0] // 4
    leds[j + 1] = level * rgb[1] // 4
    leds[j + 2] = level * rgb[2] // 4


def paint_rest(leds, n, mapped, level, ok):
    """Every LED of the first ``n`` whose ``mapped`` byte is 0 (no sensor beside it):
    green at ``level`` if ``ok``, else red: a check's verdict on the whole board."""
    for led in range(n):
        if not mapped[led]:
            leds[3 * led + (1 if ok else 0)] = level


def show(check):
    """Cap ``check.hw.leds`` at ``check.budget_ma`` (``cap_leds`` with the check's
    ``ma_per_led`` and ``idle_ma``), keep the highest estimate in ``check.max_ma`` and
    show the LEDs."""
    hw = check.hw
    ma = cap_leds(hw.leds, hw.n_leds, check.budget_ma, check.ma_per_led, check.idle_ma)
    if ma > check.max_ma:
        check.max_ma = ma
    hw.show()
