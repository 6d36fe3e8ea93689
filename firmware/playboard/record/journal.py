"""The journal: the game in play appended to raw NOR flash by page programs only.

Why (docs/app.md, "The journal"): littlefs copies a file's last block to a freshly
erased one at every synced append, so on the RP2040 nearly every move cost a 4 KB
sector erase (45 ms typical, 400 ms at worst, interrupts off and both cores stalled).
A NOR flash can program a page again as long as the bytes written are still 0xff
(a program only clears bits), so records appended one after another into a region
erased beforehand cost one or two page programs each (0.4 ms typical, 3 ms worst)
and no erase. The region is erased where a stall costs no play frame: at power-up
when it holds no game in play (one in play goes on here as it is: ``go_on``), when it
fills (once in some 1,500 moves), at a game's end once it is three-quarters
used (once in some 20 games); else a game's end (its fold) or a game dropped with no
move closes its section with a ``J`` record naming no game (``close``), and the next
game begins after it: neither a game's start nor its end erases (a cut inside a
record's page program: at power-up that record is voided and the game's section begun
again after it, ``go_on``; other bytes where the next record goes: settled, then erased).

Layout: byte 0 holds a ``J`` record (payload: the game id, 0, the size of its file
``g<id>.rec`` when the journal began; for a game begun in the journal, 0, 0, ``n``:
its file is not made yet; a closed section's: 0, 0, 0), then the game's records
(``G`` and ``T`` of a game begun here, ``M``, ``U``, ``T``, ``E``) exactly as they
would be appended to that file (``playboard.record``: type, length, payload,
CRC-32), then the next section's ``J``
record and records, and so on, then 0xff to the end; the last section counts. A
record cut short may be voided (its bytes programmed to 0x00, which no record begins
with) and followed by a ``J`` record: the scan goes on there. The
records go into the file (folded, ``Journal.fold``: the file with them written
aside and renamed, whole or not at all; a game begun here gets its file then) when
the game ends or the journal fills; at power-up the game in play goes on here
(``Journal.go_on``), else (``Journal.settle``) whatever the file lacks is folded,
then the journal is erased. A game's start writes its header
here (``begin``): the file system is not written in the start's frame (a littlefs
commit may compact a metadata block: a sector erase, 45-400 ms with the chip
stalled). A cut at any byte loses at most the record being programmed: the records
are read up to the first that fails its check, and the file's size says how much of
the journal it already holds (a fold renames the file whole: on littlefs and on the
simulated board's host files alike). On CircuitPython's FAT drive (``fat``) a game
begun here gets its file in place instead (one create, one write, one close, read
back: each rename or counter rewrite there erased the folder's or FAT's 4 KB sector
again), and its file counts only if it reads back as the journal's records
(``_same``): ``settle`` writes it again otherwise.

The device: a block device with the extended interface of ``rp2.Flash`` (4 KB
blocks; ``readblocks(n, buf, off)``; ``writeblocks(n, buf, off)`` programs without
erasing; ``ioctl(6, n)`` erases block n; ``ioctl(4, 0)`` the block count): on the
product image, the flash region below the filesystem (``find``); on the simulated
board a file (``playboard.sim.flash.NorFile``).
"""
from playboard.compat import const
from playboard.record.codec import GAME_TYPES, StoreError, crc32, encode_record

_SECTOR = const(4096)
_PAGE = const(256)
_OVERHEAD = const(6)
_VOID = const(261)  # a record's longest (a void covers one cut short)
_T_COUNTER = const(0x4E)  # "N": the id counter's record (playboard.record)
_T_END = const(0x45)  # "E": a game's end
T_JOURNAL = const(0x4A)  # "J"
_FF = b"\xff" * 256


