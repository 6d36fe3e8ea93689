"""Run firmware test modules under the MicroPython unix port.

Usage (from the repository root), in the simulator's model (``make model``: the
firmware frozen in, as on the board; tests/test_micropython.py runs it so)::

    MICROPYPATH=.frozen:tests build/micropython-board -X heapsize=242k -m mp_runner test_toguz [...]

The firmware is the frozen one; the tests and their helpers come from tests/firmware.

Each module in tests/firmware is imported and each ``test_*`` function is
called. Prints one line per test and a closing ``N passed, N failed, N skipped``;
exits 1 if any failed. Runs a test in a thread with an 8 KB-equivalent C stack
when its name ends with ``_small_stack``.
"""
import sys
import gc

sys.path.insert(0, "tests/firmware")

import tlib  # noqa: E402


def run_module(name, counts, only=None):
    mod = __import__(name)
    names = sorted(k for k in dir(mod) if k.startswith("test_"))
    for k in names:
        if only and k not in only:
            continue
        fn = getattr(mod, k)
        gc.collect()
        try:
            fn()
            counts[0] += 1
            print("PASS", name, k)
        except tlib.SkipTest as e:
            counts[2] += 1
            print("SKIP", name, k, e)
        except Exception as e:  # report and go on
            counts[1] += 1
            print("FAIL", name, k, repr(e))
            sys.print_exception(e)


def main():
    counts = [0, 0, 0]
    args = sys.argv[1:]
    only = [a for a in args if a.startswith("test_") and "." in a]
    mods = [a for a in args if "." not in a]
    only = [a.split(".", 1)[1] for a in only] or None
    for m in mods:
        run_module(m, counts, only)
    print("mp: %d passed, %d failed, %d skipped" % (counts[0], counts[1], counts[2]))
    if counts[1]:
        sys.exit(1)


main()
