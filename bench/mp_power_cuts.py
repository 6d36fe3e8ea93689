"""Power cuts at 1,000 random moments of whole games on littlefs (MicroPython).

The session and the checks of tests/firmware/test_record_cuts.py (``run_cuts``:
real games of each rules core recorded by ``record.Store`` on ``os.VfsLfs2`` over
a block device that loses power at a random byte), 1,000 times instead of the
test's 40. Target: 0 committed moves lost, every game replays (a failed replay
stops the script: reported as a failure).
"""
import sys

sys.path.insert(0, "tests/firmware")

from benchlib import report  # noqa: E402
from test_record_cuts import run_cuts  # noqa: E402

cuts, lost, whole, total = run_cuts(1000, seed=7)
report("power cuts at random moments of games on littlefs (%d session bytes)" % total, cuts, "cuts",
       None, None, None)
report("committed moves lost after %d power cuts (every game replayed)" % cuts, lost, "moves",
       "0", lost == 0, None)
