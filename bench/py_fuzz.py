"""Issue 31's whole-board fuzzing at length: ``FUZZ_FRAMES`` (default 10,000,000) scan
frames of the real firmware on the simulated board (``playboard_host.fuzz``), seeds
``FUZZ_SEED``, ``FUZZ_SEED`` + 1, ... of ``FUZZ_PER_SEED`` (default 200,000) frames
each, the board definitions in turn (every one in firmware/boards: a hardware board's
on the simulated board, which stands in for its hardware; every selection mode, the
takeback button, the full-size layout). Prints each failure (its seed and steps: replay it with that seed) and the
figures: frames run, exceptions, inconsistencies (position vs the record's replay),
unanswered requests, takebacks against the engine that did not leave the player to
move two plies back - targets 0 each (and at least one such takeback checked); a
locked board's link requests outside its limits, refused (at least one; a wrong answer
is a failure); real play's late hands (``playboard_host.fuzz_late``): engine's last
moves carried out into the result and captures taken off after the next move was
shown (at least one each; a misread is a failure). (At about 15,000 frames a second on one core
10,000,000 take some 12 minutes; BENCH_SCRIPT_S may need raising.)"""
import os
import sys
import tempfile

from benchlib import report
from playboard_host.fuzz import Fuzz, FuzzFailure
from playboard_host.simboard import SimBoard

from playboard_host.simboard import FIRMWARE

# every board definition, a hardware board's on the simulated board standing in for it
BOARDS = tuple(sorted(f[:-5] for f in os.listdir(os.path.join(FIRMWARE, "boards"))
                      if f.endswith(".json") and not f.startswith("layout_")))


def main():
    total = int(os.environ.get("FUZZ_FRAMES", "10000000"))
    per = int(os.environ.get("FUZZ_PER_SEED", "200000"))
    seed = int(os.environ.get("FUZZ_SEED", "1000"))
    frames = exc = bad = unanswered = other = takebacks = wrong_takebacks = refusals = 0
    late_results = late_captures = late_wrong = 0
    with tempfile.TemporaryDirectory() as d:
        while frames < total:
            board_def = BOARDS[seed % len(BOARDS)]
            f = Fuzz(lambda: SimBoard(), seed, os.path.join(d, "f%d" % seed), board_def=board_def)
            try:
                f.run(min(per, total - frames))
            except FuzzFailure as e:
                print("FAILURE", e)
            except Exception as e:  # noqa: BLE001 - the harness or the board died: said, counted
                other += 1
                print("ERROR seed %d (%s): %r" % (seed, board_def, e))
            finally:
                f.close()
            frames += f.frames
            exc += f.faults
            bad += f.inconsistent
            unanswered += f.unanswered
            takebacks += f.takebacks
            wrong_takebacks += f.wrong_takebacks
            refusals += f.refusals
            late_results += f.late_results
            late_captures += f.late_captures
            late_wrong += f.late_wrong
            seed += 1
    report("fuzz: frames run", frames, "frames", total, frames >= total)
    report("fuzz: exceptions out of a frame", exc + other, "count", 0, exc + other == 0)
    report("fuzz: position != record's replay", bad, "count", 0, bad == 0)
    report("fuzz: unanswered link requests", unanswered, "count", 0, unanswered == 0)
    # a takeback press against the engine once it answered: the player to move, the ply
    # two lower (checked on the board definitions with a takeback button)
    report("fuzz: takebacks vs the engine checked", takebacks, "count", 1, takebacks >= 1)
    report("fuzz: takebacks vs the engine wrong", wrong_takebacks, "count", 0, wrong_takebacks == 0)
    # a locked board's G requests outside its limits (Fuzz.locked_requests), each refused
    report("fuzz: requests outside a locked board's limits refused", refusals, "count", 1, refusals >= 1)
    # real play's late hands (playboard_host.fuzz_late), each checked: the engine's last
    # move carried out into the result (the result stays), captures taken off after the
    # next move was shown (no move made up)
    report("fuzz: engine's last moves carried out into the result", late_results, "count", 1, late_results >= 1)
    report("fuzz: captures taken off after the next move was shown", late_captures, "count", 1,
           late_captures >= 1)
    report("fuzz: late hands misread", late_wrong, "count", 0, late_wrong == 0)


if __name__ == "__main__":
    sys.exit(main())
