"""The games folder's rare jobs, everything but the write path of play: the power-up
scan (counts, what a power cut left, the game to resume), room made on a full flash
by dropping the oldest synced games, the link's list of games, a game's size, moves
and acknowledgement, and the settings file (``K`` records: key, 0, JSON value,
closed by a ``Z`` record, rewritten whole).

Cold: ``playboard.record.Store`` imports it for one of these jobs and drops it after
(``playboard.compat.unload``); every function takes the store ``st`` and works on its
fields. (One module rather than one per job: each module also costs the heap a few
names for good, and these are seldom needed together with play.)
"""
import json

from playboard.compat import const
from playboard.record.codec import RESULT_UNFINISHED, StoreError, encode_record
from playboard.record.read import exists, game_id, read_game_file, read_small

_T_COUNTER = const(0x4E)  # "N" (the record types: playboard.record)
_T_SETTING = const(0x4B)  # "K"


# ---- power-up --------------------------------------------------------------------------

def scan(st):
    """Open store ``st``'s folder: count the games, tidy what a cut left, read the
    id counter and the newest game (the one to resume, kept in ``st._resume``), make
    room if the flash is short. Notes what was wrong in ``st.report``."""
    # Make the folder (a new board), or fail to (EEXIST): either way a write call
    # first, which makes littlefs finish what a power cut left half done (a rename's
    # pending move): before it, a file can be listed and yet not open (ENOENT).
    try:
        st.fs.mkdir(st.root)
    except OSError:
        pass
    live = 0  # the game in play going on in the journal as it is (``Journal.go_on``)
    if st.journal is not None:
        try:
            live = st.journal.go_on(st)
        except OSError:
            live = 0
        if not live:
            # what a game's file lacks of the journal goes into it first (the file then
            # holds the whole game, read below), and the journal is erased for the next
            st.journal.settle(st)
    # one pass over the folder: counts, sizes, the newest ids; odd files noted
    top = 0  # the newest game not yet synced
    top_any = 0  # the newest id of any game (the counter never goes back)
    odd = None  # temporary files left by a cut (few: kept in a list)
    seen = False
    try:
        for n, size in st.fs.ilistdir(st.root):
            seen = True  # (a folder that cannot be read: no games, ``error`` says why)
            gid = game_id(n)
            if gid is not None:
                st.count += 1
                st._used += size
                if gid > top:
                    top = gid
            else:
                gid = game_id(n, "s")
                if gid is not None:
                    st.synced += 1
                    st._used += size
                elif n.endswith(".rec.new") or n.endswith(".rec.tmp"):
                    if odd is None:
                        odd = []
                    odd.append(n)
            if gid is not None and gid > top_any:
                top_any = gid
    except OSError as e:
        st.error = "reading %s: %r" % (st.root, e)
        if not seen:
            return
    if live:  # (its records in the journal; a game begun there has no file yet)
        j = st.journal
        if j.new:
            st.count += 1
        st._used += j.pos - j.first
        top = max(top, live)
        top_any = max(top_any, live)
    if odd:
        for n in odd:
            gid = _tidy(st, n)
            top = max(top, gid)
            top_any = max(top_any, gid)
    counter = read_small(st, "next", _T_COUNTER)
    nxt = 1
    if counter:
        try:
            nxt = int(counter[0].decode())
        except ValueError:
            nxt = 1
    st._next_id = max(nxt, top_any + 1)
    # Only the newest game is read now (it may be the one to resume)
    unfinished = None
    while top:
        rec = read_game_file(st, top, True)
        if rec.name is not None:
            if rec.problem:
                st._note("g%d.rec: %s" % (rec.id, rec.problem))
            if not rec.finished:
                unfinished = rec
            break
        remove_bad(st, rec)
        top = _find(st, "g", top)
    if live and (unfinished is None or unfinished.id != live):
        # (not the game to resume after all: folded into its file and erased, as before)
        st.journal.pos = 0
        st.current = None
        st.journal.settle(st)
    st._resume = unfinished
    _make_room(st, 0)  # (sets ``low``; drops synced games if the flash is short)
    if unfinished is not None:
        st.current = unfinished.id
        st._cur_size = unfinished.size
        st._moves = unfinished.plies
        st._dirty = unfinished.problem is not None
        j = st.journal
        if j is not None and not j.bad and not j.pos:  # (``pos``: it goes on there)
            j.start(st)


