"""A virtual Raspberry Pi Pico: the board's firmware on an emulated RP2040 (docs/pico.md).

``VirtualPico`` runs ``pico.mjs`` (beside this file) under Node with ``rp2040js``
(npm, pinned in ``package.json``): a MicroPython RPI_PICO ``.uf2`` and the RP2040
bootrom, the flash filesystem a littlefs2 image made here from the firmware
compiled by ``mpy-cross -march=armv6m`` (:func:`build_fs_image`). The emulated
USB host (``usbhost.mjs``) opens every CDC serial interface the chip offers; the
first (the REPL's) is bridged to a pseudo-terminal (``port``), so ``mpremote``,
pyserial and ``playboard sync/live/deploy --port`` talk to it as to a Pico, and a
second (CircuitPython's ``usb_cdc.data``, where ``boot.py`` enables it) to another
(``data_port``); the sensors of the
board definition are played from outside (:meth:`set_closed`): the diode matrix
answers the rows the firmware drives, the 74HC165 chain is shifted out to its PIO
program, the hall sensors' voltages follow the multiplexers' select lines into the ADC;
the WS2812 stream is decoded into LED colours (``leds``); emulated time, busy time
and watchdog resets are reported. The flash chip's erase and program take its time
(``flash_timing``, :data:`FLASH_TIMING`): the core stalls, interrupts off, while the
emulated clock runs on, and a program only clears bits (NOR: new = old AND data).

Images: ``$PLAYBOARD_PICO_UF2`` and ``$PLAYBOARD_PICO_BOOTROM``, else the copies in
``../shared/rp2/`` beside the repository (:func:`find_images`): the stock MicroPython,
for the ``.mpy`` deploy. The product, the image with the firmware frozen in that ``make
uf2`` builds: :func:`frozen_uf2` (``build/playboard-pico.uf2`` or ``$PLAYBOARD_FROZEN_UF2``).
"""
import json
import os
import shutil
import subprocess
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SCRIPT = os.path.join(HERE, "pico.mjs")
NODE_MODULES = os.path.join(HERE, "node_modules")

FS_OFFSET = 0xA0000      # the littlefs2 filesystem of MicroPython's RPI_PICO build
JOURNAL_OFFSET = FS_OFFSET - 16 * 1024  # the product board's journal, below it (PLAYBOARD_PICO/flashmap.py)
FS_BLOCK = 4096
FS_BLOCKS = 352
FS_PROG = 256

# The flash chip's times (us) for one 4 KB sector erase and one 256-byte page program:
# the W25Q16JV datasheet's typical and worst (tSE 45 / 400 ms, tPP 0.4 / 3 ms; the
# Pico's W25Q16 family). ``$PLAYBOARD_PICO_FLASH`` picks one for every VirtualPico
# not told otherwise (default: typical).
FLASH_TIMING = {"instant": (0, 0), "typical": (45000, 400), "worst": (400000, 3000)}


def flash_timing(name=None):
    """(erase us per 4 KB sector, program us per 256-byte page) for timing ``name``
    (a key of FLASH_TIMING; None: ``$PLAYBOARD_PICO_FLASH``, else "typical").
    ValueError for an unknown name."""
    name = name or os.environ.get("PLAYBOARD_PICO_FLASH") or "typical"
    if name not in FLASH_TIMING:
        raise ValueError("flash timing %r: one of %s" % (name, ", ".join(FLASH_TIMING)))
    return FLASH_TIMING[name]


class PicoUnavailable(Exception):
    """What the virtual Pico needs is missing (Node, rp2040js, the images); the
    message says what and how to get it."""


def find_images(uf2=None, bootrom=None):
    """(uf2 path, bootrom path): the given ones, else $PLAYBOARD_PICO_UF2 /
    $PLAYBOARD_PICO_BOOTROM, else ``../shared/rp2/``. PicoUnavailable if absent."""
    shared = os.path.join(os.path.dirname(ROOT), "shared", "rp2")
    uf2 = uf2 or os.environ.get("PLAYBOARD_PICO_UF2") or os.path.join(shared, "micropython-v1.28.0-RPI_PICO.uf2")
    bootrom = bootrom or os.environ.get("PLAYBOARD_PICO_BOOTROM") or os.path.join(shared, "rp2040-bootrom-b1.bin")
    for what, p in (("MicroPython RPI_PICO .uf2", uf2), ("RP2040 bootrom", bootrom)):
        if not os.path.exists(p):
            raise PicoUnavailable("no %s at %s (set $PLAYBOARD_PICO_UF2 / $PLAYBOARD_PICO_BOOTROM)" % (what, p))
    return os.path.abspath(uf2), os.path.abspath(bootrom)


