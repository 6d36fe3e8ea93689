"""`playboard tihbat-solve [--out PATH] [--check]`: solve Tihbat, write the board's table."""
import os

from playboard_host import tihbat_solver
from playboard_host.cli import CommandError, check_output_path

HELP = "solve Tihbat by retrograde analysis and write the table the board plays by (firmware/data/tihbat.tbl)"

DEFAULT_OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "firmware", "data", "tihbat.tbl")


def add_arguments(p):
    p.add_argument("--out", metavar="PATH", default=DEFAULT_OUT,
                   help="where to write the table (default: firmware/data/tihbat.tbl of this checkout)")
    p.add_argument("--check", action="store_true",
                   help="only compare the solution with the file at --out; exit 1 if they differ")


def run(args):
    if not args.check:
        check_output_path(args.out, "--out")
    value, rank = tihbat_solver.solve()
    n = tihbat_solver.check(value, rank)
    data = tihbat_solver.table_bytes(value, rank)
    start = value[tihbat_solver.tt.index(7, 7, 7, 7)]
    if args.check:
        try:
            with open(args.out, "rb") as f:
                old = f.read()
        except OSError as e:
            raise CommandError("cannot read %s: %s" % (args.out, e.strerror or e))
        if old != data:
            print("%s differs from the solution (%d bytes vs %d)" % (args.out, len(old), len(data)))
            return 1
        print("%s matches the solution: %d boards, %d bytes" % (args.out, n + 1, len(data)))
        return 0
    d = os.path.dirname(args.out)
    if d and not os.path.isdir(d):
        raise CommandError("no such folder: %s" % d)
    tmp = args.out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, args.out)
    print("wrote %s: %d boards, %d bytes; value of the start for the side to move: %+d, largest rank %d"
          % (args.out, n + 1, len(data), start, max(rank)))
    return 0
