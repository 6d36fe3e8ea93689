"""The simulator's flash as littlefs on a block-device image file that can lose power.

Used by ``playboard.sim.boot`` with ``--image FILE`` (docs/simulator.md): the record
tests' power-cut block device (tests/firmware/fakeflash.py ``RamBlockDev``) kept in
a file, so that a killed process leaves its flash behind for the next start.
"""
from playboard.compat import const

BLOCK = const(4096)


class FileBlockDev:
    """A littlefs block device over a file: the board's flash in the simulator.

    Like the record tests' ``RamBlockDev`` (tests/firmware/fakeflash.py) it can
    lose power: ``cut_at`` counts programmed bytes; the write that crosses it puts
    only the bytes before the cut into the file and the process is killed at once
    (SIGKILL through the shell: nothing after the cut runs, not even ``finally``).
    """

    def __init__(self, path, blocks=64, block_size=BLOCK):
        self.path = path
        self.bs = block_size
        try:
            f = open(path, "r+b")
            f.seek(0, 2)
            size = f.tell()
            self.fresh = size == 0
            if size:
                blocks = size // block_size
        except OSError:
            f = open(path, "w+b")
            self.fresh = True
        self.f = f
        self.blocks = blocks
        # an erase writes this 256-byte block of 0xff over and over: nothing is allocated
        # inside littlefs's callbacks (a MemoryError there, 4 KB asked for on a broken-up
        # heap, left littlefs half way through a write and the firmware hung)
        self._ff = b"\xff" * 256
        if self.fresh:
            for b in range(blocks):
                self._erase_at(b * block_size)
            f.flush()
        self.written = 0
        self.cut_at = None

    def readblocks(self, block, buf, off=0):
        f = self.f
        f.seek(block * self.bs + off)
        f.readinto(buf)

    def writeblocks(self, block, buf, off=None):
        f = self.f
        n = len(buf)
        f.seek(block * self.bs + (off or 0))
        if self.cut_at is not None and self.written + n > self.cut_at:
            k = self.cut_at - self.written
            if k > 0:
                f.write(memoryview(buf)[0:k])
            f.flush()
            power_cut()
        f.write(buf)
        f.flush()
        self.written += n

    def ioctl(self, op, arg):
        if op == 4:
            return self.blocks
        if op == 5:
            return self.bs
        if op == 6:
            if self.cut_at is not None and self.written >= self.cut_at:
                power_cut()
            self._erase_at(arg * self.bs)
            self.f.flush()
            return 0
        return 0


    def _erase_at(self, at):
        f = self.f
        f.seek(at)
        ff = self._ff
        for _ in range(self.bs // len(ff)):
            f.write(ff)


def power_cut():
    """Die at once, as a board does when its power goes (SIGKILL to this process)."""
    import os
    os.system("kill -9 $PPID")
    while True:  # never reached: the signal kills us first
        pass


def mount_image(path, blocks, mount="/flash"):
    """Mount littlefs from image file ``path`` at ``mount`` (format a new one); the device."""
    import os
    bd = FileBlockDev(path, blocks)
    if bd.fresh:
        os.VfsLfs2.mkfs(bd)
    try:
        os.mount(os.VfsLfs2(bd), mount)
    except OSError:  # not a littlefs image: start it anew
        os.VfsLfs2.mkfs(bd)
        os.mount(os.VfsLfs2(bd), mount)
    return bd
