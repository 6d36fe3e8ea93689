"""Plies arriving together (Tobit): cold code, imported by ``TobitTracker._on_settled``
only when a board nothing explains has stood ``settle_ms`` (or, after such boards, a
board on the way to a move), and unloaded after (docs/tracker.md "Timing").

A move and its reply together: the reply begun before the move stood ``settle_ms``
(or, for the engine's move, made with it). The board then shows the move's result with
the reply's piece lifted or moved, which the position does not explain: read against
the position after the move it is explained, and the move is committed.

Three plies or more: the next ply begun before the reply stood ``settle_ms``. The
tracker keeps the boards it sees from the first one nothing explains after the board
showed exactly one legal move (``_hist``: a ring of snapshots, 4 ints each: occupancy
lo, hi, White lo, hi; ``_nh`` written so far). Matched against the position after the
move, the newest of them that shows exactly one legal move there (not the takeback) is
the reply, made in full before the next ply began: the move is committed and the reply
tried on the board at the next frame (one commit a frame: the app records each by the
game's last move).
"""
from array import array

from playboard.compat import const
from playboard.board.tracker import EV_COMMITTED, EV_RESOLVED
from playboard.board.tobit_tracker_native import _match

_MASK = const(0x3FFFFFFF)
_S_PENDING = const(1)  # (tobit_tracker's states)
_S_PARTIAL = const(2)
_S_UNEXPLAINED = const(3)


def settled(tr, now_ms):
    """TobitTracker ``tr``'s board has stood (state partial or unexplained, a move
    shown or expected): True if that is handled here (a move committed, or pieces only
    lifted: a player thinking), False if correction follows."""
    cur = tr._cur
    st = tr.state
    only = st == _S_PARTIAL and not ((cur[0] & (cur[4] ^ _MASK)) | (cur[1] & (cur[5] ^ _MASK)))
    strict = st != _S_UNEXPLAINED
    if ((now_ms - tr._t_change) & _MASK) < tr.settle_ms:
        # the first board after the move shown (a slide's stop: once it stood
        # settle_ms) that nothing explains: tried at once, committed only if the
        # board is the position after the move with pieces lifted (the next ply's
        # first lift; not a piece put down: noise); else tried again once it has
        # stood settle_ms
        if both(tr, now_ms, False, True) or (proven(tr) and both(tr, now_ms, False, 2)):
            return True
        tr._wait = tr.settle_ms
        return True
    if tr._expect >= 0:
        return both(tr, now_ms, strict) or only
    s0 = tr._seen
    if s0 >= 0 and both(tr, now_ms, strict):
        return True
    tried = -2 - s0 if s0 <= -2 else -1  # a move shown, its trial failed (below)
    # no move shown alone (or not the one shown last: a slide's stop): its last
    # change and the next ply's first lift came in one scan (a kept board shows the
    # move made, pieces lifted), or the next ply took its piece before the board saw
    # it standing (a kept board shows the next ply made after it)
    h = tr._hist
    kept = (tr._nh, h[:]) if h is not None else None
    i = landed_kept(tr)
    if i < 0 or i == s0:
        i = pair(tr)
    if i >= 0 and i != s0:
        tr._seen = i
        if both(tr, now_ms, strict):
            return True
    tr._seen = s0
    if i < 0 and tried >= 0:
        # the move shown, whose trial failed on a board on the way (its piece lifted
        # again: in hand, or taken by the next ply), tried again on a later board: the
        # next ply then shows (corpus tobit4 two 101000489: 9-8 shown 220 ms, 8 then
        # taken by 24:6:10; the board that showed 9-8 was read for the ply before)
        tr._seen = tried
        if both(tr, now_ms, strict):
            return True
        tr._seen = s0
    if kept is not None:
        # the boards dropped for a trial that failed are kept again (a piece put on a
        # wrong point, then the move shown with the next ply's first lift: the landed
        # board dropped, no later board told the move; corpus tobit two 102000888)
        tr._nh = kept[0]
        h[:] = kept[1]
    if i == -3 and ((now_ms - tr._t_change) & _MASK) < tr.correction_ms:
        # the next ply on its way after a move no board showed (its piece down on
        # a turning point): correction only after correction_ms, as for one move
        tr._wait = tr.correction_ms
        if s0 >= 0:
            tr._seen = -2 - s0  # (tried: a board exact for another move may replace it
            # (the tracker reads any _seen < 0 as none), else it is tried again; the
            # boards kept; corpus tobit4 two 102000428: 3-8's slide stop, the piece on a
            # wrong point, then on 14, 3-14 made with the next ply begun at once)
        return True
    if s0 >= 0:
        tr._nh = 0  # (tried: not again for the same boards; a board exact for
        # another move may then replace the one shown, a slide's stop)
    # (else the boards stay kept: with the next ones they may show the move)
    return only


