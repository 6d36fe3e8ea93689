"""The evaluation's native kernels (Toguz Kumalak's evaluation and move order;
Tobit's evaluation); used by ``playboard.engine.evaluation``.

Native (viper) code: imported at power-up and never dropped (docs/architecture.md).
"""
from playboard.compat import micropython, ptr8  # noqa: F401


@micropython.viper
def _toguz_eval(b: ptr8, turn: int) -> int:
    """ToguzEval.evaluate on ``g.pos`` (viper; plain Python under CPython): for each
    row its balls, its movable pits and the largest even capture (ball count) it could
    make by one sowing now, one pass over each; no call and no division (the RP2040
    has none): rounds of 18 by subtraction. The search's native loop
    (``tobit_native._run``) has the same lines written in."""
    value = (int(b[18]) - int(b[19])) * 16
    if int(b[20]) != 255:
        value += 160
    if int(b[21]) != 255:
        value -= 160
    balls = 0  # South's row: its balls, movable pits, largest even capture (into 9-17)
    sth = 0
    sp = 0
    org = 0
    while org < 9:
        c = int(b[org])
        if c:
            balls += c
            sp += 1
            if c == 1:  # the next pit: the opponent's only from pit 9
                if org == 8:
                    c = int(b[9]) + 1
                    if (c & 1) == 0 and c > sth:
                        sth = c
            else:
                r = c - 1
                c = 1
                while r >= 18:  # (n - 1) // 18 + 1 balls into the last pit
                    r -= 18
                    c += 1
                land = org + r
                if land >= 18:
                    land -= 18
                if land >= 9:  # (a last pit of one's own is never a capture)
                    c += int(b[land])
                    if (c & 1) == 0 and c > sth:
                        sth = c
        org += 1
    value += 2 * balls
    balls = 0  # North's row (captures into 0-8)
    nth = 0
    np_ = 0
    while org < 18:
        c = int(b[org])
        if c:
            balls += c
            np_ += 1
            if c == 1:
                if org == 17:
                    c = int(b[0]) + 1
                    if (c & 1) == 0 and c > nth:
                        nth = c
            else:
                r = c - 1
                c = 1
                while r >= 18:
                    r -= 18
                    c += 1
                land = org + r
                if land >= 18:
                    land -= 18
                if land < 9:
                    c += int(b[land])
                    if (c & 1) == 0 and c > nth:
                        nth = c
        org += 1
    value -= 2 * balls
    if turn:  # the mover's terms
        value = (nth * 12 - sth * 6 + (np_ - sp) * 16) - value
    else:
        value += sth * 12 - nth * 6 + (sp - np_) * 16
    return value


@micropython.viper
def _toguz_order(p: ptr8, turn: int, m: int) -> int:
    """ToguzEval.order on ``g.pos`` (viper; plain Python under CPython); the search's
    native loop (``tobit_native._run``) has the same lines written in. No division."""
    origin = m + 9 * turn
    n = int(p[origin])
    if n == 1:
        land = origin + 1
        if land == 18:
            land = 0
        cnt = int(p[land]) + 1
    else:
        r = n - 1
        got = 1
        while r >= 18:  # (n - 1) // 18 + 1 balls into the last pit
            r -= 18
            got += 1
        land = origin + r
        if land >= 18:
            land -= 18
        if land == origin:
            cnt = got
        else:
            cnt = int(p[land]) + got
    if land >= 9:
        if turn:
            return 0  # the last ball stays on the mover's side: no capture
        lm = land - 9  # (its number minus one)
    else:
        if turn == 0:
            return 0
        lm = land
    if (cnt & 1) == 0:
        return cnt * 16
    if cnt == 3 and int(p[20 + turn]) == 255 and lm != 8:
        other = int(p[21 - turn])  # the opponent's tuzdyk: not the same number (1.4)
        if other == 255:
            return 200  # a tuzdyk
        if other >= 9:
            other -= 9
        if other != lm:
            return 200
    return 0


@micropython.viper
def _tobit_eval(b: ptr8, geo: ptr8, st: ptr8, leaf: int) -> int:
    """TobitEval.evaluate on ``g.board`` (viper). ``geo``: the game's geometry
    (``Tobit._geo``: n + 1, T + 1, 0, 0, the neighbours N E S W of each point, then
    (x, y) per point); ``st``: the game's state (st[3]: the side to move). With ``leaf``
    (``TobitEval.leaf``) only where nothing is forced: 32767 when the side to move can
    capture (2.7), 32766 when it has no move, in the same pass."""
    n1 = int(geo[0])
    top = int(geo[1])
    xy = 4 + 4 * n1
    me = int(st[3]) + 1
    own = 0
    s = 0
    p = 1
    while p < n1:
        c = int(b[p])
        if c:
            k = 4 + 4 * p
            mob = 0
            if c & 4:
                v = 300
                j = 0
                while j < 4:
                    q = int(geo[k + j])
                    if q != 0 and int(b[q]) == 0:
                        mob += 1
                    j += 1
            else:
                y = int(geo[xy + 2 * p + 1])
                if c == 1:
                    v = 100 + 6 * y
                    q = int(geo[k])
                else:
                    v = 100 + 6 * (top - y)
                    q = int(geo[k + 2])
                if q != 0 and int(b[q]) == 0:
                    mob += 1
                q = int(geo[k + 1])
                if q != 0 and int(b[q]) == 0:
                    mob += 1
                q = int(geo[k + 3])
                if q != 0 and int(b[q]) == 0:
                    mob += 1
            v += 4 * mob
            if (c & 3) == 1:
                s += v
            else:
                s -= v
            if leaf and (c & 3) == me:
                own += mob  # its quiet moves' first steps
                j = 0
                while j < 4:  # a capture: an enemy next on the line, the point behind free
                    a = int(geo[k + j])
                    if c & 4:
                        while a != 0 and int(b[a]) == 0:
                            a = int(geo[4 + 4 * a + j])
                    if a != 0 and (int(b[a]) & 3) == 3 - me:
                        a = int(geo[4 + 4 * a + j])
                        if a != 0 and int(b[a]) == 0:
                            return 32767
                    j += 1
        p += 1
    if leaf and own == 0:
        return 32766
    if int(st[3]):
        return 0 - s
    return s
