"""`playboard export --format playstrategy` keeps a tournament game's Round (the PGN
seven tag roster's; the board writes it from its pairing): it was dropped, so an
event's games published on PlayStrategy lost which round each was."""
import datetime

from playboard.pgn import read_games
from playboard.record.codec import encode_record
from playboard.record.read import parse_game
from playboard_host import playstrategy as ps
from playboard_host.library import Library


def test_the_round_of_a_tournament_game_goes_into_playstrategys_pgn(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    for gid, tags in ((1, {"Event": "Open", "Round": "2.3", "White": "Zhan", "Black": "Gul"}),
                      (2, {"White": "Player", "Black": "Player"})):
        data = encode_record(0x47, "toguz\x00b-%d\x00" % gid)
        for k, v in tags.items():
            data += encode_record(0x54, k + "\x00" + v)
        data += encode_record(0x4D, "76") + encode_record(0x45, "1-0\x00resignation")
        assert lib.add("brd3", parse_game(data, gid), data, datetime.datetime(2026, 12, 6, 10, gid))
    paired, friendly = lib.games()
    lib.close()
    (rec,) = read_games(ps.to_pgn(paired).splitlines())
    assert (rec.tags["Event"], rec.tags["Round"], rec.tags["White"], rec.moves) == ("Open", "2.3", "Zhan", ["g1d2"])
    (rec,) = read_games(ps.to_pgn(friendly).splitlines())
    assert "Round" not in rec.tags
    (back, why, n), = ps.read_pgn(ps.to_pgn(paired).splitlines())
    assert why is None and back.tags["Round"] == "2.3" and back.moves == ["76"]