def _tidy(st, n):
    """Deal with temporary file ``n`` left by a cut; the game id it gave back or 0."""
    if n.endswith(".rec.new"):
        # a new game's header cut short, or not yet renamed: the game never began
        _remove_tmp(st, n, "new game never begun")
        return 0
    base = n[:-4]
    if exists(st, base):  # a repair cut short: the .rec is intact
        _remove_tmp(st, n, "left-over temporary file")
        return 0
    gid = game_id(base)
    if gid is None:
        return 0
    # the .rec was removed to put this whole copy in its place (a file system whose
    # rename will not replace): finish the job
    try:
        st.fs.rename(st._path(n), st._path(base))
        size = st.fs.size(st._path(base))
    except OSError:
        return 0
    st.count += 1
    st._used += size
    st._note("%s: put in place of %s" % (n, base))
    return gid


def _find(st, kind, below=0):
    """One pass over the folder: the largest id under ``below`` of a ``kind`` game
    file, or with ``below`` 0 the smallest id and its size as ``(id, size)``; 0 /
    ``(0, 0)`` if none."""
    best = 0
    bsize = 0
    try:
        for n, size in st.fs.ilistdir(st.root):
            gid = game_id(n, kind)
            if gid is not None and ((best < gid < below) if below else (not best or gid < best)):
                best = gid
                bsize = size
    except OSError:
        pass
    return best if below else (best, bsize)


def _remove_tmp(st, n, why):
    try:
        st.fs.remove(st._path(n))
    except OSError:
        pass
    st._note("%s: %s, removed" % (n, why))


def remove_bad(st, rec):
    """Remove game file ``rec.id`` (a GameRecord with no valid header) and note it."""
    st._note("g%d.rec: no valid header (%s); removed" % (rec.id, rec.problem))
    try:
        size = st.fs.size(st._gpath(rec.id))
        st.fs.remove(st._gpath(rec.id))
        st.count -= 1
        st._used -= size
    except OSError:
        pass


def _make_room(st, need):
    """Drop the oldest synced games while space is short of ``need`` bytes; False if
    still short (the games not yet synced are never dropped). Sets ``st.low``."""
    while True:
        left = st._left()
        if left is None or left >= need:
            break
        gid, size = _find(st, "s")
        if not gid:
            st.low = True
            return False
        _keep_counter(st)
        try:
            st.fs.remove(st._path("s%d.rec" % gid))
        except OSError:
            st.low = True
            return False
        st.synced -= 1
        st._used -= size
        if len(st.dropped) >= 16:
            del st.dropped[0]
        st.dropped.append(gid)
        st.n_dropped += 1
        # (no line in ``report``: dropping a synced game is the flash's housekeeping,
        # not a problem; 32 such lines held about 4 KB of heap on a board whose flash
        # had filled: the museum soak's heap grew by that much once it did)
    st.low = left is not None and left - need < st.reserve and not st.synced
    return True


def _keep_counter(st):
    """Before a synced game is dropped, on FAT (the journal's ``fat``: CircuitPython's
    drive, where a game's fold writes no id counter, ``Journal._write_new``): the
    counter ``next`` written as ``st._next_id`` unless it says that much already, so
    no id is given twice once the newest games are gone (the power-up scan takes the
    newest id on the drive otherwise). Elsewhere the fold writes it: nothing done. A
    failure is let be (the drop goes on: room matters more than an id given again to
    a game the host already has under its uid)."""
    j = st.journal
    if j is None or not j.fat:
        return
    c = read_small(st, "next", _T_COUNTER)
    try:
        if c and int(c[0].decode()) >= st._next_id:
            return
    except ValueError:
        pass
    st._write_small("next", [encode_record(_T_COUNTER, str(st._next_id))])