def both(tr, now_ms, strict=False, lifted=False):
    """Is the board the move the tracker has (the engine's, expected; else the one
    legal move whose occupancy the board showed here) and its reply? Then the move is
    committed and the board read against the position after it: True. Else all is as
    it was: False. Three plies or more: the position after the move explains the board
    neither, but a kept board showed its reply in full: the move is committed, the
    reply tried at the next frame. ``strict`` (a board on the way to a move here, come
    after boards nothing explained): only an exact board after the move, or a reply
    kept, commits it (a ply that takes the reply's piece and lands on the move's start
    point leaves a board like the move's piece in hand). ``lifted``: only a board
    after the move with pieces lifted (none put down) commits it; 2: only a board
    exact for one legal move after it (the next ply made in full: ``proven``)."""
    e = tr._expect
    h = tr._hint
    i = e if e >= 0 else tr._seen
    m = tr._moves[i]
    g = tr.game
    was = tr.correcting
    tr.correcting = False  # (the trial emits nothing)
    g.push(m)
    tr.new_position()  # classifies the board against the position after m
    st = tr.state
    j = -1
    if lifted == 2:
        # exactly one legal move after m, the takeback not (see proven)
        flags = tr._flags
        n = 0
        for k in range(tr._nm):
            if flags[k] & 2:
                n += 1
        ok = st == _S_PENDING and n == 1 and not flags[tr._nm] & 2
    elif lifted:
        cur = tr._cur
        ok = st == _S_PARTIAL and not ((cur[0] & (cur[4] ^ _MASK)) | (cur[1] & (cur[5] ^ _MASK)))
    else:
        if e < 0 and tr._nh:
            j = next_seen(tr)
        if j < 0 and e < 0 and st == _S_UNEXPLAINED:
            j = pair(tr)
        ok = j >= 0 or st < _S_PARTIAL or (st == _S_PARTIAL and not strict and begun(tr))
    if ok:
        tr.move = m
        tr._emit(EV_COMMITTED, g.ply & 0xFF)
        if j >= 0 and st >= _S_PARTIAL:
            tr._seen = j  # the reply, as if shown in this position:
            tr._wait = 1  # tried on the board at the next frame
            tr.correcting = was
        elif was:
            tr._emit(EV_RESOLVED, 0)
        return True
    g.pop()
    tr.new_position()
    if e >= 0:
        tr.expect(m, now_ms)
    else:
        tr._hint = h
        tr._seen = i  # (the move list is made again in the same order)
        tr._classify(now_ms)
    tr._wait = 0  # (the correction that follows is the settled state's)
    tr.correcting = was
    return False


