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


def check_output_path(path, what="output file"):
    """Raise CommandError now (before any long work) if ``path`` can't be written as a file."""
    import os

    if path is None:
        return
    if os.path.isdir(path):
        raise CommandError("%s %s is a folder" % (what, path))
    d = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(d):
        raise CommandError("%s %s: no such folder %s" % (what, path, d))
    if not os.access(d, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        raise CommandError("%s %s can't be written" % (what, path))


LIBRARY_HELP = "library file (default $PLAYBOARD_LIBRARY or ~/.playboard/library.sqlite)"


def add_library_argument(p, help=None, inner=False):
    """The one ``--library FILE`` of every command that reads or fills the library
    (checked over every command by tests/host/test_cli_conventions.py). ``help``: what
    the command does with it, when it differs; ``inner``: an action's own parser (the
    option given after the action too: ``tournament list --library X``; not given
    there, the command's stays)."""
    kw = {"default": argparse.SUPPRESS} if inner else {}
    p.add_argument("--library", metavar="FILE", help=help or LIBRARY_HELP, **kw)


def add_json_argument(p, help):
    """The one ``--json`` of every command that can print JSON: a flag, JSON on
    standard output instead of the text (never a file name: those are ``--output``,
    ``--jsonl``)."""
    p.add_argument("--json", action="store_true", help=help)


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