def clear_synced(st):
    """Remove every synced game file (``s<id>.rec``) of store ``st``: the staff menu's
    "clear synced games". Games not yet synced are never touched. Returns how many
    were removed (a file that will not go stays, counted in ``synced``)."""
    n = 0
    while True:
        gid, size = _find(st, "s")
        if not gid:
            break
        _keep_counter(st)
        try:
            st.fs.remove(st._path("s%d.rec" % gid))
        except OSError as e:
            st._fail("clearing s%d.rec" % gid, e)
            break
        st.synced -= 1
        st._used -= size
        n += 1
    return n


# ---- the link ---------------------------------------------------------------------------

def games(st, frm=0, limit=None):
    """``(id, name, size, finished, result)`` of store ``st``'s games not yet synced
    with an id from ``frm`` on, oldest first, at most ``limit`` (None: all). Streamed:
    one pass over the folder keeps the ``limit`` smallest ids, then reads each of those
    games; a game with no valid header is removed (and left out)."""
    ids = []
    try:
        for n, size in st.fs.ilistdir(st.root):
            gid = game_id(n)
            if gid is not None and gid >= frm:
                ids.append(gid)
                if limit is not None and len(ids) > 2 * limit:
                    ids.sort()
                    del ids[limit:]  # (the list stays short however many games)
    except OSError:
        pass
    c = st.current
    if c is not None and c >= frm and c not in ids:
        ids.append(c)  # (a game begun in the journal: no file yet)
    ids.sort()
    out = []
    for gid in ids[:limit]:
        rec = read_game_file(st, gid, False)
        if gid == st.current:
            out.append((gid, rec.name, st._cur_size, False, RESULT_UNFINISHED))
        elif rec.name is None:
            if exists(st, "g%d.rec" % gid):
                remove_bad(st, rec)
        else:
            if not rec.finished:
                # an older game that never ended (a cut while the next one started):
                # kept, as finished with result "*"
                st._note("g%d.rec: unfinished older game kept as abandoned" % gid)
            out.append((gid, rec.name, rec.size, True, rec.result))
    return out


def size(st, gid):
    """Valid bytes of game ``gid`` (not yet synced), read from flash and kept in
    ``st._sized``; StoreError if unknown."""
    rec = read_game_file(st, gid, False)
    if rec.name is None:
        raise StoreError("no game %d" % gid)
    st._sized = (gid, rec.size)
    return rec.size


def read(st, gid):
    """The whole game ``gid`` of store ``st`` as a GameRecord with its moves (allocates
    them); StoreError if unknown."""
    if gid != st.current and st._sized[0] != gid:
        size(st, gid)
    return read_game_file(st, gid, True)


def ack(st, gid):
    """The host has stored game ``gid`` of store ``st``: it becomes synced
    (``s<id>.rec``). True if done or already synced or gone; False (``st.error`` says
    why) if flash failed; StoreError for the game being recorded."""
    if gid == st.current:
        raise StoreError("game %d is still being played" % gid)
    if not exists(st, "g%d.rec" % gid):
        return True
    try:
        st.fs.rename(st._gpath(gid), st._path("s%d.rec" % gid))
    except OSError as ex:
        st._fail("marking g%d.rec synced" % gid, ex)
        return False
    st.count -= 1
    st.synced += 1
    if st._sized[0] == gid:
        st._sized = (0, 0)
    return True


# ---- settings ----------------------------------------------------------------------------

def load_settings(st, defaults=None):
    """Settings dict: ``defaults`` (dict) updated with the values saved on flash by
    store ``st``. Values are ints, bools, strs or None (JSON). A bad or missing file
    gives the defaults (and a line in ``st.report``)."""
    out = dict(defaults) if defaults else {}
    recs = read_small(st, "settings", _T_SETTING)
    if recs:
        for p in recs:
            try:
                k, v = p.split(b"\x00", 1)
                out[k.decode()] = json.loads(v)
            except (ValueError, IndexError):
                st._note("settings: unreadable entry skipped")
    return out


def save_settings(st, settings):
    """Write ``settings`` (dict str -> int/bool/str/None) safely with store ``st``; True
    once on flash. StoreError for an entry longer than one record."""
    parts = []
    for k in settings:
        parts.append(encode_record(_T_SETTING, k + "\x00" + json.dumps(settings[k])))
    return st._write_small("settings", parts)
