"""Playboard firmware entry point: load the board definition, build the hardware, run the app.

On the board (rp2) the board definition named in ``/board.txt`` (default
``pico-matrix``) is loaded from ``/boards``, the hardware backend built, the games
kept in ``/games``, the link on the USB serial port (beside the REPL), and a
watchdog (``machine.WDT``, 8 s) fed by every frame. On the MicroPython unix port
(``micropython firmware/main.py``) it runs the simulated board instead:
``playboard.sim.bridge.run`` (docs/simulator.md).
"""
import sys


def _board_name():
    try:
        with open("/board.txt") as f:
            name = f.read().strip()
        return name or "pico-matrix"
    except OSError:
        return "pico-matrix"


def main():
    if sys.platform in ("linux", "darwin", "win32"):
        from playboard.sim.bridge import run
        run()
        return
    from playboard.config import load_board
    from playboard.hw.open import open_board

    cfg = load_board(_board_name(), with_layout=False)  # the app reads and checks the layout
    hw = open_board(cfg)
    hw.fill(0, 0, 24)  # lit at once, before the rest is imported
    hw.show()
    from playboard.app.gamestart import read_layouts
    layouts = read_layouts(cfg, hw)  # first, while the heap is nearly empty
    from playboard.app.loop import App
    from playboard.compat import unload
    unload("playboard.app.gamestart")
    wdt = None
    try:
        from machine import WDT
        wdt = WDT(timeout=8000)
    except (ImportError, AttributeError, ValueError):
        pass
    from playboard.record import Store
    from playboard.link import StdioTransport

    app = App(hw, cfg, Store("/games"), transport=StdioTransport(), wdt=wdt, layouts=layouts)
    del layouts
    try:
        app.run()
    finally:
        app.store.close()
        hw.fill(0, 0, 0)
        hw.show()


if __name__ == "__main__" or sys.platform not in ("linux", "darwin", "win32"):
    main()
