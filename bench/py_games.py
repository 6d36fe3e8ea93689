"""Rules cores under CPython: perft rates.

Target (issue 2): at least twice the fastest published Python implementation we
know (togyz_py, about 330,000 nodes/s on a machine like this), so 660,000 nodes/s
for Toguz Kumalak perft.
"""
import sys

sys.path.insert(0, "firmware")
sys.path.insert(0, "bench")
sys.path.insert(0, "host_tools")

import playboard_host  # noqa: E402,F401 - puts the CPython twins of the viper code in place

import games_common  # noqa: E402

games_common.run("CPython", {
    "toguz": (6, None, 660000),
    "tobit": (5, None, None),
    "tobit4": (5, None, None),
    "tihbat": (12, None, None),
})
