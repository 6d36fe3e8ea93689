"""The host's side of the board's serial protocol (docs/protocol.md), over pyserial.

``BoardLink(stream)`` speaks to a board through any object with ``read(n)`` (returns
what arrived within its timeout, possibly nothing) and ``write(data)``: a
``serial.Serial`` from ``open_port()``, or a test double. Requests are numbered,
answered by a reply with the same sequence number, and retried on a timeout
(every request is idempotent). Events and the REPL's text between frames are
kept aside. Errors from the board raise ``BoardError``; no answer raises
``LinkTimeout``.

A simulated board (``playboard_host.simboard``) answers only when its process gets
the CPU: on a loaded machine later than a real board would. Its port is listed in
``SIMULATED_PORTS`` with a function telling whether its process still runs; a
link to it (``alive``) keeps asking past its tries while that process runs, up to
``SIM_PATIENCE_S``, and stops at once when it has ended. A real board's port has
no such function: no answer within its tries is a LinkTimeout, as before.
"""
import json
import time

from playboard import link as proto
from playboard.record.read import parse_game

# Raspberry Pi RP2040 running MicroPython (USB VID:PID).
DEFAULT_VID_PID = "2e8a:0005"
BAUD = 115200
# the simulated boards' link ports in this process: path -> a function, True while
# that board's process runs (SimBoard adds its pty, and takes it away at stop)
SIMULATED_PORTS = {}
SIM_PATIENCE_S = 60.0  # the longest a simulated board still running is waited for (s)


class LinkError(Exception):
    """Talking to the board failed."""


class LinkTimeout(LinkError):
    """The board did not answer (not running the Playboard app? wrong port?)."""


class BoardGone(LinkError):
    """The board's port failed under the link (the board unplugged, reset or switched
    off): one line saying so; what the PC stored before stays."""


class BoardError(LinkError):
    """The board answered with an error frame: ``code`` (e.g. "refused") and ``msg``."""

    def __init__(self, code, msg):
        if code == "refused" and msg:  # (the board's own line says why)
            text = "board refused: %s" % msg
        else:
            text = "board refused: %s%s" % (code, (" (%s)" % msg) if msg else "")
        super().__init__(text)
        self.code = code
        self.msg = msg


def parse_vid_pid(text):
    """(vid, pid) of "vvvv:pppp" (hexadecimal); ValueError with a clear message otherwise."""
    parts = text.split(":")
    try:
        if len(parts) != 2:
            raise ValueError
        vid, pid = int(parts[0], 16), int(parts[1], 16)
        if not (0 <= vid <= 0xFFFF and 0 <= pid <= 0xFFFF):
            raise ValueError
    except ValueError:
        raise ValueError("bad USB id %r (expected VID:PID in hexadecimal, e.g. %s)" % (text, DEFAULT_VID_PID))
    return vid, pid


def _vid_pid_arg(text):
    import argparse
    try:
        parse_vid_pid(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e))
    return text


# The interface name CircuitPython gives its second USB serial channel (usb_cdc.data,
# the link's where boot.py enables it; the first, "CircuitPython CDC control", is the REPL's)
CIRCUITPYTHON_DATA = "CDC2"


def find_port(vid_pid=DEFAULT_VID_PID):
    """The device path of the first serial port with USB ``vid_pid`` ("vvvv:pppp"), or
    None; where the board has several (CircuitPython with ``usb_cdc.data`` on), the one
    whose USB interface is named for CircuitPython's data channel ("... CDC2 control"),
    not the REPL's."""
    from serial.tools import list_ports

    vid, pid = parse_vid_pid(vid_pid)
    found = [p for p in sorted(list_ports.comports(), key=lambda p: p.device) if p.vid == vid and p.pid == pid]
    data = [p for p in found if CIRCUITPYTHON_DATA in (getattr(p, "interface", None) or "")]
    best = data or found
    return best[0].device if best else None


