"""Issue 14's soak, its second run: the same 30 museum days as bench/py_soak.py (same
``SOAK_DAYS``, ``SOAK_SEED``, ``SOAK_ENGINE`` and ``SOAK_TOBIT``: every game the museum
profile offers, the engine and Tobit too) with no power cut: the board is never
switched off. A locked board restarts its firmware by itself at each closing
(``playboard.app.restart``, docs/museum.md "The daily restart": on the simulator its
process ends and SimBoard starts it again on the same flash and wall clock), so each
day begins on a whole heap, as after a power-up. Figures: every day run, no game not
begun and no memory error, no move lost, the heap at each closing (after the restart
and the staff's sync, collected) within 2 KB from day 2, and the restarts (one per
closing, counted apart from the power-ups). Without the
daily restart (one process for the 30 days: seed 14, engine 0.35, Tobit 0.2) 1 game
against the engine and 2 Tobit games did not begin, 8 memory errors, the heap at
closing 151.8-154.0 KB creeping up: the 64-bit model's heap broken up by weeks of
play (docs/museum-reference.md, "Known problems"). A script of its own, so that each run has
the bench's ``BENCH_SCRIPT_S``.
"""
import os
import sys

sys.path.insert(0, "bench")

from py_soak import HEAP_SPREAD, soak  # noqa: E402


def main():
    from benchlib import report
    days = int(os.environ.get("SOAK_DAYS", "30"))
    f0 = soak(days, int(os.environ.get("SOAK_SEED", "14")), cuts=0,
              engine=float(os.environ.get("SOAK_ENGINE", "0.35")), tobit=float(os.environ.get("SOAK_TOBIT", "0.2")))
    report("soak, no cuts: simulated museum days", f0["days"], "days", days, f0["days"] == days)
    report("soak, no cuts: games not begun / memory errors", "%d / %d" % (f0["start_failed"], f0["memory_errors"]),
           "", "0 / 0", f0["start_failed"] + f0["memory_errors"] == 0)
    report("soak, no cuts: committed moves lost / stuck", "%d / %d" % (f0["lost"], f0["stuck"]), "", "0 / 0",
           f0["lost"] + f0["stuck"] == 0)
    report("soak, no cuts: heap at closing, spread from 2", f0["heap_spread"], "B", "<= %d" % HEAP_SPREAD,
           f0["heap_spread"] <= HEAP_SPREAD)
    report("soak, no cuts: daily restarts (one per closing) / counted on the board / power-ups counted",
           "%d / %d / %d" % (f0["restarts"], f0["restarts_counted"], f0["power_ups"]), "", "%d / %d / 2" % (days, days),
           f0["restarts"] == f0["restarts_counted"] == days and f0["power_ups"] == 2)
    report("soak, no cuts: games against the engine / Tobit games", "%d / %d" % (f0["engine_games"], f0["tobit"]), "")
    report("soak, no cuts: heap at closing, range from 2", "%d..%d" % (min(f0["heap"][1:] or [0]),
                                                                     max(f0["heap"][1:] or [0])), "B")


if __name__ == "__main__":
    main()
