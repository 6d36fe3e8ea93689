"""`tournament send` sets the board's clock, as `sync`, `live` and the hall do: a game
played on a board that only `send` spoke to (before its sync) carries its `Date` tag.
It did not: the board's clock stayed unset (a year before 2024) and the game had none.
(The simulated board runs on the PC's clock, which its `T` leaves as it is: what `send`
asks of the board is recorded to see the clock set.)"""
import datetime

import pytest

from hall_harness import begin_paired, resign, toguz_move
from playboard_host import cli
from playboard_host.library import Library
from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def test_a_game_sent_by_tournament_send_carries_the_date(tmp_path, capsys, monkeypatch):
    from playboard.games.registry import new_game
    from playboard_host.serial_link import BoardLink

    asked = []
    request = BoardLink.request

    def recorded(self, kind, payload=None):
        asked.append((kind, payload))
        return request(self, kind, payload)

    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="duel")
        for argv in (("create", "Duel", "--game", "toguz", "--board", "1=duel"), ("add", "Duel", "Aru", "Bek"),
                     ("pair", "Duel")):
            assert cli.main(T + list(argv)) == 0
        capsys.readouterr()
        before = datetime.date.today()
        monkeypatch.setattr(BoardLink, "request", recorded)
        assert cli.main(T + ["send", "Duel", "--port", b.port]) == 0
        monkeypatch.setattr(BoardLink, "request", request)
        assert capsys.readouterr().out == "board 1: round 1.1, Aru (White) - Bek (Black): its next game\n"
        kinds = [k for k, _ in asked]
        assert "T" in kinds and kinds.index("T") < kinds.index("G"), kinds  # the clock set, then the pairing
        sent = asked[kinds.index("T")][1]["time"]
        assert datetime.date(*sent[:3]) in (before, datetime.date.today()), sent
        begin_paired(b)
        g = new_game("toguz")
        toguz_move(b, g, 0)
        resign(b, 1)
        b.advance(3000)
        # (sync sets the clock too, but the game's header was written as it began)
        assert cli.main(["sync", "--port", b.port, "--library", db, "-q"]) == 0
        after = datetime.date.today()
        lib = Library(db)
        try:
            (game,) = lib.games()
            tags = game.tags
        finally:
            lib.close()
        assert tags["Round"] == "1.1" and tags["White"] == "Aru"
        assert tags["Date"] in (before.strftime("%Y.%m.%d"), after.strftime("%Y.%m.%d")), tags
    finally:
        b.stop()
