"""`playboard demo`: the real firmware on the simulated board, playing real games through its sensors."""
import argparse
import sys

from playboard_host.cli import CommandError, add_library_argument, check_output_path
from playboard_host import demo

HELP = ("run the real firmware under MicroPython on the simulated board: replay a recorded Toguz Kumalak "
        "game and play Tobit against the engine through the sensors, then sync and export the games")


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
    p.add_argument("--heap", default=None, help=argparse_suppress())


def run(args):
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
