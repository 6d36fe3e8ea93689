"""The hall's live file (`round-N.pgn`) says how a finished game ended (its Termination,
as the board's record and the event's PGN have it): `playboard replay` of the file
noted every resigned game "the moves do not end the game ... no Termination tag"."""
from playboard.pgn import read_games
from playboard_host import cli
from playboard_host.tournament.hall import BoardState, Hall


def test_the_live_file_gives_a_finished_games_termination(tmp_path, capsys):
    hall = Hall(lambda: [], pairings=lambda bid: None, event_name="Open", live_dir=str(tmp_path))
    tags = {"Event": "Open", "Round": "1.1", "White": "Aru", "Black": "Bek"}
    ended, playing = BoardState("/dev/ttyACM0"), BoardState("/dev/ttyACM1")
    ended.board_id, playing.board_id = "brd1", "brd2"
    ended.start("toguz", None, ["76", "98"], "0-1", tags)
    ended.termination = "resignation"
    playing.start("toguz", None, ["76"], None, dict(tags, Round="1.2", White="Dina", Black="Gul"))
    for st in (ended, playing):
        hall.boards[st.port] = st
    hall.pairing_of = {
        "brd1": {"label": "1", "round": 1, "tags": tags, "white": "Aru", "black": "Bek", "game": "toguz"},
        "brd2": {"label": "2", "round": 1, "tags": dict(tags, Round="1.2"), "white": "Dina", "black": "Gul",
                 "game": "toguz"}}
    hall.write_live(ended)
    path = tmp_path / "round-1.pgn"
    one, two = read_games(path.read_text(encoding="utf-8").splitlines())
    assert (one.tags["Result"], one.tags["Termination"], one.moves) == ("0-1", "resignation", ["76", "98"])
    assert (two.tags["Result"], "Termination" in two.tags, two.moves) == ("*", False, ["76"])
    assert cli.main(["replay", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and len(out.splitlines()) == 2
