"""The simulator's web server: the standard library's ``http.server`` with server-sent events.

Routes:

- ``GET /`` and ``/static/...``: the page (``static/index.html``, ``app.js``, ``style.css``).
- ``GET /api/layout``: the physical board's layout data (every game's cells with
  sensor, LED, x, y in mm and kind; the hole sizes; the Tobit lines as pairs of points).
- ``GET /api/state``: the session's current state (JSON, see ``Session.state``).
- ``GET /api/events``: a ``text/event-stream``: an ``event: state`` with the whole
  state whenever it changes, and a comment every few seconds to keep the line open.
  A browser that goes away is simply dropped.
- ``POST /api/act`` with a JSON body ``{"op": ...}``: a user action (see
  ``Session.act``); answers the new state, or ``{"error": text}`` with status 400.
- ``GET /api/record``: the current game's record (PGN-style text).

Every request passes :class:`~playboard_host.websim.guard.Guard` first (the host it
names; for an action, its origin, a JSON content type and, listening beyond this
computer, the run's token): a refusal is ``{"error": text}`` with status 403 or 415.

The session object does the work; this module only serves it. ``make_server(session,
hub, host, port)`` raises :class:`PortInUse` when the port is taken.
"""
import errno
import json
import os
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from playboard_host.websim.guard import Guard

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}
KEEPALIVE_S = 5.0
MAX_BODY = 64 * 1024


class PortInUse(OSError):
    """The TCP port asked for is already taken (another simulator, another server)."""


class Hub:
    """The latest state (JSON text) and its version; SSE clients wait here for news."""

    def __init__(self):
        self.cond = threading.Condition()
        self.version = 0
        self.text = "{}"
        self.closed = False

    def publish(self, state):
        """Store ``state`` (a dict with a ``version``) and wake the waiting clients."""
        text = json.dumps(state, separators=(",", ":"))
        with self.cond:
            if text == self.text:
                return
            self.text = text
            self.version += 1
            self.cond.notify_all()

    def wait(self, seen, timeout):
        """(version, text) once the version differs from ``seen`` or ``timeout`` s passed."""
        with self.cond:
            if self.version == seen and not self.closed:
                self.cond.wait(timeout)
            return self.version, self.text

    def close(self):
        with self.cond:
            self.closed = True
            self.cond.notify_all()


class Handler(BaseHTTPRequestHandler):
    server_version = "PlayboardSim/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet unless asked
        if self.server.verbose:
            BaseHTTPRequestHandler.log_message(self, fmt, *args)

    def parse_request(self):
        """The request line and headers, then the guard (every server built on this
        handler: the simulator's, the hall's): a refused request is answered here and
        never reaches do_GET/do_POST."""
        if not BaseHTTPRequestHandler.parse_request(self):
            return False
        refused = server_guard(self.server).check(self.command, self.headers, self.server.server_address[1])
        if refused is None:
            return True
        status, text = refused
        self.close_connection = True
        try:
            self._json(status, {"error": text})
        except OSError:
            pass
        return False

    # --- helpers ---------------------------------------------------------------------
    def _send(self, status, body, ctype="application/json", extra=None):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status, obj):
        self._send(status, json.dumps(obj, separators=(",", ":")))

    # --- routes ----------------------------------------------------------------------
    def do_GET(self):
        path = self.path.split("?", 1)[0]
        session = self.server.session
        try:
            if path in ("/", "/index.html"):
                return self._file("index.html")
            if path.startswith("/static/"):
                return self._file(path[len("/static/"):])
            if path == "/api/layout":
                return self._json(200, session.layout_data())
            if path == "/api/state":
                return self._json(200, session.state())
            if path == "/api/record":
                return self._send(200, session.record_text(), "text/plain; charset=utf-8",
                                  {"Content-Disposition": 'attachment; filename="playboard-%s.pgn"'
                                   % session.game_name})
            if path == "/api/events":
                return self._events()
            if path == "/favicon.ico":
                return self._send(204, b"", "image/x-icon")
            return self._json(404, {"error": "no such page: %s" % path})
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            self.close_connection = True
        except Exception as e:  # the board's failure is shown, the server stays up
            self._safe_error(e)

    do_HEAD = do_GET

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        try:
            n = int(self.headers.get("Content-Length") or 0)
            if n > MAX_BODY:
                return self._json(413, {"error": "request too large"})
            raw = self.rfile.read(n) if n else b"{}"
            try:
                body = json.loads(raw.decode("utf-8"))
                if not isinstance(body, dict):
                    raise ValueError("not an object")
            except ValueError as e:
                return self._json(400, {"error": "the body must be a JSON object: %s" % e})
            if path != "/api/act":
                return self._json(404, {"error": "no such action path: %s" % path})
            try:
                state = self.server.session.act(body)
            except ValueError as e:
                return self._json(400, {"error": str(e)})
            return self._json(200, state)
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            self.close_connection = True
        except Exception as e:
            self._safe_error(e)

    def _safe_error(self, e):
        try:
            self._json(500, {"error": "%s: %s" % (type(e).__name__, e)})
        except OSError:
            self.close_connection = True
        if self.server.verbose:
            import traceback
            traceback.print_exc()

    def _file(self, name):
        name = name.replace("\\", "/")
        if "/" in name or name.startswith("."):
            return self._json(404, {"error": "no such file"})
        p = os.path.join(STATIC, name)
        ext = os.path.splitext(name)[1]
        if not os.path.isfile(p) or ext not in TYPES:
            return self._json(404, {"error": "no such file: %s" % name})
        with open(p, "rb") as f:
            self._send(200, f.read(), TYPES[ext])

    def _events(self):
        hub = self.server.hub
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        seen = -1
        try:
            while not hub.closed and not self.server.stopping:
                v, text = hub.wait(seen, KEEPALIVE_S)
                if v != seen:
                    seen = v
                    self.wfile.write(("event: state\ndata: %s\n\n" % text).encode("utf-8"))
                else:
                    self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, socket.timeout, OSError):
            pass  # the browser went away: drop it, the game goes on


def server_guard(server):
    """The :class:`Guard` of ``server`` (made at the first request from the address it
    listens on when the server was built without one)."""
    g = getattr(server, "guard", None)
    if g is None:
        g = server.guard = Guard(server.server_address[0])
    return g


class SimServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr, session, hub, verbose=False, token=None):
        self.guard = Guard(addr[0], token)
        self.session = session
        self.hub = hub
        self.verbose = verbose
        self.stopping = False
        ThreadingHTTPServer.__init__(self, addr, Handler)

    def handle_error(self, request, client_address):
        if self.verbose:
            ThreadingHTTPServer.handle_error(self, request, client_address)


def make_server(session, hub, host="127.0.0.1", port=8765, verbose=False, token=None):
    """A bound :class:`SimServer` (not yet serving). ``token``: the actions' token
    (default: a new one when ``host`` is beyond this computer, see ``server.guard``).
    PortInUse if ``port`` is taken; OSError for other failures to bind (a bad host name)."""
    try:
        return SimServer((host, port), session, hub, verbose, token)
    except OSError as e:
        if e.errno in (errno.EADDRINUSE, errno.EACCES):
            raise PortInUse(e.errno, "port %d on %s is already in use (or not allowed)" % (port, host))
        raise


def serve_in_thread(server):
    """Start ``server.serve_forever`` in a daemon thread; return the thread."""
    t = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    t.start()
    return t


def stop(server, hub):
    """Stop serving: wake the event streams, close the socket."""
    server.stopping = True
    hub.close()
    server.shutdown()
    server.server_close()
