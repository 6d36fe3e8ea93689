"""`playboard sim`: the board in a web page, with the real firmware running behind it;
``--pico``: the firmware on a virtual Raspberry Pi Pico instead (docs/pico.md)."""
import argparse
import os
import socket
import sys
import time

from playboard.games.common import GAME_NAMES

from playboard_host.cli import CommandError, add_library_argument

HELP = ("the simulated board in a local web page: the real firmware under MicroPython behind it; "
        "lift and place pieces or tap pits with the mouse or touch")


def default_flash_dir():
    """Where the simulated board keeps its flash between runs: $PLAYBOARD_SIM_FLASH,
    else ~/.playboard/sim-flash."""
    return os.environ.get("PLAYBOARD_SIM_FLASH") or os.path.join(os.path.expanduser("~"), ".playboard",
                                                                 "sim-flash")


def add_arguments(p):
    p.add_argument("--http-port", type=int, default=8765, metavar="N",
                   help="TCP port of the web page (default 8765; the board's own USB serial port is "
                        "printed at start)")
    p.add_argument("--port", type=int, dest="old_port", help=argparse.SUPPRESS)
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0: every "
                        "network interface)")
    p.add_argument("--game", choices=GAME_NAMES, default="toguz", help="the game at start (default toguz)")
    p.add_argument("--mode", choices=("two", "white", "black", "demo"), default="two",
                   help="as on the board's menu: two players, you play White (white) or Black (black) "
                        "against the engine, or the engine against itself (demo) (default two)")
    p.add_argument("--flash", metavar="FOLDER",
                   help="the board's flash folder, kept between runs (default $PLAYBOARD_SIM_FLASH or "
                        "~/.playboard/sim-flash)")
    add_library_argument(p, "library file the page's Sync button fills (default $PLAYBOARD_LIBRARY or "
                            "~/.playboard/library.sqlite)")
    p.add_argument("--level", type=int, default=3, choices=range(1, 12), metavar="1-11",
                   help="the engine's level: 1-9, Tobit's 1-11 (default 3)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument("--verbose", "-v", action="store_true", help="log every request")
    p.add_argument("--pico", action="store_true",
                   help="run the firmware on an emulated Raspberry Pi Pico (rp2040js under Node) with a "
                        "console for the switches and the LEDs; its USB serial is a pseudo-terminal")
    p.add_argument("--board", default=None,
                   help="board definition in firmware/boards: the simulated board's (default sim-takeback; "
                        "sim-hall: analog hall sensors that calibrate), with --pico the emulated Pico's "
                        "(default pico-matrix)")
    p.add_argument("--board-file", help="with --pico: your own board definition (JSON) to try")
    p.add_argument("--stock", action="store_true",
                   help="with --pico: the stock MicroPython image with the firmware as .mpy files on its flash "
                        "(playboard deploy's developer path) instead of the product image (make uf2: "
                        "build/playboard-pico.uf2, the default where it is built)")
    p.add_argument("--uf2", help="with --pico: a stock MicroPython RPI_PICO .uf2 to deploy the firmware onto "
                                 "(implies --stock; default $PLAYBOARD_PICO_UF2 or ../shared/rp2)")
    p.add_argument("--bootrom", help="with --pico: RP2040 bootrom image (default $PLAYBOARD_PICO_BOOTROM or ../shared/rp2)")
    p.add_argument("--board-id", metavar="ID",
                   help="the id the board's hello gives (default \"sim\"; each board of a hall or an event needs"
                        " its own, as a real board's chip id is its own)")
    p.add_argument("--heap", default=None, help=argparse.SUPPRESS)  # the firmware's heap (default: the RP2040's)


def _stop_on_sigterm():
    """A SIGTERM ends the server like Ctrl-C: the firmware is stopped, its flash removed."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread (tests)
        pass


def _run_pico(args):
    from playboard_host import pico
    from playboard_host.pico import console
    try:
        return console.run(args.board or "pico-matrix", args.board_file, uf2=args.uf2, bootrom=args.bootrom,
                           stock=args.stock)
    except (ValueError, pico.PicoUnavailable) as e:
        raise CommandError(str(e))
    except KeyboardInterrupt:
        return 0


def lock_flash(flash):
    """Hold an exclusive lock on ``flash``/.lock (two boards on one flash would spoil
    it); CommandError when another simulator holds it. Returns the open lock file."""
    import fcntl

    f = open(os.path.join(flash, ".lock"), "a")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.close()
        raise CommandError("the flash folder %s is in use by another `playboard sim`; stop it or give "
                           "another folder with --flash" % flash)
    return f


def page_urls(host, port, suffix=""):
    """The page's addresses to print: localhost for this computer; for 0.0.0.0 (every
    interface) also this computer's network name and address, which others can open.
    ``suffix``: the token part ("?token=...") the page needs beyond this computer."""
    if host in ("127.0.0.1", "localhost", ""):
        return ["http://localhost:%d/%s" % (port, suffix)]
    if host in ("0.0.0.0", "::"):
        urls = ["http://localhost:%d/%s (this computer)" % (port, suffix)]
        name = socket.gethostname()
        try:
            addr = socket.gethostbyname(name)
        except OSError:
            addr = None
        urls.append("http://%s:%d/%s (other computers%s)" % (
            name, port, suffix, ", or http://%s:%d/%s" % (addr, port, suffix)
            if addr and not addr.startswith("127.") else ""))
        return urls
    return ["http://%s:%d/%s" % (host, port, suffix)]


def local_url(host, port, suffix=""):
    """The page's address for a browser on this computer (no words after it, unlike
    ``page_urls``' lines): localhost when the server listens on every interface."""
    if host in ("127.0.0.1", "localhost", "", "0.0.0.0", "::"):
        return "http://localhost:%d/%s" % (port, suffix)
    return "http://%s:%d/%s" % (host, port, suffix)