def open_port(port=None, vid_pid=DEFAULT_VID_PID, timeout=0.05):
    """A ``serial.Serial`` on ``port``, or on the board found by ``vid_pid``.

    LinkError if no port is given and none matches, or if it cannot be opened."""
    import serial

    if port is None:
        port = find_port(vid_pid)
        if port is None:
            raise LinkError("no board with USB id %s found; plug it in or give --port" % vid_pid)
    try:
        # exclusive: a second program opening the port is refused (POSIX: flock, let go when
        # the port closes or the program ends; Windows ports are exclusive anyway)
        return serial.Serial(port, BAUD, timeout=timeout, exclusive=True)
    except (serial.SerialException, OSError) as e:
        if "exclusively lock" in str(e):  # (pyserial's words: "Could not exclusively lock port ...")
            raise LinkError("cannot open %s: another program has it open (playboard hall, live or sync?): "
                            "stop it first; while the hall follows a board, sync it through the hall "
                            "(hall --sync)" % port)
        raise LinkError("cannot open %s: %s" % (port, _reason(e)))


def _reason(e):
    """The cause of a pyserial / OS error without the device path it repeats
    ("could not open port X: [Errno 2] No such file or directory: 'X'" -> "no such
    file or directory (is the board plugged in? `playboard ports` lists them)")."""
    import re

    text = getattr(e, "strerror", None) or str(e)
    m = re.search(r"\[Errno -?\d+\] ([^:']+)", text)
    if m:
        text = m.group(1).strip()
    elif "could not open port" in text:
        text = text.split(":", 1)[-1].strip() or text
    text = text[:1].lower() + text[1:]
    if "no such file" in text.lower() or "filenotfound" in text.lower():
        text += " (is the board plugged in? `playboard ports` lists the serial ports)"
    elif "permission" in text.lower() or "access is denied" in text.lower():
        text += " (on Linux, add yourself to the dialout group; or another program has the port open)"
    return text


# what each request letter asks, for messages (playboard.link's handlers)
REQUEST_NAMES = {"H": "hello", "S": "status", "L": "the game list", "A": "an acknowledgement",
                 "P": "the problem report", "G": "setting a game", "R": "reading the settings",
                 "W": "writing the settings", "V": "live events", "T": "setting the clock", "F": "a game fetch",
                 "C": "the health counters"}


