"""Results in words for people (playboard_host.result_words, issue 34): the shared
helper, the longer sentences built on it (playboard_host.words), `playboard games` and
`playboard live` naming the players where the record knows them."""
import io
from types import SimpleNamespace

import pytest

from playboard.games.registry import new_game
from playboard_host import cli, words
from playboard_host.library import Library
from playboard_host.result_words import result_words


def test_each_result_in_words_and_the_notation_nowhere():
    assert result_words("1-0") == "White won"
    assert result_words("0-1", how="on time") == "Black won on time"
    assert result_words("0-1", how="time forfeit") == "Black won on time"  # a Termination tag as it is
    assert result_words("1/2-1/2") == "Draw"
    assert result_words("1/2-1/2", how="agreed draw") == "Draw by agreement"
    assert result_words("1-0", "Bek", "Nurlan", "resignation") == "Bek won by resignation"
    assert result_words("0-1", "Bek", "Nurlan") == "Nurlan won"
    assert result_words("0-1", "Bek") == "Black won"  # only White's name known
    assert result_words("1-0", "South", "North", "kazan") == "South won"  # the rules' end adds nothing
    assert result_words("+/-", "Aru", "Dina", "resignation") == "Aru won by forfeit"
    assert result_words("-/+") == "Black won by forfeit"
    assert result_words("-/-", "Aru", "Dina") == "Both lost by forfeit"
    # not a result yet, said as where it is read: a record, a pairing, a game followed live
    for r in ("*", "", "2-0", None):
        assert [result_words(r, "Aru", "Dina", state=s) for s in ("record", "pairing", "live")] == [
            "Unfinished", "No result yet", "in play"]
        assert result_words(r, "Aru", "Dina") == "Unfinished"  # (a record's, by default)
    with pytest.raises(KeyError):
        result_words("1-0", state="finished")
    assert result_words("bye", "Dina") == "Dina had a bye"


def test_the_sentences_name_the_players_where_known_and_not_the_boards_placeholder():
    assert words.player_names({"White": "Player", "Black": "Playboard L3"}) == (None, "Playboard L3")
    assert words.player_names(None) == (None, None)
    assert words.result_short("toguz", "0-1", "resignation", {"White": "Player", "Black": "Player"}) == \
        "North won by resignation"
    assert words.result_short("tobit", "1-0", "time forfeit", {"White": "Bek", "Black": "Nurlan"}) == "Bek won on time"
    g = new_game("toguz", "9/2S,1S,1S,1S,1S,1S,1S,1S,1S 82 70 N 40")
    assert words.game_over_words("toguz", "1-0", "kazan", g, {"White": "Aru", "Black": "Dina"}) == \
        "Aru (South) won 82 to 70 in the kazans (South 82, North 70) - a kazan reached 82"


def test_games_lists_results_in_words_with_names_and_the_json_keeps_the_notation(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    for i, (result, term, white, black) in enumerate((("1-0", "resignation", "Bek", "Nurlan"),
                                                      ("0-1", "kazan", "Player", "Playboard L3"),
                                                      ("1/2-1/2", "agreed draw", "Player", "Player"))):
        rec = SimpleNamespace(uid="r%d" % i, id=i + 1, name="toguz", result=result, termination=term, fen=None,
                              tags={"Date": "2026.12.05", "White": white, "Black": black, "Mode": "two"},
                              moves=["76", "98"])
        assert lib.add("hall-a", rec, b"raw%d" % i)
    lib.close()
    assert cli.main(["games", "--library", db]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert [r[28:52].rstrip() for r in rows[1:4]] == ["Bek won by resignation", "Playboard L3 won",
                                                      "Draw by agreement"], rows
    assert cli.main(["games", "--library", db, "--json"]) == 0
    import json
    got = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert [(g["result"], g["result_text"]) for g in got] == [
        ("1-0", "Bek won by resignation"), ("0-1", "Playboard L3 won"), ("1/2-1/2", "Draw by agreement")]


def test_live_names_the_winner_from_the_records_tags():
    from playboard_host.commands.live import Follower

    out = io.StringIO()
    f = Follower(out, pictures=False)
    f.start("tobit", None, ["7-14"], {"White": "Bek", "Black": "Nurlan"})
    f.event({"ev": "over", "result": "1-0", "termination": "resignation"})
    assert out.getvalue().splitlines()[-1] == "game over: Bek (White) won - Black resigned"
    f.event({"ev": "game", "game": "tobit"})  # a new game: its names are not known
    f.event({"ev": "over", "result": "0-1", "termination": "resignation"})
    assert out.getvalue().splitlines()[-1] == "game over: Black won - White resigned"
