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

The same parser runs on the host (``parse_game``), which checks every record of a
game it fetched over the link.
"""
import os

try:
    from binascii import crc32 as _crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _crc32 = None

from playboard.compat import const

_T_HEADER = const(0x47)  # "G"
_T_TAG = const(0x54)  # "T"
_T_MOVE = const(0x4D)  # "M"
_T_UNDO = const(0x55)  # "U"
_T_END = const(0x45)  # "E"
_T_COUNTER = const(0x4E)  # "N"
_T_SETTING = const(0x4B)  # "K"
_T_CLOSE = const(0x5A)  # "Z": last record of a small file, payload = record count
_MAXPAY = const(255)
_OVERHEAD = const(6)
READ_BUF = const(512)  # bytes read at a time when a game is read (>= 2 records)

GAME_TYPES = b"GTMUE"
RESULT_UNFINISHED = "*"
TERM_ABANDONED = "abandoned"

_table = None


def _crc32_table():
    global _table
    if _table is None:
        from array import array

        t = array("I", range(256))
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            t[i] = c
        _table = t
    return _table


def crc32_py(data, crc=0):
    """CRC-32 (zlib, IEEE 802.3) of ``data`` (a bytes-like), continuing from ``crc``.

    Pure-Python table version; gives the same value as ``binascii.crc32``.
    Returns an int in 0..2**32-1.
    """
    t = _crc32_table()
    c = crc ^ 0xFFFFFFFF
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data, crc=0):
    """CRC-32 (zlib) of ``data``, continuing from ``crc``; ``binascii.crc32`` where it exists."""
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    return crc32_py(data, crc)


class StoreError(ValueError):
    """Bad input to the store: an unknown game id, a text too long for one record, no open game."""


def encode_record(rtype, payload, buf=None):
    """One record: ``rtype`` (int, a type byte), ``payload`` (bytes/str, <= 255 bytes).

    Writes into ``buf`` (a bytearray of at least 261 bytes) when given and returns
    the record's length; else returns a new ``bytes``. StoreError if too long.
    """
    if isinstance(payload, str):
        payload = payload.encode()
    n = len(payload)
    if n > _MAXPAY:
        raise StoreError("record payload of %d bytes (at most %d)" % (n, _MAXPAY))
    out = buf if buf is not None else bytearray(n + _OVERHEAD)
    out[0] = rtype
    out[1] = n
    out[2:2 + n] = payload
    c = crc32(memoryview(out)[0:2 + n])
    out[2 + n] = c & 0xFF
    out[3 + n] = (c >> 8) & 0xFF
    out[4 + n] = (c >> 16) & 0xFF
    out[5 + n] = (c >> 24) & 0xFF
    if buf is not None:
        return n + _OVERHEAD
    return bytes(out)


def decode_records(data, types=GAME_TYPES):
    """Split ``data`` (bytes) into checked records.

    Returns ``(records, good, problem)``: a list of ``(type, payload bytes)``, the
    number of bytes of ``data`` that form valid records, and ``None`` or a text
    naming the first bad record (its index, byte offset and what failed). Never
    raises on bad data.
    """
    recs = []
    pos = 0
    n = len(data)
    mv = memoryview(data)
    while pos < n:
        problem = _check_at(mv, pos, n, types)
        if problem:
            return recs, pos, "record %d at byte %d: %s; %d bytes ignored" % (
                len(recs), pos, problem, n - pos)
        ln = data[pos + 1]
        recs.append((data[pos], bytes(mv[pos + 2:pos + 2 + ln])))
        pos += ln + _OVERHEAD
    return recs, pos, None


def _check_at(mv, pos, n, types):
    if n - pos < _OVERHEAD:
        return "truncated (%d bytes)" % (n - pos)
    t = mv[pos]
    if t not in types:
        return "unknown type 0x%02x" % t
    ln = mv[pos + 1]
    if pos + ln + _OVERHEAD > n:
        return "truncated (length %d, %d bytes left)" % (ln, n - pos - 2)
    end = pos + 2 + ln
    c = crc32(mv[pos:end])
    got = mv[end] | (mv[end + 1] << 8) | (mv[end + 2] << 16) | (mv[end + 3] << 24)
    if c != got:
        return "CRC mismatch"
    return None


def _split0(payload, n):
    """Payload bytes -> list of at most n + 1 str fields split by a 0 byte (the
    last field may hold 0 bytes itself)."""
    return [s.decode() for s in payload.split(b"\x00", n)]


class GameRecord:
    """One game as read from its records.

    Attributes: ``id`` (int), ``name`` (game name str), ``uid`` (str, unique per
    game and board), ``fen`` (set-up position text or None), ``tags`` (dict
    str -> str), ``moves`` (list of move texts, takebacks applied; may be left
    empty by read_game), ``plies`` (how many moves, takebacks applied), ``result``
    (``"*"`` until finished), ``termination`` (str or None), ``finished`` (bool),
    ``size`` (bytes of valid records), ``problem`` (None or text: a bad tail).
    """

    def __init__(self, gid=0):
        self.id = gid
        self.name = None
        self.uid = ""
        self.fen = None
        self.tags = {}
        self.moves = []
        self.plies = 0
        self.result = RESULT_UNFINISHED
        self.termination = None
        self.finished = False
        self.size = 0
        self.problem = None

    def __repr__(self):
        return "<GameRecord %d %s %d plies %s>" % (self.id, self.name, self.plies, self.result)


def _readn(f, mv, off, n):
    """Read up to ``n`` bytes into ``mv[off:off+n]``; return how many arrived."""
    got = 0
    while got < n:
        k = f.readinto(mv[off + got:off + n])
        if not k:
            break
        got += k
    return got


def read_game(f, gid=0, moves=True, buf=None):
    """A GameRecord read record by record from open file ``f`` (binary); never raises
    on bad data. With ``moves`` False the move texts are not kept (``plies`` still
    counts them). ``buf``: a bytearray of at least READ_BUF bytes to read into.

    ``rec.name`` is None when there is no valid header (nothing usable);
    ``rec.problem`` names the first bad record, which and all after it are ignored.
    """
    if buf is None:
        buf = bytearray(READ_BUF)
    mv = memoryview(buf)
    size = len(buf)
    g = GameRecord(gid)
    pos = 0  # file offset of buf[at]
    at = 0
    have = 0
    eof = False
    i = 0
    while True:
        if not eof and have - at < _MAXPAY + _OVERHEAD:
            n = have - at
            if at:
                buf[0:n] = buf[at:have]
                at = 0
                have = n
            k = _readn(f, mv, have, size - have)
            have += k
            eof = k < size - n
        left = have - at
        if left == 0:
            break
        t = buf[at]
        if left < 2:
            g.problem = "record %d at byte %d: truncated (1 byte)" % (i, pos)
            break
        ln = buf[at + 1]
        if t not in GAME_TYPES:
            g.problem = "record %d at byte %d: unknown type 0x%02x" % (i, pos, t)
            break
        if left < ln + _OVERHEAD:
            g.problem = "record %d at byte %d: truncated (length %d, %d bytes left)" % (i, pos, ln, left - 2)
            break
        end = at + 2 + ln
        c = crc32(mv[at:end])
        if c != (buf[end] | (buf[end + 1] << 8) | (buf[end + 2] << 16) | (buf[end + 3] << 24)):
            g.problem = "record %d at byte %d: CRC mismatch" % (i, pos)
            break
        try:
            if t == _T_MOVE and i:
                g.plies += 1
                if moves:
                    g.moves.append(bytes(mv[at + 2:end]).decode())
            elif i == 0:
                if t != _T_HEADER:
                    g.problem = "record 0 is not a header"
                    break
                fl = _split0(bytes(mv[at + 2:end]), 2)
                g.name = fl[0]
                g.uid = fl[1] if len(fl) > 1 else ""
                g.fen = fl[2] if len(fl) > 2 and fl[2] else None
            elif t == _T_TAG:
                fl = _split0(bytes(mv[at + 2:end]), 1)
                g.tags[fl[0]] = fl[1] if len(fl) > 1 else ""
            elif t == _T_UNDO:
                if g.plies:
                    g.plies -= 1
                    if moves:
                        g.moves.pop()
            elif t == _T_END:
                fl = _split0(bytes(mv[at + 2:end]), 1)
                g.result = fl[0]
                g.termination = fl[1] if len(fl) > 1 and fl[1] else None
                g.finished = True
                pos += ln + _OVERHEAD
                if have > end + 4 or (not eof and _readn(f, mv, 0, 1)):
                    g.problem = "bytes after the end record ignored"
                break
            else:
                g.problem = "record %d has type 0x%02x in a game" % (i, t)
                break
        except (UnicodeError, ValueError, IndexError):
            g.problem = "record %d at byte %d is not valid text" % (i, pos)
            break
        at = end + 4
        pos += ln + _OVERHEAD
        i += 1
    g.size = pos if g.name is not None else 0
    return g


class _Bytes:
    """A read-only file over bytes (io.BytesIO lacks readinto on some ports)."""

    def __init__(self, data):
        self.d = memoryview(data)
        self.p = 0

    def readinto(self, b):
        n = min(len(b), len(self.d) - self.p)
        b[0:n] = self.d[self.p:self.p + n]
        self.p += n
        return n


def parse_game(data, gid=0):
    """A GameRecord from a game file's bytes ``data`` (see read_game); never raises."""
    return read_game(_Bytes(data), gid)


