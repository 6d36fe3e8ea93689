"""A ``playboard match`` worker under MicroPython (``--micropython``): plays the games it
is given with the firmware's engine, as ``match.play_game`` does under CPython.

Run by ``playboard_host.match_mp`` (never by hand) as ``MICROPYTHON -X heapsize=H
match_worker.py``, with ``MICROPYPATH`` holding the firmware (the model's ``.frozen``,
or ``firmware/``) and the folder of the old engines' renamed modules. Reads JSON lines
from standard input, writes one JSON line per game to standard output:

- first line: ``{"old": {KIND: MODULE}}``, the old engines' search modules (e.g.
  ``{"was": "playboard_baseline_search_ba43ee163a"}``), imported once;
- then one line per game: ``[i, game, opening, max_plies, white, black]``, ``opening`` a
  list of moves (pits, or Tobit's moves as lists of bytes), each player ``[kind, level,
  nodes, tt, seed, native]`` (kind "engine" or an old engine's KIND; ``nodes``: its
  ``think`` budget; ``tt``: its table's entries; ``seed``: its engine's seed;
  ``native``: search as a native board does, ``Engine.native``);
- answer: ``[i, result, plies, termination or "adjudicated", judged_white,
  judged_black]`` (Tihbat's table margins, ``match.play_game``'s ``judged``; else null).

Errors (a MemoryError, a bad line) go to standard error with the game's number (``i +
1``) and end
the worker with status 1; the host reports them. No CPython-only modules here.
"""
import json
import sys

from playboard.engine.search import Engine
from playboard.games.registry import new_game


def material(g):
    """Material for White minus Black, by which a game over its plies is judged (both
    runners: ``match`` imports it): kazans (Toguz Kumalak), men 1 and tobits 3 (Tobit),
    captures (Tihbat)."""
    if g.name == "toguz":
        return g.pos[18] - g.pos[19]
    if g.name == "tihbat":
        return g.pos[4] - g.pos[5]
    s = 0
    b = g.board
    for p in range(1, g.n_points + 1):
        c = b[p]
        if c:
            v = 3 if c & 4 else 1
            s += v if (c & 3) == 1 else -v
    return s


def engine(classes, spec):
    """A new engine for player ``spec`` (``[kind, level, nodes, tt, seed, native]``)."""
    kind, level, nodes, tt, seed, native = spec
    e = classes[kind](tt_size=tt, seed=seed & 0x3FFFFFFF or 1)
    if native:
        e.native = True
    return e


def play(classes, game, opening, max_plies, white, black):
    """One game (``match.play_game``): (result, plies, termination, judged)."""
    g = new_game(game)
    for m in opening:
        g.push(bytes(m) if isinstance(m, list) else m)
    specs = (white, black)
    engines = (engine(classes, white), engine(classes, black))
    judged = [None, None]
    while not g.is_game_over():
        if game == "tihbat" and judged[g.turn] is None:
            from playboard.engine import tihbat_table as tt

            me = g.turn
            judged[me] = g.pos[4 + me] - g.pos[5 - me] + tt.value(g)[0]
        if g.ply >= max_plies:
            m = material(g)
            return ("1-0" if m > 0 else "0-1" if m < 0 else "1/2-1/2"), g.ply, "adjudicated", judged
        s = specs[g.turn]
        g.push(engines[g.turn].think(g, s[1], nodes=s[2]))
    return g.result(), g.ply, g.termination, judged


def main():
    classes = {"engine": Engine}
    for kind, name in json.loads(sys.stdin.readline())["old"].items():
        classes[kind] = __import__(name).Engine
    i = None
    try:
        while True:
            line = sys.stdin.readline()
            if not line:
                return
            i, game, opening, max_plies, white, black = json.loads(line)
            result, plies, term, judged = play(classes, game, opening, max_plies, white, black)
            print(json.dumps([i, result, plies, term, judged[0], judged[1]]))
    except Exception as e:  # noqa: BLE001 - any failure: its game, then the host's one line
        sys.stderr.write("game %s: %s: %s\n" % ("?" if i is None else i + 1, type(e).__name__, e))
        sys.exit(1)


if __name__ == "__main__":
    main()