class BoardLink:
    """Requests to one board over ``stream``.

    ``timeout``: seconds to wait for an answer before resending; ``retries``:
    resends before LinkTimeout. ``alive``: None for a real board, or (a simulated
    board) a function, True while the board's process runs: its requests are
    resent past ``retries`` while it does, until ``patience`` seconds have gone
    since the first send, and end as soon as it does not (LinkTimeout either way).
    ``events``: live events received and not yet taken (dicts); ``console``: bytes
    seen outside frames (the REPL's text).
    """

    def __init__(self, stream, timeout=1.0, retries=3, alive=None, patience=SIM_PATIENCE_S):
        self.s = stream
        self.timeout = timeout
        self.retries = retries
        self.alive = alive
        self.patience = patience
        self.seq = 0
        self.dec = proto.Decoder(2 * proto.MAX_BODY)
        self.events = []
        self.console = bytearray()
        self._rx = b""
        self._pos = 0
        self.last_event_seq = None
        self.missed_events = 0

    def close(self):
        c = getattr(self.s, "close", None)
        if c:
            c()

    # ---- frames -------------------------------------------------------------------

    def _read_frames(self, deadline):
        """Frames that arrive until ``deadline``: yields (seq, type char, payload bytes)
        or (seq, "bad", err). Bytes read but not yet decoded when the caller stops
        are kept for the next call."""
        while True:
            while self._pos < len(self._rx):
                b = self._rx[self._pos]
                self._pos += 1
                outside = not self.dec.in_frame()
                r = self.dec.feed(b)
                if outside and r == 0 and not self.dec.in_frame():
                    self.console.append(b)
                if r == 1:
                    yield self.dec.seq, chr(self.dec.type), bytes(self.dec.payload())
                elif r == -1:
                    yield self.dec.seq, "bad", self.dec.err
            if time.monotonic() >= deadline:
                return
            try:
                data = self.s.read(4096)
            except OSError as e:  # (pyserial's SerialException is one)
                raise BoardGone("the board went away (unplugged or reset?): %s" % (e.strerror or e))
            self._rx = data or b""
            self._pos = 0

    def _take_event(self, seq, payload):
        try:
            ev = json.loads(payload)
        except ValueError:
            return
        if self.last_event_seq is not None and seq != (self.last_event_seq + 1) & 255:
            self.missed_events += (seq - self.last_event_seq - 1) & 255
        self.last_event_seq = seq
        self.events.append(ev)

    def request(self, ftype, req=None):
        """Send request ``ftype`` (an upper-case letter) with ``req`` (dict or None);
        return the reply's payload (a dict, or bytes for a fetch). Resends on a
        timeout; BoardError for an error frame, LinkTimeout with no answer."""
        self.seq = self.seq % 255 + 1
        seq = self.seq
        # (compact UTF-8: a pairing's names in Kazakh or Russian, escaped \uXXXX, were
        # three times their bytes and over a frame)
        payload = json.dumps(req, ensure_ascii=False, separators=(",", ":")).encode() if req else b""
        frame = proto.encode_frame(seq, ftype, payload)
        want = ftype.lower()
        tries = 0
        t0 = time.monotonic()
        while self._again(tries, t0):
            tries += 1
            try:
                self.s.write(frame)
                flush = getattr(self.s, "flush", None)
                if flush:
                    flush()
            except OSError as e:  # (pyserial's SerialException is one)
                raise BoardGone("the board went away (unplugged or reset?) while asking for %s: %s" % (
                    REQUEST_NAMES.get(ftype, "a request"), e.strerror or e))
            for rseq, t, p in self._read_frames(time.monotonic() + self.timeout):
                if t == "e":
                    self._take_event(rseq, p)
                    continue
                if t == "bad" or rseq != seq:
                    continue  # line noise or a stale answer: wait for ours
                if t == "!":
                    try:
                        err = json.loads(p)
                    except ValueError:
                        err = {"err": "garbled", "msg": ""}
                    if err.get("err") in ("crc", "control", "escape", "short", "truncated", "garbled"):
                        break  # our request was damaged on the way: send it again
                    raise BoardError(err.get("err", "?"), err.get("msg", ""))
                if t == want:
                    return p if t == "f" else json.loads(p)
        what = REQUEST_NAMES.get(ftype, "a request")
        if self.alive is not None:
            if not self.alive():
                raise LinkTimeout("no answer from the simulated board to %s: its firmware is not running "
                                  "(its firmware.stderr may say why)" % what)
            raise LinkTimeout("no answer from the simulated board to %s in %.0f s (%d tries), its firmware "
                              "running all along" % (what, time.monotonic() - t0, tries))
        raise LinkTimeout("no answer from the board to %s after %d tries (is the Playboard app running? "
                          "is this the board's port? the port may be in use by another program, such as "
                          "playboard hall or live: stop it first)" % (what, tries))

    def _again(self, tries, t0):
        """Whether to send a request (again) after ``tries`` sends, the first at ``t0``:
        ``retries`` + 1 tries; a simulated board's while its process runs, within
        ``patience`` seconds (a loaded machine gives it the CPU late), none once it
        has ended."""
        if tries == 0:
            return True
        if self.alive is None:
            return tries <= self.retries
        if not self.alive():
            return False
        return tries <= self.retries or time.monotonic() - t0 < self.patience

    # ---- requests -----------------------------------------------------------------

    def hello(self):
        """{"proto", "fw", "max", "chunk", "board"}; LinkError if the protocol differs."""
        h = self.request("H")
        if h.get("proto") != proto.PROTOCOL:
            raise LinkError("board speaks protocol %r, this tool %d: update one of them"
                            % (h.get("proto"), proto.PROTOCOL))
        return h

    def status(self):
        return self.request("S")

    def list_games(self):
        """Every game on the board: list of dicts {id, game, size, finished, result}."""
        out = []
        frm = 0
        while True:
            r = self.request("L", {"from": frm})
            for gid, name, size, fin, res in r["games"]:
                out.append({"id": gid, "game": name, "size": size, "finished": fin, "result": res})
            if not r.get("more") or not r["games"]:
                return out
            frm = r["games"][-1][0] + 1

    def fetch(self, gid, progress=None):
        """The record bytes of game ``gid``; ``progress(nbytes)`` after each chunk."""
        data = bytearray()
        total = None
        while total is None or len(data) < total:
            p = self.request("F", {"id": gid, "off": len(data)})
            off, tot = proto.get32(p, 0), proto.get32(p, 4)
            if off != len(data):
                raise LinkError("fetch of game %d answered offset %d for %d" % (gid, off, len(data)))
            total = tot
            chunk = p[8:]
            if not chunk and len(data) < total:
                raise LinkError("fetch of game %d stopped at %d of %d bytes" % (gid, len(data), total))
            data += chunk
            if progress:
                progress(len(chunk))
        return bytes(data)

    def fetch_game(self, gid, progress=None):
        """Fetch game ``gid`` and parse it: (record.GameRecord, raw bytes).
        LinkError if its records do not check out."""
        raw = self.fetch(gid, progress)
        rec = parse_game(raw, gid)
        if rec.name is None or rec.problem or rec.size != len(raw):
            raise LinkError("game %d arrived damaged: %s" % (gid, rec.problem or "no header"))
        return rec, raw

    def ack(self, gid):
        return self.request("A", {"id": gid})

    def problems(self):
        out = []
        while True:
            r = self.request("P", {"from": len(out)})
            out.extend(r["lines"])
            if not r["lines"] or len(out) >= r["total"]:
                return out

    def settings(self):
        return self.request("R")

    def health(self, take=None):
        """The board's health counters (``C``, docs/protocol.md): {"power_ups",
        "wdt_resets", "stuck", "chatter", "faulty"}; with ``take`` (counters as read)
        the board takes those back and answers with what is left."""
        return self.request("C", {"take": take} if take is not None else None)

    def set_settings(self, **kw):
        return self.request("W", kw)

    def set_game(self, **kw):
        return self.request("G", kw)

    def set_time(self, when=None):
        """Set the board's clock (for the games' Date tags) to ``when`` (a datetime; now)."""
        import datetime

        t = when or datetime.datetime.now()
        return self.request("T", {"time": [t.year, t.month, t.day, t.hour, t.minute, t.second]})

    def check(self, run=None, seconds=None):
        """Start check ``run`` ("selftest" / "calibrate") for ``seconds``, or (run None)
        ask how the running or last one went: ``G {"check": ...}`` (docs/protocol.md)."""
        req = {"check": run or "status"}
        if run is not None and seconds is not None:
            req["s"] = seconds
        return self.request("G", req)

    def live(self, on=True):
        return self.request("V", {"on": bool(on)})

    def wait_events(self, seconds):
        """Events that arrive within ``seconds`` (and any already received): list of dicts."""
        for seq, t, p in self._read_frames(time.monotonic() + seconds):
            if t == "e":
                self._take_event(seq, p)
        ev, self.events = self.events, []
        return ev