class OsFs:
    """The file-system calls the store uses, over the real ``os`` and ``open``.

    A test replaces it with a fake of the same shape (open, remove, rename,
    listdir, size, mkdir, free).
    """

    def open(self, path, mode):
        return open(path, mode)

    def remove(self, path):
        os.remove(path)

    def rename(self, a, b):
        os.rename(a, b)

    def listdir(self, path):
        return os.listdir(path)

    def ilistdir(self, path):
        """``(name, size)`` of each entry of folder ``path``, one at a time (no list of
        them all: a folder of 200 games costs no more heap than one of 2). OSError if absent."""
        for e in os.ilistdir(path):  # (name, type, inode[, size]); MicroPython only
            yield e[0], e[3] if len(e) > 3 else self.size(path + "/" + e[0])

    def size(self, path):
        """Size of file ``path`` in bytes; OSError if absent."""
        return os.stat(path)[6]

    def mkdir(self, path):
        os.mkdir(path)

    def free(self, path):
        """Free bytes on the file system holding ``path`` (os.statvfs), or None if unknown."""
        try:
            s = os.statvfs(path)
            return s[0] * s[4]
        except (AttributeError, OSError):
            return None


def _read_file(fs, path):
    try:
        f = fs.open(path, "rb")
    except OSError:
        return None
    try:
        return f.read()
    finally:
        f.close()


