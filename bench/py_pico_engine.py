"""The engine's speed on the emulated Pico (playboard_host.pico, docs/pico.md), measured
by bench/pico_engine_probe.py on the chip's own clock: for every game, nodes/s of the
top level's search, the engine's own (Python) and the native one side by side, the
nodes of the top level's 2 s move by each, and perft.

Targets (issue 35): Toguz Kumalak's top level at 2 s searches >= 4 times the nodes of
the engine's own search (about 2,200 before); Tobit's perft >= 2,980 leaves/s (its speed
before it dropped to 1,826). PICO_FROZEN_UF2=path: a MicroPython image with the firmware
frozen in (the chip's set-up: native code in flash; default build/playboard-pico.uf2,
`make uf2`, where it exists); else the .mpy deploy on the stock image (native code in
the heap). Where Node, rp2040js or the images are absent, one line
says so and no figure is reported.
"""
import json
import os
import sys
import time

import benchlib
from py_pico import frozen_files

HERE = os.path.dirname(os.path.abspath(__file__))
FROZEN_DEFAULT = os.path.join(os.path.dirname(HERE), "build", "playboard-pico.uf2")  # `make uf2`
TOBIT_PERFT = 2980  # leaves/s: Tobit's perft on the chip before the drop (issue 35)
TOGUZ_FACTOR = 4  # the native top level's 2 s against the engine's own


def main():
    from playboard_host import pico
    frozen = os.environ.get("PICO_FROZEN_UF2")
    if frozen is None and os.path.exists(FROZEN_DEFAULT):
        frozen = FROZEN_DEFAULT
    why = pico.unavailable()
    if why:
        print("virtual Pico unavailable, no emulated figures: %s" % why)
        return 0
    if frozen and not os.path.exists(frozen):
        print("no frozen image at %s (PICO_FROZEN_UF2)" % frozen)
        return 1
    tag = " (frozen)" if frozen else " (.mpy)"
    probe = {}
    for name in ("pico_engine_probe.py", "benchlib.py"):
        with open(os.path.join(HERE, name), "rb") as f:
            probe[name] = f.read()
    files = pico.staged_firmware()
    cfg = pico.matrix_config()
    if frozen:
        files = frozen_files(files)
        probe["board.txt"] = b"pico-matrix"
    image = pico.build_fs_image(files, probe)
    t0 = time.time()
    with pico.VirtualPico(image, cfg, uf2=frozen or None, speed=0) as p:
        p.power_up(pico.toguz_pits())
        for _ in range(2):  # the app stops: the REPL, then a fresh line
            start = len(p.output)
            p.write(b"\x03")
            p.wait_output(b">>> ", 120, start)
        start = len(p.output)
        p.write(b"import pico_engine_probe\r")
        end = p.wait_output(b"\r\n>>> ", 3600, start)
        text = p.output[start:end].decode(errors="replace")
    line = [ln[5:] for ln in text.splitlines() if ln.startswith("PICO ")]
    if not line:
        print("the engine probe failed on the emulated Pico%s:\n%s" % (tag, text[-2000:]))
        return 1
    d = json.loads(line[0])

    def report(what, *args):
        benchlib.report("pico%s: %s" % (tag, what), *args)

    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        n, us = d["perft_" + name]
        rate = n * 1000000 // max(us, 1)
        if name == "tobit":
            report("perft %s (%d leaves), leaves/s" % (name, n), rate, "/s", ">= %d /s" % TOBIT_PERFT,
                   rate >= TOBIT_PERFT)
        else:
            report("perft %s (%d leaves), leaves/s" % (name, n), rate, "/s")
    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        rates = []
        for nat in (0, 1):
            n, us = d["nps_%s_%d" % (name, nat)]
            rates.append(n * 1000000 // max(us, 1))
        native = d["ran_%s_1" % name]
        report("engine %s, top level nodes/s (middle game, 300 nodes): its own search / native"
               % name, "%d / %s" % (rates[0], rates[1] if native else "none"), "/s")
        (n0, d0), (n1, d1) = d["two_s_%s_0" % name], d["two_s_%s_1" % name]
        if name == "toguz":
            report("engine toguz, the top level's 2 s (middle game): nodes (depth), its own search / native",
                   "%d (%d) / %d (%d)" % (n0, d0, n1, d1), "nodes", ">= %d x its own" % TOGUZ_FACTOR,
                   n1 >= TOGUZ_FACTOR * n0)
        elif native:
            report("engine %s, the top level's 2 s (middle game): nodes (depth), its own search / native"
                   % name, "%d (%d) / %d (%d)" % (n0, d0, n1, d1), "nodes")
        else:
            report("engine %s, the top level's 2 s (middle game): nodes (depth), its own search (no native)"
                   % name, "%d (%d)" % (n0, d0), "nodes")
    print("emulated Pico engine probe: %.0f host s" % (time.time() - t0), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
