"""Lights: layer priority, brightness, gamma, blink, frame timing and the current cap."""
from tlib import heap_lock_check, raises, is_micropython

from playboard.board.lights import (Lights, LEGAL, LAST, SOWING, ENGINE, CAPTURE, ERROR,
                                    USER, N_LAYERS, ON, ACCENT, BLINK, ACCENT_BLINK)
from playboard.sim.hw import SimBoard


def estimate(hw, ma_per_led=60, idle=1):
    """Independent current estimate of what hw last showed (mA, float)."""
    s = 0
    for v in hw.shown:
        s += v
    return idle * hw.n_leds + s * ma_per_led / 765.0


def test_higher_layer_wins_and_linear_colours_pass_through():
    hw = SimBoard(8, 10)
    li = Lights(hw, brightness=255, gamma=1.0)
    li.mark(LEGAL, 2)
    li.mark(LAST, 2, ACCENT)
    li.mark(LEGAL, 3, ACCENT)
    li.set_colour(USER, 10, 20, 30)
    li.mark(USER, 7)
    assert li.frame(0)
    assert hw.shown_led(2) == (255, 255, 255)   # LAST accent (white) over LEGAL
    assert hw.shown_led(3) == (0, 40, 200)
    assert hw.shown_led(7) == (10, 20, 30)
    assert hw.lit() == [2, 3, 7]
    li.clear(LAST)
    li.render(0)
    assert hw.led(2) == (0, 160, 0)
    li.clear()
    li.render(0)
    assert hw.leds == bytearray(30)


def test_brightness_and_gamma():
    hw = SimBoard(8, 2)
    li = Lights(hw, brightness=255, gamma=2.2)
    li.set_colour(USER, 255, 128, 0)
    li.mark(USER, 0)
    li.render()
    r, g, b = hw.led(0)
    assert r == 255 and b == 0
    assert 50 <= g <= 60          # 255 * (128/255) ** 2.2 = 55.4
    # brightness scales the gamma-corrected colour, so the hue is kept when dimmed:
    # (255, 56, 0) * 129 / 256 = (128, 28, 0)
    li.set_brightness(128)
    li.render()
    assert hw.led(0) == (128, (g * 129) >> 8, 0) and (g * 129) >> 8 > 20
    li.set_brightness(0)
    li.render()
    assert hw.led(0) == (0, 0, 0)
    raises(ValueError, li.set_brightness, 256)


def test_current_cap_holds_for_every_scene():
    # the default board: 58 LEDs; full white would draw 58 * 60 + 58 = 3538 mA
    for budget in (1500, 500, 2500, 4000):
        hw = SimBoard(64, 58)
        li = Lights(hw, budget_ma=budget, brightness=255, gamma=1.0)
        for layer in range(N_LAYERS):
            li.set_colour(layer, 255, 255, 255)
            li.set_colour(layer, 255, 255, 255, True)
        scenes = [list(range(58)), list(range(0, 58, 2)), [0], list(range(40))]
        for leds in scenes:
            for layer in (LEGAL, LAST, ERROR, USER):
                li.clear()
                for i in leds:
                    li.mark(layer, i, ACCENT if i % 3 else ON)
                ma = li.render(0)
                hw.show()
                assert ma <= budget, (budget, len(leds), ma)
                assert estimate(hw) <= budget + 1e-9, (budget, len(leds), estimate(hw))
                full = len(leds) * 60 + 58
                if full > budget:
                    assert li.capped
                    # the cap uses the budget well (within 5 %), not far below it
                    assert estimate(hw) >= budget * 0.95, (budget, estimate(hw))
                else:
                    assert not li.capped and hw.shown_led(leds[0]) == (255, 255, 255)


def test_cap_keeps_hue():
    hw = SimBoard(8, 40)
    li = Lights(hw, budget_ma=600, brightness=255, gamma=1.0)
    li.set_colour(USER, 200, 100, 0)
    for i in range(40):
        li.mark(USER, i)
    li.render()
    r, g, b = hw.led(0)
    assert li.capped and 0 < r < 200 and abs(r - 2 * g) <= 2 and b == 0


