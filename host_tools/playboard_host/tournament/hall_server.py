"""The live hall's web server: the simulator's (``websim.server``: the standard library's
``http.server`` with server-sent events) serving a :class:`~.hall.Hall`.

Routes: ``GET /`` the page (``static/hall.html``); ``GET /api/state`` the hall's state
(JSON, ``Hall.state``); ``GET /api/events`` server-sent events, an ``event: state``
each time the state changes; ``GET /live/NAME.pgn`` a live PGN-style file of the
hall's ``live_dir`` (broadcast viewers poll it).
"""
import errno
import os
import socket
from http.server import ThreadingHTTPServer

from playboard_host.websim.server import Handler, PortInUse

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")


class HallHandler(Handler):
    server_version = "PlayboardHall/1"

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        hall = self.server.hall
        try:
            if path in ("/", "/index.html"):
                with open(os.path.join(STATIC, "hall.html"), "rb") as f:
                    return self._send(200, f.read(), "text/html; charset=utf-8")
            if path == "/api/state":
                return self._json(200, hall.state())
            if path == "/api/events":
                return self._events()
            if path.startswith("/live/") and path.endswith(".pgn"):
                name = path[len("/live/"):]
                p = os.path.join(hall.live_dir or "", name)
                if "/" in name or name.startswith(".") or not hall.live_dir or not os.path.isfile(p):
                    return self._json(404, {"error": "no live file %s" % name})
                with open(p, "rb") as f:
                    return self._send(200, f.read(), "text/plain; charset=utf-8")
            if path == "/favicon.ico":
                return self._send(204, b"", "image/x-icon")
            return self._json(404, {"error": "no such page: %s" % path})
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            self.close_connection = True
        except Exception as e:
            self._safe_error(e)

    do_HEAD = do_GET

    def do_POST(self):
        self._json(405, {"error": "the hall page only reads"})


class HallServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, addr, hall, hub, verbose=False):
        self.hall = hall
        self.hub = hub
        self.verbose = verbose
        self.stopping = False
        ThreadingHTTPServer.__init__(self, addr, HallHandler)

    def handle_error(self, request, client_address):
        if self.verbose:
            ThreadingHTTPServer.handle_error(self, request, client_address)


def make_server(hall, hub, host="127.0.0.1", port=8766, verbose=False):
    """A bound HallServer (not yet serving); PortInUse if ``port`` is taken."""
    try:
        return HallServer((host, port), hall, hub, verbose)
    except OSError as e:
        if e.errno in (errno.EADDRINUSE, errno.EACCES):
            raise PortInUse(e.errno, "port %d on %s is already in use (or not allowed)" % (port, host))
        raise
