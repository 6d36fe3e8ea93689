"""`playboard replay FILE`: replay every game of a record file through the rules."""
import sys

from playboard.pgn import RecordError, read_games, replay

from playboard_host.cli import CommandError

HELP = "replay every game of a record file; print number, game, result and final position (tab-separated)"


def add_arguments(p):
    p.add_argument("file", help="a PGN-style record file ('-' for standard input)")


def run(args):
    try:
        f = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    except OSError as e:
        raise CommandError("can't read %s: %s" % (args.file, e.strerror or e))
    n = 0
    try:
        with f:
            for rec in read_games(f):
                g, result = replay(rec)
                n += 1
                print("%d\t%s\t%s\t%s" % (rec.number, g.name, result, g.fen()))
    except UnicodeDecodeError as e:
        raise CommandError("%s is not a text record file (%s)" % (args.file, e.reason), 1)
    except RecordError as e:
        sys.stdout.flush()
        raise CommandError("%s: %s" % (args.file, e), 1)
    if n == 0:
        raise CommandError("%s holds no game record" % args.file, 1)
    return 0
