"""`playboard import-games` reads Playboard's own records (`playboard export`, `tournament
pgn`) for every game: games synced into the wrong library (then acknowledged: the board
gives them no more) reach the event's library and its arbiter (`tournament take`).
Before, only PlayStrategy's Toguz Kumalak PGN was read: a Tobit event's games could not
be moved at all, and our own export was refused move by move."""
import datetime

from playboard.record.codec import encode_record
from playboard.record.read import parse_game
from playboard_host import cli
from playboard_host.library import Library
from playboard_host.tournament.event import Event
from playboard_host.tournament.results import pairing_tags


def _synced(lib, board, gid, name, tags, moves, result, term):
    data = encode_record(0x47, "%s\x00%s-%d\x00" % (name, board, gid))
    for k, v in tags.items():
        data += encode_record(0x54, k + "\x00" + v)
    for m in moves:
        data += encode_record(0x4D, m)
    data += encode_record(0x45, result + "\x00" + term)
    assert lib.add(board, parse_game(data, gid), data, datetime.datetime(2026, 12, 6, 10, gid))


def test_games_synced_into_the_wrong_library_are_moved_by_export_and_import(tmp_path, capsys):
    right, wrong = str(tmp_path / "event.sqlite"), str(tmp_path / "laptop.sqlite")
    lib = Library(right)
    e = Event.create(lib, "Cup", "tobit", boards=["1=b-one"])
    e.add_entrant("Aru")
    e.add_entrant("Bek")
    e.pair_next()
    carried = pairing_tags(e, e.find_pairing(1, "1"))
    lib.close()
    lib = Library(wrong)  # `playboard sync` run with the laptop's default library
    _synced(lib, "b-one", 4, "tobit", carried, ["7-14", "28-21", "14:28"], "1-0", "resignation")
    _synced(lib, "b-one", 5, "toguz", {"White": "Player", "Black": "Player"}, ["76", "98"], "0-1", "resignation")
    lib.close()
    f = str(tmp_path / "moved.pgn")
    assert cli.main(["export", "--library", wrong, "-o", f]) == 0
    capsys.readouterr()
    assert cli.main(["import-games", f, "--library", right]) == 0
    assert capsys.readouterr().out == "imported 2 new games into %s\n" % right
    assert cli.main(["import-games", f, "--library", right]) == 0  # again: nothing twice
    assert capsys.readouterr().out.endswith("imported 0 new games (2 already held) into %s\n" % right)
    lib = Library(right)
    tobit, toguz = lib.games()
    assert (tobit.game, tobit.board, tobit.result, tobit.termination, tobit.moves) == (
        "tobit", "import", "1-0", "resignation", ["7-14", "28-21", "14:28"])
    assert (tobit.tags["Board"], tobit.tags["Round"], tobit.tags["White"]) == ("b-one", "1.1", "Aru")
    assert (toguz.game, toguz.moves, toguz.result) == ("toguz", ["76", "98"], "0-1")
    lib.close()
    assert cli.main(["tournament", "--library", right, "take", "Cup", "1", "1", str(tobit.id),
                     "--reason", "synced on the laptop by mistake"]) == 0
    assert "Aru won" in capsys.readouterr().out
    lib = Library(right)
    p = Event(lib, "Cup").find_pairing(1, "1")
    lib.close()
    assert (p.result, p.library_game) == ("1-0", tobit.id)


def test_an_own_record_the_rules_refuse_is_skipped_in_one_line(tmp_path, capsys):
    text = ('[Game "tobit"]\n[White "Aru"]\n[Result "1-0"]\n\n1. 7-14 28-21 2. 14-7 1-0\n\n'
            '[Game "tihbat"]\n[Result "*"]\n\n1. 1 *\n\n'
            '[Game "chess"]\n[Result "*"]\n\n1. e4 *\n')
    f = tmp_path / "mixed.pgn"
    f.write_text(text, encoding="utf-8")
    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["import-games", str(f), "--library", db]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("skipped game 1: line 5, ply 3: ") and "14-7" in out[0], out
    assert out[1].startswith("skipped game 3: line 12: ") and "chess" in out[1], out
    assert out[2] == "imported 1 new game, 2 skipped into %s" % db
    lib = Library(db)
    (g,) = lib.games()
    lib.close()
    assert (g.game, g.moves, g.board) == ("tihbat", ["1"], "import")