def add_port_arguments(p):
    """The options that choose the board: --port, --vid-pid, --timeout."""
    p.add_argument("--port", help="serial port of the board (default: found by its USB id)")
    p.add_argument("--vid-pid", default=DEFAULT_VID_PID, type=_vid_pid_arg,
                   help="USB VID:PID that finds the board (default %(default)s, MicroPython on an RP2040; "
                   "CircuitPython's Pico 239a:80f4: its usb_cdc.data port is taken)")
    p.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for each answer (default %(default)s)")


def connect(args):
    """A BoardLink to the board chosen by ``args`` after a checked hello (and with the
    board's clock set): (link, hello dict). A simulated board's port (in
    ``SIMULATED_PORTS``) is waited for while its process runs."""
    return connect_port(args.port, args.vid_pid, args.timeout)


def connect_port(port=None, vid_pid=DEFAULT_VID_PID, timeout=1.0):
    """A BoardLink to the board on ``port`` (None: found by ``vid_pid``) after a checked
    hello, with the board's clock set to now (its games' ``Date`` tags): (link, hello
    dict). ``timeout``: seconds for each answer. LinkError (the port closed again) if
    it cannot be opened or does not answer."""
    link = BoardLink(open_port(port, vid_pid), timeout=timeout, alive=SIMULATED_PORTS.get(port))
    try:
        hello = link.hello()
        link.set_time()
        return link, hello
    except LinkError:
        link.close()
        raise