FROZEN_UF2 = os.path.join(ROOT, "build", "playboard-pico.uf2")
CIRCUITPYTHON_UF2 = "circuitpython-10.2.1-raspberry_pi_pico-en_US.uf2"


def circuitpython_uf2():
    """Path of CircuitPython 10.2.1's Pico image (``$PLAYBOARD_CIRCUITPYTHON_UF2``, else
    ``../shared/rp2/``); PicoUnavailable if absent."""
    p = os.environ.get("PLAYBOARD_CIRCUITPYTHON_UF2") or os.path.join(
        os.path.dirname(ROOT), "shared", "rp2", CIRCUITPYTHON_UF2)
    if not os.path.exists(p):
        raise PicoUnavailable("no CircuitPython image at %s (set $PLAYBOARD_CIRCUITPYTHON_UF2)" % p)
    return os.path.abspath(p)


def frozen_uf2():
    """Path of the RPI_PICO image with the firmware frozen in (``make uf2``:
    ``build/playboard-pico.uf2``, or ``$PLAYBOARD_FROZEN_UF2``); PicoUnavailable if absent."""
    p = os.environ.get("PLAYBOARD_FROZEN_UF2") or FROZEN_UF2
    if not os.path.exists(p):
        raise PicoUnavailable("no frozen image at %s: `make uf2` builds it (or set $PLAYBOARD_FROZEN_UF2)" % p)
    return os.path.abspath(p)


def check_node():
    """The ``node`` command; PicoUnavailable if Node or the npm packages are missing."""
    node = shutil.which("node")
    if node is None:
        raise PicoUnavailable("Node.js not found (the virtual Pico runs rp2040js under Node)")
    if not os.path.isdir(os.path.join(NODE_MODULES, "rp2040js")):
        raise PicoUnavailable("rp2040js not installed: run `npm ci --prefix %s` (make setup does)" % HERE)
    return node


def unavailable():
    """None where the emulated Pico can run here (the images, Node, rp2040js), else why
    not (one line, for a bench or a test to print and skip)."""
    try:
        find_images()
        check_node()
    except PicoUnavailable as e:
        return str(e)
    return None


def matrix_config():
    """The board file the emulated Pico runs (``firmware/boards/pico-matrix.json``), a dict."""
    with open(os.path.join(ROOT, "firmware", "boards", "pico-matrix.json")) as f:
        return json.load(f)


def toguz_pits():
    """The sensor indices of the 18 Toguz Kumalak pits (default layout): closed, they are
    the balls in their pits (an empty pit reads as lifted: the tracker would wait for a
    sowing and the engine never think)."""
    from playboard.board.layout import load_layout

    lay = load_layout("toguz")
    return [lay.sensor_of(c) for c in range(18)]


def staged_firmware(firmware=None, build=None, mpy_cross=None):
    """[(staged file, board path)] of the firmware compiled for the RP2040 (``playboard
    deploy``'s staging: ``.mpy`` for -march=armv6m, sources for main.py, boards, data)."""
    from playboard_host.commands import deploy
    firmware = firmware or os.path.join(ROOT, "firmware")
    build = build or os.path.join(ROOT, "build", "pico")
    return deploy.stage(firmware, build, deploy._tool("mpy-cross", mpy_cross), "armv6m")


def build_fs_image(files, extra=None):
    """A littlefs2 image (bytes, FS_BLOCKS * FS_BLOCK) holding ``files`` [(host path,
    board path)] and ``extra`` {board path: bytes} (e.g. ``{"board.txt": b"pico-matrix"}``)."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=FS_PROG, read_size=FS_PROG)
    items = [(dest, open(src, "rb").read()) for src, dest in files]
    items += sorted((extra or {}).items())
    for dest, data in items:
        d = os.path.dirname(dest)
        if d:
            fs.makedirs(d, exist_ok=True)
        with fs.open(dest, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def read_fs_image(image):
    """A ``littlefs.LittleFS`` mounted on a copy of ``image`` (bytes) to read files back."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=FS_BLOCK, block_count=FS_BLOCKS, prog_size=FS_PROG, read_size=FS_PROG, mount=False)
    fs.context.buffer[:] = image
    fs.mount()
    return fs


