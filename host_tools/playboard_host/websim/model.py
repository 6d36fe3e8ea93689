"""What the simulator page needs besides the board itself: the layout data for drawing,
and the physical pieces (which colour stands where, what is in the user's hand).

The sensors of the default board see presence only, so the colour of each piece
on the table is kept here, as a person at the board would see it: a lifted piece
goes into the hand, a placed one leaves it; once the board commits a move, the
captured pieces in the hand are put aside and a man that reached the far end is
shown crowned (the rules core says it is a tobit).
"""
from playboard.board.layout import boards_dir, read_layout_file
from playboard_host.match import top_level
from playboard.games.registry import new_game

SYMBOLS = {1: "w", 2: "b", 5: "W", 6: "B"}


def layout_data(name="default"):
    """The layout file ``name`` as a dict for the page (``size_mm``, ``holes_mm``,
    ``n_leds``, ``games`` -> {game: {"cells": [[cell, sensor, led, x, y, kind]...],
    "edges": [[a, b]...]}}), with ``levels`` (the engine's highest level) and
    ``default_level``. Tobit edges join the points adjacent under the rules (2.1).
    LayoutError for a missing or malformed layout file."""
    data = read_layout_file("%s/layout_%s.json" % (boards_dir(), name))
    out = {k: data[k] for k in ("name", "title", "size_mm", "holes_mm", "n_leds", "n_sensors") if k in data}
    out["games"] = {}
    for game, spec in data["games"].items():
        entry = {"cells": spec["cells"], "levels": top_level(game)}  # 9, Tobit's 11
        if game.startswith("tobit"):
            g = new_game(game)
            edges = []
            for p in range(1, g.n_points + 1):
                for d in range(4):
                    q = g.neighbour(p, d)
                    if q > p:
                        edges.append([p, q])
            entry["edges"] = edges
        out["games"][game] = entry
    out["levels"] = max(e["levels"] for e in out["games"].values())
    out["default_level"] = 3
    return out


class Pieces:
    """The Tobit pieces on the table and in the hand.

    ``on``: dict point -> symbol (``w b W B``); ``hand``: list of (symbol, point lifted from).
    """

    def __init__(self, game=None):
        self.on = {}
        self.hand = []
        if game is not None:
            self.set_from(game)

    def set_from(self, game):
        """Stand the pieces as rules core ``game`` has them; empty the hand."""
        self.on = {p: SYMBOLS[game.board[p]] for p in range(1, game.n_points + 1) if game.board[p]}
        self.hand = []

    def lift(self, point):
        """Take the piece on ``point`` into the hand; ValueError if the point is empty."""
        if point not in self.on:
            raise ValueError("no piece on point %d to lift" % point)
        self.hand.append((self.on.pop(point), point))

    def place(self, point, turn):
        """Put a piece from the hand on ``point``: the first one of the colour to move
        (``turn`` 0 White, 1 Black), else the first lifted. Returns its symbol.
        ValueError if the point is taken or the hand is empty."""
        if point in self.on:
            raise ValueError("point %d is taken: lift that piece first" % point)
        if not self.hand:
            raise ValueError("nothing in the hand: lift a piece first")
        want = "w" if turn == 0 else "b"
        k = 0
        for i, (sym, _) in enumerate(self.hand):
            if sym.lower() == want:
                k = i
                break
        sym, _ = self.hand.pop(k)
        self.on[point] = sym
        return sym

    def put_back(self):
        """Return every piece in the hand to where it was lifted (if that point is free);
        returns the list of points filled."""
        done = []
        for sym, p in self.hand:
            if p not in self.on:
                self.on[p] = sym
                done.append(p)
        self.hand = []
        return done

    def after_move(self, game):
        """The board committed a move (or took one back): put aside the hand's pieces
        the game no longer has, crown men that became tobits, and keep the hand's
        pieces that are still in the game (a piece lifted too early)."""
        keep = []
        for sym, p in self.hand:
            if game.board[p] and SYMBOLS[game.board[p]].lower() == sym.lower() and p not in self.on:
                keep.append((sym, p))
        self.hand = keep
        for p, sym in list(self.on.items()):
            v = game.board[p]
            if v and SYMBOLS[v].lower() == sym.lower():
                self.on[p] = SYMBOLS[v]

    def symbols(self):
        """Dict point -> symbol of the pieces on the table (a copy)."""
        return dict(self.on)
