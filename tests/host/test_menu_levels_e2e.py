"""The menu's level-8 pit past 8 (docs/app.md, the menu pads) pressed as people press:
the whole firmware on the simulated board (the chip's heap), contact bounce on every
press and release, holds of 0.9-1.4 s and gaps of 0.35-0.9 s, a brush too short to
count, a bump of another pit just before a press, and a chattering pit."""
import random

import pytest

from playboard.app.state import HOLD_MS, MENU_GAME, MENU_LEVEL, MENU_MODE, QUIET_MS
from playboard.board.layout import load_layout
from playboard_host.simboard import micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")

LAY = load_layout("toguz")
PIT8 = LAY.sensor_of(MENU_LEVEL[7])


def _flip(b, rng, s, v):
    """Sensor ``s`` to ``v`` with 0-3 contact bounces of 2-4 ms."""
    for _ in range(rng.randint(0, 3)):
        b.set_sensor(s, v)
        b.advance(rng.randint(2, 4))
        b.set_sensor(s, 1 - v)
        b.advance(rng.randint(2, 4))
    b.set_sensor(s, v)


def _press(b, rng, s, hold=None):
    """A person's press of sensor ``s``: bounce, held ``hold`` ms (0.9-1.4 s), bounce
    on release, then a gap of 0.35-0.9 s."""
    _flip(b, rng, s, 1)
    b.advance(hold if hold is not None else rng.randint(HOLD_MS + 100, 1400))
    _flip(b, rng, s, 0)
    b.advance(rng.randint(QUIET_MS + 50, 900))


@pytest.mark.parametrize("seed", [1, 2])
def test_the_level_8_pit_pressed_by_hand_steps_past_8_and_ignores_brushes_bumps_and_chatter(board, tmp_path, seed):
    rng = random.Random(seed)
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.advance(500)
    _press(b, rng, LAY.sensor_of(MENU_GAME[1]))  # Tobit
    _press(b, rng, LAY.sensor_of(MENU_MODE[1]))  # White against the engine
    st = b.status()
    assert (st["game"], st["mode"]) == ("tobit", "white"), st
    seen = []
    for _ in range(6):  # 8, 9, 10, 11 (Tobit's top), back to 8, 9
        _press(b, rng, PIT8)
        seen.append(b.status()["level"])
    assert seen == [8, 9, 10, 11, 8, 9], seen
    # a brush (0.3 s) is no press
    _press(b, rng, PIT8, hold=300)
    assert b.status()["level"] == 9
    # a pit bumped 0.1 s before the press: the press is no press (QUIET_MS); pressed
    # again after a pause, it counts
    other = LAY.sensor_of(MENU_LEVEL[2])
    _flip(b, rng, other, 1)
    b.advance(60)
    _flip(b, rng, other, 0)
    b.advance(100)
    _press(b, rng, PIT8)
    assert b.status()["level"] == 9
    _press(b, rng, PIT8)
    assert b.status()["level"] == 10
    # a pit chattering (a sensor that flickers every 40-120 ms) while pit 8 is held:
    # the hold ends with the first flicker, the level stays
    chat = LAY.sensor_of(MENU_LEVEL[0])
    b.events()
    b.set_sensor(PIT8, 1)
    v = 0
    for _ in range(20):
        v = 1 - v
        b.set_sensor(chat, v)
        b.advance(rng.randint(40, 120))
    b.set_sensor(chat, 0)
    b.set_sensor(PIT8, 0)
    b.advance(1000)
    st = b.status()
    assert st["level"] == 10 and st["state"] == "menu", st
    # the chattering pit is a sensor fault (docs/app.md, the `fault` event): no press counts
    # until it has been quiet a while; then it clears and pit 8 works again
    assert {"ev": "fault", "sensor": chat, "fault": 1} in [
        {k: e[k] for k in ("ev", "sensor", "fault") if k in e} for e in b.events()]
    b.advance(2500)
    assert {"ev": "fault", "sensor": chat, "fault": 0} in [
        {k: e[k] for k in ("ev", "sensor", "fault") if k in e} for e in b.events()]
    _press(b, rng, PIT8)
    assert b.status()["level"] == 11
