"""Who may talk to the local web servers (the simulator's page, the hall): the page
itself and nobody else.

Every request is checked by :meth:`Guard.check` before it is served:

- the ``Host`` header must name this server (DNS rebinding: a foreign name that resolves
  to this computer is refused). Listening on the loopback only: ``localhost``,
  ``127.x.x.x`` or ``[::1]``; listening beyond this computer (``--host 0.0.0.0`` or an
  address): those, any IP address literal and this computer's own names. The port
  must be the server's.
- a request that changes something (POST) must come from the page: an ``Origin`` (or
  ``Sec-Fetch-Site``) that is not this server's own is refused, its body must be
  declared ``application/json`` (a cross-site form or ``text/plain`` post, which a
  browser sends without asking first, is refused), and listening beyond this computer
  it must carry the run's token (header ``X-Playboard-Token``; the page takes it from
  its own address, ``?token=...``, printed at start and never served in a page).

Refusals are (status, one line): 403 for a foreign host, origin or a missing token,
415 for a body that is not declared JSON.
"""
import hmac
import ipaddress
import secrets
import socket

TOKEN_HEADER = "X-Playboard-Token"
LOOPBACK_NAMES = ("localhost", "localhost.")


def is_loopback(host):
    """True when ``host`` (the address a server listens on) is this computer only."""
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def split_host(value):
    """("name", port or None) of a Host header or an origin's host part; ("", None)
    when it cannot be read. Names are lower-cased, IPv6 brackets removed."""
    value = (value or "").strip().lower()
    if not value:
        return "", None
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return "", None
        name, rest = value[1:end], value[end + 1:]
        if rest and not rest.startswith(":"):
            return "", None
        port = rest[1:] if rest else None
    else:
        name, sep, port = value.partition(":")
        if not sep:
            port = None
    if port is not None:
        if not port.isdigit():
            return "", None
        port = int(port)
    return name, port


def _own_names():
    names = set()
    try:
        h = socket.gethostname().lower()
        names.update((h, h + ".local", socket.getfqdn().lower()))
    except OSError:
        pass
    return {n for n in names if n}


class Guard:
    """The checks of one server. ``bind``: the address it listens on; ``token``: the
    run's token (text), or None for none needed; default: a new one when ``bind`` is
    beyond this computer, none on the loopback. ``extra_hosts``: more names a browser
    may use for this computer."""

    def __init__(self, bind, token=None, extra_hosts=()):
        self.loopback = is_loopback(bind)
        if token is None and not self.loopback:
            token = secrets.token_urlsafe(16)
        self.token = token
        self.bind = bind
        self.names = set(LOOPBACK_NAMES) | {h.lower() for h in extra_hosts}
        if not self.loopback:
            self.names |= _own_names()
            if bind not in ("0.0.0.0", "::", ""):
                self.names.add(bind.strip("[]").lower())

    def host_ok(self, name):
        """True when a browser may call this server ``name`` (a Host header's name)."""
        if name in self.names:
            return True
        try:
            ip = ipaddress.ip_address(name)
        except ValueError:
            return False
        return ip.is_loopback or not self.loopback

    def check(self, method, headers, port):
        """None when the request may be served, else (status, one line why not).
        ``headers``: the request's headers (``.get``); ``port``: the server's port."""
        host = headers.get("Host")
        name, hport = split_host(host)
        if not name or not self.host_ok(name) or (hport or 80) != port:
            return 403, ("refused: the request names host %r, not this server (open the address "
                         "`playboard` printed)" % (host or ""))
        if method not in ("POST", "PUT", "PATCH", "DELETE"):
            return None
        origin = headers.get("Origin")
        if origin is not None:
            scheme, sep, rest = origin.partition("://")
            oname, oport = split_host(rest.split("/", 1)[0]) if sep else ("", None)
            if scheme.lower() != "http" or not oname or (oname, oport or 80) != (name, hport or 80):
                return 403, "refused: an action from another page (%s); only this server's own page may act" \
                    % origin
        elif (headers.get("Sec-Fetch-Site") or "same-origin").lower() not in ("same-origin", "none"):
            return 403, "refused: an action from another site; only this server's own page may act"
        ctype = (headers.get("Content-Type") or "").split(";", 1)[0].strip().lower()
        if ctype != "application/json":
            return 415, "refused: an action's body must be sent as application/json, not %r" % (ctype or "nothing")
        if self.token is not None:
            given = headers.get(TOKEN_HEADER) or ""
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                return 403, ("refused: this server listens beyond this computer and each action needs its "
                             "token: open the page at the address with ?token=... that `playboard` printed")
        return None

    def url_suffix(self):
        """What the page's address needs after the path: "?token=..." or ""."""
        return "?token=%s" % self.token if self.token else ""
