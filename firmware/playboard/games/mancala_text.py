"""The mancala position text of RULES.md 1.8 (Toguz Kumalak) and 3.7 (Tihbat).

``<north row> / <south row> <south store> <north store> <S|N> <move number>``:
the North row is written from its last pit down to pit 1, the South row from
pit 1 up; a pit is ``<n>S``, a run of ``n`` empty pits the single digit ``n``, a
tuzdyk ``t`` (never folded into a run). ``0S`` is never written.
"""
from playboard.games.common import GameError
from playboard.games.base import parse_int


def format_row(counts, tuz):
    """Text of one row. ``counts``: the pit counts in written order; ``tuz``: the
    written index of a tuzdyk in this row, or -1."""
    out = []
    run = 0
    for i in range(len(counts)):
        c = counts[i]
        if i == tuz:
            if run:
                out.append(str(run))
                run = 0
            out.append("t")
        elif c == 0:
            run += 1
        else:
            if run:
                out.append(str(run))
                run = 0
            out.append("%dS" % c)
    if run:
        out.append(str(run))
    return ",".join(out)


def parse_row(text, n, row_name, allow_tuzdyk):
    """Parse one row of ``n`` pits. Returns (counts in written order, tuzdyk index or -1).

    Raises GameError naming the row and the item for anything malformed."""
    counts = []  # type: list
    tuz = -1
    if not text:
        raise GameError("position text: the %s row is empty" % row_name)
    for item in text.split(","):
        if item == "t":
            if not allow_tuzdyk:
                raise GameError("position text: %s row: this game has no tuzdyk ('t')" % row_name)
            if tuz >= 0:
                raise GameError("position text: %s row holds two tuzdyks" % row_name)
            tuz = len(counts)
            counts.append(0)
        elif item.endswith("S"):
            c = parse_int(item[:-1], "position text: %s row pit %r" % (row_name, item), 1, 255)
            counts.append(c)
        else:
            if len(item) != 1 or not ("1" <= item <= "9"):
                raise GameError("position text: %s row: bad item %r (expected <n>S, a digit or t)" % (row_name, item))
            for _ in range(int(item)):
                counts.append(0)
        if len(counts) > n:
            raise GameError("position text: %s row has more than %d pits" % (row_name, n))
    if len(counts) != n:
        raise GameError("position text: %s row has %d pits, expected %d" % (row_name, len(counts), n))
    return counts, tuz


def parse_position(text, n):
    """Split a mancala position text into its parts.

    Returns (north counts pit 1..n, north row tuzdyk pit index or -1,
    south counts pit 1..n, south row tuzdyk pit index or -1,
    south store, north store, side to move 0/1, move number).
    Raises GameError for anything malformed."""
    if not isinstance(text, str):
        raise GameError("position text must be a string")
    fields = text.split()
    if len(fields) != 5:
        raise GameError("position text: expected 5 fields (rows, two stores, side, move number), got %d in %r" % (len(fields), text))
    rows = fields[0].split("/")
    if len(rows) != 2:
        raise GameError("position text: expected two rows separated by '/', got %r" % fields[0])
    north, ntuz = parse_row(rows[0], n, "North", True)
    south, stuz = parse_row(rows[1], n, "South", True)
    north = north[::-1]  # written n..1
    if ntuz >= 0:
        ntuz = n - 1 - ntuz
    s_store = parse_int(fields[1], "position text: South's store", 0, 255)
    n_store = parse_int(fields[2], "position text: North's store", 0, 255)
    if fields[3] not in ("S", "N"):
        raise GameError("position text: side to move must be S or N, got %r" % fields[3])
    side = 0 if fields[3] == "S" else 1
    move_no = parse_int(fields[4], "position text: move number", 1, 9999)
    return north, ntuz, south, stuz, s_store, n_store, side, move_no


def format_position(south, north, stuz, ntuz, s_store, n_store, side, move_no):
    """The position text. ``south``/``north``: counts of pits 1..n; ``stuz``/``ntuz``:
    index of a tuzdyk in that row (pit number - 1) or -1."""
    n = len(north)
    nt = n - 1 - ntuz if ntuz >= 0 else -1
    return "%s/%s %d %d %s %d" % (
        format_row(north[::-1], nt), format_row(south, stuz),
        s_store, n_store, "SN"[side], move_no)
