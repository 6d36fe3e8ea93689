"""The code heap of the hardware layer and of the builder's checks, under MicroPython.

Run by ``make bench`` (``micropython -X heapsize=192k``, from the repository root),
on the firmware compiled by mpy-cross for this unix port (``build/simfw``). On a
board with the frozen build this code is flash; on a board running the ``.mpy``
files of ``playboard deploy`` (and on the simulated board) it is heap. What each
figure shows (docs/hardware.md):

- the rp2 backend that a reed-matrix or 74HC165 board loads (``playboard.hw.rp2``),
  and the hall backend a hall board loads over it (``playboard.hw.hall``);
- the self-test, the guided calibration and the app's checks (``playboard.app.check``),
  loaded only while a check runs;
- the board's start-up (``playboard.app.onboard``, never loaded by the simulated
  board) and ``main.py`` itself (compiled from source, as the simulated board runs it).
"""
import os

from benchlib import report

PY = "./.venv/bin/python"
BUILDER = ("%s -c 'import sys; sys.path.insert(0, \"host_tools\"); "
           "from playboard_host.simboard import build_firmware; build_firmware()'")


MP = "./.venv/bin/micropython"
TMP = "/tmp/pb-bench-hw"
# imported before each measured module (their code is the app's anyway), not counted
DEPS = ("playboard.compat", "playboard.hw.base", "playboard.hw.bits", "playboard.app.state")


def code_of(name):
    """Heap bytes that importing ``name`` adds, its dependencies imported first, in a
    MicroPython process of its own (so that no other module's leftovers, such as a
    half-used string pool, are counted for it)."""
    with open(TMP + "/one.py", "w") as f:
        f.write("import sys, gc\nsys.path.insert(0, 'build/simfw')\n"
                "for d in %r:\n    __import__(d)\n"
                "gc.collect()\na = gc.mem_alloc()\n__import__(%r)\ngc.collect()\n"
                "print(gc.mem_alloc() - a)\n" % (DEPS, name))
    if os.system("%s -X heapsize=192k %s/one.py > %s/one.out" % (MP, TMP, TMP)):
        return None
    with open(TMP + "/one.out") as f:
        return int(f.read())


def main():
    if os.system(BUILDER % PY):
        print("cannot build the compiled firmware (make setup)")
        return
    os.system("mkdir -p " + TMP)
    figures = (
        ("playboard.hw.rp2", "code heap of the rp2 backend (reed matrix, 74HC165: .mpy on the board)"),
        ("playboard.hw.hall", "code heap of the hall backend with the rp2 one it builds on (hall board)"),
        ("playboard.hw.selftest", "code heap of the self-test (only while it runs)"),
        ("playboard.hw.calibrate", "code heap of the guided hall calibration (only while it runs)"),
        ("playboard.app.check", "code heap of the app's checks (only while a check runs)"),
        ("playboard.app.onboard", "code heap of the board's start-up (never on the simulated board)"),
        ("main", "code heap of main.py, compiled from source (the simulated board's)"),
    )
    for name, what in figures:
        b = code_of(name)
        if b is None:
            print("cannot import %s under MicroPython" % name)
            return
        report(what, round(b / 1024, 1), "KB", None, None, None)


if __name__ == "__main__":
    main()
