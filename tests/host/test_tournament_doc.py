"""docs/tournament.md and the program agree: every example command of the document (each
line beginning ``playboard`` in its code blocks) is run, in order, as written: the
board ids and ports written there are three simulated boards (the real firmware on
SimBoard), whose games are played between `send` and `sync` as the document says.
Then the outcomes the document describes are checked."""
import os
import re
import shlex

import pytest

from playboard_host import cli
from playboard_host.library import Library
from playboard_host.simboard import SimBoard, micropython_binary
from playboard_host.tournament.event import Event

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "tournament.md")


def doc_commands():
    """The example commands of docs/tournament.md: argument lists, in order."""
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    out = []
    for block in re.findall(r"^```\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            if line.startswith("playboard "):
                out.append(shlex.split(line, comments=True)[1:])
    return out


def _press(b, cell):
    from playboard.board.layout import load_layout
    from playboard_host.gestures import press_sensor
    press_sensor(b, load_layout("tobit").sensor_of(cell))


def play(b, plies=2):
    """A Toguz Kumalak game begun on board ``b`` by its players: ``plies`` pits sown,
    then Black resigns (its pad pressed twice): 1-0."""
    from playboard.games.registry import new_game
    b.new_game("toguz", "two")
    b.advance(100)
    g = new_game("toguz")
    for k in range(plies):
        m = g.legal_moves()[k % len(g.legal_moves())]
        b.tap(m + 9 * g.turn, 150)
        b.advance(2500)
        g.push(m)
    for _ in range(2):
        _press(b, 38)
    assert b.status()["result"] == "1-0"


def test_every_example_of_the_tournament_doc_runs_as_written(tmp_path, monkeypatch, capsys):
    cmds = doc_commands()
    assert len(cmds) >= 40 and all(c[0] in ("tournament", "sync") for c in cmds), cmds
    create = next(c for c in cmds if c[:3] == ["tournament", "create", "Spring"])
    ids = [a.split("=")[1] for a in create if "=" in a]
    assert ids == ["e6613852a1", "e6614c1a07", "e66138528f"]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PLAYBOARD_LIBRARY", str(tmp_path / "club.sqlite"))
    boards = []
    try:
        for k, bid in enumerate(ids):
            b = SimBoard()
            b.start("sim", fs_dir=str(tmp_path / ("flash%d" % k)), board_id=bid)
            boards.append(b)
        port = {"/dev/ttyACM%d" % k: b.port for k, b in enumerate(boards)}
        played = False
        for argv in cmds:
            if argv[0] == "sync" and not played:  # "... the games are played ..."
                for b in boards:
                    play(b)
                played = True
            argv = [port.get(a, a) for a in argv]
            code = cli.main(argv)
            out, err = capsys.readouterr()
            assert code == 0, (argv, out, err)
            if argv[:2] == ["tournament", "collect"]:
                assert out.splitlines() == ["round 1 table 1 on board 1: Aru - Nurlan: Aru won (1-0, game 1)",
                                            "round 1 table 2 on board 2: Bek - Gul: Bek won (1-0, game 2)",
                                            "round 1 table 3 on board 3: Dina - Erlan: Dina won (1-0, game 3)"], out
    finally:
        for b in boards:
            b.stop()
    assert os.path.getsize(str(tmp_path / "spring.html")) > 500
    lib = Library(str(tmp_path / "club.sqlite"))
    try:
        e = Event(lib, "Spring")
        names = e.names_by_id()
        got = [(p.round, p.match, names[p.white], names[p.black], p.result, p.source, p.flag)
               for p in e.pairings() if p.round <= 2]
        assert got == [
            (1, "1", "Aru", "Nurlan", "1-0", "board", None),
            (1, "2", "Bek", "Gul", "1/2-1/2", "hand",
             "the result by hand, Draw (1/2-1/2), differs from the board's, Bek won (1-0) (draw agreed, the board"
             " saw a resignation)"),
            (1, "3", "Dina", "Erlan", "1-0", "board", None),  # corrected, then corrected back: no flag
            (2, "1", "Nurlan", "Erlan", "-/+", "forfeit", None),
            (2, "2", "Gul", "Dina", "-/-", "forfeit", None),
            (2, "3", "Aru", "Bek", "0-1", "hand", None)]
        # Nurlan withdrew having played 1 game of 5: every result of theirs annulled
        st = {r["name"]: r["score"] for r in e.standings()}
        assert st == {"Aru": 0, "Bek": 1.5, "Dina": 1, "Erlan": 0, "Gul": 0.5, "Nurlan": 0}, st
        cup = Event(lib, "Cup")
        top = cup.standings()[0]
        assert top["name"] == "Bek" and top["champion"]
        assert cup.decision(cup._matches(1)[1]) ["by"] == "armageddon"
        final = [(cup.names_by_id()[p.white], cup.names_by_id()[p.black]) for p in cup.pairings(2)]
        assert final == [("Bek", "Erlan"), ("Erlan", "Bek")]  # re-paired after the correction
        d = Event(lib, "Derby")
        dn = d.names_by_id()
        theirs = [p.result for p in d.pairings() if p.black is not None and {dn[p.white], dn[p.black]} & {"Gul", "Nurlan"}]
        assert theirs == ["+/-", "-/+"], theirs  # Shymkent (Black on board 1, White on 2) forfeits both
    finally:
        lib.close()
