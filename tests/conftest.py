"""pytest set-up: the firmware package and the firmware test helpers on sys.path."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "firmware"),
          os.path.join(ROOT, "host_tools")):
    if p not in sys.path:
        sys.path.insert(0, p)

# The interim heap model of the simulated board (issue 30): 512 KB on the 64-bit unix
# port with the code in the heap, a margin, not the 192 KB edge that the names'
# interning and the lock's restart existed to survive; the 32-bit frozen model replaces it
os.environ.setdefault("PLAYBOARD_SIM_HEAP", "512k")

import playboard_host  # noqa: E402,F401 - the host tools' CPython twins of the viper code, as the host runs them
