"""`playboard games` keeps its columns under their heads when a result in words is long
(a tournament's names: "Aigerim won by resignation" pushed plies and players aside)."""
import datetime

from playboard.record.codec import encode_record
from playboard.record.read import parse_game
from playboard_host import cli
from playboard_host.library import Library


def _game(lib, gid, white, black, result):
    data = encode_record(0x47, "toguz\x00b-%d\x00" % gid)
    for k, v in (("White", white), ("Black", black)):
        data += encode_record(0x54, k + "\x00" + v)
    data += encode_record(0x4D, "76") + encode_record(0x45, result + "\x00resignation")
    assert lib.add("b", parse_game(data, gid), data, datetime.datetime(2026, 12, 6, 10, gid))


def test_the_columns_stay_under_their_heads_with_a_long_result(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    _game(lib, 1, "Aru", "Bek", "1-0")
    _game(lib, 2, "Dina", "Aigerim Sarsenbayeva", "0-1")
    lib.close()
    assert cli.main(["games", "--library", db]) == 0
    head, one, two, total = capsys.readouterr().out.splitlines()
    assert "Aru won by resignation" in one and "Aigerim Sarsenbayeva won by resignation" in two
    for line in (one, two):  # plies right-aligned under its head, players under theirs
        assert line[head.index("plies") + 4] == "1" and line[head.index("players"):].split(" - ")[0] in ("Aru", "Dina")
    assert total == "2 games"
