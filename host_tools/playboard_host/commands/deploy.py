"""`playboard deploy`: compile the firmware with mpy-cross and copy what changed with mpremote.

Every ``firmware/playboard/**.py`` is compiled to ``.mpy`` (for the RP2040:
``-march=armv6m``) into a staging folder (``build/deploy``); ``firmware/main.py``
and ``boot.py`` stay source, board definitions are copied as they are. The board
is asked for the SHA-256 of the files it holds (one ``mpremote exec``), and only
files whose hash differs are copied (one chained ``mpremote`` command). A
``.py`` left on the board beside a new ``.mpy`` of the same module is removed,
since MicroPython would import the ``.py`` first.

Safe at any size (docs/app.md, "Deploying"): ``mpremote``'s Ctrl-C stops the app,
and the first thing run on the board stops the RP2040's watchdog (an older app left
it running: the board reset 8 s later, in the middle of the copy). Before copying,
the marker ``deploy.incomplete`` is written on the board, and removed after the last
file: a deploy cut off (cable, reset) leaves it, ``main.py`` then keeps the app
stopped instead of running old and new modules mixed, and the next deploy says so
and finishes the job (the hashes find what is missing or half-written). The folders
are made by a script that leaves existing ones alone, so ``--all`` can run again
and again.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

from playboard_host.cli import CommandError
from playboard_host.firmware_files import BOARD_ONLY_SKIP, sources  # noqa: F401 (also read from here)

HELP = "compile the firmware with mpy-cross and copy the changed files to the board with mpremote"

# The longest frame of a game's start on the deploy (ms): a unit of the start
# (app.gamestart) loads one module's code into the heap, 5 ms plus 8 ms a KB, and
# the Toguz Kumalak tracker's 6 KB takes 53-55 ms in one frame (45-61 ms from run to
# run and with the native search on), over the product's 50 ms. bench/py_pico.py
# compares the .mpy deploy's start frames to this.
START_FRAME_MS = 65
# The mean of the engine's thinking frames on the deploy (ms): its planned collections
# take 26-30 ms there (12 ms on the frozen image, less heap in use to mark), one a 32
# slices, and the mean was 9.9-10.2 ms from run to run, at the product's 10 ms
# (issue 35). bench/py_pico.py compares the .mpy deploy's mean to this.
THINKING_MEAN_MS = 10.5

# The deploy's limits, stated once here and in docs/pico.md ("The .mpy deploy"): printed by every deploy.
LIMITS = ("playboard deploy is the developer's way to try a change on a board running stock MicroPython. "
          "Its limits (measured on the emulated Pico, bench/py_pico.py; the product's targets do not "
          "apply to it): the firmware's code is loaded into the heap (in play 51-74 KB free, Tobit's "
          "set-up 51-63, instead of the frozen image's 183-190), Tobit's native search stays off and "
          "the engine's deepest levels may not fit; a game's start loads its code a module a frame, "
          "frames of up to %d ms (the board's 50 ms target: the frozen image's 21-35), and the engine's "
          "thinking frames take up to %.1f ms on average (target 10: the heap's collections take "
          "twice as long); the stock image's flash has no record journal, so "
          "each move's write erases a flash sector (52.7 ms median, 127 ms worst, the board stalled "
          "meanwhile, instead of the frozen image's 1-2 ms). " % (START_FRAME_MS, THINKING_MEAN_MS) +
          "A board for players runs the frozen image: `make uf2`, then drop build/playboard-pico.uf2 on "
          "the board in BOOTSEL mode (docs/pico.md).")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

MARK = "deploy.incomplete"   # firmware/main.py's DEPLOY_MARK

# Runs first on the board: stops the RP2040's watchdog (WATCHDOG CTRL ENABLE, cleared
# through the register's atomic-clear alias; machine.WDT cannot stop it).
STOP_WATCHDOG = r"""
import sys
if sys.platform == 'rp2':
    import machine
    machine.mem32[0x4005B000] = 1 << 30
"""

# Runs on the board before the copy: the watchdog stopped, the marker written, the
# folders made where missing.
PREPARE_SCRIPT = STOP_WATCHDOG + r"""
import os
with open('/%s', 'w') as f:
    f.write('playboard deploy\n')
for d in %r:
    try:
        os.mkdir('/' + d)
    except OSError:
        pass
"""

FINISH_SCRIPT = "import os\nos.remove('/%s')\nprint('DEPLOYED')\n" % MARK

# Runs on the board: stops the watchdog, prints {path: sha256 hex} of every file under
# the given roots.
HASH_SCRIPT = STOP_WATCHDOG + r"""
import os, hashlib, binascii
def _walk(p, out):
    try:
        ents = list(os.ilistdir(p))
    except OSError:
        return
    for e in ents:
        q = (p.rstrip('/') + '/' + e[0])
        if e[1] & 0x4000:
            _walk(q, out)
        else:
            h = hashlib.sha256()
            with open(q, 'rb') as f:
                while True:
                    b = f.read(512)
                    if not b:
                        break
                    h.update(b)
            print('HASH', q.lstrip('/'), binascii.hexlify(h.digest()).decode())
