"""The board's USB serial link: framed, checked messages beside the REPL.

The link shares the USB serial port with MicroPython's REPL, so that
``mpremote`` can always take over. A frame is::

    0x1E  escaped( seq, type, payload..., crc32 LE )  0x0A

- ``0x1E`` (RS) starts a frame and ``0x0A`` (LF) ends it. Inside, every byte
  below 0x20 and the bytes 0x7D and 0x7F are sent as 0x7D followed by the byte
  XOR 0x20, so a frame never holds a control character: not Ctrl-A..Ctrl-E of
  the raw REPL, not mpremote's 0x18, and never 0x03, so the USB driver's Ctrl-C
  check (``micropython.kbd_intr(3)``, which the link keeps on) never fires on a
  frame while a real Ctrl-C, anywhere, still stops the app and reaches the REPL.
  Bytes outside frames (the REPL's and ``print``'s text) are ignored.
- ``seq``: 0..255, chosen by the host per request and echoed by the reply;
  events carry the board's own event counter. A request repeated with the same
  seq and payload (the host's retry after a lost answer) gets the same answer
  again without being done twice (a read is simply done again). ``type``: one
  ASCII letter (a request is upper case, its reply lower case, ``!`` an error,
  ``e`` an event).
- ``payload``: UTF-8 JSON (an object), except the fetch reply ``f``: offset (u32
  LE), total (u32 LE), then record bytes. At most ``MAX_PAYLOAD`` bytes.
- ``crc32``: CRC-32 (zlib) of seq, type and payload, 4 bytes little-endian.

A frame that is garbled (bad escape, control byte inside, bad CRC, short),
truncated (a new start byte, or no byte for ``TIMEOUT_MS``), oversized or of an
unknown type is answered with one ``!`` frame ``{"err": code, "msg": text}`` and
changes nothing. docs/protocol.md lists every message.

Use (the app)::

    link = Link(StdioTransport(), store, app=app, settings=settings)
    while True:
        ...scan, track, light...
        link.poll()                                  # once per frame, never blocks
        link.event("move", {"ply": g.ply, "move": text})   # sent if the host listens

``app`` may define ``link_status() -> dict``, ``link_set_game(dict) -> dict``
(raise ValueError to refuse) and ``link_settings(changed dict)`` (called after a
settings change was saved).
"""
import json

from playboard import __version__
from playboard.compat import const, micropython, ptr8, unload
from playboard.record.codec import StoreError, crc32

PROTOCOL = 1
SOF = const(0x1E)
EOF = const(0x0A)
ESC = const(0x7D)
MAX_PAYLOAD = const(480)
CHUNK = const(256)  # record bytes per fetch reply
LIST_PAGE = const(8)  # games per list reply
TIMEOUT_MS = const(500)
LIVE_TIMEOUT_MS = const(20000)  # live events stop after this long without a request
MAX_BODY = const(486)  # seq + type + MAX_PAYLOAD + crc
# a reply's fields that go first when its JSON is over MAX_PAYLOAD (Link.send): none of
# them is needed to follow or sync a game
_SHED = ("dropped", "pairing", "led_cap_ma", "supply", "memory_errors", "pending", "synced",
         "problems", "used")

# decoder states
_IDLE = const(0)
_IN = const(1)
_ESCAPED = const(2)
_DISCARD = const(3)

# Settings the board keeps, with their defaults (their kinds and ranges:
# playboard.settings.SPEC; docs/museum.md). The app adds its own (app.state).
from playboard.hw.stdio import StdioTransport  # noqa: E402,F401 (its old place)


def _needs_escape(b):
    return b < 0x20 or b == ESC or b == 0x7F


def encode_frame(seq, ftype, payload, out=None):
    """The frame for ``seq`` (0..255), ``ftype`` (a one-letter str or its byte) and
    ``payload`` (bytes-like, <= MAX_PAYLOAD bytes).

    Writes into ``out`` (a bytearray of at least 2 * (payload + 6) + 2 bytes) and
    returns the frame's length, or returns new ``bytes`` when ``out`` is None.
    ValueError for a payload over MAX_PAYLOAD or a seq outside 0..255.
    """
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes (at most %d)" % (len(payload), MAX_PAYLOAD))
    if not 0 <= seq <= 255:
        raise ValueError("seq %d outside 0..255" % seq)
    t = ord(ftype) if isinstance(ftype, str) else ftype
    buf = out if out is not None else bytearray(2 * (len(payload) + 6) + 2)
    hdr = bytes((seq, t))
    c = crc32(payload, crc32(hdr))
    buf[0] = SOF
    n = _escape(hdr, 2, buf, 1)
    n = _escape(payload, len(payload), buf, n)
    n = _escape(bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, (c >> 24) & 255)), 4, buf, n)
    buf[n] = EOF
    n += 1
    if out is not None:
        return n
    return bytes(buf[:n])


