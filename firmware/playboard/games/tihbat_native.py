"""Tihbat's native kernel: the sowing (RULES.md section 3); used by
``playboard.games.tihbat``.

Native (viper) code: imported at power-up and never dropped (docs/architecture.md).
"""
from playboard.compat import micropython, ptr8  # noqa: F401


@micropython.viper
def _sow(p: ptr8, m: int) -> int:
    """Play move ``m`` (0, 1 or PASS) for the side to move (3.2-3.4); returns the
    position key after the move. Sets p[LAST], p[TAKEN], passes the turn; the
    caller checks the end (3.5)."""
    side = int(p[6])
    taken = 0
    last = 255
    if m != 2:
        src = m + 2 * side
        n = int(p[src])
        p[src] = 0
        if n == 1:
            last = src + 1
            if last == 4:
                last = 0
            p[last] = int(p[last]) + 1
        else:
            q = n >> 2
            r = n & 3
            if q:
                p[0] = int(p[0]) + q
                p[1] = int(p[1]) + q
                p[2] = int(p[2]) + q
                p[3] = int(p[3]) + q
            i = src
            k = 0
            while k < r:
                p[i] = int(p[i]) + 1
                i = (i + 1) & 3
                k += 1
            last = (src + n - 1) & 3
        # Capture on one's own side: 2, 4, 6 or 8 (3.3), then the chain back.
        j = last
        while (j >> 1) == side:
            c = int(p[j])
            if c == 2 or c == 4 or c == 6 or c == 8:
                taken += c
                p[j] = 0
                j = (j - 1) & 3
            else:
                break
        p[4 + side] = int(p[4 + side]) + taken
    p[8] = last
    p[9] = taken
    p[6] = 1 - side
    return int(p[0]) | (int(p[1]) << 5) | (int(p[2]) << 10) | (int(p[3]) << 15) | ((1 - side) << 20)
