"""`playboard deploy --circuitpython DRIVE`: the firmware staged for CircuitPython written
to a mounted CIRCUITPY folder (here a temporary folder), only what differs."""
import argparse
import os

import pytest

from playboard_host.cli import CommandError
from playboard_host.commands import deploy


def _args(drive, **kw):
    p = argparse.ArgumentParser()
    deploy.add_arguments(p)
    a = p.parse_args(["--circuitpython", str(drive)])
    for k, v in kw.items():
        setattr(a, k, v)
    return a


def test_deploy_writes_the_drive_then_nothing_then_one_changed_file(tmp_path, capsys):
    assert deploy.run(_args(tmp_path), runner=None) == 0
    first = capsys.readouterr().out
    files = sorted(os.path.relpath(os.path.join(d, f), tmp_path).replace(os.sep, "/")
                   for d, _, fs in os.walk(tmp_path) for f in fs)
    assert "main.py" in files and "boot.py" in files and "boards/pico-matrix-cp.json" in files
    assert "playboard/games/tihbat_native.mpy" in files and "playboard/games/tihbat_native.py" not in files
    assert not any(f.startswith("playboard/sim/") or (f.startswith("playboard/") and f.endswith(".py")) for f in files)
    assert "deploy.incomplete" not in files
    n = len(files)
    assert ("%d copied, 0 unchanged" % n) in first
    mpy = (tmp_path / "playboard" / "games" / "tihbat_native.mpy").read_bytes()
    assert mpy[:4] == b"C\x06\x00\x1f"  # CircuitPython's mark, mpy v6, no native arch, 31-bit small ints
    assert deploy.run(_args(tmp_path), runner=None) == 0
    assert ("0 copied, %d unchanged" % n) in capsys.readouterr().out
    (tmp_path / "main.py").write_bytes(b"# changed on the drive\n")
    assert deploy.run(_args(tmp_path), runner=None) == 0
    out = capsys.readouterr().out
    assert "copy  main.py" in out and ("1 copied, %d unchanged" % (n - 1)) in out


def test_deploy_removes_the_py_that_would_shadow_an_mpy(tmp_path, capsys):
    """A drive deployed as .py before: each playboard module's .py goes (import would take
    it before the .mpy), main.py stays."""
    (tmp_path / "playboard" / "games").mkdir(parents=True)
    (tmp_path / "playboard" / "games" / "tihbat.py").write_bytes(b"raise ImportError\n")
    (tmp_path / "playboard" / "games" / "mine.txt").write_bytes(b"kept\n")
    assert deploy.run(_args(tmp_path), runner=None) == 0
    out = capsys.readouterr().out
    assert "remove  playboard/games/tihbat.py" in out
    assert not (tmp_path / "playboard" / "games" / "tihbat.py").exists()
    assert (tmp_path / "playboard" / "games" / "tihbat.mpy").exists() and (tmp_path / "main.py").exists()
    assert (tmp_path / "playboard" / "games" / "mine.txt").read_bytes() == b"kept\n"


def test_a_failing_mpy_cross_is_one_clear_line(tmp_path):
    with pytest.raises(CommandError, match="CircuitPython deploy: mpy-cross not found"):
        deploy.run(_args(tmp_path, mpy_cross=str(tmp_path / "no-such-mpy-cross")), runner=None)
    assert not (tmp_path / "main.py").exists()


def test_deploy_to_a_missing_drive_is_one_clear_line(tmp_path):
    with pytest.raises(CommandError, match="no drive at .*CIRCUITPY"):
        deploy.run(_args(tmp_path / "nowhere"), runner=None)
