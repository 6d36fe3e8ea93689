"""Toguz Kumalak's native kernels: sowing, the end-of-game check, the position key and
perft (RULES.md section 1); used by ``playboard.games.toguz``.

Native (viper) code: imported at power-up and never dropped (docs/architecture.md).
"""
from playboard.compat import micropython, ptr8  # noqa: F401


@micropython.viper
def _sow(p: ptr8, pit: int) -> int:
    """Play pit ``pit`` (0..8) of the side to move in position ``p`` (RULES.md 1.2-1.6).

    Sows, captures, makes a tuzdyk, sweeps tuzdyks into their owners' kazans,
    ends the game where 1.6 says so (``_check_end``'s test, written in here: the
    search's make calls this once a node), and passes the move. Returns nothing
    useful; the effect is recorded in p[LAST], p[FLAGS], p[TERM]. No division (the
    RP2040 has none): rounds of 18 by subtraction."""
    side = int(p[22])
    src = pit + 9 * side
    n = int(p[src])
    p[src] = 0
    if n == 1:
        last = src + 1
        if last == 18:
            last = 0
        p[last] = int(p[last]) + 1
    else:
        r = n
        q = 0
        while r >= 18:  # whole rounds: one ball into every pit each
            r -= 18
            q += 1
        if q:
            i = 0
            while i < 18:
                p[i] = int(p[i]) + q
                i += 1
        i = src
        k = 0
        while k < r:
            p[i] = int(p[i]) + 1
            i += 1
            if i == 18:
                i = 0
            k += 1
        last = i - 1  # (src + n - 1) mod 18
        if last < 0:
            last = 17
    # Balls sown into a tuzdyk go at once to its owner's kazan (1.5).
    t = int(p[20])
    if t != 255:
        p[18] = int(p[18]) + int(p[t])
        p[t] = 0
    t = int(p[21])
    if t != 255:
        p[19] = int(p[19]) + int(p[t])
        p[t] = 0
    flags = 0
    opp = 1 - side
    row = 0
    if last >= 9:
        row = 1
    if row != side:  # landed on the opponent's side
        c = int(p[last])
        if c > 0:
            if (c & 1) == 0:  # capture (1.3)
                p[18 + side] = int(p[18 + side]) + c
                p[last] = 0
                flags = 1
            elif c == 3 and int(p[20 + side]) == 255:  # tuzdyk (1.4)
                ot = int(p[20 + opp])
                num = last - 9 * opp  # 0..8: the pit's number minus one
                if num != 8 and (ot == 255 or ot - 9 * side != num):
                    p[20 + side] = last
                    p[18 + side] = int(p[18 + side]) + 3
                    p[last] = 0
                    flags = 2
    p[23] = last
    p[24] = flags
    p[22] = opp
    # the game's end (1.6), as _check_end
    ks = int(p[18])
    kn = int(p[19])
    if ks >= 82 or kn >= 82 or (ks == 81 and kn == 81):
        p[25] = 1
        return 0
    base = 9 * opp
    i = 0
    while i < 9:
        if int(p[base + i]) != 0:
            return 0
        i += 1
    # The side to move has no legal move: the rest goes to the other side's kazan.
    other = 9 * side
    s = 0
    i = 0
    while i < 9:
        s += int(p[other + i])
        p[other + i] = 0
        i += 1
    p[19 - opp] = int(p[19 - opp]) + s
    p[25] = 2
    return 0


@micropython.viper
def _check_end(p: ptr8) -> int:
    """Set p[TERM] if the game has ended (1.6); on "no legal move" move the balls
    left on the board into the kazan of the side they lie on."""
    ks = int(p[18])
    kn = int(p[19])
    if ks >= 82 or kn >= 82 or (ks == 81 and kn == 81):
        p[25] = 1
        return 1
    side = int(p[22])
    base = 9 * side
    i = 0
    while i < 9:
        if int(p[base + i]) != 0:
            return 0
        i += 1
    # The side to move has no legal move: the rest goes to the other side's kazan.
    other = 9 * (1 - side)
    s = 0
    i = 0
    while i < 9:
        s += int(p[other + i])
        p[other + i] = 0
        i += 1
    p[19 - side] = int(p[19 - side]) + s
    p[25] = 2
    return 2


@micropython.viper
def _key(p: ptr8) -> int:
    h = int(p[22])
    i = 0
    while i < 22:
        h = ((h & 0x1FFFFFF) * 33 + int(p[i])) ^ (h >> 25)
        i += 1
    return h & 0x3FFFFFFF


@micropython.viper
def _perft_viper(pos, depth: int, stack) -> int:
    """Perft below ``pos`` (a Toguz.pos bytearray), snapshots kept in ``stack``
    (a bytearray of at least depth * SIZE bytes). Every ply is played by _sow."""
    p = ptr8(pos)
    st = ptr8(stack)
    base = 9 * int(p[22])
    o = (depth - 1) * 26
    n = 0
    m = 0
    while m < 9:
        if p[base + m]:
            i = 0
            while i < 26:
                st[o + i] = p[i]
                i += 1
            _sow(pos, m)
            if depth == 1:
                n += 1
            elif not p[25]:
                n += int(_perft_viper(pos, depth - 1, stack))
            i = 0
            while i < 26:
                p[i] = st[o + i]
                i += 1
        m += 1
    return n