@micropython.viper
def _escape(src: ptr8, n: int, dst: ptr8, at: int) -> int:
    """Copy ``n`` bytes of ``src`` to ``dst`` from ``at``, escaping as a frame needs;
    return the index after the last byte written."""
    i = 0
    while i < n:
        b = int(src[i])
        if b < 0x20 or b == 0x7D or b == 0x7F:
            dst[at] = 0x7D
            dst[at + 1] = b ^ 0x20
            at += 2
        else:
            dst[at] = b
            at += 1
        i += 1
    return at


class Decoder:
    """Byte-by-byte frame decoder with a preallocated buffer (board and host).

    ``feed(b)`` takes one byte (int) and returns 0 (nothing yet), 1 (a good frame:
    ``seq``, ``type`` and ``payload()`` describe it) or -1 (a bad frame: ``err``
    is its code, ``seq`` the seq byte if one arrived, else 0). ``expire(now_ms)``
    ends a frame left unfinished for ``timeout_ms`` (returns -1 then).
    ``noise`` counts bytes seen outside frames.
    """

    def __init__(self, max_body=MAX_BODY, timeout_ms=TIMEOUT_MS):
        self.buf = bytearray(max_body)
        self.max = max_body
        self.n = 0
        self.state = _IDLE
        self.err = None
        self._ferr = None
        self.seq = 0
        self.type = 0
        self.noise = 0
        self.timeout_ms = timeout_ms
        self.t_last = 0

    def in_frame(self):
        return self.state != _IDLE

    def payload(self):
        """The good frame's payload as a memoryview (valid until the next feed)."""
        return memoryview(self.buf)[2:self.n - 4]

    def _fail(self, code):
        self.state = _DISCARD
        if self._ferr is None:
            self._ferr = code

    def _end(self):
        """A frame ended (EOF, or cut by SOF/timeout): 1 or -1 (``err`` set)."""
        st = self.state
        self.state = _IDLE
        n = self.n
        b = self.buf
        self.seq = b[0] if n > 0 else 0
        self.err = None
        if st == _DISCARD:
            self.err = self._ferr or "garbled"
            return -1
        if st == _ESCAPED:
            self.err = "escape"
            return -1
        if n < 6:
            self.err = "short"
            return -1
        c = crc32(memoryview(b)[0:n - 4])
        if c != (b[n - 4] | (b[n - 3] << 8) | (b[n - 2] << 16) | (b[n - 1] << 24)):
            self.err = "crc"
            return -1
        self.type = b[1]
        return 1

    def feed(self, b, now_ms=0):
        self.t_last = now_ms
        st = self.state
        if b == SOF:
            r = 0
            if st != _IDLE:  # the frame before was cut short
                if st != _DISCARD:
                    self._ferr = "truncated"
                self.state = _DISCARD
                r = self._end()
            self.state = _IN
            self.n = 0
            self._ferr = None
            return r
        if st == _IDLE:
            self.noise += 1
            return 0
        if b == EOF:
            return self._end()
        if st == _DISCARD:
            return 0
        if b < 0x20:
            self._fail("control")
            return 0
        if st == _ESCAPED:
            b ^= 0x20
            if not _needs_escape(b):
                self._fail("escape")
                return 0
            self.state = _IN
        elif b == ESC:
            self.state = _ESCAPED
            return 0
        if self.n >= self.max:
            self._fail("oversized")
            return 0
        self.buf[self.n] = b
        self.n += 1
        return 0

    def expire(self, now_ms):
        """-1 (err "truncated") if a frame has been open ``timeout_ms`` without a byte, else 0."""
        if self.state == _IDLE:
            return 0
        if _ticks_diff(now_ms, self.t_last) < self.timeout_ms:
            return 0
        if self.state != _DISCARD:
            self._ferr = "truncated"
        self.state = _DISCARD
        return self._end()


try:
    import time as _time

    _ticks_ms = _time.ticks_ms
    _ticks_diff = _time.ticks_diff
except AttributeError:  # CPython
    import time as _time

    def _ticks_ms():
        return int(_time.monotonic() * 1000) & 0x3FFFFFFF

    def _ticks_diff(a, b):
        d = (a - b) & 0x3FFFFFFF
        return d - 0x40000000 if d & 0x20000000 else d

    from playboard.compat import CIRCUITPYTHON
    if CIRCUITPYTHON:
        from playboard.compat import ticks_ms as _ticks_ms  # noqa: F811 (supervisor's, 2**30 wrap)


