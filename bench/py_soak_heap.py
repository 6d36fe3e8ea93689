"""Issue 14's soak, its second run: the same 30 museum days as bench/py_soak.py (same
``SOAK_DAYS`` and ``SOAK_SEED``) with no power cut, so that one firmware process lives
all the days: the heap at each closing, collected, over that process (within 2 KB
from day 2). Two-player Toguz Kumalak and Tihbat only. The engine and Tobit now
begin on a locked board after its power-up (bench/py_soak.py plays them), but the
heap at closing holds the day's last game's code until the next game's start, and a
Tobit game's or the engine's is far larger than a mancala game's: with them in the
mix this figure, the spread over every day, would say which game came last, not
whether the heap leaks (py_soak's "days alike" compares days with the same last game
for that). A script of its own, so that each run has the bench's ``BENCH_SCRIPT_S``.
"""
import os
import sys

sys.path.insert(0, "bench")

from py_soak import HEAP_SPREAD, soak  # noqa: E402


def main():
    from benchlib import report
    days = int(os.environ.get("SOAK_DAYS", "30"))
    f0 = soak(days, int(os.environ.get("SOAK_SEED", "14")), cuts=0, engine=0, tobit=0)
    report("soak, no cuts: simulated museum days", f0["days"], "days", days, f0["days"] == days)
    report("soak, no cuts: games not begun / memory errors", "%d / %d" % (f0["start_failed"], f0["memory_errors"]),
           "", "0 / 0", f0["start_failed"] + f0["memory_errors"] == 0)
    report("soak, no cuts: committed moves lost / stuck", "%d / %d" % (f0["lost"], f0["stuck"]), "", "0 / 0",
           f0["lost"] + f0["stuck"] == 0)
    report("soak, no cuts: heap at closing, spread from 2", f0["heap_spread"], "B", "<= %d" % HEAP_SPREAD,
           f0["heap_spread"] <= HEAP_SPREAD)
    report("soak, no cuts: heap at closing, range from 2", "%d..%d" % (min(f0["heap"][1:] or [0]),
                                                                     max(f0["heap"][1:] or [0])), "B")


if __name__ == "__main__":
    main()
