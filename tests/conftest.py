"""pytest set-up: the firmware package and the firmware test helpers on sys.path."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "firmware"),
          os.path.join(ROOT, "host_tools")):
    if p not in sys.path:
        sys.path.insert(0, p)

import playboard_host  # noqa: E402,F401 - the host tools' CPython twins of the viper code, as the host runs them