def proven(tr):
    """May the board (``tr._cur``: nothing explains it here, a move shown, none
    expected) be tried at once as that move and the next ply made in full, before it
    has stood ``settle_ms``? Only if no single sensor off its value (a bump: a hand
    brushing a point, 100-300 ms) makes it a legal move of this position, made or on
    its way (the mover's ply going on: a slide past its stop, a capture, its piece on a
    wrong point), nor the takeback: then the mover's ply has ended, for the board
    shows another piece moved (docs/tracker.md "Timing"). True/False; the board is
    read again after. Cost: one match per point (two for an empty point with
    ``colour``); nothing allocated (the board kept in four small ints, each bumped
    board made in the snapshot itself: bench/mp_tracker.py)."""
    if tr._seen < 0 or tr._expect >= 0 or tr.state != _S_UNEXPLAINED:
        return False
    cur = tr._cur
    k0 = cur[0]  # the board kept (occupancy lo, hi, White lo, hi)
    k1 = cur[1]
    k2 = cur[2]
    k3 = cur[3]
    nm = tr._nm
    flags = tr._flags
    ok = True
    for p in range(1, tr.n_points + 1):
        w = 0 if p < 30 else 1
        bit = 1 << (p - 1 if p < 30 else p - 30)
        up = (k1 if w else k0) & bit
        for c in range(2 if tr.colour and not up else 1):
            cur[0] = k0
            cur[1] = k1
            cur[2] = k2
            cur[3] = k3
            if up:
                cur[w] &= bit ^ _MASK  # lifted by the bump
                cur[2 + w] &= bit ^ _MASK
            else:
                cur[w] |= bit  # put down by the bump (c: a White piece)
                if c:
                    cur[2 + w] |= bit
            if _load(tr, -1, cur) & 0xFFFF or flags[nm] & 3:
                ok = False
                break
        if not ok:
            break
    cur[0] = k0
    cur[1] = k1
    cur[2] = k2
    cur[3] = k3
    _load(tr, -1, cur)
    return ok


def begun(tr):
    """Is the board (``tr._cur``, partial) a move of this position under way: pieces
    only lifted, or a piece put down with the start point of a move it is on the way
    to empty? A piece on a path point while that move's piece still stands on its
    start came from elsewhere: the last move's piece put on a wrong point first
    (corpus tobit4 two 102000428: 3-8's slide over 8 then 7, a wrong point, read as
    3-8 made and White's 9:7 begun, its captured piece off first)."""
    cur = tr._cur
    if not ((cur[0] & (cur[4] ^ _MASK)) | (cur[1] & (cur[5] ^ _MASK))):
        return True
    flags = tr._flags
    for i in range(tr._nm):
        if flags[i] & 0x81 == 1:
            s = tr._from[i]
            if not ((cur[0] >> (s - 1)) & 1 if s < 30 else (cur[1] >> (s - 30)) & 1):
                return True
    return False


def next_seen(tr):
    """The index in ``tr._moves`` (the position after the move being tried, its
    records made) of the one legal move whose occupancy a kept board showed, the
    newest such board, or a newer one that showed a move with pieces lifted
    (``landed_kept``: a slide's stop shown, then its end with the next ply's first
    lift); -1 if none. The boards up to that one are dropped (the next ply's are
    newer). ``tr``'s match flags are left as for the board."""
    keep = tr._cur[0:4]
    h = tr._hist
    size = len(h) // 4
    n = tr._nh
    nm = tr._nm
    flags = tr._flags
    found = -1
    k = n - 1
    while k >= 0 and k >= n - size:
        r = _load(tr, k)
        if r & 0xFF == 1 and not flags[nm] & 2:
            for i in range(nm):
                if flags[i] & 2:
                    found = i
            break
        k -= 1
    _load(tr, -1, keep)
    i = landed_kept(tr, k + 1 if found >= 0 else 0)
    if i >= 0:
        return i
    if found >= 0:
        _drop(tr, k)
    return found


