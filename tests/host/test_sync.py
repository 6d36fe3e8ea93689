"""Host tools against the firmware's link running under the real MicroPython over a pty.

The board is tests/host/mp_board.py (record.Store + link.Link on its standard
input/output) in a the simulator's model of the chip (`build/micropython-board`) subprocess whose stdin/stdout is
the master side of a pseudo-terminal pair; the host opens the slave side with
pyserial, as it would open the board's USB serial port.
"""
import os
import subprocess
import sys
import time

import pytest

from playboard import link as proto
from playboard.pgn import read_games, replay
from playboard.record.read import parse_game
from playboard_host import cli
from playboard_host.commands.sync import sync
from playboard_host.library import Library
from playboard_host.serial_link import BoardError, BoardLink, LinkError, open_port
from playboard_host.simboard import MODEL_HEAP

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _micropython():
    from playboard_host.simboard import micropython_binary
    return micropython_binary()  # the model: the firmware frozen in (mp_board.py imports it)


class Board:
    """A MicroPython board process on a pty; ``port`` is the path the host opens.
    ``games``: an int (that many made-up toguz games) or "legal N" (N games played
    by the rules cores)."""

    def __init__(self, folder, games=0, play=False, python=None):
        self.master, self.slave = os.openpty()
        self.port = os.ttyname(self.slave)
        exe = python or _micropython()
        if exe is None:
            pytest.skip("micropython not installed (make setup)")
        cmd = [exe] + (["-X", "heapsize=" + MODEL_HEAP] if python is None else []) + [
            "tests/host/mp_board.py", str(folder)] + str(games).split() + (["play"] if play else [])
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdin=self.master, stdout=self.master,
                                     stderr=subprocess.PIPE)

    def close(self):
        if self.master is None:
            return
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        os.close(self.master)
        os.close(self.slave)
        self.master = None


@pytest.fixture
def board(tmp_path):
    made = []

    def make(games=0, play=False, python=None, folder=None):
        b = Board(folder or tmp_path / "flash", games, play, python)
        made.append(b)
        return b

    yield make
    for b in made:
        b.close()


def _link(b, timeout=2.0):
    return BoardLink(open_port(b.port), timeout=timeout)


def test_hello_and_list_over_the_pty(board):
    b = board(games=3)
    link = _link(b)
    h = link.hello()
    assert h["proto"] == 1 and h["board"] == "sim"
    games = link.list_games()
    assert [g["id"] for g in games] == [1, 2, 3] and all(g["finished"] for g in games)
    rec, raw = link.fetch_game(2)
    assert rec.name == "toguz" and len(rec.moves) == 37 and rec.tags["Round"] == "2"
    with pytest.raises(BoardError) as e:
        link.fetch(99)
    assert e.value.code == "refused"
    link.close()


def test_sync_then_export_gives_back_the_same_moves(board, tmp_path, capsys):
    b = board(games=4)
    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["sync", "--port", b.port, "--library", db, "-q", "--timeout", "2"]) == 0
    assert "synced 4 new games" in capsys.readouterr().out
    link = _link(b)
    assert link.list_games() == []  # all acknowledged, so dropped by the board
    link.close()
    lib = Library(db)
    games = lib.games()
    assert len(games) == 4 and lib.count() == 4
    lib.close()
    out = str(tmp_path / "out.pgn")
    assert cli.main(["export", "--library", db, "-o", out]) == 0
    with open(out, encoding="utf-8") as f:
        recs = list(read_games(f))
    assert len(recs) == 4
    for rec, g in zip(recs, games):
        assert rec.moves == parse_game(g.record).moves == g.moves  # byte for byte, as the board wrote them
        assert rec.tags["Game"] == "toguz" and rec.tags["Result"] == g.result
    assert recs[1].moves[:2] == ["21", "96"]
    # a second sync finds nothing new
    assert cli.main(["sync", "--port", b.port, "--library", db, "-q"]) == 0
    assert "synced 0 new games" in capsys.readouterr().out


def test_games_played_by_the_rules_cores_sync_export_and_replay(board, tmp_path):
    b = board(games="legal 8")
    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["sync", "--port", b.port, "--library", db, "-q", "--timeout", "3"]) == 0
    lib = Library(db)
    games = lib.games()
    lib.close()
    assert sorted(g.game for g in games) == ["tihbat", "tihbat", "tobit", "tobit", "tobit4", "tobit4",
                                             "toguz", "toguz"]
    out = str(tmp_path / "all.pgn")
    assert cli.main(["export", "--library", db, "-o", out]) == 0
    with open(out, encoding="utf-8") as f:
        recs = list(read_games(f))
    for rec, g in zip(recs, games):
        assert rec.moves == parse_game(g.record).moves  # the board's notation, byte for byte
        game, result = replay(rec)  # every move legal; the result agrees with the rules
        assert result == g.result
    assert cli.main(["replay", out]) == 0


class CutStream:
    """A serial port that goes dead after ``read_limit`` bytes read or on the ``ack_cut``-th ack sent."""

    def __init__(self, s, read_limit=None, ack_cut=None):
        self.s = s
        self.read_limit = read_limit
        self.ack_cut = ack_cut
        self.acks = 0
        self.got = 0

    def read(self, n):
        if self.read_limit is not None and self.got >= self.read_limit:
            raise LinkError("cable pulled")
        d = self.s.read(min(n, self.read_limit - self.got) if self.read_limit is not None else n)
        self.got += len(d)
        return d

    def write(self, data):
        dec = proto.Decoder()
        if self.ack_cut is not None and any(dec.feed(b) == 1 and dec.type == ord("A") for b in data):
            self.acks += 1
            if self.acks >= self.ack_cut:
                raise LinkError("cable pulled before the ack")
        return self.s.write(data)