def matrix_args(cfg):
    """The sensor (``--matrix``, ``--chain``, ``--hall``) and ``--leds`` arguments of
    pico.mjs for a board definition (dict)."""
    out = []
    s = cfg.get("sensor", {})
    if s.get("kind") == "matrix":
        out += ["--matrix", "%s:%s" % (",".join(map(str, s["rows"])), ",".join(map(str, s["cols"])))]
    elif s.get("kind") == "shift_register":
        if not s.get("active_low", True):
            raise ValueError("virtual Pico: only an active-low 74HC165 chain is wired")
        out += ["--chain", "%d,%d,%d,%d" % (s["load"], s["clk"], s["data"], s["chain"])]
    elif s.get("kind") == "hall_mux":
        muxes = ",".join("%d/%d" % (m["adc"], m["en"]) for m in s["muxes"])
        out += ["--hall", "%s:%s" % (",".join(map(str, s["select"])), muxes)]
    if cfg.get("leds", {}).get("count"):
        out += ["--leds", str(cfg["leds"]["pin"])]
    return out


def frame_rgb(wire, order="GRB"):
    """[(r, g, b)] of a WS2812 frame as it went down the wire (bytes in ``order``, a
    key of ``playboard.hw.base.ORDERS``); a trailing partial pixel is dropped."""
    from playboard.hw.base import ORDERS
    ir, ig, ib = ORDERS[order]
    return [(wire[k + ir], wire[k + ig], wire[k + ib]) for k in range(0, len(wire) - 2, 3)]


