"""The simulator's flash as littlefs on a block-device image file that can lose power,
and the record's journal as a NOR region in a file.

Used by ``playboard.sim.boot`` with ``--image FILE`` (docs/simulator.md): the record
tests' power-cut block device (tests/firmware/fakeflash.py ``RamBlockDev``) kept in
a file, so that a killed process leaves its flash behind for the next start; and
always (unless ``--journal 0``) ``NorFile``, the journal's flash
(``playboard.record.journal``), as the product board has it below its filesystem.
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


class NorFile:
    """The record's journal flash in the simulator: file ``path`` of ``sectors`` 4 KB
    sectors (made erased if absent), with the extended block-device interface of
    ``rp2.Flash`` as a NOR chip does it: ``writeblocks(n, buf, off)`` programs (the
    bytes become old AND new: a program only clears bits), ``ioctl(6, n)`` erases
    sector n (0xff), ``readblocks(n, buf, off)`` reads. Each call is written through
    at once, so a killed process leaves the journal as far as it got.

    ``power``: the littlefs image's ``FileBlockDev`` (or None): its power cut
    (``cut_at``, the bridge's ``cut``) counts the bytes programmed here too (a page
    program sends all 256), and the program that crosses it stops there."""

    def __init__(self, path, sectors=4, power=None):
        self.power = power
        try:
            f = open(path, "r+b")
            f.seek(0, 2)
            n = f.tell() // BLOCK
        except OSError:
            f = open(path, "w+b")
            n = 0
        self.f = f
        self._page = bytearray(256)
        self._ff = b"\xff" * 256
        if n < sectors:  # new (or cut short while made): erased
            for b in range(n, sectors):
                self.ioctl(6, b)
            n = sectors
        self.n = n

    def readblocks(self, block, buf, off=0):
        f = self.f
        f.seek(block * BLOCK + off)
        f.readinto(buf)

    def writeblocks(self, block, buf, off=0):
        f = self.f
        a = block * BLOCK + off
        old = memoryview(self._page)
        k = 0
        while k < len(buf):
            m = min(256, len(buf) - k)
            f.seek(a + k)
            f.readinto(old[0:m])
            pw = self.power
            for i in range(m):
                v = buf[k + i]
                if pw is not None:
                    if pw.cut_at is not None and pw.written >= pw.cut_at:
                        f.seek(a + k)
                        f.write(old[0:m])
                        f.flush()
                        power_cut()
                    pw.written += 1
                old[i] &= v
            f.seek(a + k)
            f.write(old[0:m])
            k += m
        f.flush()

    def ioctl(self, op, arg):
        if op == 4:
            return self.n
        if op == 5:
            return BLOCK
        if op == 6:
            f = self.f
            f.seek(arg * BLOCK)
            for _ in range(BLOCK // 256):
                f.write(self._ff)
            f.flush()
        return 0


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
