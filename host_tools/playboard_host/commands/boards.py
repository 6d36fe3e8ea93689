"""`playboard boards`: every board the library has seen, its last sync, games and health."""
from playboard_host.commands.export import open_library
from playboard_host.cli import add_library_argument

HELP = "list the boards the library has seen: last sync, games, health counters"


def add_arguments(p):
    add_library_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON object per board instead of the table")


def run(args):
    from playboard_host.stats import boards_text

    lib = open_library(args.library)
    try:
        boards = lib.boards()
    finally:
        lib.close()
    if args.json:
        import json

        for b in boards:
            print(json.dumps(b, ensure_ascii=False))
        return 0
    for line in boards_text(boards):
        print(line)
    return 0
