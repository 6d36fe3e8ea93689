"""A round robin of 6 players on 3 simulated boards at once, end to end: the real firmware
(SimBoard, the simulator's model of the chip (`build/micropython-board`)) plays every game through its sensors, each
board is sent its pairing and synced over its link with `playboard sync`, `playboard tournament collect`
takes the results, and the standings come out as worked out from the plan."""
import os

import pytest

from playboard.games.registry import new_game
from playboard.pgn import read_games
from playboard_host import cli
from playboard_host.library import Library
from playboard_host.simboard import SimBoard, micropython_binary
from playboard_host.tournament.event import Event, points

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")

PLAYERS = ["Aru", "Bek", "Dina", "Erlan", "Gul", "Nurlan"]
# Toguz Kumalak play pads are Tobit points: White draw 1, White resign 5, Black draw 34, Black resign 38
PAD = {"draw0": 1, "resign0": 5, "draw1": 34, "resign1": 38}


def _planned(ws, bs):
    """The planned result of seed ``ws`` (White) against ``bs``: varied, known in advance."""
    return ("1-0", "0-1", "1/2-1/2")[(ws * 2 + bs) % 3]


def _press(b, cell):
    """A deliberate press of a play pad (docs/app.md): held past HOLD_MS, let go."""
    from playboard.board.layout import load_layout
    from playboard_host.gestures import press_sensor
    press_sensor(b, load_layout("tobit").sensor_of(cell))


def play_game(b, result, plies):
    """Start Toguz Kumalak on board ``b``, play ``plies`` moves through the sensors (a pit's
    balls lifted and put back), then end it with ``result`` by the pads. Returns the
    moves played."""
    b.new_game("toguz", "two")
    b.advance(100)
    g = new_game("toguz")
    moves = []
    for k in range(plies):
        m = g.legal_moves()[k % len(g.legal_moves())]
        b.tap(m + 9 * g.turn, 150)
        b.advance(3000)
        moves.append(g.move_text(m))
        g.push(m)
    if result == "1/2-1/2":
        _press(b, PAD["draw0"])
        _press(b, PAD["draw1"])
    else:
        side = 1 if result == "1-0" else 0  # the loser resigns: press twice
        _press(b, PAD["resign%d" % side])
        _press(b, PAD["resign%d" % side])
    st = b.status()
    assert st["state"] == "over" and st["result"] == result, st
    return moves


def test_round_robin_of_six_on_three_simulated_boards(tmp_path, capsys):
    db = str(tmp_path / "club.sqlite")
    T = ["tournament", "--library", db]
    boards = []
    try:
        for k in range(3):
            b = SimBoard()
            b.start("sim", fs_dir=str(tmp_path / ("flash%d" % k)), board_id="hall-%d" % (k + 1))
            boards.append(b)
        assert cli.main(T + ["create", "Spring", "--game", "toguz"] +
                        sum((["--board", "%d=hall-%d" % (k, k)] for k in (1, 2, 3)), [])) == 0
        assert cli.main(T + ["add", "Spring"] + PLAYERS) == 0
        capsys.readouterr()
        played = {}
        for rnd in range(1, 6):
            assert cli.main(T + ["pair", "Spring"]) == 0
            lib = Library(db)
            e = Event(lib, "Spring")
            seed = {x.id: x.seed for x in e.entrants()}
            names = e.names_by_id()
            ps = e.pairings(rnd)
            lib.close()
            assert sorted(p.board for p in ps) == ["1", "2", "3"]
            # each board told its pairing: the game begun there next carries it
            assert cli.main(T + ["send", "Spring"] + sum((["--port", b.port] for b in boards), [])) == 0
            for p in ps:
                b = boards[int(p.board) - 1]
                res = _planned(seed[p.white], seed[p.black])
                played[(names[p.white], names[p.black])] = (res, play_game(b, res, 2 + rnd % 3))
            for b in boards:
                assert cli.main(["sync", "--port", b.port, "--library", db, "-q"]) == 0
            capsys.readouterr()
            assert cli.main(T + ["collect", "Spring"]) == 0
            out = capsys.readouterr().out
            assert out.count(", game ") == 3, out
        assert len(played) == 15 and {frozenset(k) for k in played} == {
            frozenset((a, b)) for i, a in enumerate(PLAYERS) for b in PLAYERS[i + 1:]}
        # standings as worked out from the plan, 1/0.5/0
        want = {n: 0 for n in PLAYERS}
        for (w, bl), (res, _) in played.items():
            pw, pb = points(res, {"win": 1, "draw": 0.5, "loss": 0})
            want[w] += pw
            want[bl] += pb
        lib = Library(db)
        e = Event(lib, "Spring")
        st = e.standings()
        assert {r["name"]: r["score"] for r in st} == want
        assert [r["score"] for r in st] == sorted(want.values(), reverse=True)
        assert all(p.source == "board" and p.library_game for p in e.pairings())
        # every game's kazans came from replaying the board's moves
        for p in e.pairings():
            g = lib.games(ids=[p.library_game])[0]
            t = new_game("toguz")
            for m in g.moves:
                t.push_text(m)
            assert p.kazans == (t.pos[18], t.pos[19])
        lib.close()
        out = str(tmp_path / "spring.pgn")
        assert cli.main(T + ["pgn", "Spring", "-o", out]) == 0
        with open(out, encoding="utf-8") as f:
            recs = list(read_games(f))
        assert len(recs) == 15
        for r in recs:
            res, moves = played[(r.tags["White"], r.tags["Black"])]
            assert r.moves == moves and r.tags["Result"] == res and r.tags["Event"] == "Spring"
            assert r.tags["Board"] in ("1", "2", "3") and r.tags["Round"].split(".")[0] in "12345"
        assert cli.main(T + ["standings", "Spring", "-f", "html", "-o", str(tmp_path / "x.html")]) == 0
        assert os.path.getsize(str(tmp_path / "x.html")) > 1000
    finally:
        for b in boards:
            b.stop()
