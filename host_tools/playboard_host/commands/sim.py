"""`playboard sim`: the board in a web page, with the real firmware running behind it;
``--pico``: the firmware on a virtual Raspberry Pi Pico instead (docs/pico.md)."""
import argparse
import sys
import time

from playboard.games.common import GAME_NAMES

from playboard_host.cli import CommandError

HELP = ("the simulated board in a local web page: the real firmware under MicroPython behind it; "
        "lift and place pieces or tap pits with the mouse or touch")


def add_arguments(p):
    p.add_argument("--port", "-p", type=int, default=8765, help="TCP port of the page (default 8765)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1: this computer only)")
    p.add_argument("--game", choices=GAME_NAMES, default="toguz", help="the game at start (default toguz)")
    p.add_argument("--mode", choices=("two", "white", "black", "engine"), default="two",
                   help="two players, or you play White (white, engine) or Black (black) against "
                        "the engine (default two)")
    p.add_argument("--level", type=int, default=3, choices=range(1, 9), metavar="1-8",
                   help="the engine's level (default 3)")
    p.add_argument("--open", action="store_true", help="open the page in the web browser")
    p.add_argument("--verbose", "-v", action="store_true", help="log every request")
    p.add_argument("--pico", action="store_true",
                   help="run the firmware on an emulated Raspberry Pi Pico (rp2040js under Node) with a "
                        "console for the switches and the LEDs; its USB serial is a pseudo-terminal")
    p.add_argument("--board", default="pico-matrix",
                   help="with --pico: board definition in firmware/boards (default pico-matrix)")
    p.add_argument("--board-file", help="with --pico: your own board definition (JSON) to try")
    p.add_argument("--uf2", help="with --pico: MicroPython RPI_PICO .uf2 (default $PLAYBOARD_PICO_UF2 or ../shared/rp2)")
    p.add_argument("--bootrom", help="with --pico: RP2040 bootrom image (default $PLAYBOARD_PICO_BOOTROM or ../shared/rp2)")
    p.add_argument("--heap", default="192k", help=argparse.SUPPRESS)  # the firmware's heap (the RP2040's)


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
        return console.run(args.board, args.board_file, uf2=args.uf2, bootrom=args.bootrom)
    except (ValueError, pico.PicoUnavailable) as e:
        raise CommandError(str(e))
    except KeyboardInterrupt:
        return 0


def run(args):
    if args.pico:
        return _run_pico(args)
    from playboard_host.websim import server as srv
    from playboard_host.websim.session import Session, SessionError

    if not 0 < args.port < 65536:
        raise CommandError("--port must be 1..65535, not %d" % args.port)
    hub = srv.Hub()
    try:
        httpd = srv.make_server(None, hub, args.host, args.port, args.verbose)
    except srv.PortInUse:
        raise CommandError("port %d is already in use (is another `playboard sim` running?); "
                           "stop it or choose another port with --port N" % args.port)
    except OSError as e:
        raise CommandError("can't listen on %s:%d: %s" % (args.host, args.port, e.strerror or e))
    try:
        try:
            session = Session(hub, game=args.game, mode=args.mode, level=args.level, heap=args.heap)
        except SessionError as e:
            raise CommandError(str(e))
        httpd.session = session
        url = "http://%s:%d/" % ("localhost" if args.host in ("127.0.0.1", "0.0.0.0", "") else args.host,
                                 httpd.server_address[1])
        print("Playboard simulator on %s  (Ctrl-C stops it)" % url)
        sys.stdout.flush()
        if args.open:
            import webbrowser
            webbrowser.open(url)
        srv.serve_in_thread(httpd)
        _stop_on_sigterm()
        try:
            while session.alive():
                time.sleep(0.5)
            raise CommandError("the simulated board stopped: %s" % session.failure())
        finally:
            srv.stop(httpd, hub)
            session.close()
    finally:
        httpd.server_close()
    return 0
