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
    assert "playboard/games/tihbat_native.py" in files
    assert not any(f.startswith("playboard/sim/") or f.endswith(".mpy") for f in files)
    assert "deploy.incomplete" not in files
    n = len(files)
    assert ("%d copied, 0 unchanged" % n) in first
    src = (tmp_path / "playboard" / "games" / "tihbat_native.py").read_bytes()
    assert b"@micropython.viper" not in src and b"def _sow(p: ptr8, m: int) -> int:" in src
    assert deploy.run(_args(tmp_path), runner=None) == 0
    assert ("0 copied, %d unchanged" % n) in capsys.readouterr().out
    (tmp_path / "main.py").write_bytes(b"# changed on the drive\n")
    assert deploy.run(_args(tmp_path), runner=None) == 0
    out = capsys.readouterr().out
    assert "copy  main.py" in out and ("1 copied, %d unchanged" % (n - 1)) in out


def test_deploy_to_a_missing_drive_is_one_clear_line(tmp_path):
    with pytest.raises(CommandError, match="no drive at .*CIRCUITPY"):
        deploy.run(_args(tmp_path / "nowhere"), runner=None)
