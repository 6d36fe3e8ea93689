"""`playboard sim --pico`: a virtual Pico for makers (docs/pico.md).

An emulated Pico runs the product, the image with the firmware frozen in (``make
uf2``: ``build/playboard-pico.uf2``), with only ``board.txt`` (and a maker's own board
definition) on its flash, as a board runs after one file was dropped on it; or, when
asked (``stock``) or when that image is not built (a line says so), the stock
MicroPython image with the firmware compiled for the RP2040 on its flash (``playboard
deploy``'s developer path). Its USB serial is a pseudo-terminal (printed at start:
``mpremote connect PATH``, ``playboard live --port PATH``...), and this console
closes and opens the switches of the board's diode matrix, shows the LEDs the
firmware sends and reports watchdog resets.
"""
import json
import os
import shlex
import sys

from playboard_host import pico

HELP_TEXT = """commands:
  close S [S...]     close the switches of sensors S (row * n_cols + col)
  open S [S...]      open them
  tap S [MS]         close S for MS emulated ms (default 150), then open it
  leds               the LEDs of the last frame (index: r,g,b; dark ones left out)
  time               emulated time, busy time, watchdog resets
  help, quit"""


def load_board_file(firmware, board, board_file):
    """(board definition dict, {board path: bytes} to add to the flash) for the board
    named ``board`` in firmware/boards, or the JSON file ``board_file`` (a maker's own,
    copied as boards/<its name>.json with board.txt naming it). ValueError if unreadable."""
    if board_file:
        try:
            with open(board_file, "rb") as f:
                raw = f.read()
            cfg = json.loads(raw)
        except (OSError, ValueError) as e:
            raise ValueError("can't read the board definition %s: %s" % (board_file, e))
        name = cfg.get("name") or os.path.splitext(os.path.basename(board_file))[0]
        return cfg, {"boards/%s.json" % name: raw, "board.txt": name.encode()}
    path = os.path.join(firmware, "boards", board + ".json")
    try:
        with open(path) as f:
            cfg = json.load(f)
    except OSError:
        raise ValueError("no board definition %r in %s" % (board, os.path.dirname(path)))
    return cfg, {"board.txt": board.encode()}


class Console:
    """Reads console commands (lines) and applies them to a started VirtualPico ``p``."""

    def __init__(self, p, out=sys.stdout):
        self.p = p
        self.out = out
        self.closed = set()
        n = p.cfg.get("n_sensors", 0)
        self.n_sensors = n

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def _sensors(self, words):
        out = []
        for w in words:
            try:
                s = int(w)
            except ValueError:
                raise ValueError("not a sensor number: %r" % w)
            if not 0 <= s < self.n_sensors:
                raise ValueError("sensor %d is not on this board (0..%d)" % (s, self.n_sensors - 1))
            out.append(s)
        if not out:
            raise ValueError("which sensors? (numbers 0..%d)" % (self.n_sensors - 1))
        return out

    def command(self, line):
        """Do one command line; returns False for quit. Bad input: one line, nothing lost."""
        try:
            words = shlex.split(line)
        except ValueError as e:
            self.say("error: %s" % e)
            return True
        if not words:
            return True
        cmd, rest = words[0], words[1:]
        try:
            if cmd in ("quit", "exit"):
                return False
            if cmd == "help":
                self.say(HELP_TEXT)
            elif cmd == "close":
                self.closed.update(self._sensors(rest))
                self.p.set_closed(self.closed)
            elif cmd == "open":
                self.closed.difference_update(self._sensors(rest))
                self.p.set_closed(self.closed)
            elif cmd == "tap":
                s = self._sensors(rest[:1])[0]
                ms = int(rest[1]) if len(rest) > 1 else 150
                t = self.p.time_us + 20000
                self.p.set_closed(self.closed | {s}, t)
                self.p.set_closed(self.closed, t + ms * 1000)
            elif cmd == "leds":
                lit = ["%d: %d,%d,%d" % ((i,) + c) for i, c in enumerate(self.p.leds) if any(c)]
                self.say("frame %d: %s" % (self.p.led_frames, ", ".join(lit) or "all dark"))
            elif cmd == "time":
                self.say("emulated %.2f s, busy %.2f s, watchdog resets: %s"
                         % (self.p.time_us / 1e6, self.p.busy_us / 1e6,
                            ", ".join("%.2f s (%s)" % (t / 1e6, r) for t, r in self.p.resets) or "none"))
            else:
                self.say("error: unknown command %r (help lists them)" % cmd)
        except ValueError as e:
            self.say("error: %s" % e)
        return True


def pick_image(stock=False, uf2=None):
    """Which MicroPython the virtual Pico runs: ``(uf2, frozen, note)``. The product
    image (``pico.frozen_uf2()``: frozen True, uf2 its path) unless ``stock`` is asked
    or a ``uf2`` is given (a stock build to deploy the ``.mpy`` files onto); when the
    product image is absent, the stock one (uf2 None: ``pico.find_images``' default)
    and ``note``, one line saying so (else None)."""
    if stock or uf2:
        return uf2, False, None
    try:
        return pico.frozen_uf2(), True, None
    except pico.PicoUnavailable as e:
        return None, False, ("%s; running the stock MicroPython with the firmware as .mpy files on its "
                             "flash instead (playboard deploy's developer path)" % e)


def run(board="pico-matrix", board_file=None, firmware=None, uf2=None, bootrom=None,
        inp=sys.stdin, out=sys.stdout, stock=False, speed=1.0):
    """Start the virtual Pico and its console; returns when the input ends or on quit.
    The product image, or the stock one with the ``.mpy`` deploy (``stock``, ``uf2``
    given, or no product image: :func:`pick_image`). ``speed``: as ``VirtualPico``'s (1:
    real time). ValueError / pico.PicoUnavailable with a message when something is
    missing."""
    firmware = firmware or os.path.join(pico.ROOT, "firmware")
    cfg, extra = load_board_file(firmware, board, board_file)
    uf2, frozen, note = pick_image(stock, uf2)
    if note:
        out.write("note: %s\n" % note)
    if frozen:  # (the image holds the firmware, the board definitions and the data)
        image = pico.build_fs_image([], extra)
    else:
        image = pico.build_fs_image(pico.staged_firmware(firmware), extra)
    with pico.VirtualPico(image, cfg, uf2=uf2, bootrom=bootrom, speed=speed) as p:
        c = Console(p, out)
        c.say("image: %s (%s)" % (p.uf2, "the product: the firmware frozen in" if frozen else
                                  "stock MicroPython, the firmware as .mpy files on its flash"))
        kind = cfg.get("sensor", {}).get("kind")
        c.say("virtual Pico: %s (%s), %d sensors, %d LEDs" % (cfg.get("name"), kind, cfg.get("n_sensors", 0),
                                                            cfg.get("leds", {}).get("count", 0)))
        if kind != "matrix":
            c.say("note: only a diode matrix is wired in the emulator; this board's %s sensors read nothing" % kind)
        c.say("USB serial: %s   (mpremote connect %s; playboard live --port %s)" % (p.port, p.port, p.port))
        c.say("type help for the commands")
        for line in inp:
            if not c.command(line):
                break
    return 0
