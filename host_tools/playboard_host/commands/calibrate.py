"""`playboard calibrate`: the guided calibration of a hall-sensor board over the link."""
from playboard_host import checks

HELP = ("calibrate a hall-sensor board: clear the board, the board measures each sensor's "
        "zero field and saves it; exit status 1 if a sensor is refused")


def add_arguments(p):
    checks.add_arguments(p, 60)


def run(args):
    return checks.run(args, "calibrate")
