"""The journal: the game in play appended to raw NOR flash by page programs only.

Why (docs/app.md, "The journal"): littlefs copies a file's last block to a freshly
erased one at every synced append, so on the RP2040 nearly every move cost a 4 KB
sector erase (45 ms typical, 400 ms at worst, interrupts off and both cores stalled).
A NOR flash can program a page again as long as the bytes written are still 0xff
(a program only clears bits), so records appended one after another into a region
erased beforehand cost one or two page programs each (0.4 ms typical, 3 ms worst)
and no erase. The region is erased where a stall costs no play frame: when a game
ends (after it was folded into its file), at power-up, at a game's start when a
cut left it dirty.

Layout: byte 0 holds a ``J`` record (payload: the game id, 0, the size of its file
``g<id>.rec`` when the journal began), then the game's records (``M``, ``U``,
``T``, ``E``) exactly as they would be appended to that file (``playboard.record``:
type, length, payload, CRC-32), then 0xff to the end. The records go into the file
(folded, ``folder.jfold``) when the game ends or the journal fills; at power-up
(``folder.jsettle``) whatever the file lacks is folded, then the journal is erased.
A cut at any byte loses at most the record being programmed: the records are read
up to the first that fails its check, and the file's size says how much of the
journal it already holds (littlefs commits a file's growth whole, at the flush).

The device: a block device with the extended interface of ``rp2.Flash`` (4 KB
blocks; ``readblocks(n, buf, off)``; ``writeblocks(n, buf, off)`` programs without
erasing; ``ioctl(6, n)`` erases block n; ``ioctl(4, 0)`` the block count): on the
product image, the flash region below the filesystem (``find``); on the simulated
board a file (``playboard.sim.flash.NorFile``).
"""
from playboard.compat import const
from playboard.record.codec import GAME_TYPES, crc32

_SECTOR = const(4096)
_PAGE = const(256)
_OVERHEAD = const(6)
T_JOURNAL = const(0x4A)  # "J"
_FF = b"\xff" * 256


class Journal:
    """The journal's flash: ``dev`` (see the module docstring), ``size`` bytes.

    Allocates one 256-byte page buffer; reading, programming and erasing raise what
    the device raises (OSError)."""

    def __init__(self, dev):
        self.dev = dev
        self.size = dev.ioctl(4, 0) * _SECTOR
        self._page = bytearray(_PAGE)

    def read(self, pos, buf):
        """Bytes ``pos`` .. ``pos + len(buf)`` of the journal into ``buf``."""
        self.dev.readblocks(pos // _SECTOR, buf, pos % _SECTOR)

    def program(self, pos, data):
        """Program ``data`` (bytes-like) at byte ``pos``, whose bytes must be erased
        (0xff): page by page, 0xff elsewhere in the page (which leaves the bytes
        already there as they are: a program only clears bits)."""
        pg = self._page
        n = len(data)
        i = 0
        while i < n:
            p = pos + i
            start = p - p % _PAGE
            k = min(n - i, start + _PAGE - p)
            pg[:] = _FF
            pg[p - start:p - start + k] = data[i:i + k]
            self.dev.writeblocks(start // _SECTOR, pg, start % _SECTOR)
            i += k

    def blank(self, sector):
        """True if 4 KB sector ``sector`` reads all 0xff."""
        pg = self._page
        for off in range(0, _SECTOR, _PAGE):
            self.dev.readblocks(sector, pg, off)
            if pg != _FF:
                return False
        return True

    def erase(self, end=None):
        """Erase the sectors holding bytes 0 .. ``end`` (None: every sector that is
        not blank). Each erase stalls the chip (45-400 ms on the RP2040)."""
        for s in range(self.size // _SECTOR):
            if end is not None:
                if s * _SECTOR >= end:
                    break
            elif self.blank(s):
                continue
            self.dev.ioctl(6, s)

    def record_at(self, pos, buf):
        """The length of the checked record at byte ``pos`` (its bytes left in ``buf``,
        a bytearray of >= 261 bytes), or 0 if none there (erased, cut short, bad
        CRC, or a type that is neither ``J`` nor a game record)."""
        if pos + _OVERHEAD > self.size:
            return 0
        mv = memoryview(buf)
        self.read(pos, mv[0:2])
        t = buf[0]
        n = buf[1] + _OVERHEAD
        if (t != T_JOURNAL and t not in GAME_TYPES) or pos + n > self.size:
            return 0
        self.read(pos, mv[0:n])
        c = crc32(mv[0:n - 4])
        if c != buf[n - 4] | (buf[n - 3] << 8) | (buf[n - 2] << 16) | (buf[n - 1] << 24):
            return 0
        return n

    def scan(self, buf):
        """What the journal holds: ``(gid, base, first, end)``: the game id and its
        file's size when the journal began, the byte of its first game record and the
        end of its valid records; ``(0, 0, 0, 0)`` if byte 0 holds no ``J`` record."""
        n = self.record_at(0, buf)
        if not n or buf[0] != T_JOURNAL:
            return 0, 0, 0, 0
        try:
            a, b = bytes(buf[2:n - 4]).split(b"\x00")
            gid = int(a)
            base = int(b)
        except ValueError:
            return 0, 0, 0, 0
        end = n
        while True:
            k = self.record_at(end, buf)
            if not k or buf[0] == T_JOURNAL:
                break
            end += k
        return gid, base, n, end


def find():
    """The product image's journal (a Journal), or None on any other MicroPython.

    The product's board (host_tools/pico_board: ``MICROPY_HW_FLASH_STORAGE_BYTES``
    enlarged by the journal's size) freezes a module ``flashmap`` naming
    ``JOURNAL_BYTES``; its ``_boot.py`` mounts littlefs at ``rp2.Flash(start=
    JOURNAL_BYTES)``, the absolute offset of the stock image's filesystem, and the
    journal is the storage region's first ``JOURNAL_BYTES``. Anything else (the
    stock image, whose region is littlefs from its first byte) gives None."""
    try:
        import flashmap
        import rp2
    except ImportError:
        return None
    j = flashmap.JOURNAL_BYTES
    try:
        if rp2.Flash().ioctl(4, 0) * _SECTOR != flashmap.FS_BYTES + j:
            return None
        return Journal(rp2.Flash(start=0, len=j))
    except (AttributeError, OSError, TypeError, ValueError):
        return None
