"""Playboard firmware entry point: load the board definition, build the hardware, run the app.

On the board (rp2) the board definition named in ``/board.txt`` (default
``pico-matrix``) is loaded from ``/boards``, the hardware backend built, the games
kept in ``/games``, the link on the USB serial port (beside the REPL), and a
watchdog (``machine.WDT``, 8 s) fed by every frame. Ctrl-C stops the app *and* the
watchdog (the REPL is safe); any other way out leaves the watchdog to restart the
board. A deploy cut off (``/deploy.incomplete`` on flash) keeps the app stopped. On the MicroPython unix port
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


DEPLOY_MARK = "deploy.incomplete"  # written by `playboard deploy` before it copies, removed after
_WATCHDOG_CTRL_CLEAR = 0x40058000 | 0x3000  # RP2040 WATCHDOG CTRL, atomic-clear alias
_WATCHDOG_ENABLE = 1 << 30


def stop_watchdog():
    """Stop the RP2040's hardware watchdog (``machine.WDT`` has no way to): clear the
    ENABLE bit of WATCHDOG CTRL through its atomic-clear alias (RP2040 datasheet 4.7)."""
    import machine
    machine.mem32[_WATCHDOG_CTRL_CLEAR] = _WATCHDOG_ENABLE


def _deploy_unfinished():
    import os
    try:
        os.stat("/" + DEPLOY_MARK)
        return True
    except OSError:
        return False


def main():
    if sys.platform in ("linux", "darwin", "win32"):
        from playboard.sim.bridge import run
        run()
        return
    if _deploy_unfinished():
        print("playboard: a deploy was cut off (/%s): the app stays stopped; "
              "run `playboard deploy` again" % DEPLOY_MARK)
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
    try:
        from playboard.record import Store
        from playboard.hw.stdio import StdioTransport

        app = App(hw, cfg, Store("/games"), transport=StdioTransport(), wdt=wdt, layouts=layouts)
        del layouts
        try:
            app.run()
        finally:
            app.store.close()
            hw.fill(0, 0, 0)
            hw.show()
    except KeyboardInterrupt:
        # Ctrl-C at the USB port: a person (or mpremote, playboard deploy) takes the
        # REPL; the watchdog must not reset the board under them. Any other exception
        # keeps it running: the board restarts by itself 8 s later (docs/app.md).
        if wdt is not None:
            stop_watchdog()
            print("playboard: stopped (Ctrl-C); watchdog off; Ctrl-D or a reset starts the app")
        raise


if __name__ == "__main__" or sys.platform not in ("linux", "darwin", "win32"):
    main()
