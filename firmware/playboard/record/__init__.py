"""Power-safe game records on the board's flash: an append-only log per game.

Every committed move is appended to the current game's file as it is committed,
as one checked record; a power cut at any byte loses at most the record being
written. Anything that is rewritten (a repaired file, the settings, the id
counter, a new game's header) is written to a ``.tmp`` file first and put in
place with ``os.rename``. Games are stored game-agnostically: the game's name,
its tags (str -> str), an optional set-up position text and the move texts in
the game's own notation (``g.move_text(m)`` / ``g.parse_move(text)``).

Record layout (all files)::

    type   1 byte   b"G" header, b"T" tag, b"M" move, b"U" undo (takeback),
                    b"E" end, b"N" id counter, b"K" setting, b"Z" close
    len    1 byte   payload length, 0..255
    payload         ``len`` bytes (UTF-8 text; fields split by a 0 byte)
    crc    4 bytes  CRC-32 (zlib) of type, len and payload, little-endian

A game file ``g<id>.rec`` starts with one ``G`` record (payload: game name, 0,
uid, 0, set-up position text or nothing), then ``T`` records (key, 0, value),
``M`` records (one move text), ``U`` records (take back the last move) and at
most one ``E`` record (result, 0, termination) that finishes the game. The
small files rewritten whole (``settings``: ``K`` records key, 0, JSON value;
``next``: one ``N`` record) end with a ``Z`` record holding their record count,
so a copy cut short at a record boundary is never taken for a whole one. Reading
stops at the first record that fails its check (length, type or CRC): that
record and everything after it are reported and ignored, and before the board
appends to such a file again it is rewritten to its valid prefix.

Use (the app)::

    st = Store("/games")              # scans the folder; st.report lists problems
    r = st.resume()                   # GameRecord of the unfinished game, or None
    if r:                             # replay it into the rules core
        g = new_game(r.name, r.fen)
        for t in r.moves:
            g.push_text(t)
    else:
        st.new_game("toguz", {"White": "Player", "Black": "Playboard L3"})
    st.add_move(g.move_text(m)); g.push(m)   # each committed move
    st.finish(g.result(), g.termination)     # game over
    s = st.load_settings(DEFAULTS); st.save_settings(s)

The package keeps in the heap only what play needs (this module: the Store and
its write path; ``codec``: the CRC and a record's bytes). The rare jobs live in
modules imported on demand and dropped after use (``playboard.compat.unload``):
``read`` (decoding records and games; the same parser runs on the host as
``parse_game``, which checks every record of a game it fetched over the link),
and ``folder`` (the power-up scan, room made on a full flash, the link's list of
games, a game's size, moves and acknowledgement, the settings file).

The journal (``playboard.record.journal``, docs/app.md): where the board has one
(the product image's flash region below the filesystem, the simulated board's
journal file), the moves of the game in play are appended there by page programs
only, not to the game's file: littlefs erases a 4 KB sector at nearly every synced
append (45-400 ms with the chip stalled), a page program takes 0.4-3 ms. A new game
begins there too (its header and tags: ``Journal.begin``; no file-system write in the
start's frame) and has no file until the journal is folded; a resumed game's file
holds the header, tags and the moves before the journal began. The records go into
the file, byte for byte as they would have been appended (the file written aside and
renamed), when the game ends (``finish``, or ``put_away`` for a game left at the
menu) and when the journal fills; at power-up the game in play goes on in the journal
(``Journal.go_on``), else the journal is folded and erased (``Journal.settle``).
The link lists and reads the game in play from both. Without a journal (the stock image's ``.mpy`` deploy, tests) every
record is appended to the file as above.
"""
import gc
import os

from playboard.compat import const, unload
from playboard.record.codec import (  # noqa: F401 (TERM_ABANDONED: for the callers)
    READ_BUF, RESULT_UNFINISHED, TERM_ABANDONED, StoreError, encode_record)

_T_HEADER = const(0x47)  # "G"
_T_TAG = const(0x54)  # "T"
_T_MOVE = const(0x4D)  # "M"
_T_UNDO = const(0x55)  # "U"
_T_END = const(0x45)  # "E"
_T_COUNTER = const(0x4E)  # "N"
_T_CLOSE = const(0x5A)  # "Z": last record of a small file, payload = record count

