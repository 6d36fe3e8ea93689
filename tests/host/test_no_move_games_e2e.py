"""Games with no move made are not recorded (issue 34), end to end on the simulated
board (SimBoard: the whole firmware on the simulator's model of the chip): a day with
restarts, games chosen and left at once, a game cut by a power cut after its first
move; `playboard sync` takes only the games with moves and `playboard stats` counts
only them."""
import os

import pytest

from playboard.games.registry import new_game
from playboard_host import cli
from playboard_host.boardflash import kept_games
from playboard_host.gestures import PAD_BLACK_RESIGN, press_pad
from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def _play(b, plies):
    """``plies`` Toguz Kumalak moves on board ``b`` through its sensors (a pit tapped);
    the moves' texts."""
    g = new_game("toguz")
    out = []
    for k in range(plies):
        m = g.legal_moves()[k % len(g.legal_moves())]
        b.tap(m + 9 * g.turn, 150)
        b.advance(3000)
        out.append(g.move_text(m))
        g.push(m)
    assert b.status()["ply"] == plies
    return out


def _records(flash):
    """The games the board keeps, by file name (a game begun in the record's journal
    has no file yet: its name as it will have; playboard_host.boardflash)."""
    return sorted(kept_games(flash))


def test_a_day_with_restarts_keeps_and_counts_only_the_games_with_moves(tmp_path, capsys):
    flash = str(tmp_path / "flash")
    db = str(tmp_path / "lib.sqlite")
    b = SimBoard()
    try:
        b.start("sim", fs_dir=flash)
        b.advance(500)
        b.new_game("toguz", "two")  # chosen, nothing played
        b.advance(500)
        assert _records(flash) == ["g1.rec"]
        b.restart()  # switched off and on: the game at its start comes back, still no move
        b.advance(500)
        st = b.status()
        assert st["game"] == "toguz" and st["ply"] == 0 and st["store"]["current"] == 1, st
        b.new_game("toguz", "two")  # a new game over it: the empty one is not kept
        b.advance(500)
        assert _records(flash) == ["g2.rec"]
        _play(b, 4)
        press_pad(b, "toguz", PAD_BLACK_RESIGN)  # North resigns (pressed twice)
        press_pad(b, "toguz", PAD_BLACK_RESIGN)
        assert b.status()["result"] == "1-0"
        b.restart()
        b.advance(500)
        b.new_game("toguz", "two")
        b.advance(500)
        _play(b, 1)
        b.restart()  # a power cut after the first move: the game and its move kept
        b.advance(500)
        st = b.status()
        assert st["store"]["current"] == 3 and st["ply"] == 1, st
        b.new_game("tihbat", "two")  # the toguz game (one move) abandoned: kept
        b.advance(500)
        b.restart()  # the tihbat game, no move: comes back at its start
        b.advance(500)
        b.new_game("toguz", "two")  # and goes when a new game starts; this one stays in play
        b.advance(500)
        assert _records(flash) == ["g2.rec", "g3.rec", "g5.rec"]
        port = ["--port", b.port, "--timeout", "3", "--library", db, "-q"]
        assert cli.main(["sync"] + port) == 0
        out = capsys.readouterr().out
        assert out.startswith("synced 2 new games; library %s" % db), out
        assert "game 5 is still being played" in out
        assert cli.main(["games", "--library", db]) == 0
        rows = capsys.readouterr().out.splitlines()
        assert [r.split()[2:5] for r in rows[1:-1]] == [["toguz", "South", "won"], ["toguz", "Unfinished", "1"]], rows
        assert rows[-1] == "2 games"
        assert cli.main(["stats", "--library", db]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0] == "games: 2 started, 1 finished, 1 abandoned; mean length 4.0 plies finished, 1.0 abandoned"
        assert out[1] == ""  # (no line about games with no move made: there are none)
    finally:
        b.stop()


def test_sync_leaves_out_the_empty_games_an_older_firmware_kept(tmp_path, capsys):
    """A board whose flash holds 0-move "abandoned" games written before issue 34: sync
    acknowledges them (the board may drop them) and stores only the game with a move."""
    from playboard.record.codec import encode_record
    games = os.path.join(str(tmp_path / "flash"), "games")
    os.makedirs(games)
    for gid, moves in ((1, []), (2, ["76"]), (3, [])):
        recs = [encode_record(0x47, "toguz\x00old%d\x00" % gid), encode_record(0x54, "Mode\x00two")]
        recs += [encode_record(0x4D, m) for m in moves]
        recs.append(encode_record(0x45, "*\x00abandoned"))
        with open(os.path.join(games, "g%d.rec" % gid), "wb") as f:
            f.write(b"".join(recs))
    db = str(tmp_path / "lib.sqlite")
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"))
        b.advance(500)
        assert cli.main(["sync", "--port", b.port, "--timeout", "3", "--library", db, "-q"]) == 0
        assert capsys.readouterr().out.startswith("synced 1 new game; library")
        assert _records(str(tmp_path / "flash")) == ["s1.rec", "s2.rec", "s3.rec"]  # all acknowledged
        assert cli.main(["games", "--library", db, "--json"]) == 0
        import json
        got = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
        assert [(g["plies"], g["result"]) for g in got] == [(1, "*")], got
    finally:
        b.stop()
