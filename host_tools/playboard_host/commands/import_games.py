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
    p.add_argument("--encoding", default="utf-8",
                   help="the file's text encoding (default utf-8; e.g. cp1251 for a Cyrillic Windows "
                        "file, latin-1 as PGN's own standard has it)")
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


def _first_bad_byte(path, encoding):
    """(byte, line) of the first byte of file ``path`` that ``encoding`` cannot decode
    (read whole again: a decoding error inside ``open()`` counts from its own chunk)."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        data.decode(encoding)
    except UnicodeDecodeError as e:
        return data[e.start], data[:e.start].count(b"\n") + 1
    return 0, 1


def run(args):
    import codecs

    from playboard import pgn
    from playboard_host.library import Library, LibraryError
    from playboard_host import own_records, playstrategy

    read = {"auto": own_records.read_any, "playstrategy": playstrategy.read_pgn,
            "playboard": lambda f: playstrategy.read_pgn(f, own_records.read_game)}[args.format]
    try:
        codecs.lookup(args.encoding)
    except LookupError:
        raise CommandError("--encoding %s: no such text encoding" % args.encoding)
    try:
        with open(args.file, encoding=args.encoding) as f:
            games = read(f)
    except OSError as e:
        raise CommandError("can't read %s: %s" % (args.file, e.strerror or e))
    except UnicodeDecodeError:
        byte, line = _first_bad_byte(args.file, args.encoding)
        raise CommandError("%s is not %s text (byte 0x%02x on line %d): give its encoding, e.g. --encoding "
                           "cp1251 (Cyrillic Windows) or --encoding latin-1 (PGN's own)"
                           % (args.file, "UTF-8" if codecs.lookup(args.encoding).name == "utf-8" else args.encoding,
                              byte, line))
    except pgn.RecordError as e:
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
            if why:  # (read whole all the same: a damaged tag line mended)
                print(why)
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