class Link:
    """The board's side of the protocol over ``transport`` for ``store`` (a record.Store).

    ``app``: optional object with hooks (see the module text); ``settings``: the
    settings dict (shared with the app; DEFAULT_SETTINGS merged with the store's
    when None); ``clock``: a function giving milliseconds (``time.ticks_ms``);
    ``interrupt``: a byte that raises KeyboardInterrupt when it reaches the link
    (3 by default on MicroPython, where normally the USB driver already turned it
    into one; None to treat it as line noise). ``poll()`` never blocks and never
    raises for what the host sends.
    """

    def __init__(self, transport, store, app=None, settings=None, clock=None, interrupt=-1):
        self.t = transport
        self.store = store
        self.app = app
        if settings is None:
            from playboard.settings import DEFAULT_SETTINGS
            unload("playboard.settings")  # (its defaults only: the module goes again)
            settings = store.load_settings(DEFAULT_SETTINGS)
        self.settings = settings
        self.clock = clock or _ticks_ms
        self.dec = Decoder()
        self.rx = bytearray(64)
        self.tx = bytearray(2 * (MAX_PAYLOAD + 6) + 2)
        self.chunk = bytearray(8 + CHUNK)
        self.live = False
        self._last_key = None
        self._last_reply = None
        self._ndropped = store.n_dropped
        self.t_heard = 0
        self.event_seq = 0
        self.frames = 0
        self.errors = 0
        if interrupt == -1:
            interrupt = 3 if hasattr(micropython, "kbd_intr") else None
        self.interrupt = interrupt
        if hasattr(micropython, "kbd_intr"):
            micropython.kbd_intr(3)  # Ctrl-C outside the link's control stops the app

    # ---- sending --------------------------------------------------------------

    def send(self, seq, ftype, payload):
        """Send one frame (payload: bytes-like or a dict, sent as compact JSON). A dict
        whose JSON is over ``MAX_PAYLOAD`` sheds the fields a host can do without
        (``_SHED``, in order; ``"cut": 1`` says so) rather than send nothing: a status
        with a tournament's pairing, a finished game's result and the supply had
        reached 490 bytes, and the board went silent to the hall."""
        if isinstance(payload, dict):
            b = json.dumps(payload, separators=(",", ":")).encode()
            if len(b) > MAX_PAYLOAD:
                for k in _SHED:
                    if k in payload:
                        del payload[k]
                        payload["cut"] = 1
                        b = json.dumps(payload, separators=(",", ":")).encode()
                        if len(b) <= MAX_PAYLOAD:
                            break
            payload = b
        n = encode_frame(seq, ftype, payload, self.tx)
        self.t.write(memoryview(self.tx)[0:n])

    def error(self, seq, code, msg=""):
        self.errors += 1
        self.send(seq, "!", {"err": code, "msg": msg[:200]})

    def event(self, kind, fields=None):
        """Send live event ``kind`` ("move", "lift", "place", "correction", "undo",
        "over", ...) with ``fields`` (dict) if the host asked for live events.
        Live events stop by themselves when the host has sent nothing for
        LIVE_TIMEOUT_MS (it went away: nobody reads the port). Returns True if sent."""
        if not self.live:
            return False
        if _ticks_diff(self.clock(), self.t_heard) > LIVE_TIMEOUT_MS:
            self.live = False
            return False
        d = {"ev": kind}
        if fields:
            d.update(fields)
        self.event_seq = (self.event_seq + 1) & 255
        try:
            self.send(self.event_seq, "e", d)
        except ValueError:  # too big: say so rather than fail the app
            self.send(self.event_seq, "e", {"ev": kind, "err": "oversized"})
        return True

    # ---- receiving ------------------------------------------------------------

    def poll(self):
        """Read what is waiting (never blocks) and answer every complete frame.
        Returns the number of frames handled (good and bad)."""
        dec = self.dec
        n = self.t.read_into(self.rx)
        if n == 0 and dec.state == _IDLE and self.store.n_dropped == self._ndropped:
            return 0  # the usual case, kept short: the app calls this every frame
        now = self.clock()
        handled = 0
        while True:
            if n == 0:
                break
            for i in range(n):
                b = self.rx[i]
                if b == self.interrupt and b is not None:
                    raise KeyboardInterrupt
                r = dec.feed(b, now)
                if r:
                    handled += 1
                    self._handle(r)
            if n < len(self.rx):
                break
            n = self.t.read_into(self.rx)
        if dec.expire(now) == -1:
            handled += 1
            self._handle(-1)
        nd = self.store.n_dropped
        if nd != self._ndropped:
            if self.live:  # the new ones (``dropped`` keeps the last 16: counted, not its length)
                ids = self.store.dropped
                self.event("dropped", {"ids": ids[max(0, len(ids) - (nd - self._ndropped)):]})
            self._ndropped = nd
        return handled

    def _handle(self, r):
        dec = self.dec
        self.frames += 1
        self.t_heard = self.clock()
        if r < 0:
            self.error(dec.seq, dec.err or "garbled", "bad frame")
            return
        seq = dec.seq
        t = dec.type
        try:
            if t == 0x46:  # F: fetch, answered in binary
                self._fetch(seq)
                return
            h = _HANDLERS.get(t)
            if h is None:
                self.error(seq, "unknown", "unknown frame type 0x%02x" % t)
                return
            p = dec.payload()
            if len(p):
                try:
                    req = json.loads(bytes(p))
                except ValueError:
                    self.error(seq, "payload", "payload is not JSON")
                    return
                if not isinstance(req, dict):
                    self.error(seq, "payload", "payload is not a JSON object")
                    return
            else:
                req = {}
            # a resent request (its answer was lost) is answered again, not redone; a
            # read is done again (the same answer) and its reply not kept: a page of
            # the list kept until the next request split the heap (the largest block
            # 141 -> 63 KB on the RP2040 with 200 games on flash, bench/py_model.py)
            key = (seq, t, crc32(p))
            if key == self._last_key:
                reply = self._last_reply
            else:
                reply = h(self, req)
                if t in _READS:
                    key = None
                self._last_key = key
                self._last_reply = None if key is None else reply
            self.send(seq, t | 0x20, reply)
        except (ValueError, TypeError, KeyError, StoreError) as e:
            self.error(seq, "refused", str(e))
        except MemoryError:
            # a request that only reads: asked again once the app has made room (with
            # no game in play it drops the last game's code and objects)
            app = self.app
            if (not _AGAIN[0] and t in _READS and app is not None
                    and getattr(app, "make_room", None) is not None and app.make_room()):
                _AGAIN[0] = 1
                try:
                    self._handle(r)  # (the frame is still in the decoder)
                finally:
                    _AGAIN[0] = 0
                return
            self.error(seq, "memory", "out of memory")
        except OSError as e:
            self.error(seq, "flash", repr(e))
        except Exception as e:  # noqa: BLE001 - a bug in a hook must not stop the board
            self.error(seq, "internal", repr(e))

    def _req_json(self):
        p = self.dec.payload()
        return json.loads(bytes(p)) if len(p) else {}

    def _fetch(self, seq):
        try:
            req = self._req_json()
            gid = _int(req, "id")
            off = _int(req, "off", 0)
        except ValueError as e:
            self.error(seq, "payload", str(e))
            return
        total = self.store.size(gid)
        c = self.chunk
        k = self.store.read_into(gid, off, memoryview(c)[8:])
        _put32(c, 0, off)
        _put32(c, 4, total)
        self.send(seq, "f", memoryview(c)[0:8 + k])

    def _hello(self, req):
        # a host's session begins (a sync): with no game on the board (the menu,
        # attract) the last game's code and the next one's reserve go now
        # (App.make_room), so that the session's requests have the heap (issue 14's
        # soak: fetches and acks refused, out of memory, the heap cut by them)
        app = self.app
        if app is not None and getattr(app, "game", 1) is None and hasattr(app, "make_room"):
            app.make_room()
        return {"proto": PROTOCOL, "fw": __version__, "max": MAX_PAYLOAD, "chunk": CHUNK,
                "board": getattr(self.app, "board_id", None) or _board_id()}

    def _status(self, req):
        st = self.store
        d = {"current": st.current, "games": st.count,
             "finished": st.count - (st.current is not None), "synced": st.synced,
             "used": st.used(), "flash_low": st.low, "dropped": st.dropped[-8:],
             "problems": len(st.report), "error": st.error, "live": self.live}
        if self.app is not None and hasattr(self.app, "link_status"):
            d.update(self.app.link_status())
        if req.get("heap") is True:  # the free heap after a collection (bytes)
            import gc
            gc.collect()
            d["heap_free"] = gc.mem_free()
        return d

    def _list(self, req):
        frm = _int(req, "from", 0)
        out = []
        more = False
        for e in self.store.games(frm, LIST_PAGE + 1):  # (streamed: one page read)
            if len(out) >= LIST_PAGE:
                more = True
                break
            out.append([e[0], e[1], e[2], e[3], e[4]])
        return {"games": out, "more": more}

    def _ack(self, req):
        gid = _int(req, "id")
        if not self.store.ack(gid):
            raise OSError(self.store.error)
        return {"id": gid}

    def _problems(self, req):
        rep = self.store.report
        frm = _int(req, "from", 0)
        out = []
        size = 0
        for i in range(frm, len(rep)):
            line = rep[i][:120]
            size += len(line) + 4
            if size > 400:
                break
            out.append(line)
        return {"from": frm, "lines": out, "total": len(rep)}

    def _set_game(self, req):
        if self.app is None or not hasattr(self.app, "link_set_game"):
            raise ValueError("the board cannot change game now")
        return self.app.link_set_game(req)

    def _read_settings(self, req):
        return self.settings

    def _write_settings(self, req):
        """``W``: change settings. Every change is checked (``playboard.settings``)
        before anything is written; refused whole (one line) while the board is locked,
        for an unknown setting or a bad value; then saved on flash (power-safe) and
        applied."""
        from playboard import settings as S
        try:
            if S.link_locked(self.settings, self.app):
                raise ValueError(S.LOCKED)
            new = S.check_all(req, self.settings)
        finally:
            del S
            unload("playboard.settings")  # a change only: not kept in the heap
        # only what a user set is kept on flash, so that a default (the firmware's, or
        # the board file's leds.brightness) still applies to every other setting
        saved = self.store.load_settings()
        for k in new:
            if k in req or new[k] != self.settings.get(k):
                saved[k] = new[k]
        if not self.store.save_settings(saved):
            raise OSError(self.store.error)
        for k in req:
            self.settings[k] = new[k]
        if self.app is not None and hasattr(self.app, "link_settings"):
            self.app.link_settings(req)
        return self.settings

    def _set_time(self, req):
        t = req.get("time")
        if not isinstance(t, list) or len(t) != 6 or not all(isinstance(x, int) for x in t):
            raise ValueError("time must be [year, month, day, hour, minute, second]")
        if not (2000 <= t[0] <= 2099 and 1 <= t[1] <= 12 and 1 <= t[2] <= 31
                and 0 <= t[3] < 24 and 0 <= t[4] < 60 and 0 <= t[5] < 60):
            raise ValueError("time out of range")
        try:
            import machine

            machine.RTC().datetime((t[0], t[1], t[2], 0, t[3], t[4], t[5], 0))
            return {"set": True}
        except (ImportError, AttributeError):
            return {"set": False}  # no RTC here (a PC runs it): its clock is right already

    def _health(self, req):
        """``C``: the board's health counters (``playboard.health``, for this only)."""
        from playboard import health
        unload("playboard.health")
        return health.link(self.store, req, self.app)

    def _live(self, req):
        on = req.get("on", True)
        if on is not True and on is not False:
            raise ValueError("on takes true or false")
        self.live = on
        return {"on": self.live}


