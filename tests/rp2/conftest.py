"""The emulated-Pico tests' count on CircuitPython's image, printed at the end of the run
(issue 36: CI shows it, and that none was skipped: ``.ci/run`` sets
``PLAYBOARD_REQUIRE_CIRCUITPYTHON``, which turns their skips into failures)."""

CP_TESTS = "test_circuitpython.py"


def pytest_terminal_summary(terminalreporter):
    counts = {}
    for what in ("passed", "failed", "skipped", "error"):
        counts[what] = sum(1 for r in terminalreporter.stats.get(what, [])
                           if CP_TESTS in getattr(r, "nodeid", ""))
    if any(counts.values()):
        terminalreporter.write_line("CircuitPython on the emulated Pico (tests/rp2/%s): %s" % (
            CP_TESTS, ", ".join("%d %s" % (n, what) for what, n in counts.items())))
