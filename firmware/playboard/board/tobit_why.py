"""Why a Tobit board went to correction, in the rules' terms (RULES.md 2.4-2.8): cold
code, imported by the app once when the tracker first reports EV_CORRECTION and
unloaded after (never in the scan loop). The link's ``correction`` event carries the
reason; the host's words (``playboard_host.words.TOBIT_REFUSALS``) say what happened
and what to do, and the board's LEDs show where to put back and what to take off.

Reasons (``why``, small ints; 0: nothing more than "the board differs"):
WHY_TURN the side not to move lifted a piece it may not move (not a piece a
legal capture takes); WHY_CAPTURE a capture is compulsory and the man lifted cannot
make one; WHY_BACK a man put down behind its point; WHY_DEST a man put on a point it
cannot reach; WHY_SLIDE a tobit put on a point its slides and jumps never end on;
WHY_STUCK a piece lifted that has no legal move; WHY_ENGINE the engine's move is
shown and another was made.
"""
from playboard.compat import const

WHY_NONE = const(0)
WHY_TURN = const(1)
WHY_CAPTURE = const(2)
WHY_BACK = const(3)
WHY_DEST = const(4)
WHY_SLIDE = const(5)
WHY_STUCK = const(6)
WHY_ENGINE = const(7)

_TOBIT = const(4)  # playboard.games.tobit's piece bits: colour 1 / 2, TOBIT 4
_CAPTURE = const(1)
_MAX_ENDS = const(12)  # the legal ends named (a tobit's on the 5 x 4 board: fewer)


def reason(g, occ, expect=None):
    """The reason the board ``occ`` (a bytearray by point: non-zero where a sensor
    reads a piece) differs from the game ``g`` (a Tobit game, its position before the
    move) in a way no legal move explains; ``expect``: the engine's move being shown
    (bytes) or None.

    Returns None when no rule explains it (a piece put on an extra point, several
    pieces moved: the board's LEDs say what to put right), else a dict for the link's
    ``correction`` event: ``why`` (WHY_*), ``point`` (the piece's point, 1-based as
    the moves write them), ``to`` (where it was put down, 0 if still in the hand),
    ``move`` (text: the capture to make, the engine's move, or a move the piece may
    make), ``ends`` (the points the piece may go to, at most 12) and, for WHY_CAPTURE,
    ``over`` (the points of the pieces that capture takes)."""
    b = g.board
    n = g.n_points
    lifted = 0
    opp = 0
    to = 0
    mover = g.turn + 1
    for p in range(1, n + 1):
        if b[p] and not occ[p]:
            if b[p] & 3 == mover:
                if not lifted:
                    lifted = p
            elif not opp:
                opp = p
        elif occ[p] and not b[p] and not to:
            to = p
    legal = g.legal_moves()
    if expect is not None:
        return {"why": WHY_ENGINE, "point": lifted or opp, "to": to, "move": g.move_text(expect),
                "ends": [expect[-1]]}
    if not lifted:
        if not opp:
            return None
        for m in legal:
            if m[0] == _CAPTURE and opp in g.captured_points(m):
                return None  # a captured piece taken off first: the capture is not made
        return {"why": WHY_TURN, "point": opp, "to": to, "move": g.move_text(legal[0]) if legal else "",
                "ends": []}
    mine = [m for m in legal if m[1] == lifted]
    if not mine:
        if legal and legal[0][0] == _CAPTURE:
            why = WHY_CAPTURE
        else:
            why = WHY_STUCK
        r = {"why": why, "point": lifted, "to": to, "move": g.move_text(legal[0]) if legal else "",
             "ends": []}
        if why == WHY_CAPTURE:
            r["over"] = list(g.captured_points(legal[0]))
        return r
    ends = []
    for m in mine:
        e = m[-1]
        if e not in ends and len(ends) < _MAX_ENDS:
            ends.append(e)
    if not to or to in ends:
        return None  # on the way to a legal move, or more than one piece moved
    if b[lifted] & _TOBIT:
        why = WHY_SLIDE
    else:
        ya = g.xy(lifted)[1]
        yb = g.xy(to)[1]
        why = WHY_BACK if (yb < ya if mover == 1 else yb > ya) else WHY_DEST
    return {"why": why, "point": lifted, "to": to, "move": g.move_text(mine[0]), "ends": ends}