class Journal:
    """The journal's flash: ``dev`` (see the module docstring), ``size`` bytes; and
    what it holds for the store: ``pos`` (its next byte while it holds the current
    game, else 0), ``first`` (the byte of the game's first record, after the ``J``
    record), ``base`` (the game's bytes in its file: the rest are here), ``new``
    (the game was begun here: it has no file yet, ``base`` is 0), ``ending`` (the
    game's ``E`` record is here, its fold pending), ``bad`` (a failure left it to
    be settled before the next append).

    Allocates one 256-byte page buffer; reading, programming and erasing raise what
    the device raises (OSError)."""

    def __init__(self, dev):
        self.dev = dev
        self.size = dev.ioctl(4, 0) * _SECTOR
        self._page = bytearray(_PAGE)
        self.pos = 0
        self.first = 0
        self.base = 0
        self.new = False
        self.ending = False
        self.bad = False
        self.tail = 0  # the first byte after the closed sections (blank from here on)
        self.last = 0  # (``scan``: the type of the last section's last record)
        # the store's file system is FAT (CircuitPython's drive: ``app/onboard.py``): a
        # game begun here gets its file by ``_write_new``, checked by ``_same``
        self.fat = False

    def append(self, st, rtype, payload):
        """Store ``st``'s ``_append`` while the journal holds its game: one record
        programmed (no erase), unless the journal is full (the game so far is folded
        into its file and the journal begun again: an erase, once in some 1,500
        moves) or must first be settled after a failure. True once on flash; False
        (``st.error``) on failure."""
        try:
            if self.bad or self.pos + 261 > self.size:
                if not self.fold(st, True):
                    return False
                if not self.pos:  # (the game goes on in its file)
                    return st._append(rtype, payload)
            n = encode_record(rtype, payload, st._buf)
            self.program(self.pos, memoryview(st._buf)[0:n])
        except StoreError:
            raise
        except Exception as e:  # noqa: BLE001 - OSError, MemoryError: kept by the caller
            self.bad = True  # (part of the record may be on flash: fold, start again)
            st._fail("appending to the journal of g%d.rec" % st.current, e)
            return False
        self.pos += n
        st._cur_size += n
        st._used += n
        st.error = None
        return True

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

    def _past_void(self, pos):
        """The first byte from ``pos`` on that is not 0x00 (``pos`` itself if it is not:
        a void is a record cut short that ``go_on`` programmed to 0x00, which no record
        begins with; at most 261 bytes)."""
        pg = self._page
        p = pos
        while p < self.size and p < pos + _VOID + _PAGE:
            k = min(_PAGE, self.size - p)
            self.read(p, memoryview(pg)[0:k])
            i = 0
            while i < k and pg[i] == 0:
                i += 1
            p += i
            if i < k:
                break
        return p

    def scan(self, buf):
        """What the journal holds: ``(gid, base, first, end, new)``: the game id and
        its file's size when the journal began, the byte of its first game record, the
        end of its valid records, and whether the game was begun here (no file made
        yet: its records from ``first`` on are the whole game); ``(0, 0, 0, 0,
        False)`` if byte 0 holds no ``J`` record."""
        n = self.record_at(0, buf)
        if not n or buf[0] != T_JOURNAL:
            return 0, 0, 0, 0, False
        gid, base, new = _section(buf, n)
        first = end = n
        last = 0
        while True:  # (a later J record begins the section that counts: see ``close``)
            k = self.record_at(end, buf)
            if not k:
                # a record cut short and voided (``go_on``): a J record after it goes on
                p = self._past_void(end)
                if p == end:
                    break
                k = self.record_at(p, buf)
                if not k or buf[0] != T_JOURNAL:
                    break
                end = p
            end += k
            last = buf[0]
            if last == T_JOURNAL:
                gid, base, new = _section(buf, k)
                first = end
                last = 0
        self.last = last  # the type of the section's last record (0: none)
        return gid, base, first, end, new


    # ---- the store's jobs with the journal (st: a playboard.record.Store) ----------

    def start(self, st):
        """Begin the journal for store ``st``'s current game, whose file holds
        ``st._cur_size`` valid bytes (a bad tail is cut off first): a ``J`` record at
        ``tail``. If the journal is not blank there it is settled first (a cut left it
        so). If it cannot be made ready, ``pos`` stays 0: the game goes on in its file."""
        self.pos = 0
        try:
            if st._dirty and not st._repair():
                return
            if not self._ready(st, 300):
                return
            t = self.tail
            n = encode_record(T_JOURNAL, "%d\x00%d" % (st.current, st._cur_size), st._buf)
            self.program(t, memoryview(st._buf)[0:n])
        except Exception as e:  # noqa: BLE001 - OSError, MemoryError: the file path instead
            st._fail("starting the journal", e)
            return
        self.base = st._cur_size
        self.new = False
        self.pos = self.first = t + n

    def _ready(self, st, need):
        """True once ``need`` bytes from ``tail`` are blank (and, with ``tail`` 0, the
        whole journal): settled first where they are not (a cut or a failure left it so;
        or it is full of closed sections: then erased, a stall); False (``st.error``)
        if that failed."""
        t = self.tail
        if t + need <= self.size and self._blank_from(t, t + need if t else self.size):
            return True
        return self.settle(st)

    def _blank_from(self, t, stop):
        """True if bytes ``t`` .. ``stop`` (whole pages from ``t``'s) read all 0xff."""
        pg = self._page
        p = t - t % _PAGE
        while p < stop:
            self.read(p, pg)
            if not (pg == _FF if p >= t else pg[t - p:] == _FF[t - p:]):
                return False
            p += _PAGE
        return True

    def go_on(self, st):
        """Power-up, before ``settle``: if the journal's last section holds a game in
        play (no ``E`` record), every byte after its records is blank, and its file is
        as its ``J`` record says (none for a game begun here, else ``base`` bytes, and no
        fold's ``.tmp`` beside it), the game goes on here as it is: nothing is folded or
        erased (the settle's erase of the sectors used, 45-400 ms each with the chip
        stalled, kept a 300-move game's resume 1.09 s at the worst erase). A record cut
        short after its records (a cut inside its page program: never committed) is
        gone past by page programs (``_go_past``), not settled. The journal
        is erased later: when it fills, or at a game's end once three-quarters used.
        Sets the journal's state and ``st.current`` / ``st._cur_size``; returns the
        game's id, or 0 (nothing changed: ``settle`` then). OSError from the device."""
        gid, base, first, end, new = self.scan(st._buf)
        if not gid or self.last == _T_END or (new and end <= first):
            return 0
        path = st._gpath(gid)
        for p, want in ((path + ".tmp", -1), (path, -1 if new else base)):
            try:
                size = st.fs.size(p)
            except OSError:
                size = -1
            if size != want:
                return 0
        if not self._blank_from(end, self.size):
            # a record cut short at ``end`` (a cut inside its page program: it was never
            # committed): voided, the section begun again after it (no erase)
            first, end = self._go_past(st, gid, base, first, end, new)
            if not end:
                return 0  # (more than one record's bytes, or no room: settled)
        self.pos = end
        self.first = first
        self.base = base
        self.new = new
        self.ending = False
        self.bad = False
        self.tail = 0
        st.current = gid
        st._cur_size = base + end - first
        return gid

    def _go_past(self, st, gid, base, first, end, new):
        """``go_on`` with bytes after the section's last valid record (``end``): if they
        are one record cut short (none past ``end`` + 261) and the journal has room, that
        record is voided (its bytes programmed to 0x00, which ``scan`` skips), then the
        section's records ``first`` .. ``end`` are programmed again after it and then its
        ``J`` record before them (a cut before that ``J`` is whole leaves the first
        section the one that counts, and bytes past its void: settled at the next
        power-up). Page programs only: some 10 for a 300-move game, where the settle's
        fold and erase of the sectors used stall the chip 45-400 ms each. Returns the
        new section's ``(first, end)``, or ``(0, 0)``: nothing done (settled instead).
        OSError from the device."""
        v = end + _VOID
        n = end - first
        jrec = encode_record(T_JOURNAL, "%d\x00%d\x00n" % (gid, base) if new else "%d\x00%d" % (gid, base))
        at = v + len(jrec)
        if at + n + 300 > self.size or not self._blank_from(v, self.size):
            return 0, 0
        self.program(end, bytes(_VOID))  # (the void: a program only clears bits: any byte goes to 0)
        buf = memoryview(st._buf)
        p = 0
        while p < n:
            k = min(n - p, len(buf))
            self.read(first + p, buf[0:k])
            self.program(at + p, buf[0:k])
            p += k
        self.program(v, jrec)
        st._note("g%d.rec: a record cut short in the journal voided, the game goes on after it" % gid)
        return at, at + n

    def close(self, end):
        """The journal's game is done with (folded into its file, or discarded with no
        move): a ``J`` record naming no game closes its section at byte ``end`` by a
        page program, and the next game begins after it (``tail``): no erase at a
        game's end or start. With less than a quarter of the journal left after it, or
        bytes not blank there (a failure), the sectors used are erased instead (a stall,
        at a game's end: once in some 20 games). OSError from the device."""
        rec = encode_record(T_JOURNAL, "0\x000")
        k = len(rec)
        pg = self._page
        if end + k + 512 <= self.size - self.size // 4:
            self.read(end, memoryview(pg)[0:k + 8])
            if pg[0:k + 8] == _FF[0:k + 8]:
                self.program(end, rec)
                self.tail = end + k
                return
        self.tail = 0
        self.erase(end + 512)  # (and past the end: a record cut short there by a failure)

    def begin(self, st, gid, data):
        """Begin game ``gid`` of store ``st`` here: a ``J`` record saying its file is not
        made yet, then ``data`` (bytes: its ``G`` and ``T`` records), by page programs
        only (no erase while the journal is blank, as it is after a game's end). True
        once on flash; False (``st.error``) if the journal is not ready or flash failed
        (the journal then holds no game: the store writes the file instead)."""
        self.pos = 0
        if self.bad or len(data) + 600 > self.size:
            return False
        try:
            if not self._ready(st, len(data) + 300):
                return False
            t = self.tail
            n = encode_record(T_JOURNAL, "%d\x000\x00n" % gid, st._buf)
            self.program(t, memoryview(st._buf)[0:n])
            self.program(t + n, data)
        except Exception as e:  # noqa: BLE001 - OSError, MemoryError: the file path instead
            self.bad = True  # (a J record may be on flash: settled before the next game)
            st._fail("beginning a game in the journal", e)
            return False
        self.base = 0
        self.new = True
        self.first = t + n
        self.pos = t + n + len(data)
        return True

    def _copy(self, st, path, keep, start, end):
        """Make file ``path`` its first ``keep`` bytes (-1: it has none yet) followed
        by the journal's bytes ``start`` .. ``end``, in one commit on any file system:
        written aside (``path + ".tmp"``) and renamed, so a cut leaves the file as it
        was or whole, never part of a record (host files, the simulated board's
        folder, grow a write at a time; a torn write there may leave stray bytes).
        For a file not made yet the id counter (``next``) is written past its id
        first. False (``st.error`` says why) if flash failed."""
        mv = memoryview(st._buf)
        tmp = path + ".tmp"
        try:
            if keep < 0:
                # (the counter first: the id is never given again, even once the game
                # is synced and dropped; a cut before the rename leaves the journal)
                if not st._write_small("next", [encode_record(_T_COUNTER, str(st._next_id))]):
                    return False
            f = st.fs.open(tmp, "wb")
            try:
                if keep > 0:
                    src = st.fs.open(path, "rb")
                    try:
                        while keep > 0:
                            k = src.readinto(mv[0:min(keep, len(mv))])
                            if not k:
                                raise OSError(5)  # (shorter than its size said)
                            f.write(mv[0:k])
                            keep -= k
                    finally:
                        src.close()
                while start < end:
                    k = min(end - start, len(mv))
                    self.read(start, mv[0:k])
                    f.write(mv[0:k])
                    start += k
                f.flush()
            finally:
                f.close()
            try:
                st.fs.rename(tmp, path)
            except OSError:
                if keep < 0:
                    raise
                st.fs.remove(path)  # a file system whose rename will not replace (FAT):
                st.fs.rename(tmp, path)  # a cut here leaves the .tmp, put in place at power-up
            return True
        except OSError as e:
            st._fail("folding the journal into " + path, e)
            return False

    def _write_new(self, st, path, start, end):
        """On FAT (``fat``): make file ``path`` of the journal's bytes ``start`` ..
        ``end`` (a game begun here, at most 4 KB) with the fewest writes of the drive's
        FAT and folder a new file needs: one create, one ``write`` of the whole game
        (read into one buffer; where the heap cannot give it, 256 bytes a write), one
        close (``_put_new`` reads it back). No ``.tmp`` and rename and no
        id counter ``next``: on CircuitPython each of those rewrote the folder's 4 KB
        sector again, and FAT's table beside the boot sector (the 12 erases of a game's
        end, docs/pico.md); the counter is written before a synced game is dropped
        instead (``folder._keep_counter``). A cut leaves the file absent, short or
        wrong, never the game lost: the journal keeps it until this returns True and
        ``settle`` writes it again unless ``_same``. False (``st.error``) if flash
        failed."""
        n = end - start
        try:
            try:
                data = bytearray(n)
            except MemoryError:
                data = None
            f = st.fs.open(path, "wb")
            try:
                if data is not None:
                    self.dev.readblocks(start // _SECTOR, data, start % _SECTOR)  # (not ``read``: see ``_put_new``)
                    f.write(data)
                else:
                    mv = memoryview(st._buf)
                    p = start
                    while p < end:
                        k = min(end - p, len(mv))
                        self.dev.readblocks(p // _SECTOR, mv[0:k], p % _SECTOR)
                        f.write(mv[0:k])
                        p += k
            finally:
                f.close()
            data = None
            return True
        except OSError as e:
            st._fail("writing " + path, e)
            return False

    def _put_new(self, st, path, start, end):
        """FAT: ``_write_new`` unless file ``path`` already reads back as the journal's
        bytes ``start`` .. ``end`` (a retry, or a power-up after a fold whose file was
        whole), then the read-back; True once it does, False (``st.error``) if not.
        (Called from ``fold`` and ``settle`` themselves, reading the device directly,
        not deeper: the fold runs deep in the app's frame, and two calls more
        exhausted CircuitPython's Python stack, ``RuntimeError: pystack exhausted``,
        on the emulated Pico.)"""
        if self._same(st, path, start, end):
            return True
        if not self._write_new(st, path, start, end):
            return False
        if self._same(st, path, start, end):
            return True
        st._fail("writing " + path, "read back other than written")
        return False

    def _same(self, st, path, start, end):
        """True if file ``path`` holds exactly the journal's bytes ``start`` .. ``end``
        (False: absent, another size or other bytes). OSError from the journal's device."""
        try:
            if st.fs.size(path) != end - start:
                return False
            f = st.fs.open(path, "rb")
        except OSError:
            return False
        buf, pg = st._buf, self._page
        mv, mp = memoryview(buf), memoryview(pg)
        try:
            p = start
            while p < end:
                k = min(end - p, _PAGE)
                if f.readinto(mv[0:k]) != k:
                    return False
                self.dev.readblocks(p // _SECTOR, mp[0:k], p % _SECTOR)
                if buf[0:k] != pg[0:k]:  # (two slices of 256 bytes at most: a game's end)
                    return False
                p += k
        except OSError:
            return False
        finally:
            f.close()
        return True

    def fold(self, st, restart):
        """Put the journal's records of store ``st``'s current game into its file
        (what the file does not hold yet: its size says, so a fold cut short or done
        twice neither loses nor doubles a record), then erase the journal; with
        ``restart`` begin it again for the game (it goes on). True once the game is
        whole in its file; False (``st.error``) if flash failed, the journal left as
        it was."""
        st._close_file()
        path = st._gpath(st.current)
        if not self.pos:  # (a journal left unsettled by a failure: settle it, then start)
            if not self.settle(st):
                return False
            if restart:
                try:
                    st._cur_size = st.fs.size(path)
                except OSError as e:
                    st._fail("g%d.rec" % st.current, e)
                    return False
                self.start(st)
            return True
        try:
            size = st.fs.size(path)
        except OSError as e:
            if not self.new:
                st._fail("g%d.rec" % st.current, e)
                return False
            size = -1  # (a game begun here: its file is made now)
        start = self.first + max(0, size - self.base)
        if self.new and self.fat:
            # (FAT: the file made in place and read back; one a fold cut short left is
            # written again whole, unless it reads back as the journal's records)
            if not self._put_new(st, path, self.first, self.pos):
                return False
            start = self.pos
        if start < self.pos:
            st._make_room(self.pos - start + max(0, size))  # (the copy aside, a moment)
            if not self._copy(st, path, size, start, self.pos):
                return False
        self.new = False
        self.base += self.pos - self.first
        end = self.pos
        self.pos = 0
        self.bad = False
        try:
            if restart:  # (full: erased, begun again at byte 0)
                self.tail = 0
                self.erase(end + 512)  # (and past the end: a record cut short by a failure)
            else:
                self.close(end)
        except OSError as e:  # the game is whole in its file (it goes on there); the
            st._fail("erasing the journal", e)  # journal is settled at the next start
            return True
        if restart:
            self.start(st)
        return True

    def settle(self, st):
        """Power-up (and after a failure): fold into its file what the journal holds
        that the file lacks (its ``J`` record names the game and the file's size when
        the journal began; the file may be ``g`` or ``s``, or gone: dropped after a
        sync), then erase every sector that is not blank. True once the journal is
        blank; False (``st.error``) if flash failed: then the journal is left as it
        is (nothing in it is lost) and ``bad`` set."""
        try:
            gid, base, first, end, new = self.scan(st._buf)
            if gid:
                for k in ("g", "s", ""):
                    size = -1
                    if k:
                        try:
                            size = st.fs.size(st._path("%s%d.rec" % (k, gid)))
                        except OSError:
                            continue
                    elif not new or first >= end:
                        break  # (no file and none to make: a game dropped after its sync)
                    path = st._path("%s%d.rec" % (k or "g", gid))
                    if self.fat and new and k != "s":
                        # (FAT: a fold's file made in place; a cut may leave it short or
                        # wrong at any size: whole only if it reads back as the journal)
                        if st._next_id <= gid:
                            st._next_id = gid + 1
                        if not self._same(st, path, first, end):
                            if not self._put_new(st, path, first, end):
                                self.bad = True
                                return False
                            st._note("g%d.rec: %d bytes from the journal" % (gid, end - first))
                        break
                    start = first + max(0, size - base)
                    if start < end:
                        if st._next_id <= gid:
                            st._next_id = gid + 1
                        # (no file: a game begun here gets it now, its header at least)
                        if not self._copy(st, path, size, start, end):
                            self.bad = True
                            return False
                        st._note("g%d.rec: %d bytes from the journal" % (gid, end - start))
                    break
            self.tail = 0
            self.erase()
        except OSError as e:
            st._fail("settling the journal", e)
            self.bad = True
            return False
        self.bad = False
        self.new = False
        return True


def _section(buf, n):
    """``(gid, base, new)`` of the checked ``J`` record of ``n`` bytes in ``buf``
    (gid 0: a closed section, no game; or an unreadable payload)."""
    try:
        f = bytes(buf[2:n - 4]).split(b"\x00")
        return int(f[0]), int(f[1]), len(f) > 2 and f[2] == b"n"
    except (ValueError, IndexError):
        return 0, 0, False


def find():
    """The product image's journal (a Journal), or None on any other MicroPython
    (``playboard.app.onboard`` gives it to the ``Store``).

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
