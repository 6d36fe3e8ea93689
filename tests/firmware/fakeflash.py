"""Fake flash for the record tests: a file system and a block device that lose power.

Both count every write and cut the power at a chosen point, the way a board is
switched off mid-write: the bytes before the cut are on flash, the rest never
arrive, and ``PowerCut`` is raised (the process "dies"). The tests then build a
new ``Store`` on what is left, as the board does when it is switched on again.

- ``FakeFs``: the shape of ``record.OsFs`` over a dict of bytearrays. Each byte
  written is one tick; opening a file for writing, a rename and a remove are one
  tick each (atomic, as in littlefs). With ``garbage`` the cut also leaves up to
  that many random bytes after the written prefix (a torn page), which must be
  caught by the records' checks.
- ``RamFlash`` / ``RamBlockDev``: a block device for ``os.VfsLfs2`` (MicroPython)
  whose ``writeblocks`` programs bytes up to the cut and then raises.
"""


class PowerCut(BaseException):
    """The power went off: raised at the cut point; nothing after it reaches flash.
    (A BaseException, as a SystemExit: the firmware's ``except Exception`` that keeps
    a failed write queued must not catch the death of the board.)"""


class _Power:
    def __init__(self):
        self.ticks = 0
        self.cut_at = None  # tick number at which the power goes (None: never)
        self.garbage = 0
        self.rand = 12345

    def rnd(self):
        self.rand = (self.rand * 1103515245 + 12345) & 0x7FFFFFFF
        return self.rand >> 8

    def allow(self, n):
        """How many of ``n`` ticks may happen before the cut (n if no cut)."""
        if self.cut_at is None:
            self.ticks += n
            return n
        k = self.cut_at - self.ticks
        if k >= n:
            self.ticks += n
            return n
        k = max(0, k)
        self.ticks += k
        return k


class _File:
    def __init__(self, fs, name, data, writable):
        self.fs = fs
        self.name = name
        self.data = data
        self.pos = len(data) if writable == "a" else 0
        self.writable = writable

    def write(self, b):
        if not self.writable:
            raise OSError(9)
        b = bytes(b)
        fs = self.fs
        if fs.full_at is not None and fs.total() + len(b) > fs.full_at:
            raise OSError(28)  # ENOSPC
        k = fs.power.allow(len(b))
        self.data[self.pos:self.pos + k] = b[:k]
        self.pos += k
        if k < len(b):
            for _ in range(fs.power.rnd() % (fs.power.garbage + 1)):
                self.data.append(fs.power.rnd() & 255)
            raise PowerCut("cut inside a write to %s after %d of %d bytes" % (self.name, k, len(b)))
        return len(b)

    def flush(self):
        pass

    def read(self, n=-1):
        if n is None or n < 0:
            n = len(self.data) - self.pos
        b = bytes(self.data[self.pos:self.pos + n])
        self.pos += len(b)
        return b

    def readinto(self, buf):
        b = self.read(len(buf))
        buf[0:len(b)] = b
        return len(b)

    def seek(self, pos, whence=0):
        self.pos = pos if whence == 0 else (self.pos + pos if whence == 1 else len(self.data) + pos)
        return self.pos

    def close(self):
        pass


class FakeFs:
    """An in-memory file system with the methods of ``record.OsFs`` that can lose power.

    ``replace=False`` makes ``rename`` refuse to replace a file, as on FAT.
    ``cut(tick, garbage=0)`` arms a power cut at write tick ``tick``;
    ``power_on()`` disarms it (the board restarts). ``full_at``: total bytes
    beyond which writes fail with ENOSPC; ``free_bytes``: what ``free`` reports.
    """

    def __init__(self, replace=True):
        self.files = {}
        self.dirs = set()
        self.replace = replace  # False: rename will not replace a file (as FAT)
        self.power = _Power()
        self.full_at = None
        self.free_bytes = None

    def cut(self, tick, garbage=0):
        self.power.ticks = 0
        self.power.cut_at = tick
        self.power.garbage = garbage

    def power_on(self):
        self.power.cut_at = None

    def total(self):
        return sum(len(v) for v in self.files.values())

    def _tick(self, what):
        if self.power.allow(1) < 1:
            raise PowerCut("cut before " + what)

    def open(self, path, mode):
        if "r" in mode:
            if path not in self.files:
                raise OSError(2)
            return _File(self, path, self.files[path], False)
        self._dir_of(path)
        self._tick("open " + path)
        if "w" in mode:
            self.files[path] = bytearray()
        elif path not in self.files:
            self.files[path] = bytearray()
        return _File(self, path, self.files[path], "a" if "a" in mode else "w")

    def _dir_of(self, path):
        d = path[:path.rfind("/")]
        if d not in self.dirs:
            raise OSError(2)

    def remove(self, path):
        if path not in self.files:
            raise OSError(2)
        self._tick("remove " + path)
        del self.files[path]

    def rename(self, a, b):
        if a not in self.files:
            raise OSError(2)
        if not self.replace and b in self.files:
            raise OSError(17)  # EEXIST
        self._tick("rename " + a)
        self.files[b] = self.files.pop(a)

    def listdir(self, path):
        if path not in self.dirs:
            raise OSError(2)
        p = path + "/"
        return [k[len(p):] for k in self.files if k.startswith(p) and "/" not in k[len(p):]]

    def ilistdir(self, path):
        """``(name, size)`` of each file in ``path``, one at a time (as ``record.OsFs``)."""
        if path not in self.dirs:
            raise OSError(2)
        p = path + "/"
        for k in list(self.files):
            if k.startswith(p) and "/" not in k[len(p):]:
                yield k[len(p):], len(self.files[k])

    def size(self, path):
        if path not in self.files:
            raise OSError(2)
        return len(self.files[path])

    def mkdir(self, path):
        self.dirs.add(path)

    def free(self, path):
        return self.free_bytes


