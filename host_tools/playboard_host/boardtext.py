"""Text pictures of a position, for `playboard live` (any rules core, by its public state)."""


def picture(g):
    """A multi-line text picture of game ``g`` (a rules-core object), North/Black at the top."""
    name = g.name
    if name == "toguz":
        p = g.pos
        north = " ".join("%2d" % p[9 + i] for i in range(8, -1, -1))
        south = " ".join("%2d" % p[i] for i in range(9))
        tz = ["  "] * 18
        if p[20] != 255:
            tz[p[20]] = " X"
        if p[21] != 255:
            tz[p[21]] = " X"
        return "\n".join([
            "North  " + "  ".join("%d" % i for i in range(9, 0, -1)) + "   kazan %d" % p[19],
            "      " + north,
            "      " + south,
            "South  " + "  ".join("%d" % i for i in range(1, 10)) + "   kazan %d" % p[18],
            "%s to move, move %d" % ("South" if g.turn == 0 else "North", g.fullmove),
        ])
    if name == "tihbat":
        p = g.pos
        return "\n".join([
            "North  2  1    captured %d" % p[5],
            "      %2d %2d" % (p[3], p[2]),
            "      %2d %2d" % (p[0], p[1]),
            "South  1  2    captured %d" % p[4],
            "%s to move" % ("South" if g.turn == 0 else "North"),
        ])
    if name in ("tobit", "tobit4"):
        sym = {0: ".", 1: "w", 2: "b", 5: "W", 6: "B"}
        rows = []
        for y in range(g.T + 1, -1, -1):
            cells = []
            for x in range(0, g.L + 2):
                pt = g.point(x, y)
                cells.append(" " if pt == 0 else sym.get(g.board[pt], "?"))
            pts = [g.point(x, y) for x in range(0, g.L + 2) if g.point(x, y)]
            rows.append("%d  %s    points %d-%d" % (y, " ".join(cells).ljust(2 * g.L + 3), min(pts), max(pts)))
        rows.append("w b men, W B kings (tobits); points numbered from White's side, left to right")
        rows.append("%s to move" % ("White" if g.turn == 0 else "Black"))
        return "\n".join(rows)
    return g.fen()


def view(g):
    """The position of game ``g`` as the board shows it, for a web page: a dict
    ``{"game", "rows": [[cell, ...], ...] (North/Black row first), "stores": [South's,
    North's] kazans or captured balls (mancala games; [] for Tobit), "tuzdyk": [pit
    indexes 0..17], "turn": 0|1, "fen"}``. A mancala cell is its ball count; a Tobit
    cell is "" (no point), "." (empty), "w", "b" (men) or "W", "B" (tobits)."""
    name = g.name
    d = {"game": name, "turn": g.turn, "fen": g.fen(), "stores": [], "tuzdyk": []}
    if name == "toguz":
        p = g.pos
        d["rows"] = [[p[9 + i] for i in range(8, -1, -1)], [p[i] for i in range(9)]]
        d["stores"] = [p[18], p[19]]
        d["tuzdyk"] = [t for t in (p[20], p[21]) if t != 255]
    elif name == "tihbat":
        p = g.pos
        d["rows"] = [[p[3], p[2]], [p[0], p[1]]]
        d["stores"] = [p[4], p[5]]
    elif name in ("tobit", "tobit4"):
        sym = {0: ".", 1: "w", 2: "b", 5: "W", 6: "B"}
        d["rows"] = [["" if g.point(x, y) == 0 else sym.get(g.board[g.point(x, y)], "?")
                      for x in range(0, g.L + 2)] for y in range(g.T + 1, -1, -1)]
    else:
        d["rows"] = []
    return d
