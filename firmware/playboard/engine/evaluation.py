"""One static evaluation per game, for the engine (``playboard.engine.search``).

``for_game(name)`` returns an object with:

- ``UNIT``: the evaluation's units per ball / man (the engine's noise is in UNITs);
- ``QUIESCE``: True when horizon nodes must be extended while ``forcing``;
- ``evaluate(g)`` -> int: the position for the side to move (``g.turn``), in
  evaluation units, within +-20000; not called on a finished game;
- ``order(g, m)`` -> int: a move-ordering hint for legal move ``m`` in ``g``
  (before it is pushed): higher is tried first (captures and tuzdyks high);
- ``forcing(g, moves)`` -> bool: ``moves`` (the legal moves) must not be cut
  at the horizon (Tobit: a capture is compulsory);
- ``leaf(g)`` -> int or None: at a horizon node of a ``QUIESCE`` game, the
  evaluation when nothing is forced, found without making the moves (Tobit: one
  scan of the board); None when the moves must be looked at (a capture, or the
  game is over).

They read the rules cores' internals (``g.pos`` for the mancala games,
``g.board`` for Tobit) and never write them. ``register(name, ev)`` adds an
evaluation for another game (the tests' stand-in games).
"""
from playboard.compat import const
from playboard.engine.evaluation_native import (  # noqa: F401 (native: loaded once)
    _toguz_side, _toguz_eval, _toguz_order, _tobit_eval)

_TOGUZ_UNIT = const(16)
_TIHBAT_UNIT = const(16)
_TOBIT_UNIT = const(100)


class _Eval:
    """Base: an evaluation that knows nothing (every position 0)."""

    UNIT = 1
    QUIESCE = False

    def evaluate(self, g):
        return 0

    def order(self, g, m):
        return 0

    def forcing(self, g, moves):
        return False

    def leaf(self, g):
        return None


# -- Toguz Kumalak ----------------------------------------------------------------


class ToguzEval(_Eval):
    """Toguz Kumalak: kazan difference, tuzdyks, balls on each side, threats, mobility.

    Units: 16 per ball. Terms for the side to move (minus the opponent's):
    kazan x16; a tuzdyk (g.pos[20]/[21]) 160 (10 balls); balls on one's own
    side x2 (they end in one's kazan if the opponent runs out of moves, and
    they are the material of later moves); the largest capture the side to
    move threatens now x12, the opponent's x6 (it moves only after us);
    mobility: 16 per non-empty pit of one's own minus the opponent's. The
    weights were chosen by matches at equal nodes against the earlier
    evaluation (docs/engine.md), after a logistic (Texel-style) fit on the
    master games' positions pointed at threats and mobility.
    """

    UNIT = _TOGUZ_UNIT

    def evaluate(self, g):
        return _toguz_eval(g.pos, g.turn)

    def order(self, g, m):
        return _toguz_order(g.pos, g.turn, m)


# -- Tihbat -----------------------------------------------------------------------


class TihbatEval(_Eval):
    """Tihbat: captures difference (g.pos[4] - g.pos[5]) for the side to move,
    16 units per counter; the search does the rest (the tree is tiny)."""

    UNIT = _TIHBAT_UNIT

    def evaluate(self, g):
        pos = g.pos
        s = (pos[4] - pos[5]) * 16
        return -s if g.turn else s

    def order(self, g, m):
        if m < 0 or m > 1:
            return 0  # a pass
        pos = g.pos
        base = 2 if g.turn else 0
        origin = base + m
        n = pos[origin]
        if n == 1:
            land = (origin + 1) & 3
            cnt = pos[land] + 1
        else:
            off = (n - 1) & 3
            land = (origin + off) & 3
            got = (n - 1) // 4 + 1
            cnt = got if land == origin else pos[land] + got
        if (land >> 1) != (base >> 1):
            return 0
        if cnt in (2, 4, 6, 8):
            return cnt * 16
        return 0


# -- Tobit --------------------------------------------------------------------------

class TobitEval(_Eval):
    """Tobit (5 x 4 and 4 x 4): material, advancement and mobility.

    Units: 100 per man. A man is 100 plus 6 per row advanced; a tobit is 300.
    Mobility: 4 per free point next to a piece in a direction it may step
    (forward/left/right for a man, any way for a tobit). Horizon nodes are
    extended while the side to move must capture (``forcing``).
    """

    UNIT = _TOBIT_UNIT
    QUIESCE = True

    def evaluate(self, g):
        return _tobit_eval(g.board, g._geo, g.st, 0)

    def order(self, g, m):
        b = g.board
        if m[0] == 1:
            # a capture: more pieces taken first, tobits count triple
            s = 1000
            for p in g.captured_points(m):
                s += 300 if b[p] & 4 else 100
            return s
        c = b[m[1]]
        if c & 4:
            return 0
        geo = g._geo  # n + 1, T + 1, 0, 0, the neighbours, then (x, y) per point
        top = geo[1]
        y = geo[4 + 4 * geo[0] + 2 * m[2] + 1]
        if c == 1:
            return 500 if y == top else y
        return 500 if y == 0 else top - y

    def forcing(self, g, moves):
        return moves[0][0] == 1

    def leaf(self, g):
        # a horizon node: its value when the side to move has moves and none is a
        # capture (nothing is forced), found in the evaluation's pass without making
        # its moves; else None (and after a threefold repetition)
        if g.st[0]:
            return None
        v = _tobit_eval(g.board, g._geo, g.st, 1)
        return None if v > 30000 else v


_EVALS = {
    "toguz": ToguzEval(),
    "tihbat": TihbatEval(),
    "tobit": TobitEval(),
    "tobit4": TobitEval(),
}


def for_game(name):
    """The evaluation object for game ``name``; ValueError if there is none."""
    ev = _EVALS.get(name)
    if ev is None:
        raise ValueError("no evaluation for game %r" % (name,))
    return ev


def register(name, ev):
    """Use ``ev`` (an object like ``for_game``'s) for games called ``name``."""
    _EVALS[name] = ev
