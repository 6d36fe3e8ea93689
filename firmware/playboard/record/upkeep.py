"""The games folder's upkeep: the power-up scan, what a power cut left (temporary
files, a bad tail), a game file cut back to its valid records, and room made on a
full flash by dropping the oldest synced games.

Cold: ``playboard.record.Store`` imports it for these rare jobs and drops it after
(``playboard.compat.unload``); every function takes the store ``st`` and works on
its fields.
"""
from playboard.compat import const
from playboard.record.read import game_id, read_game_file, read_small, readn

_T_COUNTER = const(0x4E)  # "N" (the record types: playboard.record)


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
    st._resume = unfinished
    make_room(st, 0)  # (sets ``low``; drops synced games if the flash is short)
    if unfinished is not None:
        st.current = unfinished.id
        st._cur_size = unfinished.size
        st._moves = unfinished.plies
        st._dirty = unfinished.problem is not None


def _tidy(st, n):
    """Deal with temporary file ``n`` left by a cut; the game id it gave back or 0."""
    if n.endswith(".rec.new"):
        # a new game's header cut short, or not yet renamed: the game never began
        _remove_tmp(st, n, "new game never begun")
        return 0
    base = n[:-4]
    if st._exists(base):  # a repair cut short: the .rec is intact
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


def make_room(st, need):
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
        st._note("s%d.rec: dropped (flash short; it was synced)" % gid)
    st.low = left is not None and left - need < st.reserve and not st.synced
    return True


def copy_prefix(st, name, size):
    """Rewrite file ``name`` of store ``st`` to its first ``size`` bytes: copy to
    ``name.tmp``, rename. False (``st.error`` says why) if flash failed."""
    tmp = st._path(name + ".tmp")
    path = st._path(name)
    mv = memoryview(st._buf)
    try:
        src = st.fs.open(path, "rb")
        try:
            dst = st.fs.open(tmp, "wb")
            try:
                left = size
                while left > 0:
                    k = readn(src, mv, 0, min(left, len(mv)))
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
            st.fs.rename(tmp, path)
        except OSError:  # FAT: rename will not replace
            st.fs.remove(path)
            st.fs.rename(tmp, path)
        return True
    except OSError as e:
        st.error = "rewriting %s: %r" % (name, e)
        return False
