"""Reading records back: a game file record by record (``read_game``), a game's
bytes (``parse_game``, the host's check of a game it fetched), the small files'
records (``decode_records``, ``read_small``) and which game a file name holds.

Cold on the board: the store imports it when it reads (power-up, the link's
listing and fetch, settings) and drops it after (``playboard.compat.unload``).
The record layout is described in ``playboard.record``.
"""
from playboard.compat import const
from playboard.record.codec import GAME_TYPES, READ_BUF, RESULT_UNFINISHED, crc32

_T_HEADER = const(0x47)  # "G" (the record types: playboard.record)
_T_TAG = const(0x54)  # "T"
_T_MOVE = const(0x4D)  # "M"
_T_UNDO = const(0x55)  # "U"
_T_END = const(0x45)  # "E"
_T_CLOSE = const(0x5A)  # "Z"
_MAXPAY = const(255)
_OVERHEAD = const(6)


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
            problem = _take(g, t, i, mv[at + 2:end], moves)
        except (UnicodeError, ValueError, IndexError):
            problem = "record %d at byte %d is not valid text" % (i, pos)
        if problem:
            g.problem = problem
            break
        pos += ln + _OVERHEAD
        if g.finished:
            if have > end + 4 or (not eof and _readn(f, mv, 0, 1)):
                g.problem = "bytes after the end record ignored"
            break
        at = end + 4
        i += 1
    g.size = pos if g.name is not None else 0
    return g


def _take(g, t, i, p, moves):
    """Apply checked record ``i`` of type ``t`` (payload ``p``, a memoryview) to
    GameRecord ``g``; a problem text or None. UnicodeError, ValueError or IndexError
    for a payload that is not the text it should be. (Apart from read_game: each
    function's code is a block of its own in the heap, and smaller blocks fit a
    broken-up heap.)"""
    if t == _T_MOVE and i:
        g.plies += 1
        if moves:
            g.moves.append(bytes(p).decode())
    elif i == 0:
        if t != _T_HEADER:
            return "record 0 is not a header"
        fl = _split0(bytes(p), 2)
        g.name = fl[0]
        g.uid = fl[1] if len(fl) > 1 else ""
        g.fen = fl[2] if len(fl) > 2 and fl[2] else None
    elif t == _T_TAG:
        fl = _split0(bytes(p), 1)
        g.tags[fl[0]] = fl[1] if len(fl) > 1 else ""
    elif t == _T_UNDO:
        if g.plies:
            g.plies -= 1
            if moves:
                g.moves.pop()
    elif t == _T_END:
        fl = _split0(bytes(p), 1)
        g.result = fl[0]
        g.termination = fl[1] if len(fl) > 1 and fl[1] else None
        g.finished = True
    else:
        return "record %d has type 0x%02x in a game" % (i, t)
    return None


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


def exists(st, name):
    """True if file ``name`` of store ``st``'s folder exists."""
    try:
        st.fs.size(st._path(name))
        return True
    except OSError:
        return False


def read_small(st, name, rtype):
    """The payloads (list of bytes) of the ``rtype`` records of small file ``name`` of
    store ``st`` (or of its .tmp copy if the file is bad), or None; a bad copy gets a
    line in ``st.report``."""
    for n in (name, name + ".tmp"):
        try:
            f = st.fs.open(st._path(n), "rb")
        except OSError:
            continue
        try:
            data = f.read()
        finally:
            f.close()
        recs, good, problem = decode_records(data, bytes((rtype, _T_CLOSE)))
        if problem is None and recs and recs[-1] == (_T_CLOSE, str(len(recs) - 1).encode()):
            recs.pop()
            return [p for t, p in recs]
        st._note("%s: %s" % (n, problem or "incomplete"))
    return None


class _InPlay:
    """The game in play read as one file (``Store.read_into``): its file's records and
    the journal's (a game begun in the journal has no file yet)."""

    def __init__(self, st, gid):
        self.st = st
        self.gid = gid
        self.p = 0

    def readinto(self, b):
        n = self.st.read_into(self.gid, self.p, b)
        self.p += n
        return n


def read_game_file(st, gid, moves, kind="g"):
    """Game ``gid`` of store ``st`` read from flash record by record (a GameRecord; its
    ``name`` None if unreadable); ``kind`` "g" (not yet synced) or "s" (synced). The
    game in play is read from its file and the journal."""
    j = st.journal
    if kind == "g" and gid == st.current and j is not None and j.pos:
        try:
            return read_game(_InPlay(st, gid), gid, moves, st._buf)
        except OSError:
            return GameRecord(gid)
    try:
        f = st.fs.open(st._path("%s%d.rec" % (kind, gid)), "rb")
    except OSError:
        return GameRecord(gid)
    try:
        return read_game(f, gid, moves, st._buf)
    finally:
        f.close()


def game_id(name, kind="g"):
    """File name ``g<id>.rec`` (``kind`` "g": not yet synced) or ``s<id>.rec`` ("s":
    synced, kept until the flash needs its room) -> id (int), or None."""
    if len(name) > 5 and name[0] == kind and name[-4:] == ".rec":
        d = name[1:-4]
        if d.isdigit():
            return int(d)
    return None
