"""`playboard demo` and the web simulator's board (CPython driving the firmware under MicroPython).

Targets (issue 7): the whole demo (the bundled Toguz Kumalak record, a Tobit game
against the board's engine, sync and export) in under 60 s on this machine; the
simulator answers a page action (a click: the sensor change plus 150 ms of board
time, the LEDs read back) well within a frame of the page, 100 ms.
"""
import contextlib
import io
import sys
import time

sys.path.insert(0, "firmware")
sys.path.insert(0, "host_tools")
sys.path.insert(0, "bench")

from benchlib import report  # noqa: E402


def bench_demo():
    from playboard_host.cli import main

    buf = io.StringIO()
    t0 = time.perf_counter()
    with contextlib.redirect_stdout(buf):
        code = main(["demo", "--color", "never"])
    dt = time.perf_counter() - t0
    if code:
        raise SystemExit("playboard demo failed (%d): %s" % (code, buf.getvalue()[-500:]))
    report("demo: whole run (79-ply record + Tobit vs engine + sync + export)", round(dt, 2), "s", 60, dt < 60)
    text = buf.getvalue()
    moves = sum(1 for ln in text.splitlines() if " South " in ln or " North " in ln or " White " in ln
                or " Black " in ln)
    report("demo: moves played through the sensors", moves, "moves")


def bench_sim_action():
    from playboard_host.websim.session import Session

    s = Session(None, game="toguz", pump=False)
    try:
        s.advance(100)
        times = []
        for pit in (0, 9, 1, 10, 2, 11, 3, 12):
            t0 = time.perf_counter()
            s.act({"op": "click", "cell": pit})
            times.append(time.perf_counter() - t0)
            s.advance(2600)  # the sowing view is confirmed
        t = sorted(times)[len(times) // 2] * 1000
        report("sim: page action (tap + 150 ms board time + LEDs), median", round(t, 1), "ms", 100, t < 100)
        t0 = time.perf_counter()
        for _ in range(40):
            s.advance(25)
        t = (time.perf_counter() - t0) / 40 * 1000
        report("sim: clock tick (25 ms of board time + events + LEDs)", round(t, 2), "ms", 25, t < 25)
    finally:
        s.close()


if __name__ == "__main__":
    bench_demo()
    bench_sim_action()