def _game_id(name, kind="g"):
    """File name ``g<id>.rec`` (``kind`` "g": not yet synced) or ``s<id>.rec`` ("s":
    synced, kept until the flash needs its room) -> id (int), or None."""
    if len(name) > 5 and name[0] == kind and name[-4:] == ".rec":
        d = name[1:-4]
        if d.isdigit():
            return int(d)
    return None


class Store:
    """The games and settings kept in folder ``root`` of the board's flash.

    A game is ``g<id>.rec`` until the host has it (``ack``), then ``s<id>.rec``
    (synced): kept as long as the flash has room. ``budget``: most bytes that game
    files may take together (None: no cap); ``reserve``: bytes to keep free on the
    file system (checked with ``os.statvfs`` when a game starts and every 16
    moves). When either is short, the oldest synced games are dropped, their ids
    appended to ``dropped`` (the last 16) and a line to ``report``; a game not yet
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
    returns False and sets ``error``; bad arguments raise StoreError.
    """

    def __init__(self, root="/games", budget=None, reserve=8192, fs=None, uid=None, date=-1):
        self.root = root
        self._date = today if date == -1 else date
        self.fs = fs if fs is not None else OsFs()
        self.budget = budget
        self.reserve = reserve
        self._uid = uid
        self.report = []
        self.dropped = []
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
        self._buf = bytearray(READ_BUF)
        self._next_id = 1
        self._sized = (0, 0)  # (id, valid bytes) of the game last sized (the link's fetch)
        self._resume = None
        self._scan()

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

    def _read_small(self, name, rtype):
        """Records of type ``rtype`` from file ``name`` (or its .tmp if the file is bad)."""
        for n in (name, name + ".tmp"):
            data = _read_file(self.fs, self._path(n))
            if data is None:
                continue
            recs, good, problem = decode_records(data, bytes((rtype, _T_CLOSE)))
            if problem is None and recs and recs[-1] == (_T_CLOSE, str(len(recs) - 1).encode()):
                recs.pop()
                return [p for t, p in recs]
            self._note("%s: %s" % (n, problem or "incomplete"))
        return None

    # ---- start-up --------------------------------------------------------------

    def _scan(self):
        # Make the folder (a new board), or fail to (EEXIST): either way a write call
        # first, which makes littlefs finish what a power cut left half done (a rename's
        # pending move): before it, a file can be listed and yet not open (ENOENT).
        try:
            self.fs.mkdir(self.root)
        except OSError:
            pass
        # one pass over the folder: counts, sizes, the newest ids; odd files noted
        top = 0  # the newest game not yet synced
        top_any = 0  # the newest id of any game (the counter never goes back)
        odd = None  # temporary files left by a cut (few: kept in a list)
        seen = False
        try:
            for n, size in self.fs.ilistdir(self.root):
                seen = True  # (a folder that cannot be read: no games, ``error`` says why)
                gid = _game_id(n)
                if gid is not None:
                    self.count += 1
                    self._used += size
                    if gid > top:
                        top = gid
                else:
                    gid = _game_id(n, "s")
                    if gid is not None:
                        self.synced += 1
                        self._used += size
                    elif n.endswith(".rec.new") or n.endswith(".rec.tmp"):
                        if odd is None:
                            odd = []
                        odd.append(n)
                if gid is not None and gid > top_any:
                    top_any = gid
        except OSError as e:
            self.error = "reading %s: %r" % (self.root, e)
            if not seen:
                return
        if odd:
            for n in odd:
                gid = self._tidy(n)
                top = max(top, gid)
                top_any = max(top_any, gid)
        counter = self._read_small("next", _T_COUNTER)
        nxt = 1
        if counter:
            try:
                nxt = int(counter[0].decode())
            except ValueError:
                nxt = 1
        self._next_id = max(nxt, top_any + 1)
        # Only the newest game is read now (it may be the one to resume)
        unfinished = None
        while top:
            rec = self._read_game(top, True)
            if rec.name is not None:
                if rec.problem:
                    self._note("g%d.rec: %s" % (rec.id, rec.problem))
                if not rec.finished:
                    unfinished = rec
                break
            self._remove_bad(rec)
            top = self._find("g", top)
        self._resume = unfinished
        self._make_room(0)  # (sets ``low``; drops synced games if the flash is short)
        if unfinished is not None:
            self.current = unfinished.id
            self._cur_size = unfinished.size
            self._moves = unfinished.plies
            self._dirty = unfinished.problem is not None

    def _tidy(self, n):
        """Deal with temporary file ``n`` left by a cut; the game id it gave back or 0."""
        if n.endswith(".rec.new"):
            # a new game's header cut short, or not yet renamed: the game never began
            self._remove_tmp(n, "new game never begun")
            return 0
        base = n[:-4]
        if self._exists(base):  # a repair cut short: the .rec is intact
            self._remove_tmp(n, "left-over temporary file")
            return 0
        gid = _game_id(base)
        if gid is None:
            return 0
        # the .rec was removed to put this whole copy in its place (a file system whose
        # rename will not replace): finish the job
        try:
            self.fs.rename(self._path(n), self._path(base))
            size = self.fs.size(self._path(base))
        except OSError:
            return 0
        self.count += 1
        self._used += size
        self._note("%s: put in place of %s" % (n, base))
        return gid

    def _exists(self, name):
        try:
            self.fs.size(self._path(name))
            return True
        except OSError:
            return False

    def _find(self, kind, below=0):
        """One pass over the folder: the largest id under ``below`` of a ``kind`` game
        file, or with ``below`` 0 the smallest id and its size as ``(id, size)``; 0 /
        ``(0, 0)`` if none."""
        best = 0
        bsize = 0
        try:
            for n, size in self.fs.ilistdir(self.root):
                gid = _game_id(n, kind)
                if gid is not None and ((best < gid < below) if below else (not best or gid < best)):
                    best = gid
                    bsize = size
        except OSError:
            pass
        return best if below else (best, bsize)

    def _remove_tmp(self, n, why):
        try:
            self.fs.remove(self._path(n))
        except OSError:
            pass
        self._note("%s: %s, removed" % (n, why))

    def _remove_bad(self, rec):
        self._note("g%d.rec: no valid header (%s); removed" % (rec.id, rec.problem))
        try:
            size = self.fs.size(self._gpath(rec.id))
            self.fs.remove(self._gpath(rec.id))
            self.count -= 1
            self._used -= size
        except OSError:
            pass

    def _read_game(self, gid, moves, kind="g"):
        """Game ``gid`` read from flash record by record (GameRecord; name None if unreadable)."""
        try:
            f = self.fs.open(self._path("%s%d.rec" % (kind, gid)), "rb")
        except OSError:
            return GameRecord(gid)
        try:
            return read_game(f, gid, moves, self._buf)
        finally:
            f.close()

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

    def _make_room(self, need):
        """Drop the oldest synced games while space is short; False if still short
        (the games not yet synced are never dropped). Sets ``low``."""
        while True:
            left = self._left()
            if left is None or left >= need:
                break
            gid, size = self._find("s")
            if not gid:
                self.low = True
                return False
            try:
                self.fs.remove(self._path("s%d.rec" % gid))
            except OSError:
                self.low = True
                return False
            self.synced -= 1
            self._used -= size
            if len(self.dropped) >= 16:
                del self.dropped[0]
            self.dropped.append(gid)
            self._note("s%d.rec: dropped (flash short; it was synced)" % gid)
        self.low = left is not None and left - need < self.reserve and not self.synced
        return True

    # ---- recording -------------------------------------------------------------

    def new_game(self, name, tags=None, fen=None):
        """Start recording a new game; return its id (int), or None if flash failed.

        ``name``: game name (e.g. "toguz"); ``tags``: dict str -> str (e.g. White,
        Black, Mode, Level); ``fen``: set-up position text or None. An unfinished
        game still open is finished as ``*`` / abandoned first. A ``Date`` tag
        (YYYY.MM.DD) is added when the clock is set (a year from 2024 on; the PC
        sets the board's clock when it connects). The header and tags are
        written to a temporary file and renamed, so the game appears whole or
        not at all.
        """
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
        self._make_room(len(data) + 512)
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
        return gid

    def _repair(self):
        """Rewrite the current game file to its valid prefix (temp file + rename)."""
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
                        k = _readn(src, mv, 0, min(left, len(mv)))
                        if k == 0:
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
        ``termination`` (str or None). It is then kept until acknowledged."""
        ok = self._append(_T_END, result + "\x00" + (termination or ""))
        self._close_file()
        if ok:
            self.current = None
        return ok

    def close(self):
        """Close the open file (the game stays unfinished and resumes next time)."""
        self._close_file()

    # ---- reading and acknowledging (the link) ----------------------------------

    def games(self, frm=0, limit=None):
        """``(id, name, size, finished, result)`` of the games not yet synced with an id
        from ``frm`` on, oldest first, at most ``limit`` (None: all). Streamed: one
        pass over the folder keeps the ``limit`` smallest ids, then reads each of those
        games; a game with no valid header is removed (and left out)."""
        ids = []
        try:
            for n, size in self.fs.ilistdir(self.root):
                gid = _game_id(n)
                if gid is not None and gid >= frm:
                    ids.append(gid)
                    if limit is not None and len(ids) > 2 * limit:
                        ids.sort()
                        del ids[limit:]  # (the list stays short however many games)
        except OSError:
            pass
        ids.sort()
        out = []
        for gid in ids[:limit]:
            rec = self._read_game(gid, False)
            if gid == self.current:
                out.append((gid, rec.name, self._cur_size, False, RESULT_UNFINISHED))
            elif rec.name is None:
                if self._exists("g%d.rec" % gid):
                    self._remove_bad(rec)
            else:
                if not rec.finished:
                    # an older game that never ended (a cut while the next one started):
                    # kept, as finished with result "*"
                    self._note("g%d.rec: unfinished older game kept as abandoned" % gid)
                out.append((gid, rec.name, rec.size, True, rec.result))
        return out

    def size(self, gid):
        """Valid bytes of game ``gid`` (not yet synced); StoreError if unknown."""
        if gid == self.current:
            return self._cur_size
        if self._sized[0] == gid:
            return self._sized[1]
        rec = self._read_game(gid, False)
        if rec.name is None:
            raise StoreError("no game %d" % gid)
        self._sized = (gid, rec.size)
        return rec.size

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
        f = self.fs.open(self._gpath(gid), "rb")
        try:
            f.seek(offset)
            mv = memoryview(buf)
            got = 0
            while got < n:
                k = f.readinto(mv[got:n])
                if not k:
                    break
                got += k
            return got
        finally:
            f.close()

    def read(self, gid):
        """The whole game ``gid`` as a GameRecord with its moves (allocates them)."""
        self.size(gid)
        return self._read_game(gid, True)

    def ack(self, gid):
        """The host has stored game ``gid``: it becomes synced (``s<id>.rec``, kept
        until the flash needs its room). True if done or already synced or gone;
        StoreError for the game being recorded (it is not finished)."""
        if gid == self.current:
            raise StoreError("game %d is still being played" % gid)
        if not self._exists("g%d.rec" % gid):
            return True
        try:
            self.fs.rename(self._gpath(gid), self._path("s%d.rec" % gid))
        except OSError as ex:
            self._fail("marking g%d.rec synced" % gid, ex)
            return False
        self.count -= 1
        self.synced += 1
        if self._sized[0] == gid:
            self._sized = (0, 0)
        return True

    # ---- settings --------------------------------------------------------------

    def load_settings(self, defaults=None):
        """Settings dict: ``defaults`` (dict) updated with the values saved on flash.

        Values are ints, bools, strs or None (JSON). A bad or missing file gives the
        defaults (and a line in ``report``)."""
        import json

        out = dict(defaults) if defaults else {}
        recs = self._read_small("settings", _T_SETTING)
        if recs:
            for p in recs:
                try:
                    k, v = p.split(b"\x00", 1)
                    out[k.decode()] = json.loads(v)
                except (ValueError, IndexError):
                    self._note("settings: unreadable entry skipped")
        return out

    def save_settings(self, settings):
        """Write ``settings`` (dict str -> int/bool/str/None) safely; True once on flash.
        StoreError for an entry longer than one record."""
        import json

        parts = []
        for k in settings:
            parts.append(encode_record(_T_SETTING, k + "\x00" + json.dumps(settings[k])))
        return self._write_small("settings", parts)


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
