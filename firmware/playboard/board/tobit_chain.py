"""Three plies arriving together (Tobit): cold code, imported by
``TobitTracker._both`` only when the position after the move the board showed does not
explain the board either, and unloaded after (docs/tracker.md "Timing").

Two people replying fast: a ply, the reply begun before the ply stood ``settle_ms``,
and the next ply begun before the reply stood it. The tracker keeps the snapshots of
the boards nothing explained since the board last showed exactly one legal move
(``_hist``: a ring of snapshots, 4 ints each: occupancy lo, hi, White lo, hi; ``_nh``
written so far). Matched against the position after that move (its records made by
``new_position``), the newest of them that shows exactly one legal move there (not
the takeback) is the reply, made in full before the next ply began: the tracker
commits the first move and tries the reply on the board at the next frame (one commit
a frame: the app records each by the game's last move).
"""
from playboard.board.tobit_tracker_native import _match


def next_seen(tr):
    """The index in ``tr._moves`` (the position after the move being tried, its
    records made) of the one legal move whose occupancy a kept snapshot showed, the
    newest such snapshot; -1 if none. The snapshots up to that one are dropped (the
    next ply's are newer). ``tr``'s match flags are left as for the board."""
    cur = tr._cur
    keep = (cur[0], cur[1], cur[2], cur[3])
    h = tr._hist
    size = len(h) // 4
    n = tr._nh
    nm = tr._nm
    flags = tr._flags
    col = tr.colour + tr.colour * tr._turn
    found = -1
    k = n - 1
    while k >= 0 and k >= n - size:
        o = (k % size) * 4
        for j in range(4):
            cur[j] = h[o + j]
        r = _match(tr._rec, nm + 1, cur, flags, col)
        if r & 0xFF == 1 and not flags[nm] & 2:
            for i in range(nm):
                if flags[i] & 2:
                    found = i
            break
        k -= 1
    for j in range(4):
        cur[j] = keep[j]
    _match(tr._rec, nm + 1, cur, flags, col)
    if found >= 0:  # keep the snapshots newer than the one used, from slot 0
        newer = [h[(i % size) * 4 + j] for i in range(k + 1, n) for j in range(4)]
        for j in range(len(newer)):
            h[j] = newer[j]
        tr._nh = len(newer) // 4
    return found
