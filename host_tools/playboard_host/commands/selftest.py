"""`playboard selftest`: the board's self-test over the link, a verdict per sensor."""
from playboard_host import checks

HELP = ("run the board's self-test: every LED in turn, then every sensor judged (stuck, dead, "
        "noisy) while you put a piece on each; exit status 1 on a fault")


def add_arguments(p):
    checks.add_arguments(p, 30)


def run(args):
    return checks.run(args, "selftest")
