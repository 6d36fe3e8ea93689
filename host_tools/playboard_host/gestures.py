"""What a person does on a simulated board (``playboard_host.simboard.SimBoard``), shared
by the demo and the web page: press a play pad, start a game, make a Tobit move with
the hands."""
from playboard.board.layout import load_layout
from playboard.app.state import PADS_ON_TOBIT, PADS_ON_TOGUZ, HOLD_MS, STAFF_CORNERS

from playboard_host.simboard import SimError

PAD_WHITE_DRAW, PAD_WHITE_RESIGN, PAD_BLACK_DRAW, PAD_BLACK_RESIGN = 0, 1, 2, 3


def press_pad(board, game, k):
    """Press play pad ``k`` (PAD_*: 0 White's draw, 1 White's resign, 2 Black's draw,
    3 Black's resign) on SimBoard ``board`` during ``game``: a cell of the other game's
    area of the board (docs/app.md; playboard.app.state.PADS_ON_TOGUZ / PADS_ON_TOBIT) is
    pressed deliberately: held HOLD_MS + 200 ms (its fill completes) and let go for
    300 ms (board time)."""
    if game.startswith("tobit"):
        s = load_layout("toguz").sensor_of(PADS_ON_TOGUZ[k])
    else:
        s = load_layout("tobit").sensor_of(PADS_ON_TOBIT[k])
    press_sensor(board, s)


def press_sensor(board, s, value=1):
    """A deliberate press of sensor ``s`` on SimBoard ``board`` (a menu pit or a pad,
    docs/app.md "Deliberate presses"): set to ``value``, held HOLD_MS + 200 ms (the
    fill completes), put back, then 300 ms (board time)."""
    board.set_sensor(s, value)
    board.advance(HOLD_MS + 200)
    board.set_sensor(s, 1 - value)
    board.advance(300)


def staff_gesture(board, gap_ms=None):
    """The staff gesture on SimBoard ``board`` (docs/museum.md; anything with
    ``set_sensor`` and ``advance``): the four corner pits (playboard.app.state.
    STAFF_CORNERS) put on one after another, held together 3.2 s (the firmware's
    3 s and a margin), let go one after another, 400 ms, then all of it again. The
    staff menu opens during the second hold if the board was at its menu.
    ``gap_ms``: a function giving the ms between two corners (called 8 times a hold,
    in order: put on, let go), by default 120 ms each."""
    lay = load_layout("toguz")
    sens = [lay.sensor_of(c) for c in STAFF_CORNERS]
    for _ in range(2):
        for v, hold in ((1, 3200), (0, 400)):
            for s in sens:
                board.set_sensor(s, v)
                board.advance(gap_ms() if gap_ms is not None else 120)
            board.advance(hold)


def new_board_game(board, game, mode, level):
    """``board.new_game`` (a SimBoard); where the firmware runs out of heap switching
    games, switch the board off and on again (the flash keeps every game) and retry once."""
    try:
        board.new_game(game, mode, level)
        board.advance(50)
    except SimError as e:
        if "MemoryError" not in str(e):
            raise
        board.restart()
        board.new_game(game, mode, level)
        board.advance(50)


def physical_actions(g, m):
    """The sensor actions of Tobit move ``m`` in game ``g`` (before it is pushed):
    a list of ("lift" | "place", point): lift the piece, put it down at the end,
    then take each captured piece off."""
    acts = [("lift", m[1]), ("place", m[len(m) - 1])]
    for p in g.captured_points(m):
        acts.append(("lift", p))
    return acts
