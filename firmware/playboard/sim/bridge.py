"""The firmware on the MicroPython unix port, on the simulated board, driven from outside.

``micropython firmware/main.py [options]`` runs :func:`run`: the real app
(``playboard.app.loop``) on the simulated board (``playboard.sim.hw``), the USB link on
standard input / output (a pseudo-terminal when a host drives it, so that
``playboard sync`` talks to it as to a board), and - with ``--ctl IN,OUT`` - a
control channel on two inherited pipe file descriptors that sets sensors,
advances the clock and reads the LEDs and the app's events back. The host side is
``playboard_host.simboard.SimBoard``; docs/simulator.md describes the protocol.

Options::

    --board NAME        board definition (default "sim")
    --flash DIR         the board's flash is folder DIR (games in DIR/games; default sim-flash)
    --image FILE        the flash is littlefs in FILE (a block device image; made if absent)
    --journal N         the record's journal: N 4 KB sectors of NOR flash in DIR/journal
                        (or FILE.journal), as the product board has it (default 4: its
                        16 KB; 0: none, every record appended to the game's file)
    --blocks N          blocks of 4096 bytes in a new image (default 64)
    --ctl IN,OUT        control channel: read commands from fd IN, reply on fd OUT
    --clock virtual     time moves only by ``adv`` commands (default with --ctl); ``real``: ticks_ms
    --think nodes|ms    engine budget per move (default nodes with a virtual clock)
    --no-link           no link on stdin/stdout
    --id TEXT           the board id the link's hello gives (default "sim")
    --sensors HEX       the raw sensors at power-up, a byte each (default all 0: no piece)

Control commands: one line each, words split by spaces; each gets one reply line
of JSON (``{"ok": true, ...}`` or ``{"ok": false, "err": text}``)::

    ping                      -> {"ok", "t"}
    adv MS                    run the app MS ms of virtual time (one frame per scan period)
    set SENSOR VALUE          raw sensor value (0 empty, 1 occupied / White, 2 Black)
    lift CELL / place CELL [V] / tap CELL [MS]
                              a cell of the current game (layout), tap: toggled and back MS later
    fault swap A B | invert S | kill LED CHANNEL | offset S ZERO
                              (board sim-hall) a builder's wiring fault: crossed sensor wires,
                              a hall sensor upside down, an LED colour dead, a sensor's
                              zero-field output (read_u16 counts; 0: dead) - playboard.sim.hall
    leds                      -> {"leds": hex of R,G,B per LED as last shown}
    sensors                   -> {"sensors": hex, one byte per sensor}
    events                    -> {"events": [{"ev": kind, "t": ms, ...}, ...], "lost": n} since
                              the last call (at most 32 / 2 KB kept: the oldest dropped)
    events off / events on    stop / restart keeping events
    status                    -> the link status fields, "t", "store" and "link_live"
    game NAME MODE LEVEL      start a game (abandons one being played)
    setup                     put the pieces of the Tobit position being played on the sensors
    menu                      open the menu
    wall SECONDS              the board's wall clock (App.wallclock, read for the opening
                              hours) reads SECONDS (since 1970, no time zone) now and moves
                              on with the virtual clock; jump it to skip a night (not kept
                              across a power cut: the app reads time.localtime again;
                              kept across a daily restart, see below)
    wall                      -> {"wall": [year, month, day, hour, minute, second]}: the
                              board's wall clock now (App.wallclock)
    cut N                     (image only) the power goes after N more bytes programmed (0: never)
    mem                       -> {"alloc", "free"}: heap bytes after a collection, and
                              "peak", "peak_modules": the largest heap seen by ``watch``,
                              "min_block": the smallest largest-free-block it saw (bytes)
    watch [off]               collect after every frame and keep the peak heap (slow)
    auto [off]                a spectator makes each engine move of Tobit on the sensors
    quit                      close the files and exit

A locked board's daily restart (``playboard.app.restart``;
``machine.soft_reset()``, which raises ``SystemExit`` on the unix port)
ends the process with the exit status 75 ("restart me"), after replying (virtual
clock) to the ``adv`` it happened in with ``{"ok": true, "restart": true, "t": the
clock then, "sensors": the raw sensors then (hex), "wall": the wall clock's seconds
then (null unless ``wall`` set it)}``. ``SimBoard`` then starts the process again on
the same flash and link port with ``--sensors`` (the pieces stay where they stand),
sends ``wall`` again (on the chip the RTC keeps it across a soft reset) and runs the
rest of the ``adv``.
"""
import sys
import time

try:
    import json
except ImportError:  # pragma: no cover
    import ujson as json

from playboard.compat import const, unload

