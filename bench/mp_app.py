"""The whole app under MicroPython: heap of the code, peak heap of a game's data,
the size of the compiled firmware, start-up to a lit board.

Legacy and informational (issue 30): it measures the firmware's ``.mpy`` code loaded
into the heap of the 64-bit unix port in 192 KB, a worse board than any shipped, so
its heap figures gate nothing (no target, never "MISSED"). The product's heap is
measured on the simulator's model and the frozen image (bench/py_model.py), the
``.mpy`` deploy's on the emulated Pico with the stock image (bench/py_pico.py).

Run by ``make bench`` (``micropython -X heapsize=192k``, from the repository root).

- The firmware is compiled by mpy-cross: for this unix port (``build/simfw``, x64:
  what the heap figures load; on the board the code is frozen in flash instead) and
  for the RP2040 (``build/mpy-armv6m``, ``-march=armv6m``: the .mpy bytes reported).
- Code heap: each module's heap when imported here (in dependency order, a
  collection before each reading).
- Data peak: the firmware itself (``build/simfw/main.py`` in its own
  ``micropython -X heapsize=192k``, driven by a command file on its control
  channel, docs/simulator.md) plays a Tobit game of the engine against itself (a
  spectator makes the moves on the sensors) and a Toguz Kumalak demo, collecting
  after every frame; data = its largest live heap minus the code of the modules
  loaded at that moment. (Once a 64 KB target: now a figure only.)
- Start-up (bench/app_boot_probe.py, code imported beforehand as frozen code would
  be): to the first lit LED frame and to the menu lit; and, as measured by the
  firmware process, with its .mpy files loaded from the filesystem (no target).
  The RP2040's start-up is measured on the emulated Pico (bench/py_pico.py: lit
  <= 1 s, menu < 2 s), not estimated from these.
"""
import gc
import os
import sys

from benchlib import report  # noqa: E402

PY = "./.venv/bin/python"
MP = "./.venv/bin/micropython"
BUILDER = ("%s -c 'import sys; sys.path.insert(0, \"host_tools\"); "
           "from playboard_host.simboard import build_firmware; build_firmware(%s)'")
# dependency order: a module's imports come before it
MODULES = ("playboard", "playboard.compat", "playboard.games", "playboard.games.common",
           "playboard.games.registry", "playboard.games.base",
           "playboard.hw", "playboard.hw.base", "playboard.sim", "playboard.sim.hw", "playboard.board",
           "playboard.board.layout", "playboard.record", "playboard.board.debounce",
           "playboard.board.scan", "playboard.board.lights", "playboard.board.tracker",
           "playboard.engine", "playboard.engine.evaluation_native", "playboard.engine.evaluation",
           "playboard.engine.search",
           "playboard.app", "playboard.app.state", "playboard.app.loop", "playboard.app.gamestart",
           "playboard.app.startup",
           "playboard.app.ui", "playboard.sim.bridge", "playboard.sim.flash", "playboard.sim.boot",
           "playboard.games.tobit_native", "playboard.games.tobit_board", "playboard.games.tobit",
           "playboard.board.tobit_tracker_native", "playboard.board.tobit_position", "playboard.board.tobit_tracker",
           "playboard.games.mancala_text", "playboard.games.snapshot", "playboard.games.toguz_native",
           "playboard.games.toguz", "playboard.board.mancala_tracker", "playboard.games.tihbat_native",
           "playboard.games.tihbat", "playboard.engine.tihbat_table", "playboard.hw.stdio",
           "playboard.link", "playboard.settings")
OPTIONAL = ("playboard.app.ui", "playboard.app.gamestart", "playboard.app.startup",
            "playboard.sim.flash", "playboard.sim.boot",
            "playboard.games.tobit", "playboard.games.tobit_board", "playboard.board.tobit_tracker",
            "playboard.board.tobit_position",
            "playboard.games.snapshot",
            "playboard.games.toguz", "playboard.board.mancala_tracker", "playboard.games.mancala_text",
            "playboard.games.tihbat", "playboard.engine.tihbat_table", "playboard.link",
            "playboard.settings")
SCRIPT = """events off
watch
auto
game tobit demo 3
setup
%s
status
mem
game toguz demo 3
watch
%s
status
mem
quit
""" % ("\n".join(["adv 5000"] * 40), "\n".join(["adv 5000"] * 50))
TMP = "/tmp/pb-bench-app"


def mem():
    gc.collect()
    return gc.mem_alloc()


def rp2040_mpy_bytes():
    """Bytes of the armv6m .mpy of the modules firmware/manifest.py freezes."""
    class Options:  # the manifest's options (include(..., model=..., own_boot=..., data=...))
        model = False
        own_boot = False
        data = None
    env = {"include": lambda *a, **k: None, "package": lambda *a, **k: None,
           "module": lambda *a, **k: None, "options": Options}
    with open("firmware/manifest.py") as f:
        exec(f.read(), env)
    total = 0
    for name in env["BOARD_FILES"]:
        total += os.stat("build/mpy-armv6m/playboard/" + name[:-3] + ".mpy")[6]
    return total


def code_sizes():
    sizes = {}
    for name in MODULES:
        a = mem()
        __import__(name)
        sizes[name] = mem() - a
        if name in OPTIONAL:
            sys.modules.pop(name, None)
    return sizes


