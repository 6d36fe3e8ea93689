"""A move's write to flash on the emulated Pico with the flash chip's own times
(playboard_host.pico, docs/pico.md "The flash's time"): a 4 KB sector erase 45 ms
typical / 400 ms worst, a 256-byte page program 0.4 / 3 ms (W25Q16JV), the core
stalled meanwhile (interrupts off: no frame, no scan, no LED goes on).

For each image and each timing: a 300-move game appended move by move through the
record as the app opens it (bench/flash_probe.py), on the chip's clock: a move's
write, median and worst (target: median <= 20 ms); the longest stall a move's write
puts into its frame (target: <= 50 ms: a frame holding it lasts this plus the frame's
own work, about 1-3 ms in play, bench/py_pico.py); sectors erased and pages
programmed over the 300 moves; the game's start and end (where an erase does not
cost a play frame), and of the start the new game's header write alone (target: <= 50
ms, it lies in a frame of the app's start; the product's goes to the journal by page
programs). On the .mpy deploy these are its stated limits, not targets (docs/pico.md).
Images: the stock MicroPython RPI_PICO with the .mpy deploy
(``playboard deploy``'s developer path: littlefs only, a move costs an erase) and,
where present, the frozen product image (``$PICO_FROZEN_UF2``, else
build/playboard-pico.uf2 from ``make uf2``).
"""
import json
import os
import sys

import benchlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MOVES = 300


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def _exec(p, code, timeout=1800):
    """Run ``code`` at the REPL; the FLASHP figures it printed (dict)."""
    start = len(p.output)
    p.write(code.encode() + b"\r")
    end = p.wait_output(b"\r\n>>> ", timeout, start)
    text = p.output[start:end].decode(errors="replace")
    for ln in text.splitlines():
        if ln.startswith("FLASHP "):
            return json.loads(ln[7:])
    raise RuntimeError("flash probe: no figures: %s" % text[-1500:])


def _counters(p):
    p.wait_emulated(0.25, 600)  # (the emulator reports its counters every 100 emulated ms)
    return p.erases, p.programs


def run(pico, image, uf2, timing):
    """Figures (dict) of one 300-move game on ``uf2`` (None: stock) at ``timing``."""
    with pico.VirtualPico(image, pico.matrix_config(), uf2=uf2, speed=0, flash_timing=timing) as p:
        p.power_up(pico.toguz_pits())
        for _ in range(2):  # the app stops: the REPL (twice: a fresh prompt)
            start = len(p.output)
            p.write(b"\x03")
            p.wait_output(b">>> ", 300, start)
        d = _exec(p, "import flash_probe; flash_probe.begin()")
        e0, p0 = _counters(p)
        d.update(_exec(p, "flash_probe.moves(%d)" % MOVES))
        e1, p1 = _counters(p)
        d.update(_exec(p, "flash_probe.end()"))
        d["erases"], d["programs"] = e1 - e0, p1 - p0
        d["resets"] = len(p.resets)
    return d


def main():
    from playboard_host import pico
    why = pico.unavailable()
    if why:
        print("virtual Pico unavailable, no flash-timing figures: %s" % why)
        return 0
    sys.path.insert(0, HERE)
    import py_pico
    probe = {"flash_probe.py": open(os.path.join(HERE, "flash_probe.py"), "rb").read()}
    staged = pico.staged_firmware()
    images = [(".mpy", None, pico.build_fs_image(staged, probe))]
    frozen = os.environ.get("PICO_FROZEN_UF2") or os.path.join(ROOT, "build", "playboard-pico.uf2")
    if os.path.exists(frozen):
        extra = dict(probe, **{"board.txt": b"pico-matrix"})
        images.append(("frozen", frozen, pico.build_fs_image(py_pico.frozen_files(staged), extra)))
    else:
        print("no frozen image at %s (make uf2): the stock image's figures only" % frozen)
    for tag, uf2, image in images:
        for timing in ("typical", "worst"):
            erase_us, prog_us = pico.flash_timing(timing)
            d = run(pico, image, uf2, timing)
            ts = d["moves"]
            name = "pico flash (%s, %s erase %d ms / program %.1f ms): " % (tag, timing, erase_us // 1000,
                                                                             prog_us / 1000)
            bad = sum(1 for t in ts if t < 0)
            ok = [t for t in ts if t >= 0] or [0]
            med, worst = median(ok), max(ok)
            # the product's targets; the .mpy deploy on the stock image (no journal: a move
            # costs an erase) states its write as its limit (docs/pico.md), no gate
            prod = uf2 is not None
            limit = None if prod else "the .mpy deploy's limit"
            benchlib.report(name + "a move's write, median of %d" % len(ts), med / 1000, "ms",
                            "<= 20 ms" if prod else None, (med <= 20000 and not bad) if prod else None, limit)
            benchlib.report(name + "a move's write, worst of %d (a frame holding it stalls this long)" % len(ts),
                            worst / 1000, "ms", "<= 50 ms" if prod else None,
                            (worst <= 50000 and not bad) if prod else None, limit)
            benchlib.report(name + "moves whose write failed", bad, "", "0", bad == 0)
            benchlib.report(name + "sectors erased by %d moves" % len(ts), d["erases"], "erases")
            benchlib.report(name + "pages programmed by %d moves" % len(ts), d["programs"], "pages")
            benchlib.report(name + "the record's journal in use", "yes" if d["journal"] else "no", "")
            benchlib.report(name + "game start (open the store + new game; not a play frame)",
                            (d["open"] + d["new_game"]) / 1000, "ms")
            # the new game's header and tags: written in a frame of the app's start
            # (gamestart's unit 13): the product's start frame holds no erase
            benchlib.report(name + "a new game's header write (in a start frame)", d["new_game"] / 1000, "ms",
                            "<= 50 ms" if prod else None, (d["new_game"] <= 50000) if prod else None, limit)
            benchlib.report(name + "game end (finish; not a play frame)", d["finish"] / 1000, "ms")
            benchlib.report(name + "watchdog resets", d["resets"], "", "0", d["resets"] == 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
