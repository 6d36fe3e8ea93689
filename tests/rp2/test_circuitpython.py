"""The firmware under CircuitPython 10.2.1 on the emulated Pico (issue 36, docs/pico.md).

CircuitPython's own Pico image (``../shared/rp2/``, or ``$PLAYBOARD_CIRCUITPYTHON_UF2``)
runs in rp2040js with the pad fix (``pico.mjs --qspi-cs-high``) on a CIRCUITPY FAT12
drive built by the host tools (``playboard_host.pico.circuitpy``, mtools): the firmware
as ``.py`` sources (compiled into the chip's heap at import), ``boot.py`` remounting
the drive writable, ``board.txt`` naming ``pico-matrix-cp`` (the pico-matrix wiring
through ``keypad``; LEDs through ``neopixel_write``). The firmware starts from the
drive's ``main.py`` as on MicroPython. Skips with a clear message only where Node,
rp2040js, the images or mtools are absent. Slow: the emulator needs about 5-10 host
seconds a busy emulated second and the chip compiles the firmware at each boot.
"""
import os
import shutil

import pytest

from playboard.board.layout import load_layout
from playboard.games.registry import new_game
from playboard.record.read import parse_game

from playboard_host import pico
from playboard_host.pico.circuitpy import DRIVE_OFFSET, DRIVE_SECTORS, SECTOR, list_drive, read_drive
from playboard_host.serial_link import BoardLink, open_port

BOOT_S = 400     # host seconds allowed for the boot to the menu (compiling the firmware)
MOVE_S = 300     # host seconds allowed for a move to be seen


@pytest.fixture(scope="module")
def drive():
    """The CIRCUITPY drive image (bytes) with the firmware and board.txt = pico-matrix-cp."""
    why = pico.unavailable()
    if why:
        pytest.skip("virtual Pico unavailable: %s" % why)
    try:
        pico.circuitpython_uf2()
    except pico.PicoUnavailable as e:
        pytest.skip(str(e))
    if shutil.which("mformat") is None:
        pytest.skip("mtools not installed (apt-get install mtools): the CIRCUITPY drive is built with it")
    from playboard_host.pico.circuitpy import build_drive, staged_sources
    files = staged_sources()
    files["board.txt"] = b"pico-matrix-cp"
    return build_drive(files)


def test_staged_sources_have_no_native_decorators():
    """What CircuitPython compiles holds no viper/native decorator (a SyntaxError there),
    keeps every module's line count (tracebacks point at the source lines) and compiles."""
    from playboard_host.pico.circuitpy import staged_sources
    from playboard_host.commands import deploy
    files = staged_sources()
    assert files["boot.py"].startswith(b'"""') and b'storage.remount("/", readonly=False)' in files["boot.py"]
    src = dict((dest, path) for path, dest in deploy.sources(os.path.join(pico.ROOT, "firmware")))
    py = [k for k in files if k.endswith(".py") and k != "boot.py"]
    assert "playboard/games/tihbat_native.py" in py and not any(k.startswith("playboard/sim/") for k in py)
    for k in py:
        data = files[k]
        assert b"@micropython.viper" not in data and b"@micropython.native" not in data, k
        assert data.count(b"\n") == open(src[k], "rb").read().count(b"\n"), k
        compile(data, k, "exec")


def _status(link):
    return link.request("S", {"heap": True})


def test_boots_link_tihbat_begun_record_on_the_drive(drive):
    """The firmware boots on CircuitPython from the drive: the link answers (free heap
    reported at the menu and in play), a two-player Tihbat game begun over the link is
    in play at the rules core's start position, and its record (the game's header,
    written through boot.py's writable mount) is read back from the FAT drive after the
    run. (Moves through the sensors: not yet, see docs/pico.md "CircuitPython".)"""
    lay = load_layout("tihbat")
    p = pico.circuitpython(drive, cfg=pico.matrix_config(), speed=0).start()
    try:
        p.set_closed([lay.sensor_of(c) for c in range(4)])
        p.wait_for(lambda q: q.usb_up.is_set() and q.led_frames >= 2, BOOT_S, "boot (USB up, LEDs written)")
        link = BoardLink(open_port(p.port, timeout=0.05), timeout=60)
        assert link.hello()["proto"] == 1
        menu = _status(link)
        assert menu["state"] == "menu" and menu["heap_free"] > 20000, menu
        link.set_game(game="tihbat", mode="two")
        g = new_game("tihbat")
        st = _status(link)
        for _ in range(40):
            if st["state"] == "play":
                break
            p.wait_emulated(0.5, MOVE_S)
            st = _status(link)
        assert st["state"] == "play" and st["game"] == "tihbat" and st["fen"] == g.fen(), st
        assert st["heap_free"] > 10000 and st["ply"] == 0, st
        gid = st["current"]
        assert gid is not None and p.resets == [], (st, p.resets)
        print("CircuitPython: heap free at the menu %d B, in play (Tihbat) %d B; emulated %.1f s"
              % (menu["heap_free"], st["heap_free"], p.time_us / 1e6))
        image = p.flash(DRIVE_OFFSET, DRIVE_SECTORS * SECTOR)
    finally:
        p.close()
    names = list_drive(image, "games")
    recs = [parse_game(read_drive(image, "games/" + n), gid) for n in names]
    recs = [r for r in recs if r.name == "tihbat"]
    assert len(recs) == 1, (names, recs)
    rec = recs[0]
    assert rec.problem is None and rec.plies == 0 and not rec.finished, rec