class RamFlash:
    """The flash chip behind ``RamBlockDev`` views: ``blocks`` x ``block_size`` bytes
    (one bytearray per block, so that a fragmented heap can still hold it).

    ``cut_at``: the byte count (over all programmed bytes) at which the power
    goes: that write programs the bytes before it and raises PowerCut; ``None``
    disarms. ``written`` counts programmed bytes. ``device()`` gives a new block
    device view (a restarted board). Copies are done byte by byte so that a
    finaliser running with the heap locked can still read.
    """

    def __init__(self, blocks, block_size=512):
        self.bs = block_size
        self.blocks = [bytearray(block_size) for _ in range(blocks)]
        self.cut_at = None
        self.written = 0
        self.gen = 0
        self.view = None
        self.cut_exc = PowerCut("block device cut")
        self.erase_all()

    def erase_all(self):
        for blk in self.blocks:
            for i in range(len(blk)):
                blk[i] = 0xFF
        self.written = 0

    def device(self):
        self.gen += 1
        self.view = RamBlockDev(self)
        return self.view


class RamBlockDev:
    """A block device (extended interface) for ``os.VfsLfs2``: a view of a RamFlash."""

    def __init__(self, flash):
        self.flash = flash
        self.gen = flash.gen
        self.bs = flash.bs
        self.own = None  # a dead view's private copy, see kill()

    def kill(self):
        """The board died: from now on this view reads and writes a private copy of
        the flash, so that files of the dead "process" closed later by the garbage
        collector leave the real flash alone."""
        self.own = [bytearray(b) for b in self.flash.blocks]

    def _blocks(self):
        return self.own if self.own is not None else self.flash.blocks

    def readblocks(self, block, buf, off=0):
        blocks = self._blocks()
        bs = self.bs
        for i in range(len(buf)):
            a = off + i
            buf[i] = blocks[block + a // bs][a % bs]

    def writeblocks(self, block, buf, off=None):
        fl = self.flash
        off = off or 0
        n = len(buf)
        if self.own is None:
            if self.gen != fl.gen:
                return
            if fl.cut_at is not None and fl.written + n > fl.cut_at:
                n = max(0, fl.cut_at - fl.written)
                self._program(fl.blocks, block, off, buf, n)
                fl.written += n
                raise fl.cut_exc  # made beforehand: a finaliser may run with the heap locked
            fl.written += n
        self._program(self._blocks(), block, off, buf, n)

    def _program(self, blocks, block, off, buf, n):
        bs = self.bs
        for i in range(n):
            a = off + i
            blocks[block + a // bs][a % bs] = buf[i]

    def ioctl(self, op, arg):
        if op == 4:  # block count
            return len(self.flash.blocks)
        if op == 5:  # block size
            return self.bs
        if op == 6:  # erase
            fl = self.flash
            if self.own is None:
                if self.gen != fl.gen:
                    return 0
                if fl.cut_at is not None and fl.written >= fl.cut_at:
                    raise fl.cut_exc
            blk = self._blocks()[arg]
            for i in range(len(blk)):
                blk[i] = 0xFF
            return 0
        return 0


class RamNor:
    """A NOR flash region for ``record.journal.Journal``: ``sectors`` x 4 KB, with the
    extended block-device interface of ``rp2.Flash`` (``readblocks(n, buf, off)``,
    ``writeblocks(n, buf, off)`` programs, ``ioctl(6, n)`` erases, ``ioctl(4, 0)``
    the block count). A program only clears bits (new = old AND data); an erase sets
    a sector to 0xff, 256 bytes at a time.

    ``power``: a ``_Power`` to share with a ``FakeFs`` (``fs.power``), so that one
    tick count runs through both: each byte programmed (other than as 0xff, which
    changes nothing) is a tick, each 256 bytes erased a tick. At the cut the program (or erase) stops part way (a torn record,
    a sector half erased) and PowerCut is raised. ``erases`` and ``programs``
    (``writeblocks`` calls) count what was done.
    """

    SECTOR = 4096

    def __init__(self, sectors=4, power=None):
        self.data = bytearray(b"\xff" * (sectors * self.SECTOR))
        self.power = power if power is not None else _Power()
        self.erases = 0
        self.programs = 0

    def readblocks(self, block, buf, off=0):
        a = block * self.SECTOR + off
        buf[:] = self.data[a:a + len(buf)]

    def writeblocks(self, block, buf, off=None):
        if off is None:
            raise ValueError("RamNor: programs only (writeblocks with an offset)")
        a = block * self.SECTOR + off
        d = self.data
        self.programs += 1
        for i in range(len(buf)):
            if buf[i] != 0xFF:  # (a byte programmed as 0xff changes nothing: no tick)
                if self.power.allow(1) < 1:
                    raise PowerCut("cut in a program at byte %d" % (a + i))
                d[a + i] &= buf[i]

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.SECTOR
        if op == 5:
            return self.SECTOR
        if op == 6:
            a = arg * self.SECTOR
            for p in range(a, a + self.SECTOR, 256):
                if self.power.allow(1) < 1:
                    raise PowerCut("cut in an erase at byte %d" % p)
                self.data[p:p + 256] = b"\xff" * 256
            self.erases += 1
            return 0
        return 0
