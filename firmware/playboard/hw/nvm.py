"""The record's journal on CircuitPython: ``microcontroller.nvm`` used as raw NOR flash.

Why (docs/build.md, "Or: CircuitPython"; docs/pico.md): on CircuitPython the games live
on the FAT drive, and every append to a game's file rewrites whole 4 KB flash sectors
(the file's data and its folder's directory: an erase, then 16 page programs each,
about 0.1 s a move); a power cut in that window emptied the whole ``games`` folder on
the emulated Pico. The only flash CircuitPython gives Python outside the drive is
``microcontroller.nvm`` (4 KB at flash offset 0xFF000 on the RP2040, just before the
drive), and it writes raw: a write whose bytes all read 0xff is page-programmed there
and then (no erase), any other erases the sector and programs it whole
(CircuitPython's ``ports/raspberrypi/common-hal/nvm/ByteArray.c``). That is what the
journal (``playboard.record.journal``) needs: the moves of the game in play are
programmed into it, never into the drive; the drive is written when a game ends (its
fold) or the journal fills (some 400 moves in 4 KB).

:class:`NvmFlash` gives ``nvm`` the block-device calls ``Journal`` makes of
``rp2.Flash`` (``readblocks``, ``writeblocks`` as a page program, ``ioctl(4)`` the
sector count, ``ioctl(6, n)`` an erase); :func:`nvm_flash` the board's, or None where
there is no ``microcontroller.nvm`` of a sector or more (``playboard.app.onboard`` makes
the Journal of it).
"""
from playboard.compat import const

_SECTOR = const(4096)


class NvmFlash:
    """``nvm`` (``microcontroller.nvm``, or any object indexed and sliced like a
    bytearray of a whole number of 4 KB sectors) as a NOR flash: see the module
    docstring. Reads allocate their slice (a record's bytes, at most 256); an erase
    allocates the sector's 4 KB of 0xff once."""

    def __init__(self, nvm):
        self.nvm = nvm
        self.n = len(nvm) // _SECTOR

    def readblocks(self, block, buf, off=0):
        """Bytes from sector ``block``, byte ``off`` into ``buf`` (bytearray or memoryview)."""
        a = block * _SECTOR + off
        n = len(buf)
        buf[0:n] = self.nvm[a:a + n]

    def writeblocks(self, block, buf, off=0):
        """Program ``buf`` at sector ``block``, byte ``off``: only the span from its
        first to its last byte that is not 0xff is written (``Journal.program`` pads a
        page with 0xff, which leaves the bytes there as they are; written, those would
        not all read 0xff and nvm would erase the sector). Where the span is blank, as
        the journal makes sure, that is a page program."""
        n = len(buf)
        i = 0
        while i < n and buf[i] == 0xFF:
            i += 1
        if i == n:
            return
        while buf[n - 1] == 0xFF:
            n -= 1
        a = block * _SECTOR + off
        self.nvm[a + i:a + n] = memoryview(buf)[i:n]

    def ioctl(self, op, arg):
        """4: the number of 4 KB sectors; 6: erase sector ``arg`` (all 0xff)."""
        if op == 4:
            return self.n
        if op == 6:
            a = arg * _SECTOR
            self.nvm[a:a + _SECTOR] = b"\xff" * _SECTOR
        return 0


def nvm_flash():
    """``microcontroller.nvm`` as an :class:`NvmFlash` (the app makes the board's
    ``playboard.record.journal.Journal`` of it), or None: not CircuitPython, or no nvm
    of at least one 4 KB sector."""
    try:
        import microcontroller
        nvm = microcontroller.nvm
    except (ImportError, AttributeError):
        return None
    if nvm is None or len(nvm) < _SECTOR:
        return None
    return NvmFlash(nvm)