def test_sync_cut_off_anywhere_resumes_and_duplicates_nothing(board, tmp_path):
    b = board(games=5)
    lib = Library(str(tmp_path / "lib.sqlite"))
    port = open_port(b.port)
    board_id = BoardLink(port, timeout=2).hello()["board"]
    # 1: cut in the middle of a fetch
    with pytest.raises(LinkError):
        sync(BoardLink(CutStream(port, read_limit=700), timeout=2), board_id, lib, progress=False)
    n1 = lib.count()
    # 2: cut after a game was stored but before the board heard the ack
    with pytest.raises(LinkError):
        sync(BoardLink(CutStream(port, ack_cut=1), timeout=2), board_id, lib, progress=False)
    assert lib.count() == n1 + 1
    time.sleep(0.1)
    port.reset_input_buffer()
    new, old = sync(BoardLink(port, timeout=2), board_id, lib, progress=False)
    assert old == 1 and new + n1 + 1 == 5
    assert lib.count() == 5
    uids = [g.uid for g in lib.games()]
    assert len(set(uids)) == 5
    assert BoardLink(port, timeout=2).list_games() == []
    port.close()
    lib.close()


def test_live_follows_moves_and_prints_a_picture(board, capsys):
    b = board(play=True)
    assert cli.main(["live", "--port", b.port, "--events", "8", "--seconds", "10"]) == 0
    out = capsys.readouterr().out
    assert "game: tobit" in out
    assert "1. 7-14" in out and "1... 29-22" in out and "3. 11-18" in out
    assert "piece lifted from point 11" in out and "point=" not in out and "nodes" not in out
    assert "b b b b b" in out  # the picture: Black's far row


def test_ctrl_c_outside_a_frame_stops_the_board_for_the_repl(board):
    b = board(games=1)
    s = open_port(b.port)
    link = BoardLink(s, timeout=2)
    link.hello()
    s.write(b"\r\x03")
    b.proc.wait(timeout=10)
    assert b"KeyboardInterrupt" in b.proc.stderr.read() + s.read(4000)
    s.close()


def test_settings_and_set_game_over_the_pty(board, tmp_path):
    b = board()
    link = _link(b)
    assert link.settings()["level"] == 3
    assert link.set_settings(level=7)["level"] == 7
    with pytest.raises(BoardError):
        link.set_settings(level=70)
    assert link.set_game(game="tihbat", mode="engine", level=2) == {"game": "tihbat"}
    assert link.status()["game"] == "tihbat"
    link.close()
    b.close()
    # the settings were saved on the board's flash: a restarted board has them
    b2 = board()
    link = _link(b2)
    assert link.settings()["level"] == 7
    link.close()


def test_board_process_killed_at_random_moments_resumes_every_committed_move(tmp_path):
    """A MicroPython process appends moves and is killed (SIGKILL) at random moments;
    each restart resumes with every move it reported as committed (at most one more)."""
    import random

    exe = _micropython()
    if exe is None:
        pytest.skip("micropython not installed")
    rnd = random.Random(6)
    folder = str(tmp_path / "flash")
    committed = 0
    for round_ in range(8):
        proc = subprocess.Popen([exe, "-X", "heapsize=" + MODEL_HEAP, "tests/host/mp_board.py", folder, "record", "100000"],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        first = proc.stdout.readline().split()
        assert first[0] == b"resumed", first + [proc.stderr.read()]
        resumed = int(first[1])
        assert committed <= resumed <= committed + 1, (round_, committed, resumed)
        committed = resumed
        for _ in range(rnd.randrange(1, 60)):  # let it commit some moves, then kill it
            line = proc.stdout.readline().split()
            if line[:1] == [b"ok"]:
                committed = int(line[1])
        time.sleep(rnd.random() * 0.002)
        proc.kill()
        out = proc.stdout.read().split()
        proc.wait()
        oks = [int(out[i + 1]) for i in range(len(out) - 1) if out[i] == b"ok"]
        if oks:
            committed = oks[-1]
    assert committed > 8


def test_a_board_pulled_out_during_sync_is_one_line_and_loses_nothing(board, tmp_path, capsys, monkeypatch):
    """The board's port goes away after the first game is stored (its pty closed, as a
    USB cable pulled): one line, no traceback; that game stays stored, the board kept
    the others (never acknowledged), and the next sync takes them."""
    b = board(games=3)
    db = str(tmp_path / "lib.sqlite")
    add = Library.add

    def add_then_pull(self, *a, **kw):
        r = add(self, *a, **kw)
        b.proc.kill()
        b.proc.wait()
        os.close(b.master)  # the board's end of the line is gone
        b.master = None
        return r

    monkeypatch.setattr(Library, "add", add_then_pull)
    assert cli.main(["sync", "--port", b.port, "--library", db, "-q", "--timeout", "1"]) == 2
    out, err = capsys.readouterr()
    assert err.startswith("playboard: the board went away (unplugged or reset?)") and err.count("\n") == 1, err
    assert "Traceback" not in err and "plug it in again and run playboard sync" in err
    monkeypatch.setattr(Library, "add", add)
    lib = Library(db)
    assert lib.count() == 1
    lib.close()
    os.close(b.slave)
    b2 = board(games=0, folder=tmp_path / "flash")  # plugged in again: the same flash
    assert cli.main(["sync", "--port", b2.port, "--library", db, "-q", "--timeout", "2"]) == 0
    assert "synced 2 new games (1 already stored)" in capsys.readouterr().out
