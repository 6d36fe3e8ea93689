"""The `playboard` command: finds its subcommands in ``playboard_host.commands``."""
import argparse
import importlib
import pkgutil
import sys

from playboard_host import __version__, commands


class CommandError(Exception):
    """A user-facing error: printed as ``playboard: <message>``, exit status 2 by default."""

    def __init__(self, message, status=2):
        super().__init__(message)
        self.status = status


def build_parser():
    parser = argparse.ArgumentParser(
        prog="playboard",
        description="Playboard host tools: rules, records, the board's serial link and the simulator.")
    parser.add_argument("--version", action="version", version="playboard " + __version__)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        mod = importlib.import_module("playboard_host.commands." + info.name)
        p = sub.add_parser(info.name.replace("_", "-"), help=mod.HELP, description=mod.HELP)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return args._run(args) or 0
    except CommandError as e:
        print("playboard: %s" % e, file=sys.stderr)
        return e.status
    except KeyboardInterrupt:
        print("playboard: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
