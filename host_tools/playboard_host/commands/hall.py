"""`playboard hall`: every board of the room live on one web page, with operator alerts."""
import glob
import os
import sys
import time

from playboard_host.cli import CommandError, add_library_argument
from playboard_host.serial_link import DEFAULT_VID_PID, _vid_pid_arg

HELP = ("the live hall: follow every board plugged in (new ones picked up) on one web page, "
        "with alerts and a live PGN-style file per round")


def add_arguments(p):
    p.add_argument("--port", action="append", default=[], metavar="PORT",
                   help="a board's serial port, or a pattern such as '/dev/ttyACM*' (repeatable; default: "
                        "every port with the boards' USB id)")
    p.add_argument("--vid-pid", default=DEFAULT_VID_PID, type=_vid_pid_arg,
                   help="USB VID:PID of the boards (default %(default)s)")
    p.add_argument("--event", help="a tournament event: players, round and table shown from its pairings")
    add_library_argument(p)
    p.add_argument("--sync", action="store_true",
                   help="store each board's finished games in the library as they end (and acknowledge them);"
                        " with --event, take the results at once")
    p.add_argument("--live-dir", default="hall-live",
                   help="folder for the live PGN-style files, round-N.pgn (default ./hall-live)")
    p.add_argument("--http-port", type=int, default=8766, help="TCP port of the page (default 8766)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (0.0.0.0: the whole room's network)")
    p.add_argument("--seconds", type=float, help="stop after this many seconds (default: until Ctrl-C)")
    p.add_argument("--timeout", type=float, default=1.0, help="seconds to wait for each board's answer")
    p.add_argument("--verbose", "-v", action="store_true")


def port_lister(patterns, vid_pid):
    """A function listing the ports now: the patterns' matches (a plain path as it is),
    or every port with USB id ``vid_pid`` when no pattern is given."""
    if not patterns:
        from playboard_host.tournament.hall import usb_ports
        return usb_ports(vid_pid)

    def ports():
        out = []
        for pat in patterns:
            if any(c in pat for c in "*?["):
                out.extend(sorted(glob.glob(pat)))
            elif os.path.exists(pat):
                out.append(pat)
        return out
    return ports


def _check_console(path, event):
    """A console that can't print the event's names: one line now, and the hall's lines
    printed with those characters escaped (never a traceback, hours into an event)."""
    from playboard_host.library import Library
    from playboard_host.tournament.console import unprintable, why
    from playboard_host.tournament.event import Event

    lib = Library(path, create=False)
    try:
        e = Event(lib, event)
        text = "\n".join([e.name] + [x.name for x in e.entrants(teams_only=False)])
    finally:
        lib.close()
    ch = unprintable(text, sys.stdout)
    if ch is not None:
        try:
            sys.stdout.reconfigure(errors="backslashreplace")
        except AttributeError:
            pass
        print(why(ch, sys.stdout, "its names are printed escaped here (the page and the live files have them"
                  " whole)"))


def run(args):
    from playboard_host.library import Library, LibraryError, default_path
    from playboard_host.tournament import hall as hall_mod
    from playboard_host.tournament.event import Event, TournamentError
    from playboard_host.tournament.hall_server import make_server
    from playboard_host.websim import server as srv

    if not 0 <= args.http_port < 65536:
        raise CommandError("--http-port must be 0..65535, not %d" % args.http_port)
    pairings = None
    path = args.library or default_path()
    if args.event:
        try:
            lib = Library(path, create=False)
            try:
                Event(lib, args.event)
            finally:
                lib.close()
        except (LibraryError, TournamentError) as e:
            raise CommandError(str(e))
        pairings = hall_mod.event_pairings(path, args.event)
        _check_console(path, args.event)
    try:
        os.makedirs(args.live_dir, exist_ok=True)
    except OSError as e:
        raise CommandError("can't make the live folder %s: %s" % (args.live_dir, e.strerror or e))
    hub = srv.Hub()
    hall = hall_mod.Hall(port_lister(args.port, args.vid_pid), hub, pairings, args.event, args.live_dir,
                         timeout=args.timeout, sync_library=path if args.sync else None, out=sys.stdout)
    try:
        httpd = make_server(hall, hub, args.host, args.http_port, args.verbose)
    except srv.PortInUse:
        raise CommandError("port %d is already in use; choose another with --http-port N" % args.http_port)
    except OSError as e:
        raise CommandError("can't listen on %s:%d: %s" % (args.host, args.http_port, e.strerror or e))
    print("Playboard hall on http://%s:%d/  (Ctrl-C stops it); live files in %s" % (
        "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "") else args.host, httpd.server_address[1],
        args.live_dir))
    sys.stdout.flush()
    hall.start()
    srv.serve_in_thread(httpd)
    shown = set()
    try:
        t_end = time.monotonic() + args.seconds if args.seconds else None
        while t_end is None or time.monotonic() < t_end:
            time.sleep(0.5)
            for a in hall.state()["alerts"]:  # the operator's console, each alert once
                key = (a["kind"], a["board"]) if a["kind"] == "correction" else a["text"]
                if key not in shown:
                    shown.add(key)
                    print("ALERT %s" % a["text"])
                    sys.stdout.flush()
    finally:
        hall.stop()
        srv.stop(httpd, hub)
    return 0