def open_page(url):
    """Open ``url`` in this computer's web browser; when none can be found (a machine
    without a desktop, a terminal over ssh), say so in one line on stderr and go on
    (the page is still served). Returns True when a browser took it."""
    import webbrowser
    try:
        ok = webbrowser.open(url)
    except webbrowser.Error:
        ok = False
    if not ok:
        print("No web browser found here: open %s yourself" % url, file=sys.stderr)
    return ok


def run(args):
    if args.pico:
        return _run_pico(args)
    if args.stock or args.uf2 or args.board_file:
        raise CommandError("--%s is for the emulated Pico: add --pico"
                           % ("stock" if args.stock else "uf2" if args.uf2 else "board-file"))
    from playboard_host.websim import server as srv
    from playboard_host.websim.session import BOARD_DEF, Session, SessionError
    board_def = args.board or BOARD_DEF
    from playboard.config import ConfigError
    from playboard.sim.standin import load_stand_in
    try:
        load_stand_in(board_def)
    except ConfigError as e:
        raise CommandError(str(e))

    if args.old_port is not None:
        raise CommandError("sim's web page port is --http-port N (--port is a board's serial port "
                           "in the other commands)")
    if not 0 < args.http_port < 65536:
        raise CommandError("--http-port must be 1..65535, not %d" % args.http_port)
    flash = args.flash or default_flash_dir()
    if os.path.exists(flash) and not os.path.isdir(flash):
        raise CommandError("--flash %s is a file, not a folder" % flash)
    from playboard_host.match import top_level
    top = top_level(args.game)  # 9, Tobit's 11 (the page's levels)
    if args.level > top:
        raise CommandError("--level %d: %s has levels 1..%d" % (args.level, args.game, top))
    hub = srv.Hub()
    try:
        httpd = srv.make_server(None, hub, args.host, args.http_port, args.verbose)
    except srv.PortInUse:
        raise CommandError("port %d is already in use (is another `playboard sim` running?); "
                           "stop it or choose another port with --http-port N" % args.http_port)
    except OSError as e:
        raise CommandError("can't listen on %s:%d: %s" % (args.host, args.http_port, e.strerror or e))
    try:
        try:
            os.makedirs(flash, exist_ok=True)
        except OSError as e:
            raise CommandError("can't make the flash folder %s: %s" % (flash, e.strerror or e))
        lock = lock_flash(flash)  # held while the board runs
        try:
            session = Session(hub, game=args.game, mode=args.mode, level=args.level, heap=args.heap,
                              flash_dir=flash, library=args.library, board_id=args.board_id,
                              board_def=board_def)
        except SessionError as e:
            lock.close()
            raise CommandError(str(e))
        httpd.session = session
        suffix = httpd.guard.url_suffix()
        for url in page_urls(args.host, httpd.server_address[1], suffix):
            print("Playboard simulator on %s" % url)
        if suffix:
            print("The page's actions need the token in that address (anyone on the network who has it can "
                  "play on this board)")
        print("The board's USB serial port: %s  (playboard sync --port %s; playboard live --port %s)"
              % (session.board.port, session.board.port, session.board.port))
        print("Its flash (the games kept): %s; library: %s" % (flash, session.library_path()))
        print("Ctrl-C stops it")
        sys.stdout.flush()
        if args.open:
            open_page(local_url(args.host, httpd.server_address[1], suffix))
        srv.serve_in_thread(httpd)
        _stop_on_sigterm()
        try:
            while session.alive():
                time.sleep(0.5)
            raise CommandError("the simulated board stopped: %s" % session.failure())
        finally:
            srv.stop(httpd, hub)
            session.close()
            lock.close()
    finally:
        httpd.server_close()
    return 0
