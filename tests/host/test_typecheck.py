"""The firmware's hardware layer type-checks against the boards' stubs (mypy).

- rp2 side: ``micropython-rp2-rpi-pico-stubs`` (``machine``, ``rp2``, ``neopixel``,
  ``time``, ``micropython``) for the board-layer modules and the rp2 backend;
- CircuitPython side: ``circuitpython-stubs`` (``keypad``, ``microcontroller``) and
  Adafruit's ``neopixel`` for the CircuitPython backend.

So a call that does not exist on the board (``Pin.valu()``, ``SPI(speed=...)``,
``KeyMatrix(columns_to_anode=...)``) fails here. The stubs live in ``.venv-stubs``
(made on first use from tests/typecheck/*.txt, remade when those change), never in
``.venv``.
"""
import hashlib
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TC = os.path.join(ROOT, "tests", "typecheck")
VENV = os.path.join(ROOT, ".venv-stubs")
TYPINGS_RP2 = os.path.join(VENV, "typings-rp2")
PY = os.path.join(VENV, "bin", "python")

# the modules checked (the hardware helper's; see docs/hardware.md)
RP2_FILES = [
    "playboard/config.py",
    "playboard/hw/__init__.py", "playboard/hw/base.py", "playboard/hw/open.py",
    "playboard/sim/hw.py", "playboard/sim/open.py", "playboard/hw/selftest.py",
    "playboard/hw/rp2.py", "playboard/hw/hall.py", "playboard/hw/hallzero.py", "playboard/hw/bits.py",
    "playboard/board/debounce.py", "playboard/board/lights.py",
    "playboard/board/layout.py", "playboard/board/scan.py",
    # the rules cores and records (compat.pyi gives the viper names a type)
    "playboard/games/__init__.py", "playboard/games/common.py", "playboard/games/registry.py",
    "playboard/games/base.py", "playboard/games/bufops.py",
    "playboard/games/mancala_text.py", "playboard/games/snapshot.py", "playboard/games/toguz.py", "playboard/games/tobit.py",
    "playboard/games/tobit_board.py", "playboard/games/tobit_tables.py",
    "playboard/games/tobit_fen.py",
    "playboard/games/tihbat.py", "playboard/games/perft.py", "playboard/pgn.py",
    "main.py", "playboard/app/onboard.py",  # the entry point; machine.WDT and the board start-up
]
CP_FILES = ["playboard/hw/circuitpython.py", "playboard/hw/nvm.py"]


def _stamp():
    h = hashlib.sha256()
    for f in ("venv.txt", "venv-nodeps.txt", "typings-rp2.txt"):
        with open(os.path.join(TC, f), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def _run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    if proc.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd), (proc.stdout + proc.stderr)[-3000:]))


def ensure_stubs_venv():
    """Create or refresh .venv-stubs; return the mypy command prefix."""
    stamp = os.path.join(VENV, ".installed")
    want = _stamp()
    if os.path.exists(stamp) and open(stamp).read() == want:
        return [PY, "-m", "mypy"]
    pip = [PY, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    _run([sys.executable, "-m", "venv", "--clear", VENV])
    _run(pip + ["-r", os.path.join(TC, "venv.txt")])
    _run(pip + ["--no-deps", "-r", os.path.join(TC, "venv-nodeps.txt")])
    _run(pip + ["--target", TYPINGS_RP2, "-r", os.path.join(TC, "typings-rp2.txt")])
    with open(stamp, "w") as f:
        f.write(want)
    return [PY, "-m", "mypy"]


@pytest.fixture(scope="module")
def mypy(tmp_path_factory):
    return ensure_stubs_venv()


def run_mypy(mypy, config, files, tmp):
    cfg = os.path.join(str(tmp), os.path.basename(config))
    with open(config) as f:
        text = f.read().replace("TYPINGS_RP2", TYPINGS_RP2)
    with open(cfg, "w") as f:
        f.write(text)
    cache = os.path.join(VENV, "mypy-cache", os.path.basename(config))
    proc = subprocess.run(mypy + ["--config-file", cfg, "--cache-dir", cache] + files, cwd=os.path.join(ROOT, "firmware"), capture_output=True, text=True,
                          timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


def test_firmware_typechecks_against_rp2_stubs(mypy, tmp_path):
    rc, out = run_mypy(mypy, os.path.join(TC, "mypy-rp2.ini"), RP2_FILES, tmp_path)
    assert rc == 0 and "Success" in out, out[-4000:]


def test_circuitpython_backend_typechecks_against_circuitpython_stubs(mypy, tmp_path):
    rc, out = run_mypy(mypy, os.path.join(TC, "mypy-circuitpython.ini"), CP_FILES, tmp_path)
    assert rc == 0 and "Success" in out, out[-4000:]


def test_a_call_that_does_not_exist_on_the_board_fails(mypy, tmp_path):
    src = tmp_path / "src" / "playboard"
    (src / "hw").mkdir(parents=True)
    bad = ("import machine\n"
           "p = machine.Pin(2, machine.Pin.OUT)\n"
           "p.valu(0)\n"
           "s = machine.SPI(1, baudrate=1000000, speed=3)\n")
    (src / "hw" / "bad.py").write_text(bad)
    cfg = os.path.join(TC, "mypy-rp2.ini")
    with open(cfg) as f:
        text = f.read().replace("TYPINGS_RP2", TYPINGS_RP2)
    (tmp_path / "c.ini").write_text(text)
    proc = subprocess.run(mypy + ["--config-file", str(tmp_path / "c.ini"), "--cache-dir",
                                  str(tmp_path / "cache"), "playboard/hw/bad.py"],
                          cwd=str(tmp_path / "src"), capture_output=True, text=True, timeout=300)
    out = proc.stdout
    assert proc.returncode == 1, out
    assert '"Pin" has no attribute "valu"' in out and "SPI" in out, out