_MASK = const(0x3FFFFFFF)
_EVENT_BYTES = const(2048)  # the events kept for the host, as JSON text (oldest dropped)
_EVENT_COUNT = const(32)


def largest_block():
    """The largest block the heap can give now (bytes, to 16), found by trying."""
    lo = 0
    hi = 256 * 1024
    while hi - lo > 16:
        mid = (lo + hi) // 2
        try:
            b = bytearray(mid)
            b = None
            lo = mid
        except MemoryError:
            hi = mid
    return lo


class Bridge:
    """Runs the app on the simulated board and serves the control channel.

    ``app``: the :class:`playboard.app.App`; ``ctl_in`` / ``ctl_out``: file objects
    (the input non-blocking) or None; ``virtual``: time moves only on ``adv``.
    """

    def __init__(self, app, ctl_in=None, ctl_out=None, virtual=True, bdev=None):
        self.app = app
        self.hw = app.hw
        self.ctl_in = ctl_in
        self.ctl_out = ctl_out
        self.virtual = virtual
        self.bdev = bdev
        self.now = 0
        self._link_wait = 0  # (loop: real ms of the link's last retry, virtual clock)
        # the events' JSON texts, one after another with a newline each, oldest first,
        # in one block made now: kept as separate strings they would lie all over the
        # heap the firmware plays in and cut it into holes (the board has no bridge)
        self.evbuf = bytearray(_EVENT_BYTES)
        self.n_ev = 0
        self.ev_bytes = 0
        self.collect = True
        self.lost = 0
        self.line = bytearray()
        self.rx = bytearray(256)
        self.running = True
        self.watch = False  # collect after every frame and keep the peak heap
        self.peak = 0
        self.peak_modules = []
        self.min_block = 0  # the smallest "largest free block" seen by ``watch`` (0: none)
        self._nsample = 0
        self.auto = False  # a spectator makes the engine's Tobit moves on the sensors
        self._auto_done = None
        app.sink = self.sink

    def sink(self, kind, fields):
        if not self.collect:
            return
        d = {"ev": kind, "t": self.app.now}
        if fields:
            d.update(fields)
        s = json.dumps(d).encode()
        n = len(s) + 1
        if n > _EVENT_BYTES:
            self.lost += 1
            return
        buf = self.evbuf
        mv = memoryview(buf)
        while self.n_ev and (self.n_ev >= _EVENT_COUNT or self.ev_bytes + n > _EVENT_BYTES):
            k = 0  # drop the oldest: up to its newline
            while buf[k] != 10:
                k += 1
            k += 1
            mv[0:self.ev_bytes - k] = mv[k:self.ev_bytes]
            self.ev_bytes -= k
            self.n_ev -= 1
            self.lost += 1
        mv[self.ev_bytes:self.ev_bytes + n - 1] = s
        buf[self.ev_bytes + n - 1] = 10
        self.ev_bytes += n
        self.n_ev += 1

    def clock(self):
        if self.virtual:
            return self.now
        return time.ticks_ms()

    # ---- control channel ---------------------------------------------------------

    def reply(self, d):
        if self.ctl_out is None or d is None:
            return
        self.write(json.dumps(d).encode() + b"\n")

    def write(self, data):
        mv = memoryview(data)
        while len(mv):
            k = self.ctl_out.write(mv)
            if k is None:
                time.sleep_ms(1)
                continue
            mv = mv[k:]

    def read_ctl(self):
        """Read what is waiting on the control channel and run each whole line."""
        if self.ctl_in is None:
            return
        while self.running:
            try:
                n = self.ctl_in.readinto(self.rx)
            except OSError:
                n = None
            if n is None:
                return
            if n == 0:  # the host went away
                self.running = False
                return
            self.line.extend(memoryview(self.rx)[0:n])
            while True:
                i = self.line.find(b"\n")
                if i < 0:
                    break
                cmd = bytes(self.line[0:i])
                self.line = self.line[i + 1:]
                try:
                    self.reply(self.command(cmd.decode().split()))
                except Exception as e:  # a bad command never stops the board
                    if isinstance(e, MemoryError):
                        sys.print_exception(e, sys.stderr)
                    self.reply({"ok": False, "err": "%s: %s" % (type(e).__name__, e)})

    def _cell_sensor(self, cell):
        app = self.app
        lay = app.lay
        if lay is None:
            lay = app.load_layout(app.game_name)
        s = lay.sensor_of(cell)
        if s < 0:
            raise ValueError("cell %d of %s has no sensor" % (cell, lay.game))
        return s

    def command(self, w):
        if not w:
            return {"ok": False, "err": "empty command"}
        c = w[0]
        app = self.app
        hw = self.hw
        if c == "adv":
            ms = int(w[1])
            if ms < 0:
                raise ValueError("adv takes ms >= 0")
            self.advance(ms)
        elif c == "ping":
            pass
        elif c == "set":
            hw.set_sensor(int(w[1]), int(w[2]))
        elif c in ("lift", "place", "tap"):
            s = self._cell_sensor(int(w[1]))
            if c == "lift":
                hw.set_sensor(s, 0)
            elif c == "place":
                hw.set_sensor(s, int(w[2]) if len(w) > 2 else 1)
            else:
                ms = int(w[2]) if len(w) > 2 else 150
                v = hw.sensors[s]
                hw.set_sensor(s, 0 if v else 1)
                hw.schedule((self.clock() + ms) & _MASK, s, v)
        elif c == "power":  # the source the board reads: "adapter" (with USB or not), "usb" alone
            if len(w) < 2 or w[1] not in ("adapter", "usb"):
                raise ValueError("power takes adapter or usb")
            hw.set_source(1 if w[1] == "usb" else 0)
        elif c == "fault":  # a wiring fault of the simulated hall board (playboard.sim.faults)
            if not hasattr(hw, "invert") or w[1:2] not in (["swap"], ["invert"], ["kill"], ["offset"]):
                raise ValueError("fault swap A B | invert S | kill LED CHANNEL | offset S ZERO "
                                 "(the sim-hall board)")
            getattr(hw, w[1])(*[int(x) for x in w[2:]])
        elif c == "leds":
            return {"ok": True, "t": self.clock(), "leds": _hex(hw.shown)}
        elif c == "sensors":
            return {"ok": True, "t": self.clock(), "sensors": _hex(hw.sensors)}
        elif c == "events":
            if len(w) > 1:
                self.collect = w[1] != "off"
                return {"ok": True, "t": self.clock()}
            # written piece by piece: no copy of the whole list in the heap
            self.write(b'{"ok": true, "t": %d, "lost": %d, "events": [' % (self.clock(), self.lost))
            mv = memoryview(self.evbuf)
            a = 0
            for k in range(self.n_ev):
                b = a
                while self.evbuf[b] != 10:
                    b += 1
                if k:
                    self.write(b", ")
                self.write(mv[a:b])
                a = b + 1
            self.n_ev = 0
            self.ev_bytes = 0
            self.lost = 0
            self.write(b"]}\n")
            return None
        elif c == "status":
            d = app.link_status()
            d["ok"] = True
            d["t"] = self.clock()
            d["store"] = {"current": app.store.current, "games": app.store.count}
            d["link_live"] = app.link is not None and app.link.live  # a host follows live events
            d["settings"] = app.settings  # (the page: what a locked menu offers)
            return d
        elif c == "game":
            req = {"game": w[1], "force": True}
            if len(w) > 2:
                req["mode"] = w[2]
            if len(w) > 3:
                req["level"] = int(w[3])
            app.link_set_game(req)
            while app._pending is not None:  # the game exists when the reply goes (or a
                app.begin_pending(self.clock())  # MemoryError once it is given up)
        elif c == "setup":
            g = app.game
            if g is None or not hasattr(g, "n_points"):
                raise ValueError("setup places the pieces of a Tobit game being played")
            for p in range(1, g.n_points + 1):
                v = g.board[p]
                hw.set_sensor(app.lay.sensor_of(p), (1 if v & 3 == 1 else 2) if app.colour and v else
                              (1 if v else 0))
        elif c == "menu":
            app.open_menu(self.clock())
        elif c == "wall" and len(w) == 1:
            return {"ok": True, "t": self.clock(), "wall": list(app.wallclock()[:6])}
        elif c == "wall":
            self.wall0 = int(w[1]) - self.now // 1000
            app.wallclock = self.wall
        elif c == "cut":
            if self.bdev is None:
                raise ValueError("cut needs a flash image (--image)")
            n = int(w[1])
            self.bdev.written = 0
            self.bdev.cut_at = n if n > 0 else None
        elif c == "mem":
            import gc
            gc.collect()
            return {"ok": True, "t": self.clock(), "alloc": gc.mem_alloc(), "free": gc.mem_free(),
                    "peak": self.peak, "peak_modules": self.peak_modules,
                    "min_block": self.min_block}
        elif c == "heapmap":  # the heap's block map, on standard output (use with --no-link)
            import gc
            import micropython
            gc.collect()
            micropython.mem_info(1)
        elif c == "watch":
            self.watch = w[1] != "off" if len(w) > 1 else True
            self.peak = 0
            self.min_block = 0
        elif c == "auto":
            self.auto = w[1] != "off" if len(w) > 1 else True
        elif c == "quit":
            self.running = False
        else:
            return {"ok": False, "err": "unknown command %r" % c}
        return {"ok": True, "t": self.clock()}

    # ---- time ---------------------------------------------------------------------

    def wall(self):
        """The wall clock set by ``wall``: time.gmtime's tuple (year, month, day, hour, ...)."""
        return time.gmtime(self.wall0 + self.now // 1000)

    def advance(self, ms):
        """Run the app ``ms`` ms of virtual time, one frame per scan period."""
        app = self.app
        step = app.period_ms
        end = self.now + ms
        while self.now < end:
            self.now = self.now + step if self.now + step <= end else end
            t = self.now & _MASK
            self.hw.tick(t)
            app.frame(t)
            if self.auto:
                self._spectator()
            if self.watch:
                self._sample()

    def _sample(self):
        import gc
        gc.collect()
        a = gc.mem_alloc()
        if a > self.peak:
            self.peak = a
            self.peak_modules = [k for k in sys.modules if k.startswith("playboard")]
        self._nsample += 1
        if self._nsample % 8 == 0 or a == self.peak:  # (a search: not every frame)
            b = largest_block()
            if self.min_block == 0 or b < self.min_block:
                self.min_block = b

    def _spectator(self):
        """Make the engine's Tobit move shown on the board, as a spectator would."""
        app = self.app
        m = app.expecting
        if m is None or m is self._auto_done:
            return
        self._auto_done = m
        lay = app.lay
        hw = self.hw
        for q in app.game.captured_points(m):
            hw.set_sensor(lay.sensor_of(q), 0)
        hw.set_sensor(lay.sensor_of(m[1]), 0)
        hw.set_sensor(lay.sensor_of(m[len(m) - 1]), 1)

    def loop(self):
        """Serve until ``quit`` or the end of the control channel (virtual) / forever (real)."""
        import select
        app = self.app
        p = select.poll()
        if self.ctl_in is not None:
            p.register(self.ctl_in, select.POLLIN)
        t = app.transport
        if t is not None:
            p.register(t.inp, select.POLLIN)
        while self.running:
            if self.virtual:
                # (ipoll: poll's list would be allocated at each wait, 50 a second of
                # real time, and the heap's layout, at the 192 KB model's edges, would
                # hang on how long the host took: with the virtual clock it must not)
                for _ in p.ipoll(20):
                    break
                self.read_ctl()
                if app._cold_t >= 0:
                    # a cold load (the link's) met a MemoryError and waits a second (App.cold)
                    # of a clock that stands while the host talks: waited in real time
                    ms = time.ticks_ms()
                    if time.ticks_diff(ms, self._link_wait) >= 1000:
                        self._link_wait = ms
                        app._cold_t = (app.now - 1000) & _MASK
                try:
                    app.poll_link()
                except MemoryError:  # as a frame survives it: the host asks again
                    app.memory_errors += 1
            else:
                if t is not None and t.closed and self.ctl_in is None:
                    return  # nobody drives it any more (standard input ended)
                now = time.ticks_ms()
                self.hw.tick(now)
                app.frame(now)
                wait = time.ticks_diff(app.next_due, time.ticks_ms())
                p.poll(wait if wait > 0 else 0)
                self.read_ctl()


def _hex(buf):
    import binascii
    return binascii.hexlify(buf).decode()


def run(argv=None):
    """Run the firmware on the simulated board as :mod:`main` does on the unix port.
    An error that stops it is printed on standard error (standard output is the link)."""
    try:
        from playboard.sim import boot
        br = boot.start(argv if argv is not None else sys.argv[1:], Bridge)
        try:
            interactive = sys.stdin.isatty()
        except AttributeError:
            interactive = False
        if interactive:
            sys.stderr.write("Playboard firmware running on the simulated board. Its USB link "
                             "(framed binary) is this terminal: drive it with `playboard sim` (a web "
                             "page) or playboard_host.simboard (docs/simulator.md). Ctrl-C stops.\n")
        unload("playboard.sim.boot")  # start-up only
        del boot
        try:
            br.loop()
        finally:
            br.app.store.close()
    except SystemExit as e:
        if e.args:  # (a bad option)
            raise
        # machine.soft_reset(): a locked board's restart (playboard.app.restart)
        if br.virtual:
            br.reply({"ok": True, "restart": True, "t": br.clock(), "sensors": _hex(br.hw.sensors),
                      "wall": br.wall0 + br.now // 1000 if hasattr(br, "wall0") else None})
        sys.exit(75)
    except Exception as e:  # noqa: BLE001 - said on stderr, then the process ends
        if type(e).__name__ in ("ConfigError", "ValueError", "OSError"):
            sys.stderr.write("playboard firmware: %s\n" % e)  # a bad option or file: one line
        else:
            sys.print_exception(e, sys.stderr)
        sys.exit(1)
