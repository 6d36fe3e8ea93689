"""A locked (museum) board interns its code's names at power-up (issue 14; docs/museum.md,
"Known problems"): the build's list of names (``playboard_host.mpynames``), its deploy,
and the firmware's ``playboard.app.names`` under MicroPython's unix port (192 KB heap)."""
import os
import re
import subprocess

import pytest

from playboard_host.commands import deploy
from playboard_host.mpynames import FILE, mpy_names
from playboard_host.simboard import ROOT, build_firmware, micropython_binary

needs_mp = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def _names(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8").split("\n")[:-1]


def _mpy(build, rel):
    with open(os.path.join(build, rel), "rb") as f:
        return mpy_names(f.read())


@needs_mp
@pytest.mark.skip(reason="the names' interning is an old-model mechanism being removed (issue 30): the model and the image hold the firmware's names in ROM, and build_firmware no longer writes data/names")
def test_the_simulated_boards_build_lists_every_name_its_modules_intern_once():
    build = build_firmware()
    names = _names(os.path.join(build, FILE))
    assert len(names) == len(set(names)) > 1300
    link = _mpy(build, "playboard/link.mpy")
    assert link[0] == "playboard/link.py"  # (the source name mpy-cross -s gives: interned too)
    assert set(link) <= set(names) and set(_mpy(build, "playboard/engine/search.mpy")) <= set(names)
    # the RP2040's backend is never loaded by the simulated board: its own names are left out
    rp2_only = set(_mpy(build, "playboard/hw/rp2.mpy")) - set().union(*(
        _mpy(build, os.path.join(d, f)) for d, _, fs in os.walk(os.path.join(build, "playboard"))
        for f in fs if f.endswith(".mpy") and f != "rp2.mpy"))
    assert "playboard/hw/rp2.py" in rp2_only and not rp2_only & set(names)
    assert not any("\n" in n or "\r" in n for n in names)


def test_a_non_mpy_file_is_refused_by_the_names_reader():
    with pytest.raises(ValueError, match="format 6"):
        mpy_names(b"print(1)\n")


def test_a_deploy_copies_the_names_of_the_modules_it_stages(tmp_path):
    """`playboard deploy` stages ``data/names`` with the RP2040's .mpy files: the names of
    every module staged, the simulated board's package not among them."""
    fw = tmp_path / "firmware"
    import shutil
    shutil.copytree(os.path.join(ROOT, "firmware"), fw, ignore=shutil.ignore_patterns("__pycache__", "*.tbl"))
    build = str(tmp_path / "build")
    staged = deploy.stage(str(fw), build, deploy._tool("mpy-cross", None), "armv6m")
    dests = dict((d, p) for p, d in staged)
    assert "data/names" in dests
    names = _names(dests["data/names"])
    assert set(_mpy(build, "playboard/hw/rp2.mpy")) <= set(names)
    assert "playboard/app/names.py" in names and not any(n.startswith("playboard/sim/") for n in names)
    # staged again unchanged: the same file, not rewritten (a deploy copies what changed)
    t = os.stat(dests["data/names"]).st_mtime_ns
    deploy.stage(str(fw), build, deploy._tool("mpy-cross", None), "armv6m")
    assert os.stat(dests["data/names"]).st_mtime_ns == t


# The heap as a museum board's after power-up: the app's code loaded (the names' pools of
# 20..640 made), then cut into 1 KB holes but one of 16 KB, the largest, lowest block.
_FRAGMENTED = """
import gc, sys, micropython
sys.path.insert(0, "build/simfw")
import playboard.app.loop, playboard.sim.bridge, playboard.sim.hw, playboard.link, playboard.record
gc.collect()
big = bytearray(16 * 1024)
fill = []
try:
    while True:
        fill.append(bytearray(1024))
except MemoryError:
    pass
big = None
for i in range(0, len(fill), 2):
    fill[i] = None
gc.collect()
if sys.argv[-1] == "one-by-one":
    try:
        with open("build/simfw/data/names") as f:
            for line in f:
                getattr(gc, line[:-1], None)
        print("interned all")
    except MemoryError as e:
        print("MemoryError", e)
else:
    import playboard.app.names as names  # (its import interns them)
    print("interned", names.n)
micropython.qstr_info()
"""


def _fragmented(tmp_path, how):
    script = tmp_path / "frag.py"
    script.write_text(_FRAGMENTED)
    build_firmware()
    r = subprocess.run([micropython_binary(), "-X", "heapsize=192k", str(script), how], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    pool = re.search(r"n_pool=(\d+), n_qstr=(\d+)", r.stdout)
    return r.stdout, int(pool.group(1)), int(pool.group(2))


@needs_mp
@pytest.mark.skip(reason="the names' interning is an old-model mechanism being removed (issue 30): the model and the image hold the firmware's names in ROM, and build_firmware no longer writes data/names")
def test_the_names_pool_grows_at_power_up_in_the_heaps_largest_block(tmp_path):
    """Every name interned one by one: the strings read and the names' text cut the one
    large block, and the 1280-name pool (14 KB in one piece) finds none. ``intern_all``
    holds that block meanwhile and gives it to the pool: every name is interned, the
    seventh pool made (1260 names before it)."""
    out, pools, n = _fragmented(tmp_path, "one-by-one")
    assert "MemoryError memory allocation failed, allocating 1280 bytes" in out
    assert (pools, n) == (6, 1260)
    out, pools, n = _fragmented(tmp_path, "held")
    lines = len(_names(os.path.join(ROOT, "build", "simfw", FILE)))
    assert "interned %d\n" % lines in out
    assert pools == 7 and 1270 < n <= lines + 300, out


@pytest.mark.parametrize("locked", [True, False])
def test_a_locked_board_feeds_its_watchdog_just_before_and_after_its_names(monkeypatch, locked):
    """The names' interning at a locked board's power-up (2.7 s on the emulated Pico,
    bench/py_pico_locked.py: 1,693 names and a sweep every 16) has a
    whole watchdog period (8 s, started before the App): the App feeds it just before
    and just after; an unlocked board interns nothing and feeds nothing there."""
    import builtins
    import sys

    sys.path.insert(0, os.path.join(ROOT, "tests", "firmware"))
    try:
        import apprig
        from fakeflash import FakeFs
    finally:
        sys.path.pop(0)
    from playboard.app.loop import App
    from playboard.record import Store

    log = []

    class Wdt:
        def feed(self):
            log.append("feed")

    real = builtins.__import__

    def spy(name, *a, **k):
        if name == "playboard.app.names":
            log.append("names")
        return real(name, *a, **k)

    store = Store("/games", fs=FakeFs())
    store.save_settings({"locked": locked})
    monkeypatch.setattr(builtins, "__import__", spy)
    App(apprig.open_board(apprig._cfg()), apprig._cfg(), store, think="nodes", tt_size=64, wdt=Wdt(),
        clock=lambda: 0)
    monkeypatch.setattr(builtins, "__import__", real)
    assert log == (["feed", "names", "feed"] if locked else []), log
