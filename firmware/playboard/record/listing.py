"""The link's view of the games folder: the list of games not yet synced and the
size and moves of one of them.

Cold: ``playboard.record.Store`` imports it when the link lists or opens a game and
drops it after (``playboard.compat.unload``); every function takes the store ``st``.
"""
from playboard.record.codec import RESULT_UNFINISHED, StoreError
from playboard.record.read import game_id, read_game_file


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
    ids.sort()
    out = []
    for gid in ids[:limit]:
        rec = read_game_file(st, gid, False)
        if gid == st.current:
            out.append((gid, rec.name, st._cur_size, False, RESULT_UNFINISHED))
        elif rec.name is None:
            if st._exists("g%d.rec" % gid):
                from playboard.record.upkeep import remove_bad  # (rare: a cut's leftover)

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
