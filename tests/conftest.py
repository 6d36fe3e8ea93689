"""pytest set-up: the firmware package and the firmware test helpers on sys.path."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in (os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "firmware"),
          os.path.join(ROOT, "host_tools")):
    if p not in sys.path:
        sys.path.insert(0, p)

import playboard_host  # noqa: E402,F401 - the host tools' CPython twins of the viper code, as the host runs them

import gc  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _young_collections():
    """Under CPython, ``gc.collect()`` collects the youngest generation only, for the
    length of each test. The firmware calls it for MicroPython's heap (a collection
    there is what keeps its blocks whole); under CPython, in a pytest process that
    holds every earlier test's objects, a full collection scans them all: the
    power-cut tests, which start a store hundreds of times, took 100 times longer in
    the whole run than alone (0.6 s against 40 s for 40 cuts with 1.5 million objects
    held). CPython's own collections run as they would; a test that counts the calls
    patches ``gc.collect`` itself, over this."""
    if sys.implementation.name != "cpython":
        yield
        return
    full = gc.collect
    gc.collect = lambda *generation: full(0)
    try:
        yield
    finally:
        gc.collect = full