class OsFs:
    """The file-system calls the store uses, over the real ``os`` and ``open``.

    A test replaces it with a fake of the same shape (open, remove, rename,
    listdir, ilistdir, size, mkdir, free). (The plain calls are the builtins
    themselves: no code of their own in the heap.)
    """

    open = staticmethod(open)
    remove = staticmethod(os.remove)
    rename = staticmethod(os.rename)
    listdir = staticmethod(os.listdir)
    mkdir = staticmethod(os.mkdir)

    def ilistdir(self, path):
        """``(name, size)`` of each entry of folder ``path``, one at a time (no list of
        them all: a folder of 200 games costs no more heap than one of 2). OSError if absent."""
        if not hasattr(os, "ilistdir"):  # CircuitPython: a list of the names
            for n in os.listdir(path):
                yield n, self.size(path + "/" + n)
            return
        for e in os.ilistdir(path):  # (name, type, inode[, size]); MicroPython only
            yield e[0], e[3] if len(e) > 3 else self.size(path + "/" + e[0])

    def size(self, path):
        """Size of file ``path`` in bytes; OSError if absent."""
        return os.stat(path)[6]

    def free(self, path):
        """Free bytes on the file system holding ``path`` (os.statvfs), or None if unknown."""
        try:
            s = os.statvfs(path)
            return s[0] * s[4]
        except (AttributeError, OSError):
            return None