def test_blink_and_frame_timing():
    hw = SimBoard(8, 4)
    li = Lights(hw, brightness=255, gamma=1.0, frame_ms=20, blink_ms=500)
    li.mark(LEGAL, 1)
    li.mark(ERROR, 1, BLINK)
    assert li.frame(0)
    assert hw.shown_led(1) == (255, 0, 0)
    assert not li.frame(10)          # too soon
    assert not li.frame(100)         # nothing changed, same blink phase
    assert li.frame(260)             # blink phase off: the layer below shows
    assert hw.shown_led(1) == (0, 160, 0)
    assert not li.frame(300)
    assert li.frame(510)
    assert hw.shown_led(1) == (255, 0, 0)
    li.mark(ERROR, 1, 0)
    assert li.frame(530)
    assert hw.shown_led(1) == (0, 160, 0)
    assert not li.frame(800)         # no blinking left: nothing to do
    assert hw.shows == 4


def test_show_now_shows_at_once_and_holds_it():
    """``show_now(t, hold_ms)``: shown whatever frame_ms, then nothing new for hold_ms
    (the fault's sign, 1 s), then the marks made meanwhile (time wrapping at 2**30)."""
    for t0 in (0, (1 << 30) - 400):
        hw = SimBoard(8, 4)
        li = Lights(hw, brightness=255, gamma=1.0, frame_ms=20, blink_ms=500)
        li.mark(LEGAL, 1)
        assert li.frame(t0)
        li.mark(ERROR, 2)
        li.show_now((t0 + 5) & 0x3FFFFFFF, 1000)  # 5 ms after a show: shown anyway
        assert hw.shown_led(2) == (255, 0, 0) and hw.shows == 2
        li.clear(ERROR)
        li.mark(LEGAL, 3)
        for dt in (30, 500, 1004):
            assert not li.frame((t0 + dt) & 0x3FFFFFFF)
        assert hw.shown_led(2) == (255, 0, 0)
        assert li.frame((t0 + 1005) & 0x3FFFFFFF)  # held 1000 ms from t0 + 5
        assert hw.shown_led(2) == (0, 0, 0) and hw.shown_led(3) == (0, 160, 0)


def test_the_accent_blinks_too():
    hw = SimBoard(8, 3)
    li = Lights(hw, brightness=255, gamma=1.0, frame_ms=20, blink_ms=500)
    li.mark(LEGAL, 0)
    li.mark(ERROR, 0, ACCENT_BLINK)
    li.mark(ERROR, 1, ACCENT)
    li.mark(ERROR, 2, BLINK)
    assert li.frame(0)
    assert [hw.shown_led(i) for i in range(3)] == [(0, 255, 140), (0, 255, 140), (255, 0, 0)]
    assert li.frame(260)  # off half: the layer below (green) shows, the steady accent stays
    assert [hw.shown_led(i) for i in range(3)] == [(0, 160, 0), (0, 255, 140), (0, 0, 0)]
    li.mark(ERROR, 0, ON)
    li.clear(ERROR)
    assert li.frame(300) and hw.shown_led(0) == (0, 160, 0)
    assert not li.frame(1010)  # another blink phase, but the blink count is back to none


def test_marks_out_of_range():
    hw = SimBoard(8, 4)
    li = Lights(hw)
    li.mark(LEGAL, -1)               # a cell without LED: ignored
    raises(IndexError, li.mark, LEGAL, 4)
    raises(ValueError, Lights, hw, 3, 60, 1)


def test_frame_allocates_nothing():
    hw = SimBoard(64, 58)
    li = Lights(hw, budget_ma=800)
    li.frame(0)
    state = [0]

    def frames():
        t = state[0]
        for k in range(50):
            li.mark(SOWING, k, ON)
            li.mark(CAPTURE, 57 - k, ACCENT)
            li.mark(ENGINE, 3, BLINK)
            li.frame(t)
            t += 20
        li.clear(SOWING)
        li.frame(t + 20)
        state[0] = t + 40

    assert not heap_lock_check(frames)
    if not is_micropython():
        frames()
    assert li.shows > 40
    assert li.current_ma() <= 800