def _load(tr, k, keep=None):
    """Put kept board ``k`` (or ``keep``, the board itself kept aside) in the snapshot
    and match it; returns ``_match``'s answer."""
    cur = tr._cur
    if keep is None:
        h = tr._hist
        o = (k % (len(h) // 4)) * 4
        keep = h[o:o + 4]
    for j in range(4):
        cur[j] = keep[j]
    iso = tr._iso
    if iso:  # an isolated point reads as the game says (as in _snap): a board kept
        # before it was isolated holds its flips (corpus tobit two 102001044)
        for j in range(4):
            i = iso[j & 1]
            cur[j] = (cur[j] & (i ^ _MASK)) | (cur[4 + j] & i)
    return _match(tr._rec, tr._nm + 1, cur, tr._flags, tr.colour + tr.colour * tr._turn)


def _drop(tr, k):
    """Keep only the boards newer than kept board ``k``, from slot 0."""
    h = tr._hist
    size = len(h) // 4
    n = tr._nh
    newer = [h[(i % size) * 4 + j] for i in range(k + 1, n) for j in range(4)]
    for j in range(len(newer)):
        h[j] = newer[j]
    tr._nh = len(newer) // 4


def landed(tr, cur):
    """The index of the one legal move (accepted here) whose occupancy the board
    ``cur[0..3]`` shows with pieces lifted: every piece standing is one of the move's
    result, of its colour with ``colour``, and the move's piece stands on its end
    point; -1 if none or several. The move made in full, the next ply begun (its
    first piece lifted) within one scan: no board shows the move alone. A board on
    the way to a move (its end point still empty) or one with a piece on a point no
    move reaches is never such a board."""
    rec = tr._rec
    flags = tr._flags
    ends = tr._end
    lo = cur[0]
    hi = cur[1]
    wlo = cur[2]
    whi = cur[3]
    found = -1
    for i in range(tr._nm):
        o = i * 12
        rlo = rec[o]
        rhi = rec[o + 1]
        e = ends[i]
        if flags[i] & 0x80 or lo & (rlo ^ _MASK) or hi & (rhi ^ _MASK) or not (
                (lo >> (e - 1)) & 1 if e < 30 else (hi >> (e - 30)) & 1):
            continue
        if tr.colour and (wlo & (rec[o + 2] ^ _MASK) or whi & (rec[o + 3] ^ _MASK)
                          or lo & (wlo ^ _MASK) & rec[o + 2] or hi & (whi ^ _MASK) & rec[o + 3]):
            continue
        if found >= 0:
            return -1
        found = i
    return found



def pair(tr):
    """The index of the one legal move (accepted here) after which a kept board (the
    newest first) shows exactly one legal move: the next ply made in full, though no
    board showed the first (the next ply took its piece before the debounce could see
    it standing, or began in the same scan); -1 if none or several; -3 if none, but
    the board is on its way to a legal move after one of them. A board on its way is
    not enough to commit (a piece put on a wrong point first looks like a reply
    begun).
    Tried only for moves whose start and captured points are all empty on a kept
    board; the position is read again after."""
    h = tr._hist
    n = tr._nh
    if not n:
        return -1
    size = len(h) // 4
    rec = tr._rec
    flags = tr._flags
    cands = []
    for i in range(tr._nm):
        if flags[i] & 0x80:
            continue
        mlo = rec[i * 12 + 4]
        mhi = rec[i * 12 + 5]
        iso = tr._iso
        if iso and (mlo & iso[0] or mhi & iso[1]):
            continue  # (an isolated point reads as the game says: its start, a captured piece)
        k = n - 1
        while k >= 0 and k >= n - size:
            o = (k % size) * 4
            if not (h[o] & mlo or h[o + 1] & mhi):
                cands.append(i)
                break
            k -= 1
    if not cands:
        return -1
    moves = tr._moves
    g = tr.game
    hint = tr._hint
    seen = tr._seen
    was = tr.correcting
    tr.correcting = False  # (the trial emits nothing)
    found = -1
    way = 0
    lo = n - size if n > size else 0
    keep = tr._cur[0:4]
    on = []  # by candidate: each kept board on the way to it (here)
    for i in cands:
        b = []
        for k in range(lo, n):
            _load(tr, k)
            b.append(flags[i] & 3)
        on.append(b)
    _load(tr, -1, keep)
    pre = (tr._cur[4], tr._cur[5])
    for c in range(len(cands)):
        i = cands[c]
        g.push(moves[i])
        tr.new_position()
        tr._nh = n
        later = []
        if exact_kept(tr, on[c], pre, later) >= 0:
            if later:  # boards read with a bump or a wrong point left out: on the way
                # to this move (here, before it) too?
                g.pop()
                tr.new_position()
                g.push(moves[i])
                for b in later:
                    _load(tr, -1, b)
                    if not tr._flags[i] & 3:  # (not flags: new_position may grow them)
                        later = None
                        break
                _load(tr, -1, keep)
            if later is not None:
                found = i if found == -1 else -2
        elif tr.state == _S_PARTIAL:
            way = 1
        g.pop()
        if found == -2:
            break
    tr.new_position()
    tr._nh = n
    tr._hint = hint
    tr._seen = seen
    tr._classify(tr._t_change)
    tr._wait = 0  # (tried once: the settled state's outcome follows)
    tr.correcting = was
    return found if found >= 0 else (-3 if way and found == -1 else -1)


def landed_kept(tr, k_min=0):
    """``landed`` on the kept boards from ``k_min`` on, the newest first: the move's
    index, the boards up to that one dropped; -1 if none. Every older kept board must
    be on the way to that move (or show it): the boards after a later ply can look
    like another move made with a piece lifted (16-17, 18:16 take 17 and put 18 on
    16: 18 looks lifted)."""
    n = tr._nh
    size = len(tr._hist) // 4 if n else 0
    lo = n - size if n > size else 0
    if k_min < lo:
        k_min = lo
    flags = tr._flags
    cur = tr._cur
    keep = cur[0:4]
    found = -1
    k = n - 1
    while k >= k_min and found < 0:
        _load(tr, k)
        i = landed(tr, cur)
        if i >= 0:
            found = i
            for x in range(lo, k):
                _load(tr, x)
                if not flags[i] & 3:
                    found = -1
                    break
        k -= 1
    if n:
        _load(tr, -1, keep)
    if found >= 0:
        _drop(tr, k + 1)
    return found


def exact_kept(tr, before, pre=None, later=None):
    """The newest kept board (its number) that shows exactly one legal move of the
    position whose records ``tr`` holds, every older kept board on the way to that
    move or (``before[k]``, by kept board) on the way to the move made before it, or
    -1; the board itself read again after. (A sensor stuck on the last move's start
    point and a piece knocked onto a neighbour point looked like the knock a move and
    the last move made again: the older board, the knock half made, was neither.)
    ``pre`` (occupancy lo, hi of the position before that move) and ``later`` (a list):
    an older board read so is read again with the points neither move touches (the
    same in both positions and in the board found) as the board found has them: a
    bump (a sensor off its value 100-300 ms) or a piece put on a wrong point and moved
    again, come and gone among plies together (corpus tobit two 102000790, 102000930);
    on the way to that move so, or else appended to ``later`` (its 4 ints) for the
    caller to read on the way to the move before."""
    keep = tr._cur[0:4]
    n = tr._nh
    size = len(tr._hist) // 4
    lo = n - size if n > size else 0
    flags = tr._flags
    nm = tr._nm
    cur = tr._cur
    k = n - 1
    found = -1
    while k >= lo and found < 0:
        r = _load(tr, k)
        if r & 0xFF == 1 and not flags[nm] & 2:
            i = (r >> 16) - 1  # (the first exact record: the only one)
            found = k
            if later is not None:
                del later[:]
                kb = cur[0:4]
                m0 = ((pre[0] ^ cur[4]) | (cur[4] ^ kb[0])) ^ _MASK
                m1 = ((pre[1] ^ cur[5]) | (cur[5] ^ kb[1])) ^ _MASK
            for x in range(lo, k):
                _load(tr, x)
                if flags[i] & 3 or before[x - lo]:
                    continue
                if later is not None:
                    b = cur[0:4]
                    for j in range(4):
                        mk = m0 if j & 1 == 0 else m1
                        b[j] = (b[j] & (mk ^ _MASK)) | (kb[j] & mk)
                    if b[0] != cur[0] or b[1] != cur[1] or b[2] != cur[2] or b[3] != cur[3]:
                        _load(tr, -1, b)
                        if flags[i] & 3:
                            continue
                        later.append(b)
                        continue
                found = -1
                break
        k -= 1
    _load(tr, -1, keep)
    return found
