"""Start-up work of the firmware with its code already loaded (as when frozen in flash).

Run by bench/mp_app.py in its own ``micropython -X heapsize=192k`` (argument: the
flash folder); prints one JSON line: microseconds to the first lit LED frame and to
the menu lit, every module imported beforehand (a frozen module's import costs
next to nothing on the board, loading a .mpy here does not).
"""
import json
import sys
import time

sys.path.insert(0, "build/simfw")
import playboard.config  # noqa: E402,F401
import playboard.sim.hw  # noqa: E402,F401
import playboard.app.startup  # noqa: E402,F401
import playboard.app.ui  # noqa: E402,F401
import playboard.record  # noqa: E402,F401
import playboard.link  # noqa: E402,F401
import playboard.board.layout  # noqa: E402,F401
from playboard.config import load_board  # noqa: E402
from playboard.sim.open import open_board  # noqa: E402
from playboard.app.startup import read_layouts  # noqa: E402
from playboard.record import Store  # noqa: E402
from playboard.hw.stdio import StdioTransport  # noqa: E402
from playboard.app.loop import App  # noqa: E402

t0 = time.ticks_us()
cfg = load_board("sim", with_layout=False)
hw = open_board(cfg)
hw.fill(0, 0, 24)
hw.show()
lit = time.ticks_diff(time.ticks_us(), t0)
app = App(hw, cfg, Store(sys.argv[1]), transport=StdioTransport(), layouts=read_layouts(cfg, hw))
app.start(0)
app.frame(0)
app.frame(20)  # the lights show at most every 20 ms: the menu's frame (virtual time)
menu = time.ticks_diff(time.ticks_us(), t0)
print(json.dumps({"lit_us": lit, "menu_us": menu, "leds": len(hw.lit())}))
