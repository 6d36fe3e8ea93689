"""A locked (museum) board's names interned at power-up (docs/museum.md, "Known problems").

MicroPython keeps the names (qstrs) that code loaded into RAM uses in pools that grow
by doubling and are never freed; after 1260 names the next pool (1280 names) wants one
block of about 14 KB on the simulator's 64-bit model (7.7 KB on the RP2040). A museum
board loads everything it offers (every game, the engine, the link, the staff menu:
about 1520 names), so it needs that pool; made late, on a heap broken up by the
games' code, it found no such block and the link, the staff menu or a game did not
load. :func:`intern_all` interns at power-up, while the heap is whole, every name of
the modules deployed beside it: the file ``data/names`` (written by the build of
``.mpy`` files: ``playboard_host.mpynames``; none where the code is frozen, whose
names are in flash), one name a line. A name interned now is one the code would
intern when it loads; the names pass 1260, so the pool grows now. Imported by
``playboard.app.loop.App`` as it reads the settings, on a locked board only, and
dropped after: the import does it (``n``: the names read). A board the link locks
restarts by itself for them (``playboard.app.restart``; docs/museum.md).
"""
import gc
import sys

# the block held for the names' next pool once 1260 are interned: 1280 entries of a
# pointer, a 2-byte hash and a length byte, the pool's header (14,144 bytes on the
# 64-bit unix port; 7.7 KB on the RP2040, whose hash is one byte), and 1 KB for what a name's interning allocates
# before its pool (the name's text, a new chunk for it) where the block was freed
POOL_BYTES = 1280 * (11 if sys.maxsize > 1 << 32 else 7) + 64 + 1024


def path():
    """``data/names`` beside the ``playboard`` package (``/data/names`` when frozen)."""
    try:
        base = __file__.replace("\\", "/")
    except NameError:  # frozen: no file name
        return "/data/names"
    for _ in range(3):  # .../playboard/app/names.mpy -> ...
        i = base.rfind("/")
        base = base[:i] if i > 0 else "."
    return base + "/data/names"


def intern_all(name=None):
    """Intern every name (one a line) of file ``name`` (default :func:`path`); returns
    how many were interned (0: no file). ``getattr(gc, s, None)`` interns ``s``
    (MicroPython looks an attribute up by its qstr) and changes nothing. The heap's
    lowest block of ``POOL_BYTES`` is held meanwhile, so that the lines read and the
    names' text do not cut it, and given back when the next pool finds no other room
    (a MemoryError: the name is tried again once); the heap is swept every 16 names,
    so that the lines read, garbage, stay in the holes below and the names' text
    beside them (swept only when full, the garbage spread over the whole heap and the
    text with it: after the names the largest free block was 2 KB, not 14). A
    MemoryError then ends it: the names left are interned when their code loads, as
    on any board."""
    n = 0
    try:
        f = open(name or path())
    except OSError:
        return 0
    gc.collect()
    try:
        room = bytearray(POOL_BYTES)
    except MemoryError:
        room = None
    try:
        for line in f:
            try:
                getattr(gc, line[:-1], None)
            except MemoryError:
                if room is None:
                    break
                room = None
                gc.collect()
                getattr(gc, line[:-1], None)
            n += 1
            if not n & 15:
                gc.collect()
    except MemoryError:
        pass
    finally:
        f.close()
    room = None
    gc.collect()
    return n


n = intern_all()  # (its import is the work: ``import playboard.app.names``, no name more in App's code)
