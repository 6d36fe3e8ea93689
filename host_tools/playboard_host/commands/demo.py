"""`playboard demo`: the board. A Playboard board plugged in (found by its USB id) is
followed live (`playboard live`); without one (or with ``--sim``) the real firmware on
the simulated board plays real games through its sensors."""
import argparse
import sys

from playboard_host.cli import CommandError, add_library_argument, check_output_path
from playboard_host import demo

HELP = ("run the board: a board plugged in is followed live; without one, the real firmware under "
        "MicroPython on the simulated board replays a recorded Toguz Kumalak game and plays Tobit against "
        "the engine through the sensors, then syncs and exports the games")


def argparse_suppress():
    return argparse.SUPPRESS  # --heap: the firmware's MicroPython heap (default: the RP2040's)


def add_arguments(p):
    p.add_argument("--record", metavar="FILE",
                   help="record file whose game is replayed on the board (default: the bundled demo game)")
    p.add_argument("--number", type=int, default=1, metavar="N", help="which game of the record file (default 1)")
    add_library_argument(p, "library file the games are synced into (default: a temporary one)")
    p.add_argument("--export", metavar="FILE", help="also write the exported records to this file")
    p.add_argument("--color", "--colour", dest="colour", choices=("auto", "always", "never"), default="auto",
                   help="ANSI colours for the LEDs (default: auto, where the terminal has them)")
    p.add_argument("--no-tobit", dest="tobit", action="store_false", help="skip the Tobit game against the engine")
    p.add_argument("--level", type=int, default=3, choices=range(1, 12), metavar="1-11",
                   help="the engine's level in the Tobit game (default 3)")
    p.add_argument("--every", type=int, default=1, metavar="N",
                   help="draw the board after every N-th move (default 1; the final position is always drawn)")
    p.add_argument("--quiet", "-q", action="store_true", help="moves and results only, no pictures")
    p.add_argument("--sim", action="store_true",
                   help="the simulated board even when a board is plugged in")
    p.add_argument("--heap", default=None, help=argparse_suppress())


def attached_board(out=None, ports=None, follow=None):
    """If a Playboard board is plugged in (its USB id: ``playboard ports``), follow it
    live (``playboard live`` until Ctrl-C) and return its exit code; None when there is
    none, or when it does not answer as a Playboard (one line says so: the simulated
    board then). ``ports``/``follow``: the port list and the follower (tests)."""
    out = out or sys.stdout
    if ports is None:
        from playboard_host.commands.ports import ports
    try:
        found = [d["port"] for d in ports() if d["board"]]
    except Exception as e:  # noqa: BLE001 - no port list on this computer: the simulated board
        out.write("demo: cannot list the serial ports (%s): the simulated board\n" % e)
        return None
    if not found:
        return None
    from playboard_host.commands import live
    lp = argparse.ArgumentParser(prog="playboard live")
    live.add_arguments(lp)
    largs = lp.parse_args(["--port", found[0]])
    out.write("demo: a board on %s: following it live (Ctrl-C stops; `playboard demo --sim` runs the "
              "simulated board instead)\n" % found[0])
    out.flush()
    try:
        return (follow or live.run)(largs)
    except CommandError as e:
        out.write("demo: the board on %s did not answer as a Playboard (%s): the simulated board\n"
                  % (found[0], e))
        return None


def run(args):
    if not (args.sim or args.record):
        code = attached_board()
        if code is not None:
            return code
    path = args.record or demo.demo_record_path()
    if args.number < 1:
        raise CommandError("--number must be 1 or more")
    if args.every < 1:
        raise CommandError("--every must be 1 or more, not %d" % args.every)
    check_output_path(args.export, "--export")
    if args.library:  # before the games are played: a file that is no library stops the demo now
        from playboard_host.library import Library, LibraryError

        try:
            Library(args.library).close()
        except LibraryError as e:
            raise CommandError(str(e))
    try:
        rec, final = demo.load_record(path, args.number)
    except demo.DemoError as e:
        raise CommandError(str(e))
    return demo.run_demo(args, rec, final, sys.stdout)
