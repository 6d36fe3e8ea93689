"""Library, export and deploy without a board: filters, formats, duplicates, the deploy plan."""
import datetime
import json
import os
import shutil
import subprocess
import types

import pytest

from playboard.pgn import read_games, replay
from playboard.record.codec import encode_record
from playboard.record.read import parse_game
from playboard_host import cli
from playboard_host.cli import CommandError
from playboard_host.commands import deploy
from playboard_host.export import export
from playboard_host.library import Library


def _raw(name, moves, result="1-0", tags=None, fen=None, uid="u1", term=None):
    data = encode_record(0x47, name + "\x00" + uid + "\x00" + (fen or ""))
    for k, v in (tags or {}).items():
        data += encode_record(0x54, k + "\x00" + v)
    for m in moves:
        data += encode_record(0x4D, m)
    return data + encode_record(0x45, result + "\x00" + (term or ""))


def _fill(lib):
    day = datetime.datetime(2026, 11, 28, 10, 0)
    lib.add("b1", parse_game(_raw("toguz", ["76", "98"], "1-0", {"White": "Ann"}, uid="a"), 1), _raw("toguz", ["76", "98"], "1-0", {"White": "Ann"}, uid="a"), day)
    lib.add("b1", parse_game(_raw("tobit", ["7-14", "29-22"], "0-1", {"Date": "2026.11.30"}, uid="b"), 2),
            _raw("tobit", ["7-14", "29-22"], "0-1", {"Date": "2026.11.30"}, uid="b"), day)
    fen = "5S,10S/7S,2S 4 0 N 5"
    raw = _raw("tihbat", ["1", "2"], "*", fen=fen, uid="c", term="abandoned")
    lib.add("b2", parse_game(raw, 7), raw, day)


def test_library_stores_each_game_once_and_filters(tmp_path):
    lib = Library(str(tmp_path / "x" / "lib.sqlite"))
    _fill(lib)
    raw = _raw("toguz", ["76", "98"], "1-0", {"White": "Ann"}, uid="a")
    assert lib.add("b1", parse_game(raw, 1), raw) is False  # same board and uid
    assert lib.add("b2", parse_game(raw, 1), raw, datetime.datetime(2026, 11, 27)) is True  # another board
    assert lib.count() == 4
    assert [g.game for g in lib.games(game="tobit")] == ["tobit"]
    assert [g.result for g in lib.games(result="0-1")] == ["0-1"]
    assert [g.game for g in lib.games(since="2026-11-29")] == ["tobit"]
    assert sorted(g.game for g in lib.games(until="2026-11-28")) == ["tihbat", "toguz", "toguz"]
    g = lib.games(game="tihbat")[0]
    assert g.fen == "5S,10S/7S,2S 4 0 N 5" and g.termination == "abandoned" and g.moves == ["1", "2"]
    lib.close()


