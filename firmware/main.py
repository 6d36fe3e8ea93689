"""Playboard firmware entry point: load the board definition, build the hardware, run the app.

On the board (rp2): ``playboard.app.onboard.run`` (the board definition named in
``/board.txt``, the hardware backend, the games in ``/games``, the link on the USB
serial port, the watchdog, a hall board's first-boot calibration; Ctrl-C stops the
app and the watchdog), unless a deploy was cut off (``/deploy.incomplete`` on flash).
On the MicroPython unix port (``micropython firmware/main.py``) it runs the simulated
board instead: ``playboard.sim.bridge.run`` (docs/simulator.md).
Each in a module of its own: neither's code is in the other's heap.
"""
import sys


DEPLOY_MARK = "deploy.incomplete"  # written by `playboard deploy` before it copies, removed after


def main():
    if sys.platform in ("linux", "darwin", "win32"):
        from playboard.sim.bridge import run as run_sim
        run_sim()
        return
    # checked here, not in a module: `playboard deploy` copies main.py first, so a
    # deploy cut off may have left any module missing or half-written
    import os
    try:
        os.stat("/" + DEPLOY_MARK)
        print("playboard: a deploy was cut off (/%s): the app stays stopped; "
              "run `playboard deploy` again" % DEPLOY_MARK)
        return
    except OSError:
        pass
    from playboard.app.onboard import run
    run()


if __name__ == "__main__" or sys.platform not in ("linux", "darwin", "win32"):
    main()
