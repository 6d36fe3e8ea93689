"""`playboard import-games`: games from other places into the library: PlayStrategy's
Togyzkumalak PGN (host_tools/playboard_host/playstrategy.py) and Playboard's own
records, as `export` or `tournament pgn` wrote them (own_records.py)."""
from playboard_host.cli import CommandError, add_library_argument

HELP = ("add games from a file into the library: PlayStrategy's Togyzkumalak PGN (their export), "
        "or Playboard's own records (playboard export, tournament pgn)")
BOARD = "playstrategy"  # the library's board id of the games imported from PlayStrategy
OWN_BOARD = "import"  # ... and of Playboard's own records (their board: the Board tag)


def add_arguments(p):
    p.add_argument("file", help="the PGN file (PlayStrategy's download of one game or many, or a "
                                "playboard export of another library)")
    p.add_argument("--format", "-f", choices=("auto", "playstrategy", "playboard"), default="auto",
                   help="the file's format (default auto: each game with a Game tag and no Variant "
                        "tag is Playboard's own, any other PlayStrategy's)")
    add_library_argument(p)


def held_game(lib, rec):
    """The library game (``library.Game``) that imported game ``rec``
    (``playstrategy.Imported``) already is, or None: the same game, start position
    and moves, and either the board's ids of an export (tags ``Board``, ``BoardGame``)
    or the same Date, White and Black (as ``playstrategy.to_pgn`` writes them; an
    import of an import: the same tags). Sync stores nothing twice; neither does this."""
    t = rec.tags
    for g in lib.same_moves(rec.name, rec.fen, rec.moves):
        if "Board" in t and "BoardGame" in t:
            if (g.board, "%d" % g.board_game) == (t["Board"], t["BoardGame"]) \
                    or (g.board in (BOARD, OWN_BOARD) and g.tags.get("Board") == t["Board"]
                        and g.tags.get("BoardGame") == t["BoardGame"]):
                return g
            continue
        if (t.get("Date", "").replace("-", ".") == g.date
                and t.get("White") == g.tags.get("White", "South")
                and t.get("Black") == g.tags.get("Black", "North")):
            return g
    return None


def run(args):
    from playboard import pgn
    from playboard_host.library import Library, LibraryError
    from playboard_host import own_records, playstrategy

    read = {"auto": own_records.read_any, "playstrategy": playstrategy.read_pgn,
            "playboard": lambda f: playstrategy.read_pgn(f, own_records.read_game)}[args.format]
    try:
        with open(args.file, encoding="utf-8") as f:
            games = read(f)
    except OSError as e:
        raise CommandError("can't read %s: %s" % (args.file, e.strerror or e))
    except (pgn.RecordError, UnicodeDecodeError) as e:
        raise CommandError("%s is not a PGN file: %s" % (args.file, e))
    try:
        lib = Library(args.library)
    except LibraryError as e:
        raise CommandError(str(e))
    new = old = bad = 0
    try:
        for rec, why, n in games:
            if rec is None:
                bad += 1
                print("skipped %s" % why)
                continue
            held = held_game(lib, rec)
            if held is not None:
                old += 1
                print("game %d: already held (library game %d, from board %s)" % (n, held.id, held.board))
            elif lib.add(OWN_BOARD if isinstance(rec, own_records.OwnRecord) else BOARD, rec,
                         ("\n".join(rec.moves)).encode("utf-8")):
                new += 1
            else:
                old += 1
    finally:
        lib.close()
    print("imported %d new game%s%s%s into %s" % (new, "" if new == 1 else "s",
                                                  " (%d already held)" % old if old else "",
                                                  ", %d skipped" % bad if bad else "", lib.path))
    return 1 if bad and not new and not old else 0
