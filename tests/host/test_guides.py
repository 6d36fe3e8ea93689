"""The player's guide walked as a new user would (docs/player.md; then the museum
guide's statistics, docs/museum.md): every `playboard`
command of its code blocks run as written, in an empty folder with an empty home
(no library yet), against the simulated board over its own serial port, with a
finished game on its flash. The commands the guide gives without a port find the
board by its USB id; here `--port` is added (the simulated board's pseudo-terminal),
and `live` gets `--seconds` so that it ends."""
import os
import re
import shlex

import pytest

from playboard_host import cli
from playboard_host.gestures import PAD_BLACK_RESIGN, press_pad
from playboard_host.simboard import SimBoard, micropython_binary

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def guide_commands(name):
    """The `playboard ...` lines of docs/NAME's code blocks, comments removed."""
    with open(os.path.join(ROOT, "docs", name), encoding="utf-8") as f:
        text = f.read()
    out = []
    for block in re.findall(r"```\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line.startswith("playboard "):
                out.append(shlex.split(line)[1:])
    return out


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_the_players_and_the_museums_guides_step_by_step(tmp_path, monkeypatch, capsys):
    cmds = guide_commands("player.md")
    assert [c[0] for c in cmds] == ["--help", "ports", "sync", "games", "export", "export", "live"]
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("PLAYBOARD_LIBRARY", raising=False)
    from playboard_host import library
    # (its ~ was expanded when first imported: the new home's, as a fresh process has it)
    monkeypatch.setattr(library, "DEFAULT_PATH", str(home / ".playboard" / "library.sqlite"))
    monkeypatch.chdir(tmp_path)
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"))
        b.new_game("toguz", "two")
        b.advance(300)
        b.tap(6)  # South's pit 7
        b.advance(3000)
        for _ in range(2):  # North resigns on its pad
            press_pad(b, "toguz", PAD_BLACK_RESIGN)
        b.advance(500)
        for argv in cmds:
            if argv[0] in ("sync", "live"):
                argv = argv + ["--port", b.port, "--timeout", "3"]
            if argv[0] == "live":
                argv = argv + ["--seconds", "2"]
            try:
                status = cli.main(argv)
            except SystemExit as e:  # --help
                status = e.code
            out, err = capsys.readouterr()
            assert status == 0, (argv, out, err)
            assert "Traceback" not in err, (argv, err)
            if argv[0] == "sync":
                assert "synced 1 new game" in out
                assert os.path.exists(home / ".playboard" / "library.sqlite")
            if argv[0] == "games":
                assert out.splitlines()[1].split()[3:5] == ["South", "won"] and out.splitlines()[-1] == "1 game"
        # then the museum guide's statistics on the same library (docs/museum.md)
        museum = guide_commands("museum.md")
        assert [c[0] for c in museum] == ["settings", "settings", "stats", "stats", "stats", "boards"]
        for argv in museum:
            argv = [("sim" if a == "e66138..." else a) for a in argv]
            if argv[0] == "settings":
                argv = argv + ["--port", b.port, "--timeout", "3"]
            if "--report" in argv:
                pytest.importorskip("matplotlib")
            assert cli.main(argv) == 0, argv
            out, err = capsys.readouterr()
            assert "Traceback" not in err
            if argv == ["stats"]:
                assert out.startswith("games: 1 started, 1 finished, 0 abandoned;")
            if argv[:2] == ["settings", "--port"]:
                assert "locked" in out  # the museum profile took
        assert os.path.exists(tmp_path / "curator" / "index.html")
        with open(tmp_path / "my-games.pgn", encoding="utf-8") as f:
            text = f.read()
        assert '[Result "1-0"]' in text and '[Termination "resignation"]' in text and "1. 76" in text
        assert (tmp_path / "may.pgn").read_text() == ""  # no Tobit game in May 2026
    finally:
        b.stop()