for _r in %s:
    try:
        if os.stat(_r)[0] & 0x4000:
            _walk(_r, None)
        else:
            h = hashlib.sha256(open(_r, 'rb').read())
            print('HASH', _r.lstrip('/'), binascii.hexlify(h.digest()).decode())
    except OSError:
        pass
print('HASHEND')
"""


def add_arguments(p):
    p.add_argument("--port", help="serial port of the board (default: mpremote's auto)")
    p.add_argument("--firmware", default=os.path.join(ROOT, "firmware"), help="firmware folder (default %(default)s)")
    p.add_argument("--build", default=os.path.join(ROOT, "build", "deploy"), help="staging folder (default %(default)s)")
    p.add_argument("--march", default="armv6m", help="mpy-cross -march (default %(default)s, the RP2040)")
    p.add_argument("--dry-run", "-n", action="store_true", help="compile, ask the board, show what would be copied; copy nothing")
    p.add_argument("--all", action="store_true", help="copy every file, changed or not (no hash check on the board)")
    p.add_argument("--mpremote", default=None, help="mpremote command (default: the one beside this Python)")
    p.add_argument("--mpy-cross", dest="mpy_cross", default=None, help="mpy-cross command")
    p.add_argument("--circuitpython", metavar="DRIVE", default=None,
                   help="instead: write the firmware to a CircuitPython board's mounted CIRCUITPY drive "
                        "(.mpy for CircuitPython, only the files that differ; no mpremote; docs/hardware.md)")
    p.add_argument("--no-reset", dest="reset", action="store_false",
                   help="leave the app stopped afterwards (default: reset the board, which runs it)")


def _tool(name, given):
    if given:
        return given
    here = os.path.join(os.path.dirname(sys.executable), name)
    return here if os.path.exists(here) else (shutil.which(name) or name)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def stage(firmware, build, mpy_cross, march, run=subprocess.run):
    """Compile/copy into ``build``; return a list of (staged path, board path).

    A ``.py`` of the playboard package becomes ``.mpy`` (recompiled only when the
    source's hash changed since the last staging). CommandError if mpy-cross fails."""
    os.makedirs(build, exist_ok=True)
    cache_path = os.path.join(build, ".sources.json")
    try:
        with open(cache_path) as f:
            cache = json.load(f)
    except (OSError, ValueError):
        cache = {}
    staged = []
    for src, dest in sources(firmware):
        compile_it = dest.startswith("playboard/") and dest.endswith(".py")
        if compile_it:
            dest = dest[:-3] + ".mpy"
        out = os.path.join(build, dest)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        h = sha256_file(src)
        key = dest + "|" + march
        if cache.get(key) != h or not os.path.exists(out):
            if compile_it:
                proc = run([mpy_cross, "-march=" + march, "-s", dest[:-4] + ".py", "-o", out, src],
                           capture_output=True, text=True)
                if proc.returncode != 0:
                    raise CommandError("mpy-cross failed on %s:\n%s" % (src, proc.stderr or proc.stdout))
            else:
                shutil.copyfile(src, out)
            cache[key] = h
        staged.append((out, dest))
    with open(cache_path, "w") as f:
        json.dump(cache, f, indent=0, sort_keys=True)
    return staged


def board_hashes(mpremote, port, run=subprocess.run):
    """{board path: sha256 hex} of the files on the board under main.py, boot.py, playboard, boards.

    The board prints a line a file (``HASH path hex``, then ``HASHEND``): one string of
    them all wanted a block the board's heap no longer had once the firmware grew
    (MemoryError on the emulated Pico). A ``HASHES{json}`` line is read too."""
    roots = ["main.py", "boot.py", "playboard", "boards", "data", MARK]
    cmd = [mpremote] + (["connect", port] if port else []) + ["exec", HASH_SCRIPT % repr(roots)]
    proc = run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise CommandError("mpremote could not read the board's files:\n%s" % (proc.stderr or proc.stdout))
    out = {}
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("HASHES"):
            return json.loads(line[6:])
        if line.startswith("HASH "):
            path, _, digest = line[5:].rpartition(" ")
            out[path] = digest
        elif line == "HASHEND":
            return out
    raise CommandError("mpremote gave no file list:\n%s" % proc.stdout[-500:])


def plan(staged, remote):
    """(files to copy, files unchanged, stale files on the board to remove), from the
    staged files and the board's hashes (None: copy everything). Stale: a ``.py`` beside
    its staged ``.mpy``, and the ``.py``/``.mpy`` of a module that became a package
    (``x.mpy`` once ``x/__init__.mpy`` is staged)."""
    copy, same = [], []
    for path, dest in staged:
        if remote is not None and remote.get(dest) == sha256_file(path):
            same.append(dest)
        else:
            copy.append((path, dest))
    stale = []
    if remote:
        for path, dest in staged:
            if dest.endswith(".mpy") and dest[:-4] + ".py" in remote:
                stale.append(dest[:-4] + ".py")
            if dest.endswith("/__init__.mpy"):
                for old in (dest[:-13] + ".py", dest[:-13] + ".mpy"):
                    if old in remote:
                        stale.append(old)
    return copy, same, stale


def mpremote_copy_command(mpremote, port, copy, stale, remote):
    """One chained mpremote command: stop the watchdog, write the marker and make the
    missing folders (one ``exec``), remove ``stale``, copy ``copy`` (in its order:
    ``main.py`` first), then remove the marker. None if there is nothing to do (nothing
    to copy or remove and no marker left by a deploy cut off)."""
    if not copy and not stale and MARK not in (remote or {}):
        return None
    cmd = [mpremote] + (["connect", port] if port else [])
    dirs = []
    for path, dest in copy:
        parts = dest.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            d = "/".join(parts[:i])
            if d not in dirs:
                dirs.append(d)
    steps = [["exec", PREPARE_SCRIPT % (MARK, dirs)]]
    for s in stale:
        steps.append(["fs", "rm", ":" + s])
    for path, dest in copy:
        steps.append(["fs", "cp", "--force", path, ":" + dest])
    steps.append(["exec", FINISH_SCRIPT])
    for i, s in enumerate(steps):
        if i:
            cmd.append("+")
        cmd.extend(s)
    return cmd


def run(args, runner=subprocess.run):
    if not os.path.isdir(os.path.join(args.firmware, "playboard")):
        raise CommandError("no firmware at %s" % args.firmware)
    if getattr(args, "circuitpython", None):
        return run_circuitpython(args)
    mpy_cross = _tool("mpy-cross", args.mpy_cross)
    mpremote = _tool("mpremote", args.mpremote)
    try:
        staged = stage(args.firmware, args.build, mpy_cross, args.march, runner)
    except FileNotFoundError:
        raise CommandError("mpy-cross not found (run `make setup`)")
    remote = None
    if not args.all:
        try:
            remote = board_hashes(mpremote, args.port, runner)
        except FileNotFoundError:
            raise CommandError("mpremote not found (run `make setup`)")
    print(LIMITS)
    copy, same, stale = plan(staged, remote)
    if remote and MARK in remote:
        print("the last deploy was cut off (%s on the board): finishing it" % MARK)
    cmd = mpremote_copy_command(mpremote, args.port, copy, stale, remote)
    for path, dest in copy:
        print("copy  %s" % dest)
    for s in stale:
        print("rm    %s (replaced by its .mpy)" % s)
    print("%d to copy, %d unchanged%s" % (len(copy), len(same), " (dry run: nothing copied)" if args.dry_run else ""))
    if args.dry_run:
        return 0
    if cmd is not None:
        proc = runner(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or "DEPLOYED" not in proc.stdout:
            raise CommandError("mpremote failed (the deploy is unfinished: run it again):\n%s"
                               % (proc.stderr or proc.stdout))
    # mpremote's Ctrl-C stopped the app: a reset runs it again (machine.reset(), counted
    # as a power-up, not as the watchdog's: playboard.health.watchdog_reset)
    if not getattr(args, "reset", True):
        print("deployed; the app stays stopped until a reset (`mpremote reset`)")
        return 0
    proc = runner([mpremote] + (["connect", args.port] if args.port else []) + ["reset"],
                  capture_output=True, text=True)
    if proc.returncode != 0:
        raise CommandError("deployed, but the reset failed (`mpremote reset` runs the app): %s"
                           % (proc.stderr or proc.stdout).strip()[-300:])
    print("deployed; the board was reset and runs it")
    return 0


def run_circuitpython(args):
    """``--circuitpython DRIVE``: the firmware staged for CircuitPython
    (``playboard_host.circuitpython_stage``) written to the mounted drive; the board
    reloads by itself when the drive changes (CircuitPython's auto-reload)."""
    from playboard_host.circuitpython_stage import StageError, copy_to_drive, staged_sources
    try:
        files = staged_sources(args.firmware, mpy_cross=args.mpy_cross)
    except StageError as e:
        raise CommandError("CircuitPython deploy: %s" % e)
    if args.dry_run:
        print("%d files staged for CircuitPython (dry run: nothing copied)" % len(files))
        return 0
    try:
        copied, same = copy_to_drive(files, args.circuitpython)
    except OSError as e:
        raise CommandError("CircuitPython deploy: %s" % e)
    print("%d copied, %d unchanged; name the board in board.txt on the drive (e.g. pico-matrix-cp)"
          % (copied, same))
    return 0