_HANDLERS = {
    0x48: Link._hello,  # H
    0x53: Link._status,  # S
    0x4C: Link._list,  # L
    0x41: Link._ack,  # A
    0x50: Link._problems,  # P
    0x47: Link._set_game,  # G
    0x52: Link._read_settings,  # R
    0x57: Link._write_settings,  # W
    0x56: Link._live,  # V
    0x54: Link._set_time,  # T
    0x43: Link._health,  # C
}


# the requests that change nothing, asked again after a MemoryError once the app made
# room: H, S, L, P, R, V (only the live flag), F; _AGAIN[0]: one is being asked again
# (a flag here, not on the Link: nothing is allocated while the heap is short)
_READS = (0x48, 0x53, 0x4C, 0x50, 0x52, 0x56, 0x46)
_AGAIN = bytearray(1)


def _int(req, key, default=None):
    v = req.get(key, default)
    if v is None:
        raise ValueError("%s missing" % key)
    if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v >= (1 << 30):
        raise ValueError("%s must be an integer 0..2**30" % key)
    return v


def _put32(buf, at, v):
    buf[at] = v & 255
    buf[at + 1] = (v >> 8) & 255
    buf[at + 2] = (v >> 16) & 255
    buf[at + 3] = (v >> 24) & 255


def get32(buf, at):
    """Little-endian u32 at ``buf[at:at+4]``."""
    return buf[at] | (buf[at + 1] << 8) | (buf[at + 2] << 16) | (buf[at + 3] << 24)


def _board_id():
    """The chip's unique id in hex ("sim" where the port has none); a simulated board
    is given its own by ``App.board_id`` (sim/boot.py --id)."""
    try:
        import machine

        u = machine.unique_id()
        return "".join("%02x" % b for b in u)
    except (ImportError, AttributeError):
        return "sim"
