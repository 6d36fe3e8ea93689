"""Step 5 of the builder's guide (docs/build.md, "Flash") walked on the emulated Pico:
the product image (``make uf2``) put on a blank Pico (in rp2040js: what copying the UF2
onto the RPI-RP2 drive gives), then the guide's two ``mpremote`` lines run as written
(``.venv/bin/mpremote`` is this Python's mpremote, told the emulator's serial port):
the board definition named in ``/board.txt``, the board reset, back at the menu
running that definition, the reset counted as a power-up and not as the watchdog's.
Skips where the emulator or the frozen image is absent (tests/rp2/test_pico.py says how).
"""
import os
import re
import subprocess
import sys

import pytest

from playboard_host import pico
from playboard_host.serial_link import BoardLink, open_port

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOOT_S = 300     # host seconds allowed for a boot (a loaded CI machine)


def _step5_lines():
    """The command lines of docs/build.md's section 5 code block, comments removed."""
    text = open(os.path.join(ROOT, "docs", "build.md"), encoding="utf-8").read()
    sec = text[text.index("## 5. Flash"):text.index("## 6.")]
    block = re.search(r"```\n(.*?)```", sec, re.S).group(1)
    return [ln.split("#", 1)[0].strip() for ln in block.splitlines() if ln.split("#", 1)[0].strip()]


def _run(line, port, cwd):
    """Run a guide line in ``cwd`` with the shell, its ``.venv/bin/mpremote`` pointed at
    the emulated Pico's port."""
    mp = "%s -m mpremote connect %s" % (sys.executable, port)
    out = subprocess.run(line.replace(".venv/bin/mpremote", mp), shell=True, cwd=str(cwd),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, (line, out.stdout, out.stderr)
    return out.stdout


def test_the_guides_flash_step_names_the_board_definition_and_resets_on_the_product_image(tmp_path):
    why = pico.unavailable()
    if why:
        pytest.skip("virtual Pico unavailable: %s" % why)
    try:
        uf2 = pico.frozen_uf2()
    except pico.PicoUnavailable as e:
        pytest.skip(str(e))
    lines = _step5_lines()
    assert lines[:2] == ["echo pico-matrix > board.txt && .venv/bin/mpremote cp board.txt :board.txt",
                         ".venv/bin/mpremote reset"], lines
    assert lines[2].startswith(".venv/bin/playboard ports")  # (the emulator's port is no USB device)
    p = pico.VirtualPico(pico.build_fs_image([]), pico.matrix_config(), uf2=uf2, speed=0).start()
    try:
        p.wait_for(lambda q: q.usb_up.is_set() and q.led_frames >= 2, BOOT_S, "boot (USB up, the menu lit)")
        # as written, then once more naming another definition of the same wiring: the
        # board runs what /board.txt names (the default is pico-matrix itself)
        for name in ("pico-matrix", "pico-matrix-takeback"):
            _run(lines[0].replace("pico-matrix", name), p.port, tmp_path)
            assert (tmp_path / "board.txt").read_text().strip() == name
            n = len(p.led_log)
            _run(lines[1], p.port, tmp_path)
            p.menu_after(n, BOOT_S)
            link = BoardLink(open_port(p.port, timeout=0.05), timeout=30)
            try:
                assert link.status()["state"] == "menu"
                h = link.health()
                assert h["definition"] == name, h
            finally:
                link.close()
        assert [r[1] for r in p.resets] == ["force", "force"], p.resets
        assert (h["power_ups"], h["wdt_resets"]) == (3, 0), h
    finally:
        p.close()
