"""The names of the tracker's events, roles and modes (``playboard.board.tracker``'s
EV_*, R_* and M_* numbers), for the tests and the host tools. Apart from tracker.py
so that a board never holds them (on the unix port their strings were 1-2 KB of heap),
and the trackers' read-outs for tests and tools (their code is not in a board's heap).
"""

EVENT_NAMES = ("", "lifted", "placed", "committed", "takeback", "correction", "resolved",
               "ambiguous", "setup-done", "selected", "error", "confirmed")
ROLE_NAMES = ("", "target", "selected", "path", "remove", "candidate", "missing", "extra",
              "wrong-colour", "engine-from", "engine-to", "sow", "last", "capture", "tuzdyk",
              "kazan", "error", "last-from", "last-to", "missing-black")
MODE_NAMES = ("idle", "move", "correction", "setup", "engine", "hint", "ambiguous", "choose",
              "sowing", "over")


def cells(req, role):
    """A new list of the cells of LightsRequest ``req`` holding ``role``."""
    r = req.roles
    return [i for i in range(len(r)) if r[i] == role]


def legal_masks(tr):
    """A new list of (move, lo, hi): each legal move's resulting occupancy masks (a
    TobitTracker ``tr``; 12 ints per move record, the first two the occupancy)."""
    rec = tr._rec
    return [(tr._moves[i], rec[i * 12], rec[i * 12 + 1]) for i in range(tr._nm)]


def candidates(tr):
    """A new list of the moves consistent with the board (on the way, or done) of
    TobitTracker ``tr``."""
    return [tr._moves[i] for i in range(tr._nm) if tr._flags[i] & 1]


def deadline(tr):
    """The ``now_ms`` at which TobitTracker ``tr``'s running timer fires (with the
    snapshot unchanged), or -1 when none runs."""
    if not tr._wait:
        return -1
    return (tr._t_change + tr._wait) & 0x3FFFFFFF
