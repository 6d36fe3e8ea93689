"""The rules cores: one interface for Toguz Kumalak, Tobit (5 x 4 and 4 x 4) and Tihbat.

This package file holds no code: the shared names (``GameError``, results,
terminations) are in :mod:`playboard.games.common`, the factory (``new_game``,
``game_class``) in :mod:`playboard.games.registry`, the perft driver in
:mod:`playboard.games.perft`; the cores import only ``common`` and their helpers.

Modelled on python-chess. Every game object ``g`` offers:

- ``g.name``: ``"toguz"``, ``"tobit"``, ``"tobit4"`` or ``"tihbat"``.
- ``g.turn``: 0 for White (South in the mancala games), 1 for Black (North).
- ``g.ply``: plies pushed since the set-up position; ``g.fullmove``: the move number.
- ``g.legal_moves()``: a new list of the legal moves; empty once the game is over.
  Moves are small opaque values that compare with ``==`` and hash: ints for the
  mancala games (the pit index 0-based, or ``PASS``), ``bytes`` for Tobit.
- ``g.push(move)`` / ``g.pop()``: make and unmake in place (``pop`` returns the move);
  ``g.peek()``; ``g.move_stack()``: a new list of the moves played.
- ``g.is_game_over()``, ``g.result()`` (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, ``"*"``),
  ``g.termination`` (``None`` while the game runs, else one of the ``TERM_*`` texts).
- ``g.fen()`` / ``g.set_fen(text)``: the position text of RULES.md 1.8, 2.13, 3.7.
- ``g.move_text(move)``: the move in the game's notation, in the current position
  (before it is pushed); ``g.parse_move(text)``: the legal move that ``text`` names,
  checked (landing digit, ``x``); ``g.push_text(text)``.
- ``g.key()``: a position key below 2**30 (a small int on the RP2040).
- ``g.perft(depth)``: the perft count (every ply pushed); ``perft.perft(g, depth)``
  is the fast way for every game.

Errors in input raise ``GameError`` (a ``ValueError``) naming what is wrong.
"""