def code_sizes_apart(tmp):
    """``code_sizes`` (module -> heap bytes of its code) measured in a MicroPython
    process of its own (the caller's heap holds its results), files in folder ``tmp``."""
    import json
    with open(tmp + "/sizes.py", "w") as f:
        f.write("import sys, json\nsys.path.insert(0, 'build/simfw')\nsys.path.insert(0, 'bench')\n"
                "from mp_app import code_sizes\nprint(json.dumps(code_sizes()))\n")
    # (a larger heap than the model's: every game's code is loaded in turn; a module's
    # code takes the same bytes of heap whatever its size)
    os.system("MICROPYPATH=firmware:bench %s -X heapsize=1024k %s/sizes.py > %s/sizes.out" % (MP, tmp, tmp))
    with open(tmp + "/sizes.out") as f:
        return json.loads(f.read())


def play():
    """Run the firmware on the command script; its JSON replies, parsed."""
    import json
    for f in ("/ctl", "/out", "/flash/games"):
        os.system("rm -rf %s" % TMP)
    os.system("rm -rf %s && mkdir -p %s" % (TMP, TMP))
    with open(TMP + "/ctl", "w") as f:
        f.write(SCRIPT)
    code = os.system("%s -X heapsize=192k build/simfw/main.py --ctl 3,4 --clock virtual --flash %s/flash "
                     "--no-link 3<%s/ctl 4>%s/out 2>%s/err" % (MP, TMP, TMP, TMP, TMP))
    out = []
    with open(TMP + "/out") as f:
        for line in f:
            out.append(json.loads(line))
    return code, out


def main():
    if os.system(BUILDER % (PY, "")) or os.system(BUILDER % (PY, '"build/mpy-armv6m", march="armv6m"')):
        print("cannot build the compiled firmware (make setup)")
        return
    sys.path.insert(0, "build/simfw")
    mpy = rp2040_mpy_bytes()  # first: reading the manifest compiles it, before the code fills the heap
    os.system("mkdir -p %s" % TMP)
    sizes = code_sizes_apart(TMP)  # in a process of its own with a larger heap (every game's code)
    for name in MODULES:  # measured: give the heap back to this harness (the firmware runs apart)
        sys.modules.pop(name, None)
    gc.collect()
    play_code = 0
    for name in MODULES:
        if name not in ("playboard.games.mancala_text", "playboard.games.toguz",
                        "playboard.board.mancala_tracker", "playboard.app.ui", "playboard.app.gamestart",
                        "playboard.app.startup",
                        "playboard.sim.flash", "playboard.sim.boot"):
            play_code += sizes[name]
    report("app code heap, Tobit game with the engine (unix x64 .mpy)", play_code // 1024, "KB",
           None, None, None)
    # the figures docs/app.md ("Memory") gives: what loading on demand keeps off the heap
    report("code heap of the link (loaded when the host first speaks)",
           round(sizes["playboard.link"] / 1024, 1), "KB", None, None, None)
    native = [n for n in MODULES if n.endswith("_native")]
    report("code heap of the %d native-kernel modules (loaded once, at power-up)" % len(native),
           round(sum(sizes[n] for n in native) / 1024, 1), "KB", None, None, None)
    report("firmware .mpy size (mpy-cross -march=armv6m, frozen on the board)", mpy // 1024, "KB",
           None, None, None)
    code, out = play()
    if code or len(out) < 10:
        print("the firmware run failed (%r); see %s/err" % (code, TMP))
        return
    ready = out[0]
    boot = ready["boot_us"] / 1000
    report("start-up to the menu lit, loading .mpy files (not frozen)", round(boot, 1), "ms",
           None, None, "emulated Pico: py_pico")
    best = None
    for _ in range(3):  # best of 3: the machine is shared
        os.system("mkdir -p %s/boot && %s -X heapsize=192k bench/app_boot_probe.py %s/boot > %s/boot.json"
                  % (TMP, MP, TMP, TMP))
        import json
        with open(TMP + "/boot.json") as f:
            d = json.loads(f.read())
        if best is None or d["menu_us"] < best["menu_us"]:
            best = d
    lit = best["lit_us"] / 1000
    menu = best["menu_us"] / 1000
    report("start-up to a lit board (code loaded, as frozen)", round(lit, 2), "ms",
           None, None, "emulated Pico: py_pico (<= 1 s)")
    report("LEDs lit at start-up", best["leds"], "LEDs", ">= 9", best["leds"] >= 9)
    report("start-up to the menu lit (code loaded, as frozen)", round(menu, 1), "ms",
           None, None, "emulated Pico: py_pico (< 2 s)")
    mems = [d for d in out if "peak" in d]
    stats = [d for d in out if "state" in d]
    names = ("Tobit engine v engine", "Toguz Kumalak demo")
    for i in range(2):
        m = mems[i]
        loaded = 0
        for name in m["peak_modules"]:
            loaded += sizes.get(name, 0)
        data = m["peak"] - loaded
        st = stats[i]
        # (informational: the legacy model's figures, not the product's; see the docstring)
        report("app data peak, %s (%d plies), legacy x64 .mpy" % (names[i], st.get("ply", 0)),
               data // 1024, "KB", None, None, "informational")
        report("app heap peak, code + data, %s, legacy x64 .mpy" % names[i], m["peak"] // 1024, "KB",
               None, None, "informational")
    os.system("rm -rf %s" % TMP)


if __name__ == "__main__":
    main()