def test_export_pgn_replays_and_json_round_trips(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    _fill(lib)
    games = lib.games()
    text = export(games, "pgn")
    recs = list(read_games(text.splitlines()))
    assert [r.moves for r in recs] == [g.moves for g in games]
    tihbat = [r for r in recs if r.tags["Game"] == "tihbat"][0]
    assert tihbat.tags["FEN"] == "5S,10S/7S,2S 4 0 N 5" and "5... 1 6. 2 *" in text
    for r in recs:
        replay(r)  # legal in its rules core
    js = json.loads(export(games, "json"))
    assert [j["moves"] for j in js] == [g.moves for g in games] and js[0]["tags"]["White"] == "Ann"
    with pytest.raises(ValueError):
        export(games, "xml")
    lib.close()


def test_games_and_export_commands(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    _fill(lib)
    lib.close()
    assert cli.main(["games", "--library", db]) == 0
    out = capsys.readouterr().out
    assert "3 games" in out and "Ann - ?" in out
    assert cli.main(["export", "--library", db, "--game", "toguz", "--format", "json"]) == 0
    assert [g["game"] for g in json.loads(capsys.readouterr().out)] == ["toguz"]
    assert cli.main(["export", "--library", db, "--since", "2026-13-01x"]) == 2
    assert "bad date" in capsys.readouterr().err


def _firmware(tmp_path):
    """A copy of the firmware (others edit the real one while the tests run)."""
    dst = tmp_path / "firmware"
    if not dst.exists():
        shutil.copytree(os.path.join(deploy.ROOT, "firmware"), dst,
                        ignore=shutil.ignore_patterns("__pycache__", "*.tbl"))
    return str(dst)


def _args(tmp_path, **kw):
    a = dict(port="/dev/fake", firmware=_firmware(tmp_path), build=str(tmp_path / "build"),
             march="armv6m", dry_run=False, all=False, mpremote="mpremote", mpy_cross=None)
    a.update(kw)
    return types.SimpleNamespace(**a)


class FakeMpremote:
    """Runs mpy-cross for real; answers mpremote with the board's hashes and records copies."""

    def __init__(self, remote):
        self.remote = remote
        self.calls = []

    def __call__(self, cmd, **kw):
        if os.path.basename(cmd[0]) != "mpremote":
            return subprocess.run(cmd, **kw)
        self.calls.append(cmd)
        if deploy.FINISH_SCRIPT in cmd:
            return subprocess.CompletedProcess(cmd, 0, "DEPLOYED\n", "")
        if "exec" in cmd:
            return subprocess.CompletedProcess(cmd, 0, "HASHES" + json.dumps(self.remote) + "\n", "")
        return subprocess.CompletedProcess(cmd, 0, "", "")


def test_deploy_compiles_and_copies_only_what_changed(tmp_path, capsys):
    fake = FakeMpremote({})
    assert deploy.run(_args(tmp_path), runner=fake) == 0
    out = capsys.readouterr().out
    # its limits said each time, as docs/pico.md states them: a start's frames and the
    # thinking frames' mean, the figures bench/py_pico.py compares the deploy's to
    assert out.startswith(deploy.LIMITS + "\n")
    with open(os.path.join(deploy.ROOT, "docs", "pico.md")) as f:
        doc = " ".join(f.read().split())
    for said, doc_said in (("frames of up to %d ms" % deploy.START_FRAME_MS,
                            "in frames of up to %d ms (`deploy.START_FRAME_MS`" % deploy.START_FRAME_MS),
                           ("thinking frames take up to %.1f ms on average" % deploy.THINKING_MEAN_MS,
                            "take up to %.1f ms on average (`deploy.THINKING_MEAN_MS`" % deploy.THINKING_MEAN_MS)):
        assert said in deploy.LIMITS and doc_said in doc, said
    copies = [c for c in fake.calls if "cp" in c]
    assert len(copies) == 1
    cmd = copies[0]
    dests = [cmd[i + 2][1:] for i, x in enumerate(cmd) if x == "--force"]
    assert "playboard/record/__init__.mpy" in dests and "playboard/link.mpy" in dests
    assert "playboard/record/read.mpy" in dests  # (a package: each module a file)
    assert not any(d.startswith("playboard/") and d.endswith(".py") for d in dests)
    mpy = tmp_path / "build" / "playboard" / "record" / "__init__.mpy"
    assert mpy.read_bytes()[:1] == b"M"  # an .mpy file
    # the board now holds everything but a changed link.mpy and an old record.py
    staged = deploy.stage(_firmware(tmp_path), str(tmp_path / "build"), deploy._tool("mpy-cross", None), "armv6m")
    remote = {dest: deploy.sha256_file(path) for path, dest in staged}
    remote["playboard/link.mpy"] = "0" * 64
    remote["playboard/record.py"] = "1" * 64  # (record.py: a module before it was a package)
    remote["playboard/record.mpy"] = "2" * 64
    remote["playboard/pgn.py"] = "3" * 64  # a .py beside its .mpy
    fake = FakeMpremote(remote)
    assert deploy.run(_args(tmp_path), runner=fake) == 0
    out = capsys.readouterr().out
    assert "\n1 to copy, %d unchanged\n" % (len(staged) - 1) in "\n" + out
    cmd = [c for c in fake.calls if "cp" in c][0]
    assert cmd.count("cp") == 1 and ":playboard/link.mpy" in cmd
    assert ":playboard/record.py" in cmd and ":playboard/record.mpy" in cmd and "rm" in cmd
    assert ":playboard/pgn.py" in cmd
    # a dry run copies nothing
    fake = FakeMpremote({})
    assert deploy.run(_args(tmp_path, dry_run=True), runner=fake) == 0
    assert not [c for c in fake.calls if "cp" in c]


def test_deploy_marks_the_board_until_the_last_file_and_finishes_a_cut_off_one(tmp_path, capsys):
    """The copy runs as: stop the watchdog, write deploy.incomplete, make the missing
    folders leaving existing ones alone (so --all runs again), main.py first, the marker
    removed last; a marker left by a deploy cut off is reported and the deploy finished
    even when no file differs; mpremote failing or not confirming says to run it again."""
    fake = FakeMpremote({})
    assert deploy.run(_args(tmp_path, all=True), runner=fake) == 0
    capsys.readouterr()
    cmd = [c for c in fake.calls if "cp" in c][0]
    steps = [[]]
    for word in cmd[3:]:
        if word == "+":
            steps.append([])
        else:
            steps[-1].append(word)
    steps = [" ".join(st) for st in steps]
    assert steps[0].startswith("exec ") and "mem32[0x4005B000] = 1 << 30" in steps[0]
    assert "open('/deploy.incomplete', 'w')" in steps[0] and "except OSError" in steps[0]
    assert "'playboard/app'" in steps[0] and "mkdir" not in cmd
    copies = [st for st in steps if st.startswith("fs cp")]
    assert copies[0].endswith(":main.py") and len(copies) == len(steps) - 2
    assert steps[-1] == "exec " + deploy.FINISH_SCRIPT
    # the board holds every file, and the marker of a deploy cut off
    staged = deploy.stage(_firmware(tmp_path), str(tmp_path / "build"), deploy._tool("mpy-cross", None), "armv6m")
    remote = {dest: deploy.sha256_file(path) for path, dest in staged}
    fake = FakeMpremote(dict(remote, **{deploy.MARK: "2" * 64}))
    assert deploy.run(_args(tmp_path), runner=fake) == 0
    out = capsys.readouterr().out
    assert "cut off" in out and "0 to copy" in out
    last = fake.calls[-2]
    assert "cp" not in last and last[-1] == deploy.FINISH_SCRIPT
    assert fake.calls[-1] == ["mpremote", "connect", "/dev/fake", "reset"]  # the app runs again
    # nothing to do: no copy command at all, but the reset (mpremote's Ctrl-C stopped the app)
    fake = FakeMpremote(remote)
    assert deploy.run(_args(tmp_path), runner=fake) == 0
    assert len(fake.calls) == 2 and fake.calls[-1][-1] == "reset"
    assert "stock MicroPython" in capsys.readouterr().out  # the limits, said every time
    # --no-reset: the app stays stopped, and the output says so
    fake = FakeMpremote(remote)
    assert deploy.run(_args(tmp_path, reset=False), runner=fake) == 0
    assert len(fake.calls) == 1 and "stays stopped" in capsys.readouterr().out
    # the copy cut off (no DEPLOYED from the last step): an error that says what to do
    fake = FakeMpremote({})
    fake.__class__ = type("Cut", (FakeMpremote,), {"__call__": lambda self, cmd, **kw: (
        FakeMpremote.__call__(self, cmd, **kw) if deploy.FINISH_SCRIPT not in cmd
        else subprocess.CompletedProcess(cmd, 1, "", "mpremote: cp: Input/output error"))})
    with pytest.raises(CommandError, match="run it again"):
        deploy.run(_args(tmp_path), runner=fake)


def test_deploy_reads_the_boards_hashes_a_line_a_file():
    # (one repr of them all wanted a block the emulated Pico's heap no longer had)
    out = "HASH main.py 00ff\nHASH playboard/app/loop.mpy ab12\nHASHEND\n"
    calls = []

    def run(cmd, **kw):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, out, "")
    assert deploy.board_hashes("mpremote", "/dev/x", run) == {"main.py": "00ff", "playboard/app/loop.mpy": "ab12"}
    assert "print('HASH', q.lstrip('/')" in calls[0][-1] and "HASHES" not in calls[0][-1]

    def cut(cmd, **kw):
        return subprocess.CompletedProcess(cmd, 0, "HASH main.py 00ff\n", "")
    with pytest.raises(CommandError):
        deploy.board_hashes("mpremote", "/dev/x", cut)  # no HASHEND: the list is not whole
