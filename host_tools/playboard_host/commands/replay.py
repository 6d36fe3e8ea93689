"""`playboard replay FILE`: replay every game of a record file through the rules."""
import sys

from playboard.pgn import RecordError, read_games, replay

from playboard_host.cli import CommandError

HELP = "replay every game of a record file; print number, game, result and final position (tab-separated)"


def add_arguments(p):
    p.add_argument("file", help="a PGN-style record file ('-' for standard input)")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per game (number, game, result, fen, plies, and error or note)")


def _notes(rec, g, result):
    """What in the record contradicts its moves, or is unsaid, as short texts."""
    out = []
    tag = rec.tags.get("Result")
    if tag and rec.result and tag != rec.result:
        out.append("the Result tag %s differs from the result %s written after the moves" % (tag, rec.result))
    if not g.is_game_over() and result in ("1-0", "0-1", "1/2-1/2") and not rec.tags.get("Termination"):
        out.append("the moves do not end the game: the result %s must come from a resignation, an "
                   "agreement or time (no Termination tag says which)" % result)
    return out


def _is_tag(line):
    return line.strip().lstrip("\ufeff").startswith("[")


def games(lines):
    """Each game of record text ``lines`` (a list of lines) as a ``pgn.Record``, or as
    the ``RecordError`` that stopped its reading (game and line numbers counted in the
    whole file); after such an error the reading goes on at the next game's first
    tag (a tag line after a line that is not one), so one malformed game does not
    hide the others."""
    start = done = 0
    while start < len(lines):
        last = 0
        try:
            for rec in read_games(lines[start:]):
                last = rec.number
                rec.number += done
                rec.line += start
                rec.move_lines = [ln + start for ln in rec.move_lines]
                yield rec
            return
        except RecordError as e:
            at = (e.line or 1) + start  # the line (1-based) in the whole file
            yield RecordError(e.reason, (e.game or last + 1) + done, at, e.ply)
            done += e.game or last + 1
        start = next((i for i in range(at, len(lines)) if _is_tag(lines[i]) and not _is_tag(lines[i - 1])),
                     len(lines))


def run(args):
    import json

    try:
        f = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    except OSError as e:
        raise CommandError("can't read %s: %s" % (args.file, e.strerror or e))
    n = bad = 0
    try:
        with f:
            for rec in games(f.readlines()):
                n += 1
                try:
                    if isinstance(rec, RecordError):  # this game's text can't be read
                        raise rec
                    g, result = replay(rec)
                except RecordError as e:  # report it and go on with the next game
                    bad += 1
                    sys.stdout.flush()
                    if args.json:
                        print(json.dumps({"number": e.game, "game": getattr(rec, "tags", {}).get("Game"),
                                          "error": str(e)}))
                    print("playboard: %s: %s" % (args.file, e), file=sys.stderr)
                    continue
                notes = _notes(rec, g, result)
                if args.json:
                    d = {"number": rec.number, "game": g.name, "result": result, "fen": g.fen(),
                         "plies": len(rec.moves)}
                    if notes:
                        d["note"] = "; ".join(notes)
                    print(json.dumps(d))
                else:
                    print("%d\t%s\t%s\t%s" % (rec.number, g.name, result, g.fen()))
                for note in notes:
                    sys.stdout.flush()
                    print("playboard: %s: game %d: %s" % (args.file, rec.number, note), file=sys.stderr)
    except UnicodeDecodeError as e:
        raise CommandError("%s is not a text record file (%s)" % (args.file, e.reason), 1)
    if n == 0:
        raise CommandError("%s holds no game record" % args.file, 1)
    if bad:
        raise CommandError("%s: %d of %d games could not be replayed" % (args.file, bad, n), 1)
    return 0
