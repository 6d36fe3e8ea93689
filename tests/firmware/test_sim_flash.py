"""The simulated board's flash image (playboard.sim.flash.FileBlockDev): littlefs's
block-device callbacks allocate nothing. A MemoryError inside them (an erase once
asked for a 4 KB block of 0xff on a broken-up heap) leaves littlefs half way through
a write: the simulated board hung."""
import os

from tlib import heap_lock_check, is_micropython

from playboard.sim.flash import FileBlockDev


def _path(name):
    d = "/tmp" if is_micropython() else os.environ.get("TMPDIR", "/tmp")
    return "%s/pb-test-%s-%d.img" % (d, name, os.getpid() if hasattr(os, "getpid") else 0)


def test_erase_read_and_write_allocate_nothing_and_erase_to_0xff():
    path = _path("bd")
    try:
        bd = FileBlockDev(path, blocks=4)
        buf = bytearray(b"\x5a" * 4096)
        bd.writeblocks(2, buf)
        got = bytearray(4096)
        bd.readblocks(2, got)
        assert got == buf
        # erase block 2 (littlefs's ioctl 6) with the heap locked: nothing allocated
        assert not heap_lock_check(bd.ioctl, 6, 2)
        if not is_micropython():
            bd.ioctl(6, 2)  # (CPython has no heap lock: the erase itself)
        bd.readblocks(2, got)
        assert got == bytearray(b"\xff" * 4096)
        assert bd.ioctl(4, 0) == 4 and bd.ioctl(5, 0) == 4096
        bd.f.close()
    finally:
        try:
            os.remove(path)
        except OSError:
            pass
