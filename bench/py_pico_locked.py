"""A locked (museum) board's power-up on the emulated Pico (playboard_host.pico,
docs/pico.md), against the same image unlocked: the time the names' interning
(``playboard.app.names``, docs/museum.md "Known problems") adds, measured on the chip's
own clock (125 MHz; the emulator does not model the flash cache, so a real Pico is
slower where code runs from flash).

The same ``.mpy`` deploy as bench/py_pico.py (``playboard deploy``'s staging, with its
``data/names``) is powered up twice: as deployed, and with the settings file of a
board locked by ``playboard settings --profile museum`` (``games/settings`` holding
``locked``, written by the firmware's own record code on the MicroPython unix port).
Targets: the interning (locked minus unlocked power-up to the menu) <= 4,000 ms, half
the watchdog's 8 s: the app feeds the watchdog just before and just after it
(``playboard.app.loop.App``), so it alone must stay well inside one timeout; no
watchdog reset in either power-up. Where Node, rp2040js, the images or the unix port
are absent, one line says so and no figure is reported.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from benchlib import report

HERE = os.path.dirname(os.path.abspath(__file__))


def locked_settings():
    """The bytes of ``games/settings`` of a locked board (the firmware's own format),
    or None where the MicroPython unix port is absent."""
    mp = shutil.which("micropython") or os.path.join(os.path.dirname(sys.executable), "micropython")
    if not os.path.exists(mp):
        return None
    d = tempfile.mkdtemp(prefix="pb-locked-")
    try:
        os.mkdir(os.path.join(d, "games"))
        code = ("from playboard.record import Store\n"
                "assert Store(%r).save_settings({'locked': True})\n" % os.path.join(d, "games"))
        subprocess.run([mp, "-c", code], check=True, cwd=os.path.join(HERE, "..", "firmware"))
        with open(os.path.join(d, "games", "settings"), "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(d, ignore_errors=True)


def power_up(pico, image):
    """(ms to the board lit, ms to the menu shown, [watchdog resets]) of one power-up."""
    with pico.VirtualPico(image, pico.matrix_config(), speed=0) as p:
        lit, menu = p.power_up(pico.toguz_pits(), 900)
        p.wait_emulated(1.0, 300)  # a second of the menu: a watchdog fed late shows here
        return lit / 1000, menu / 1000, list(p.resets)


def main():
    from playboard_host import pico
    why = pico.unavailable()
    if why:
        print("virtual Pico unavailable, no emulated figures: %s" % why)
        return 0
    settings = locked_settings()
    if settings is None:
        print("no MicroPython unix port: the locked board's settings cannot be written here")
        return 0
    staged = pico.staged_firmware()
    names = [src for src, dest in staged if dest.endswith("data/names")]
    n_names = sum(1 for _ in open(names[0])) if names else 0
    plain = power_up(pico, pico.build_fs_image(staged))
    locked = power_up(pico, pico.build_fs_image(staged, {"games/settings": settings}))
    report("pico: power-up to the menu shown, unlocked (emulated)", plain[1], "ms")
    report("pico: power-up to the menu shown, locked (%d names in data/names)" % n_names,
           locked[1], "ms")
    extra = locked[1] - plain[1]
    report("pico: a locked board's names interned at power-up (locked - unlocked)", extra, "ms",
           "<= 4000 ms (half the 8 s watchdog)", n_names > 0 and extra <= 4000)
    report("pico: watchdog resets, both power-ups", len(plain[2]) + len(locked[2]), "", "0",
           not plain[2] and not locked[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
