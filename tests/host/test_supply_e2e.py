"""The LED cap follows the power source on the simulated board (the whole firmware in
the simulator's model): the board file "sim" senses its supply (leds.supply "sense");
``SimBoard.power("usb")`` is USB alone (the Pico's GPIO24 high, the adapter line low),
``power("adapter")`` the adapter (with USB or not)."""
import pytest

from playboard_host.simboard import SimError, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="the simulator's model is not built (make setup)")


def _ma(leds, ma_per_led=60, idle_ma=1):
    """The firmware's estimate of the chain's current for colours ``leds`` (mA)."""
    return idle_ma * len(leds) + sum(sum(c) for c in leds) * ma_per_led / 765.0


def test_the_led_cap_follows_the_source(board, tmp_path):
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.new_game("toguz", "two")
    b.advance(300)
    st = b.status()
    assert (st["supply"], st["led_cap_ma"]) == ("adapter", 1500)
    on_adapter = _ma(b.leds())
    b.power("usb")
    b.advance(20)                                     # two frames
    st = b.status()
    assert (st["supply"], st["led_cap_ma"]) == ("usb", 390)     # what 500 mA leaves
    on_usb = _ma(b.leds())
    assert on_usb <= 390 and on_usb <= on_adapter, (on_usb, on_adapter)
    b.power("adapter")
    b.advance(20)
    st = b.status()
    assert (st["supply"], st["led_cap_ma"]) == ("adapter", 1500)
    assert abs(_ma(b.leds()) - on_adapter) < 1.0
    with pytest.raises(SimError) as e:
        b.power("mains")
    assert "power takes adapter or usb" in str(e.value)
