"""The little the firmware tests need, for both CPython (pytest) and MicroPython.

Firmware tests are plain ``test_*`` functions using ``assert``; pytest collects
them under CPython and ``tests/mp_runner.py`` runs the same files under the
MicroPython unix port. No pytest fixtures, no CPython-only modules.
"""
import os

try:
    from unittest import SkipTest  # pytest reports this as a skip
except ImportError:  # MicroPython

    class SkipTest(Exception):
        """Raised by a test to be reported as skipped (MicroPython runner)."""


def _dirname(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


FIRMWARE_TESTS = _dirname(__file__)
TESTS_DIR = _dirname(FIRMWARE_TESTS) if FIRMWARE_TESTS != "." else ".."
ROOT = _dirname(TESTS_DIR) if TESTS_DIR not in (".", "..") else "."
DATA = TESTS_DIR + "/data"


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def cases_dir():
    """Path of ``../shared/cases`` (or $PLAYBOARD_CASES); raises SkipTest where absent."""
    path = os.getenv("PLAYBOARD_CASES") if hasattr(os, "getenv") else None
    if not path:
        path = ROOT + "/../shared/cases"
    if not _exists(path):
        raise SkipTest("shared cases not found at %s (set PLAYBOARD_CASES)" % path)
    return path


def raises(exc, fn, *args, **kw):
    """Call fn(*args); assert it raises ``exc``; return the exception."""
    try:
        fn(*args, **kw)
    except exc as e:
        return e
    raise AssertionError("%s not raised by %r%r" % (exc.__name__, fn, args))


def heap_lock_check(fn, *args):
    """Run fn(*args) with the heap locked (MicroPython); return True if it allocated.

    Under CPython there is no heap lock: returns False without running fn.
    """
    if not is_micropython():  # (a CPython `micropython` module, e.g. Blinka's, has no heap lock)
        return False
    import micropython

    micropython.heap_lock()
    try:
        # a star-call allocates the argument tuple on MicroPython: call plainly
        if len(args) == 0:
            fn()
        elif len(args) == 1:
            fn(args[0])
        elif len(args) == 2:
            fn(args[0], args[1])
        else:
            fn(args[0], args[1], args[2])
        allocated = False
    except MemoryError:
        allocated = True
    finally:
        micropython.heap_unlock()
    return allocated


def use_compiled_firmware():
    """Under MicroPython: nothing where the firmware is frozen into the interpreter (the
    simulator's model, tests/test_micropython.py: as on the board); else put the firmware
    compiled by mpy-cross (build/simfw, made fresh by the host's builder) first on the
    path: the whole firmware compiled from source does not fit the chip's heap beside
    the tests (the compiler's peak)."""
    import os
    import sys
    try:
        import playboard.frozen_files  # noqa: F401 (only the frozen image has it)
        return
    except ImportError:
        pass
    py = ROOT + "/.venv/bin/python"
    try:
        os.stat(py)
    except OSError:
        raise SkipTest("no .venv/bin/python to build the compiled firmware (make setup)")
    code = os.system("%s -c 'import sys; sys.path.insert(0, \"%s/host_tools\"); "
                     "from playboard_host.simboard import build_firmware; build_firmware()'" % (py, ROOT))
    if code != 0:
        raise SkipTest("building the compiled firmware failed (%d)" % code)
    path = ROOT + "/build/simfw"
    if path not in sys.path:
        sys.path.insert(0, path)
    for k in list(sys.modules):
        if k.startswith("playboard"):
            del sys.modules[k]


def is_micropython():
    import sys

    return sys.implementation.name == "micropython"


class Rng:
    """A small xorshift generator: the same numbers on CPython and MicroPython."""

    def __init__(self, seed):
        self.x = (seed * 2654435761 + 12345) & 0x3FFFFFFF or 1

    def next(self):
        x = self.x
        x ^= (x << 13) & 0x3FFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0x3FFFFFFF
        self.x = x
        return x

    def below(self, n):
        return self.next() % n

    def between(self, lo, hi):
        return lo + self.next() % (hi - lo + 1)

    def chance(self, percent):
        return self.next() % 100 < percent

    def choice(self, seq):
        return seq[self.next() % len(seq)]

    def shuffle(self, lst):
        for i in range(len(lst) - 1, 0, -1):
            j = self.next() % (i + 1)
            lst[i], lst[j] = lst[j], lst[i]


def random_games(make, count, seed, most=60):
    """``count`` games, each ``make()`` after 0..``most`` seeded random plies (a
    linear congruential draw: the same games under CPython and MicroPython), yielded
    one at a time (the chip's heap of the MicroPython run holds few games)."""
    x = seed
    for _ in range(count):
        g = make()
        x = (x * 1103515245 + 12345) & 0x3FFFFFFF
        for _ in range((x >> 8) % (most + 1)):
            ms = g.legal_moves()
            if not ms:
                break
            x = (x * 1103515245 + 12345) & 0x3FFFFFFF
            g.push(ms[(x >> 8) % len(ms)])
        yield g