class Store:
    """The games and settings kept in folder ``root`` of the board's flash.

    A game is ``g<id>.rec`` until the host has it (``ack``), then ``s<id>.rec``
    (synced): kept as long as the flash has room. ``budget``: most bytes that game
    files may take together (None: no cap); ``reserve``: bytes to keep free on the
    file system (checked with ``os.statvfs`` when a game starts and every 16
    moves). When either is short, the oldest synced games are dropped, their ids
    appended to ``dropped`` (the last 16; ``n_dropped`` counts them); a game not yet
    synced is never dropped (the flash is then full: ``low``, and appends fail
    with ``error`` set until the host syncs). ``low`` is True while the flash is
    nearly full (less than ``2 * reserve`` left once the synced games are gone).
    ``fs`` is the file-system object (``OsFs()`` by default); ``uid`` a function
    returning a short unique text for a new game (random by default); ``date`` a
    function returning today as "YYYY.MM.DD" or None when the clock is not set
    (``today`` by default; None: no Date tags).

    The heap it needs does not grow with the games on flash: the folder is read
    one entry at a time (``ilistdir``) whenever a game must be found, and only
    counts are kept (``count`` games not yet synced, ``synced``, bytes ``used``).
    Opening reads the newest game (the one to resume); ``report`` (list of str,
    the last 32) then says what was wrong (bad tails skipped, left-over temporary
    files, empty games removed). No method raises on a full or failing flash: it
    returns False and sets ``error``; bad arguments raise StoreError. ``journal``: a
    ``record.journal.Journal`` for the game in play (the board's: ``journal.find()``;
    None: every record goes to the game's file).
    """

    def __init__(self, root="/games", budget=None, reserve=8192, fs=None, uid=None, date=-1, journal=None):
        self.root = root
        self.journal = journal  # a record.journal.Journal (its state: see there) or None
        self._date = today if date == -1 else date
        self.fs = fs if fs is not None else OsFs()
        self.budget = budget
        self.reserve = reserve
        self._uid = uid
        self.report = []
        self.dropped = []
        self.n_dropped = 0  # games dropped since power-up (``dropped`` keeps the last 16)
        self.error = None
        self.count = 0  # games not yet synced (the current one included)
        self.synced = 0  # synced games still kept
        self._used = 0  # bytes of all game files
        self.low = False
        self.current = None  # id of the unfinished game being recorded
        self._f = None
        self._cur_size = 0
        self._moves = 0  # moves on record in the current game (takebacks applied)
        self._dirty = False
        self._since_check = 0
        # the flash's room (``_left``) measured a frame before the next new_game (the
        # app's game start: the file system's free space takes 15 ms on the RP2040)
        self.left_hint = None
        self._buf = bytearray(READ_BUF)
        self._next_id = 1
        self._sized = (0, 0)  # (id, valid bytes) of the game last sized (the link's fetch)
        self._resume = None
        from playboard.record import folder

        self._cold(folder.scan)
        # the scan's garbage goes now (some 90 KB of names and sizes with 200 games on
        # the simulated board): what is made next (the app) then lies at the heap's
        # bottom, not above a hole that splits the free heap (the largest block fell
        # from 158 to 82 KB at the menu with 200 games, bench/py_model.py)
        gc.collect()

    def _cold(self, fn, *args):
        """``fn(self, *args)`` (a function of the cold module ``folder``), then the cold
        modules are dropped from the heap (``playboard.compat.unload``)."""
        try:
            return fn(self, *args)
        finally:
            unload("playboard.record.folder")
            unload("playboard.record.read")

    def _note(self, line):
        """Add ``line`` to ``report``, keeping the last 32."""
        r = self.report
        if len(r) >= 32:
            del r[0]
        r.append(line)

    # ---- paths and small files -------------------------------------------------

    def _path(self, name):
        return self.root + "/" + name

    def _gpath(self, gid):
        return self._path("g%d.rec" % gid)

    def _write_small(self, name, recs):
        """Write the records ``recs`` (list of bytes) and a closing record to ``name``."""
        recs.append(encode_record(_T_CLOSE, str(len(recs))))
        return self._write_atomic(name, b"".join(recs))

    def _write_atomic(self, name, data, suffix=".tmp"):
        """Write ``data`` (bytes) to file ``name`` via ``name + suffix`` and rename; False on OSError."""
        tmp = self._path(name + suffix)
        path = self._path(name)
        try:
            f = self.fs.open(tmp, "wb")
            try:
                f.write(data)
                f.flush()
            finally:
                f.close()
            try:
                self.fs.rename(tmp, path)
            except OSError:  # a file system whose rename will not replace (FAT)
                self.fs.remove(path)
                self.fs.rename(tmp, path)
            return True
        except OSError as e:
            self.error = "writing %s: %r" % (name, e)
            return False

    # ---- start-up --------------------------------------------------------------

    def resume(self):
        """The unfinished game found at start-up as a GameRecord (``moves`` are the
        committed move texts, takebacks applied), or None. Call once after opening."""
        r = self._resume
        self._resume = None
        return r

    # ---- space -----------------------------------------------------------------

    def used(self):
        """Bytes taken by the game files (synced or not)."""
        return self._used

    def _left(self):
        """Bytes the games may still take: the budget's and the file system's (less the
        reserve), the smaller; None if neither is known."""
        left = None
        if self.budget is not None:
            left = self.budget - self._used
        free = self.fs.free(self.root)
        if free is not None:
            free -= self.reserve
            left = free if left is None or free < left else left
        return left

    def _make_room(self, need, left=None):
        """Drop the oldest synced games while space is short of ``need`` bytes (cold:
        ``folder._make_room``); False if still short (the games not yet synced are never
        dropped). Sets ``low``. ``left``: ``_left()`` as measured just before, if so."""
        if left is None:
            left = self._left()
        if left is not None and left < need:
            if not self.synced:  # nothing to drop: no need for the cold module
                self.low = True
                return False
            from playboard.record import folder

            return self._cold(folder._make_room, need)
        self.low = left is not None and left - need < self.reserve and not self.synced
        return True

    # ---- recording -------------------------------------------------------------

    def new_game(self, name, tags=None, fen=None):
        """Start recording a new game; return its id (int), or None if flash failed.

        ``name``: game name (e.g. "toguz"); ``tags``: dict str -> str (e.g. White,
        Black, Mode, Level); ``fen``: set-up position text or None. An unfinished
        game still open is finished as ``*`` / abandoned first. A ``Date`` tag
        (YYYY.MM.DD) is added when the clock is set (a year from 2024 on; the PC
        sets the board's clock when it connects). With a journal ready (blank,
        as a game's end leaves it) the header and tags go there by page programs
        (``Journal.begin``): no file-system write in the start's frame, the game's
        file is made when the journal is folded (the game's end). Else they are
        written to a temporary file and renamed, so the game appears whole or not
        at all. ``left_hint``, if set, is taken (once) as the flash's room.
        """
        left, self.left_hint = self.left_hint, None
        if "\x00" in name or (fen and "\x00" in fen) or (tags and any("\x00" in k for k in tags)):
            raise StoreError("a game name, position text or tag name holds a 0 character")
        uid = self._uid() if self._uid else _random_uid()
        hdr = name + "\x00" + uid + "\x00" + (fen or "")
        parts = [encode_record(_T_HEADER, hdr)]  # (StoreError here changes nothing)
        if tags:
            for k in tags:
                parts.append(encode_record(_T_TAG, k + "\x00" + str(tags[k])))
        if not (tags and "Date" in tags):
            d = self._date() if self._date else None
            if d:
                parts.append(encode_record(_T_TAG, "Date\x00" + d))
        data = b"".join(parts)
        if self.current is not None:
            self.finish(RESULT_UNFINISHED, TERM_ABANDONED)
        gid = self._next_id
        self._next_id = gid + 1
        self._make_room(len(data) + 512, left)
        j = self.journal
        if j is not None:
            j.ending = False
            if j.begin(self, gid, data):  # (the id counter is written with the file)
                j = None
        if j is not None or self.journal is None:  # no journal, or it was not ready
            self._write_small("next", [encode_record(_T_COUNTER, str(gid + 1))])
            if not self._write_atomic("g%d.rec" % gid, data, ".new"):
                return None
        self.count += 1
        self._used += len(data)
        self.current = gid
        self._cur_size = len(data)
        self._moves = 0
        self._dirty = False
        self._since_check = 0
        if j is not None:
            j.start(self)
        return gid

    def _repair(self):
        """Cut the current game file back to its valid records (temp file + rename);
        False (``error`` says why) if flash failed. Resident: it is the retry of a failed
        append, which must not need heap for code (the failure may be the heap's)."""
        self._close_file()
        name = "g%d.rec" % self.current
        try:
            have = self.fs.size(self._path(name))
        except OSError:
            self.error = name + " missing"
            return False
        if have != self._cur_size:
            if not self._copy_prefix(name, self._cur_size):
                return False
            self._note("%s: rewritten to its %d valid bytes (%d dropped)" % (
                name, self._cur_size, have - self._cur_size))
        self._dirty = False
        return True

    def _copy_prefix(self, name, size):
        """Rewrite file ``name`` to its first ``size`` bytes: copy to ``name.tmp``, rename."""
        tmp = self._path(name + ".tmp")
        path = self._path(name)
        mv = memoryview(self._buf)
        try:
            src = self.fs.open(path, "rb")
            try:
                dst = self.fs.open(tmp, "wb")
                try:
                    left = size
                    while left > 0:
                        k = src.readinto(mv[0:min(left, len(mv))])
                        if not k:
                            break
                        dst.write(mv[0:k])
                        left -= k
                    dst.flush()
                finally:
                    dst.close()
            finally:
                src.close()
            try:
                self.fs.rename(tmp, path)
            except OSError:  # FAT: rename will not replace
                self.fs.remove(path)
                self.fs.rename(tmp, path)
            return True
        except OSError as e:
            self.error = "rewriting %s: %r" % (name, e)
            return False

    def _close_file(self):
        if self._f is not None:
            f = self._f
            self._f = None
            try:
                f.close()
            except Exception:  # noqa: BLE001 - OSError, MemoryError: the file is let go
                pass

    def _fail(self, what, e):
        """Set ``error`` to ``what``: ``e`` (a short fixed text if the heap is too
        short to format it)."""
        try:
            self.error = "%s: %r" % (what, e)
        except MemoryError:
            self.error = "out of memory"

    def _append(self, rtype, payload):
        """Append one record to the current game: True once it is on flash. Any
        failure (OSError from flash, MemoryError from the heap) returns False with
        ``error`` set and changes nothing on record: a record written in part is cut
        off before the next append (``_dirty``), so a retry never leaves a gap or a
        double. StoreError (bad input, no current game) is raised before anything."""
        if self.current is None:
            raise StoreError("no game is being recorded (call new_game)")
        j = self.journal
        if j is not None and (j.pos or j.bad):
            return j.append(self, rtype, payload)
        writing = False
        try:
            if self._dirty and not self._repair():  # (the repair uses _buf too)
                return False
            n = encode_record(rtype, payload, self._buf)
            self._since_check += 1
            if (self.budget is not None or self._since_check >= 16) and rtype == _T_MOVE:
                self._since_check = 0
                self._make_room(n + 256)
            if self._f is None:
                self._f = self.fs.open(self._gpath(self.current), "ab")
            writing = True
            self._f.write(memoryview(self._buf)[0:n])
            self._f.flush()
        except StoreError:
            raise
        except Exception as e:  # noqa: BLE001 - OSError, MemoryError: kept by the caller
            if writing:  # the file may now end in part of this record: cut it off first
                self._dirty = True
            self._close_file()
            self._fail("appending to g%d.rec" % self.current, e)
            return False
        self._cur_size += n
        self._used += n
        self.error = None
        return True

    def add_move(self, text):
        """Append the committed move ``text`` (its notation, str) to the current game.

        True once it is on flash; False (``error`` says why) if the flash failed.
        StoreError without a current game or for a text over 255 bytes.
        """
        ok = self._append(_T_MOVE, text)
        if ok:
            self._moves += 1
        return ok

    def undo(self):
        """Record a takeback of the last move; True once on flash. StoreError if none."""
        if self._moves <= 0:
            raise StoreError("no move to take back")
        ok = self._append(_T_UNDO, b"")
        if ok:
            self._moves -= 1
        return ok

    def set_tag(self, key, value):
        """Record tag ``key`` = ``value`` (str) for the current game (a later one wins)."""
        if "\x00" in key:
            raise StoreError("tag name %r holds a 0 character" % key)
        return self._append(_T_TAG, key + "\x00" + str(value))

    def finish(self, result, termination=None):
        """End the current game with ``result`` ("1-0", "0-1", "1/2-1/2", "*") and
        ``termination`` (str or None). It is then kept until acknowledged; True once
        on flash, False (``error`` says why) if flash failed (call it again).

        A game left unfinished (``*``) with no move on record (takebacks applied: a
        board switched on and a new game chosen, a game left at its start, a restart
        closing it with ``resume`` never) is not a game: its file is removed instead
        (``_discard``). A game with a move on record is never removed here, and until
        the removal is done the game is an unfinished one (resumed at power-up)."""
        if result == RESULT_UNFINISHED and self._moves == 0 and self.current is not None:
            return self._discard()
        j = self.journal
        if j is not None and j.ending:  # (the E record is in the journal: its fold is left)
            ok = True
        else:
            ok = self._append(_T_END, result + "\x00" + (termination or ""))
        if ok and j is not None and j.pos:
            # the game into its file (and its section of the journal closed); the game
            # stays current until that is done
            j.ending = True
            ok = j.fold(self, False)
            if ok:
                j.ending = False
        self._close_file()
        if ok:
            self.current = None
        return ok

    def put_away(self):
        """End the game left unfinished at the menu as abandoned, one step a call, so
        that the next game's start does not carry it (``new_game`` would: its fold's
        littlefs commits may erase a sector, 45-400 ms with the chip stalled, in a frame
        of the start). The app calls it in the menu's frames until ``current`` is None.
        With the journal holding the game and a move on record: its ``E`` record (a
        page program), then at the next call its fold (the file written aside and
        renamed) and its section closed; else ``finish`` at once (no move made: dropped;
        no journal: the ``E`` appended to its file). A cut between the steps leaves the
        ``E`` in the journal: the game is folded at power-up, ended, not resumed. True
        once the step is done (or no game is current); False (``error``) if flash
        failed: call it again."""
        if self.current is None:
            return True
        j = self.journal
        if j is not None and j.pos and not j.ending and self._moves:
            if not self._append(_T_END, RESULT_UNFINISHED + "\x00" + TERM_ABANDONED):
                return False
            j.ending = True  # (``finish`` folds it next)
            return True
        return self.finish(RESULT_UNFINISHED, TERM_ABANDONED)

    def _discard(self):
        """Remove the current game's file (``finish``: no move on record, unfinished)
        and let go of the journal's records of it; True once gone, False (``error``)
        if flash failed. Its section of the journal is closed after (``Journal.close``:
        a cut before that leaves the game to be resumed at the next power-up, with no
        move, as a cut before the removal does)."""
        self._close_file()
        gid = self.current
        path = self._gpath(gid)
        j = self.journal
        try:
            if j is not None and j.new and j.pos:
                raise OSError(2)  # (a game begun in the journal: no file to remove)
            self.fs.remove(path)
        except OSError as e:
            try:
                self.fs.size(path)
            except OSError:  # (gone all the same: a removal that raised after it was done)
                e = None
            if e is not None:
                self._fail("removing g%d.rec (no move made)" % gid, e)
                return False
        self.count -= 1
        self._used -= self._cur_size
        self.current = None
        self._moves = 0
        self._dirty = False
        self.error = None
        if j is not None and j.pos:
            end = j.pos
            j.pos = 0
            j.new = False
            try:
                j.close(end)  # (a page program: the next game begins after it)
            except OSError:
                j.tail = 0  # (the next game's start finds it not blank and settles it)
        return True

    def close(self):
        """Close the open file (the game stays unfinished and resumes next time)."""
        self._close_file()

    # ---- reading and acknowledging (the link) ----------------------------------

    def games(self, frm=0, limit=None):
        """``(id, name, size, finished, result)`` of the games not yet synced with an id
        from ``frm`` on, oldest first, at most ``limit`` (None: all). Streamed: one
        pass over the folder keeps the ``limit`` smallest ids, then reads each of those
        games; a game with no valid header is removed (and left out). Cold
        (``folder.games``)."""
        from playboard.record import folder

        return self._cold(folder.games, frm, limit)

    def size(self, gid):
        """Valid bytes of game ``gid`` (not yet synced); StoreError if unknown."""
        if gid == self.current:
            return self._cur_size
        if self._sized[0] == gid:
            return self._sized[1]
        from playboard.record import folder  # (once per game fetched: then _sized)

        return self._cold(folder.size, gid)

    def read_into(self, gid, offset, buf):
        """Copy game ``gid``'s record bytes from ``offset`` into ``buf`` (a bytearray
        or memoryview); return the count (0 at the end). Only valid records are
        read. StoreError for an unknown game or a bad offset; OSError from flash."""
        total = self.size(gid)
        if offset < 0 or offset > total:
            raise StoreError("offset %d outside game %d (%d bytes)" % (offset, gid, total))
        n = min(len(buf), total - offset)
        if n == 0:
            return 0
        mv = memoryview(buf)
        m = n  # bytes from the file; the rest (the game in play) from the journal
        j = self.journal
        if gid == self.current and j is not None and j.pos:
            m = max(0, min(n, j.base - offset))
        got = 0
        if m:
            f = self.fs.open(self._gpath(gid), "rb")
            try:
                f.seek(offset)
                while got < m:
                    k = f.readinto(mv[got:m])
                    if not k:
                        break
                    got += k
            finally:
                f.close()
        if got == m < n:
            j.read(j.first + offset + m - j.base, mv[m:n])
            got = n
        return got

    def read(self, gid):
        """The whole game ``gid`` as a GameRecord with its moves (allocates them);
        StoreError if unknown. Cold (``folder.read``)."""
        from playboard.record import folder

        return self._cold(folder.read, gid)

    def ack(self, gid):
        """The host has stored game ``gid``: it becomes synced (``s<id>.rec``, kept
        until the flash needs its room). True if done or already synced or gone;
        StoreError for the game being recorded (it is not finished). Cold
        (``folder.ack``)."""
        from playboard.record import folder

        return self._cold(folder.ack, gid)

    # ---- settings --------------------------------------------------------------

    def load_settings(self, defaults=None):
        """Settings dict: ``defaults`` (dict) updated with the values saved on flash.

        Values are ints, bools, strs or None (JSON). A bad or missing file gives the
        defaults (and a line in ``report``). Cold (``folder.load_settings``)."""
        from playboard.record import folder

        return self._cold(folder.load_settings, defaults)

    def save_settings(self, settings):
        """Write ``settings`` (dict str -> int/bool/str/None) safely; True once on flash.
        StoreError for an entry longer than one record. Cold (``folder.save_settings``)."""
        from playboard.record import folder

        return self._cold(folder.save_settings, settings)


def today():
    """Today as "YYYY.MM.DD" from the clock, or None while the clock is not set
    (a year before 2024: the RP2040's clock starts in 2021 until the PC sets it)."""
    import time

    t = time.localtime()
    if t[0] < 2024:
        return None
    return "%04d.%02d.%02d" % (t[0], t[1], t[2])


def _random_uid():
    try:
        b = os.urandom(4)
    except (AttributeError, OSError, NotImplementedError):
        import time

        t = int(time.time() * 1000) & 0xFFFFFFFF
        b = bytes(((t >> 24) & 255, (t >> 16) & 255, (t >> 8) & 255, t & 255))
    return "%02x%02x%02x%02x" % (b[0], b[1], b[2], b[3])