class VirtualPico:
    """One emulated Pico (see the module docstring); a context manager.

    ``fs_image``: bytes of the littlefs2 filesystem (None: MicroPython formats an
    empty one). ``cfg``: the board definition (dict) whose matrix and LED pin are
    wired. ``speed``: emulated seconds per host second the idle core may run ahead
    (1 = real time, what a person at the port expects; 0 = as fast as the host can).
    ``flash_timing``: the flash chip's erase and program times, a key of
    :data:`FLASH_TIMING` ("instant", "typical", "worst"; None: ``$PLAYBOARD_PICO_FLASH``,
    else "typical"). ``qspi_cs_high``: the QSPI chip-select pad reads high (BOOTSEL
    released), which CircuitPython's image needs to boot (:func:`circuitpython`).

    After :meth:`start`: ``port`` (the pseudo-terminal's path: the first CDC serial
    interface, the REPL's), ``data_port`` (the second's: CircuitPython's
    ``usb_cdc.data``; a pseudo-terminal that stays silent where the chip offers one
    interface), ``usb_channels`` (CDC serial interfaces opened, 0 before USB is up),
    ``data_output`` (bytearray: all the board wrote on the second), ``leds`` (list of
    (r, g, b) of the last WS2812 frame, in chain order), ``led_frames`` (count),
    ``time_us`` and ``busy_us`` (emulated time and the part the core worked),
    ``resets`` (list of (time_us, "timer"|"force") watchdog resets; the chip
    reboots from its flash and goes on), ``wdt_min_us`` (the least time the watchdog
    had left when it was fed or stopped, any boot; -1: never fed), ``output`` (bytearray: all the board wrote),
    ``erases`` (4 KB sectors erased), ``programs`` (256-byte pages programmed) and
    ``flash_stall_us`` (emulated time the core stood still for them), ``wfi_wakes`` (sleeps
    the runner ended for an interrupt that came while masked, where rp2040js would have
    slept on: ``pico.mjs``, ``maskedWake``), all boots, as of the last time report (about
    every 100 emulated ms).
    """

    def __init__(self, fs_image=None, cfg=None, uf2=None, bootrom=None, speed=1.0, order="GRB",
                 flash_timing=None, fs_offset=FS_OFFSET, qspi_cs_high=False):
        self.erase_us, self.program_us = globals()["flash_timing"](flash_timing)
        self.uf2, self.bootrom = find_images(uf2, bootrom)
        self.node = check_node()
        self.fs_image = fs_image
        self.fs_offset = fs_offset  # where fs_image goes in flash (the product's journal: JOURNAL_OFFSET)
        self.qspi_cs_high = qspi_cs_high  # CircuitPython's image: BOOTSEL's pad reads released
        self.cfg = cfg or {}
        self.speed = speed
        self.order = (self.cfg.get("leds") or {}).get("order", order)
        self.port = None
        self.data_port = None
        self.usb_channels = 0
        self.data_output = bytearray()
        self.leds = []
        self.led_frames = 0
        self.led_log = []          # (time_us, leds) of every frame, for tests and bench
        self.lit = None            # the chip's first LED frame: a start's, before the app
        self.time_us = 0
        self.busy_us = 0
        self.resets = []
        self.wdt_min_us = -1
        self.erases = 0
        self.programs = 0
        self.flash_stall_us = 0
        self.wfi_wakes = 0
        self.output = bytearray()
        self.usb_up = threading.Event()
        self._proc = None
        self._tmp = None
        self._lock = threading.Condition()
        self._flash_reply = None
        self._cut_ids = []
        self.cuts = {}             # power cut id -> emulated time (us) it came: power_cut()
        self._master = self._slave = None
        self._data_master = self._data_slave = None

    # --- life -------------------------------------------------------------------
    def start(self):
        import tempfile
        import tty
        args = [self.node, SCRIPT, "--uf2", self.uf2, "--bootrom", self.bootrom, "--speed", str(self.speed),
                "--erase-us", str(self.erase_us), "--program-us", str(self.program_us)]
        if self.fs_image is not None:
            fd, self._tmp = tempfile.mkstemp(suffix=".lfs")
            with os.fdopen(fd, "wb") as f:
                f.write(self.fs_image)
            args += ["--fs", self._tmp, "--fs-offset", str(self.fs_offset)]
        if self.qspi_cs_high:  # (CircuitPython's image: its 1 ms tick needs exact alarms too)
            args += ["--qspi-cs-high", "1", "--exact-alarms", "1"]
        args += matrix_args(self.cfg)
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._data_master, self._data_slave = os.openpty()
        tty.setraw(self._data_slave)
        self.data_port = os.ttyname(self._data_slave)
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, cwd=HERE)
        threading.Thread(target=self._events, daemon=True).start()
        threading.Thread(target=self._from_pty, args=(self._master, 0), daemon=True).start()
        threading.Thread(target=self._from_pty, args=(self._data_master, 1), daemon=True).start()
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Stop the emulator and close the pseudo-terminal."""
        if self._proc is not None and self._proc.poll() is None:
            try:
                self._send({"cmd": "quit"})
                self._proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        for fd in (self._master, self._slave, self._data_master, self._data_slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = self._data_master = self._data_slave = None
        if self._tmp:
            os.unlink(self._tmp)
            self._tmp = None

    # --- to the chip --------------------------------------------------------------
    def _send(self, obj):
        self._proc.stdin.write((json.dumps(obj) + "\n").encode())
        self._proc.stdin.flush()

    def write(self, data, channel=0):
        """Bytes typed at the USB serial port (as a host would send them): CDC serial
        interface ``channel`` (0: the REPL's, 1: CircuitPython's ``usb_cdc.data``)."""
        cmd = {"cmd": "serial", "hex": bytes(data).hex()}
        if channel:
            cmd["ch"] = channel
        self._send(cmd)

    def set_closed(self, indices, at_us=None, black=()):
        """The sensors on, from emulated time ``at_us`` (default: at once): the closed
        switches of a matrix (sensor indices row * n_cols + col) or of a 74HC165 chain
        (8 * chip + input); on a hall board the sensors under a White piece
        (``indices``) and under a Black one (``black``)."""
        cmd = {"cmd": "closed", "idx": sorted(int(i) for i in indices),
               "black": sorted(int(i) for i in black)}
        if at_us is not None:
            cmd["at"] = int(at_us)
        self._send(cmd)

    def flash(self, offset=FS_OFFSET, length=FS_BLOCKS * FS_BLOCK, timeout=30, cut=None):
        """Bytes of the emulated flash (default: the filesystem); with ``cut`` (an id
        from :meth:`power_cut`), those it held at that cut (ValueError if it has not
        come yet)."""
        with self._lock:
            self._flash_reply = None
            cmd = {"cmd": "flash", "off": offset, "len": length}
            if cut is not None:
                cmd["snap"] = cut
            self._send(cmd)
            if not self._lock.wait_for(lambda: self._flash_reply is not None, timeout):
                raise TimeoutError("no flash dump from the emulator")
            if self._flash_reply is False:
                raise ValueError("power cut %r has not come (emulated %d us)" % (cut, self.time_us))
            return self._flash_reply

    def power_cut(self, at_us, offset=FS_OFFSET, length=FS_BLOCKS * FS_BLOCK):
        """At emulated time ``at_us``, the flash bytes ``offset`` .. ``offset + length`` are
        kept as a power cut then would leave them (the chip runs on: several cuts of one
        run are compared; an erase or page program under way at that moment counts as
        done). Returns the cut's id for :meth:`flash` (``cut=``); ``cuts`` maps the ids
        come so far to (emulated time in us, ``erases``, ``programs``,
        ``flash_stall_us``) at that moment."""
        k = len(self._cut_ids)
        self._cut_ids.append(at_us)
        self._send({"cmd": "snap", "at": int(at_us), "id": k, "off": offset, "len": length})
        return k

    def files(self):
        """The littlefs filesystem as it is now (``littlefs.LittleFS``, read it)."""
        return read_fs_image(self.flash())

    # --- from the chip ------------------------------------------------------------
    def _from_pty(self, master, channel):
        while True:
            try:
                data = os.read(master, 4096)
            except (OSError, TypeError):
                return
            if not data:
                return
            try:
                self.write(data, channel)
            except (OSError, ValueError):
                return

    def _events(self):
        for line in self._proc.stdout:
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            kind = ev.get("ev")
            with self._lock:
                if kind == "serial":
                    data = bytes.fromhex(ev["hex"])
                    ch = ev.get("ch", 0)
                    (self.data_output if ch else self.output).extend(data)
                    fd = self._data_master if ch else self._master
                    if fd is not None:
                        try:
                            os.write(fd, data)
                        except OSError:
                            pass
                elif kind == "leds":
                    self.leds = frame_rgb(bytes.fromhex(ev["hex"]), self.order)
                    self.led_frames += 1
                    if self.lit is None:
                        self.lit = self.leds
                    self.led_log.append((ev["t"], self.leds))
                    del self.led_log[:-2000]
                    self.time_us = max(self.time_us, ev["t"])
                elif kind == "time":
                    self.time_us = ev["t"]
                    self.busy_us = ev["busy"]
                    self.wdt_min_us = ev.get("wdt_min", -1)
                    self.erases = ev.get("erases", 0)
                    self.programs = ev.get("programs", 0)
                    self.flash_stall_us = ev.get("stall", 0)
                    self.wfi_wakes = ev.get("wakes", 0)
                elif kind == "wdt":
                    self.resets.append((ev["t"], ev["reason"]))
                    self.usb_up.clear()
                elif kind == "usb":
                    self.usb_channels = ev.get("channels", 1)
                    self.usb_up.set()
                elif kind == "flash":
                    self._flash_reply = False if ev["hex"] is None else bytes.fromhex(ev["hex"])
                elif kind == "snap":
                    self.cuts[ev["id"]] = (ev["t"], ev["erases"], ev["programs"], ev["stall"])
                self._lock.notify_all()
        with self._lock:
            self._lock.notify_all()

    @property
    def link_port(self):
        """The pseudo-terminal the firmware's link answers on: ``data_port`` where the chip
        opened two CDC serial interfaces (CircuitPython with ``usb_cdc.data``: the link
        takes it), else ``port`` (beside the REPL). Valid once USB is up."""
        return self.data_port if self.usb_channels > 1 else self.port

    @property
    def alive(self):
        return self._proc is not None and self._proc.poll() is None

    def wait_for(self, predicate, timeout, what="the condition"):
        """Wait (host seconds) until ``predicate(self)`` is true; TimeoutError naming
        ``what`` otherwise, or RuntimeError if the emulator died (with its stderr)."""
        end = time.monotonic() + timeout
        with self._lock:
            while not predicate(self):
                left = end - time.monotonic()
                if not self.alive:
                    raise RuntimeError("the emulator stopped: %s" % self._proc.stderr.read().decode()[-2000:])
                if left <= 0:
                    raise TimeoutError("virtual Pico: %s did not happen in %.0f s (emulated %.2f s; output tail %r)"
                                       % (what, timeout, self.time_us / 1e6, bytes(self.output[-300:])))
                self._lock.wait(min(left, 0.5))

    def wait_output(self, text, timeout, start=0):
        """Wait until the board wrote ``text`` (bytes) at or after offset ``start`` of
        ``output``; returns the offset just after it."""
        found = []

        def seen(p):
            i = p.output.find(text, start)
            if i >= 0:
                found.append(i + len(text))
            return i >= 0
        self.wait_for(seen, timeout, "output %r" % text)
        return found[0]

    def power_up(self, closed=(), timeout=600):
        """Sensors ``closed`` closed, then the chip powered up to the app's first view:
        (us to the first LED frame, lit before the app is imported; us to the first frame
        showing something else: the menu). TimeoutError past ``timeout`` host seconds."""
        self.set_closed(list(closed))
        self.wait_for(lambda q: q.usb_up.is_set() and q.led_frames >= 2, timeout, "boot")
        lit = self.led_log[0][1]
        self.wait_for(lambda q: any(f != lit for _, f in q.led_log), timeout, "the menu")
        return self.led_log[0][0], [t for t, f in self.led_log if f != lit][0]

    def menu_after(self, n, timeout=600):
        """A start after LED frame ``n`` (a soft reset or a reboot under way): waits for
        its lit frame (the chip's first frame, :attr:`lit`) and then for a frame neither
        that nor dark (the app's view: the menu); returns that frame's emulated time
        (us). TimeoutError past ``timeout`` host seconds."""
        lit = self.lit

        def shown(f):
            return f != lit and any(any(c) for c in f)

        self.wait_for(lambda q: lit in [f for _, f in q.led_log[n:]], timeout, "the board lit again")
        k = n + [f for _, f in self.led_log[n:]].index(lit)
        self.wait_for(lambda q: any(shown(f) for _, f in q.led_log[k:]), timeout, "the menu again")
        return [t for t, f in self.led_log[k:] if shown(f)][0]

    def wait_emulated(self, seconds, timeout):
        """Wait until ``seconds`` of emulated time have passed from now."""
        t = self.time_us + int(seconds * 1e6)
        self.wait_for(lambda p: p.time_us >= t, timeout, "%.1f emulated s" % seconds)


def circuitpython(drive, cfg=None, nvm=None, **kw):
    """A :class:`VirtualPico` running CircuitPython 10.2.1 (:func:`circuitpython_uf2`) on
    the CIRCUITPY drive image ``drive`` (bytes, ``circuitpy.build_drive``), the pad
    fix set; ``nvm``: the 4 KB of ``microcontroller.nvm`` (bytes: the record's journal,
    as a power cut left it; None: blank); ``kw`` as VirtualPico's. Not started."""
    from playboard_host.pico.circuitpy import DRIVE_OFFSET, NVM_BYTES, NVM_OFFSET
    if nvm is not None:
        assert len(nvm) == NVM_BYTES, len(nvm)
        return VirtualPico(fs_image=bytes(nvm) + bytes(drive), cfg=cfg, uf2=circuitpython_uf2(),
                           fs_offset=NVM_OFFSET, qspi_cs_high=True, **kw)
    return VirtualPico(fs_image=drive, cfg=cfg, uf2=circuitpython_uf2(), fs_offset=DRIVE_OFFSET,
                       qspi_cs_high=True, **kw)


def run_code(files, code, timeout=900):
    """Run ``code`` (bytes) as ``code.py`` on CircuitPython on the emulated Pico, beside
    ``files`` {board path: bytes} on its CIRCUITPY drive (no ``board.txt`` needed:
    ``code.py`` runs before ``main.py``), until it prints one line ``PICO {json}``:
    returns (that dict, emulated seconds). TimeoutError (with the output's tail) past
    ``timeout`` host seconds; PicoUnavailable where the image or Node is missing;
    circuitpy.DriveError without mtools."""
    from playboard_host.pico.circuitpy import build_drive
    p = circuitpython(build_drive(dict(files, **{"code.py": code})), speed=0).start()
    try:
        i = p.wait_output(b"PICO ", timeout)
        j = p.wait_output(b"\n", 60, i)
        return json.loads(bytes(p.output[i:j])), p.time_us / 1e6
    finally:
        p.close()
