"""Figures from the emulated Pico (playboard_host.pico, docs/pico.md), beside the
unix-port ones of the other scripts: the firmware's .mpy deploy on the stock
MicroPython RPI_PICO image in rp2040js, measured by bench/pico_probe.py on the chip's
own clock (125 MHz; the emulator does not model the flash cache, so a real Pico is
slower where code runs from flash).

Targets (issue 12): longest frame <= 50 ms; median play frame <= 3 ms; free heap in
play >= 64 KB with the .mpy deploy. Where Node, rp2040js or the images are absent,
one line says so and no figure is reported.
"""
import json
import os
import sys
import time

from benchlib import report

HERE = os.path.dirname(os.path.abspath(__file__))


def median(xs):
    s = sorted(xs)
    return s[len(s) // 2]


def main():
    from playboard_host import pico
    try:
        pico.find_images()
        pico.check_node()
    except pico.PicoUnavailable as e:
        print("virtual Pico unavailable, no emulated figures: %s" % e)
        return 0
    probe = {}
    for name in ("pico_probe.py", "benchlib.py"):
        with open(os.path.join(HERE, name), "rb") as f:
            probe[name] = f.read()
    cfg = json.load(open(os.path.join(pico.ROOT, "firmware", "boards", "pico-matrix.json")))
    image = pico.build_fs_image(pico.staged_firmware(), probe)
    with pico.VirtualPico(image, cfg, speed=0) as p:
        p.wait_for(lambda q: q.usb_up.is_set() and q.led_frames >= 2, 600, "boot")
        start = len(p.output)
        p.write(b"\x03")
        p.wait_output(b">>> ", 120, start)
        start = len(p.output)
        t0 = time.time()
        p.write(b"import pico_probe\r")
        end = p.wait_output(b"\r\n>>> ", 3600, start)
        text = p.output[start:end].decode(errors="replace")
        resets = list(p.resets)
    line = [ln for ln in text.splitlines() if ln.startswith("PICO ")]
    if not line:
        print("the probe failed on the emulated Pico:\n" + text[-2000:])
        return 1
    d = json.loads(line[0][5:])
    for key in sorted(k for k in d if k.startswith("perft_")):
        n, us = d[key]
        report("pico: perft %s (%d leaves), leaves/s" % (key[6:], n), n * 1000000 // max(us, 1), "/s")
    for key in sorted(k for k in d if k.startswith("engine_")):
        n, us = d[key]
        report("pico: engine %s, nodes/s (middle game)" % key[7:], n * 1000000 // max(us, 1), "/s")
    longest = 0
    for phase in ("menu", "play", "thinking"):
        ts = d[phase]
        if not ts:
            report("pico: %s frames" % phase, 0, "frames", "measured", False)
            continue
        longest = max(longest, max(ts))
        med = median(ts) / 1000
        if phase == "play":
            report("pico: median frame in play", med, "ms", "<= 3 ms", med <= 3)
        else:
            report("pico: median frame, %s" % phase, med, "ms")
        report("pico: longest frame, %s (%d frames)" % (phase, len(ts)), max(ts) / 1000, "ms", "<= 50 ms",
               max(ts) <= 50000)
    report("pico: game-start frame (Toguz Kumalak)", max(d["start"]) / 1000, "ms", "<= 50 ms",
           max(d["start"]) <= 50000)
    report("pico: free heap in play (.mpy deploy)", d["free"] // 1024, "KB", ">= 64 KB", d["free"] >= 65536)
    report("pico: largest free block in play", d["largest"] // 1024, "KB")
    report("pico: watchdog resets during the run", len(resets), "", "0", not resets)
    print("emulated Pico probe: %.0f host s" % (time.time() - t0), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
