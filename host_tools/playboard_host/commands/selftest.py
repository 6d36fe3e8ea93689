"""`playboard selftest`: the board's self-test over the link, a verdict per sensor."""
from playboard_host import checks

HELP = ("run the board's self-test: every LED in turn, then every sensor judged (stuck, dead, "
        "noisy) while you put a piece on each; --guided: the board asks for one point at a "
        "time (crossed wires, upside-down hall sensors, dead LED colours); exit status 1 on a fault")


def add_arguments(p):
    checks.add_arguments(p, 30)
    p.add_argument("--guided", action="store_true",
                   help="the guided placement test: put a piece where the board asks "
                        "(--seconds: the longest wait for one point)")


def run(args):
    return checks.run(args, "guided" if args.guided else "selftest")
