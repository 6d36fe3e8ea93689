"""`tournament standings EVENT -f trf`: the event as FIDE's Tournament Report File
(TRF-16), read back here by the specification's fixed columns (no parser of it is
kept on the registries: bbpPairings and JaVaFo are not packaged). The columns, from
FIDE Handbook C.04 Annex 2 (TRF-16), player section, record "001" (1-based):

    1-3 "001"   5-8 starting rank   10 sex   11-13 title   15-47 name   49-52 rating
    54-56 federation   58-68 FIDE id   70-79 birth date   81-84 points   86-89 rank
    round r (from 1): 92+10(r-1) to 95+10(r-1) the opponent's starting rank ("0000":
    none), 97+10(r-1) the colour (w, b, "-": none), 99+10(r-1) the result: "+" forfeit
    win, "-" forfeit loss, W D L a game, 1 = 0 a game not rated, H a half-point bye,
    F a full-point bye, U a pairing-allocated bye, Z (or blank) a zero-point bye.
Header records: 012 name, 022 city, 042 start, 052 end (YYYY/MM/DD), 062 players,
072 rated players, 092 type, 132 the rounds' dates (YY/MM/DD in the rounds' columns).
"""
import datetime

import pytest

from test_tournament_pgn_hand import _board_game
from playboard_host import cli
from playboard_host.library import Library
from playboard_host.tournament.event import Event, TournamentError
from playboard_host.tournament.results import pairing_tags, take_results
from playboard_host.tournament.trf import trf_text

PLAYED = {"W": 1, "D": 0.5, "L": 0}  # a game's points (chess scoring, as the file's readers count)
MIRROR = {"W": "L", "L": "W", "D": "D", "+": "-", "-": "+"}


def read_trf(text):
    """(header {record: text}, players {starting rank: {name, rating, points, rank,
    rounds: {round: (opponent or None, colour, result)}}}) by the spec's columns;
    AssertionError for anything the spec does not allow."""
    head, players = {}, {}
    for line in text.split("\n")[:-1]:
        assert line == line.rstrip() and "\t" not in line, repr(line)
        rec = line[:3]
        if rec != "001":
            head[rec] = line[4:]
            continue
        assert len(line) >= 84 and line[3] == " " and line[8] == " " and line[13] == " ", repr(line)
        for col in (9, 14, 48, 53, 57, 69, 80, 85, 90, 91):  # the blanks between fields (1-based columns)
            assert col > len(line) or line[col - 1] == " ", (col, line)
        p = {"name": line[14:47].rstrip(), "rating": line[48:52].strip(), "points": float(line[80:84]),
             "rank": int(line[85:89]), "rounds": {}}
        start = 91  # 0-based index of column 92
        r = 1
        while start < len(line):
            block = line[start:start + 8].ljust(8)
            assert block[4] == " " and block[6] == " " and line[start + 8:start + 10].strip() == "", repr(block)
            opp, colour, res = block[:4], block[5], block[7]
            if block.strip():
                assert res in "+-WDL10=HFUZ", block
                if res in "HFUZ":  # a bye: no opponent, no colour
                    assert (opp, colour) == ("0000", "-"), block
                    p["rounds"][r] = (None, colour, res)
                else:
                    assert colour in "wb" and opp.strip().isdigit(), block
                    p["rounds"][r] = (int(opp), colour, res)
            start += 10
            r += 1
        players[int(line[4:8])] = p
    return head, players


def _spring(tmp_path):
    """5 players, a bye each round; round 1: a board's game (Gul won) and a draw entered
    by hand; round 2: a forfeit and a result by hand without the board's game; round 3:
    a double forfeit and a game not played yet."""
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Spring", "toguz", boards=["1=b-one", "2=b-two"], site="Almaty, KZ")
    for n in ("Aru", "Bek", "Dina", "Erlan", "Gul"):
        e.add_entrant(n, rating=None)
    e.pair_next()  # 1: Aru bye; Bek - Gul; Dina - Erlan
    t = pairing_tags(e, e.find_pairing(1, "2"))
    _board_game(lib, "b-one", 1, dict(t, Date="2026.05.12"), ["76", "98"], "0-1", "resignation")
    assert take_results(e, lib) == ["round 1 table 2 on board 1: Bek - Gul: Gul won (0-1, game 1)"]
    e.set_result(1, "3", "1/2-1/2", "reported by both players")
    e.pair_next()  # 2: Erlan bye; Gul - Dina; Aru - Bek
    e.set_result(2, "2", "-/+", "Gul did not come")
    e.set_result(2, "3", "1-0", "the board lost power: Aru won, both agree")
    e.pair_next()  # 3: Bek bye; Dina - Aru; Erlan - Gul
    e.set_result(3, "2", "-/-", "neither came")
    return lib, e


def test_an_event_exports_to_trf_that_reads_back_by_the_specs_columns(tmp_path):
    lib, e = _spring(tmp_path)
    text = trf_text(e, lib)
    head, players = read_trf(text)
    today = datetime.date.today()
    assert head["012"] == "Spring" and head["022"] == "Almaty, KZ" and head["062"] == "5" and head["072"] == "0"
    assert (head["042"], head["052"]) == ("2026/05/12", today.strftime("%Y/%m/%d"))
    line132 = [x for x in text.split("\n") if x.startswith("132")][0]
    assert [line132[91 + 10 * k:99 + 10 * k] for k in range(3)] == [
        "26/05/12", today.strftime("%y/%m/%d"), today.strftime("%y/%m/%d")]
    assert {k: (p["name"], p["points"], p["rank"], p["rounds"]) for k, p in players.items()} == {
        1: ("Aru", 1.0, 2, {1: (None, "-", "Z"), 2: (2, "w", "W"), 3: (3, "b", "-")}),
        2: ("Bek", 0.0, 5, {1: (5, "w", "L"), 2: (1, "b", "L"), 3: (None, "-", "Z")}),
        3: ("Dina", 1.5, 1, {1: (4, "w", "D"), 2: (5, "b", "+"), 3: (1, "w", "-")}),
        4: ("Erlan", 0.5, 4, {1: (3, "b", "D"), 2: (None, "-", "Z")}),  # round 3 not played yet: blank
        5: ("Gul", 1.0, 3, {1: (2, "b", "W"), 2: (3, "w", "-")}),
    }
    # the file holds together: each game seen from both sides, the points its results'
    for k, p in players.items():
        for r, (opp, colour, res) in p["rounds"].items():
            if opp is None:
                continue
            o_opp, o_colour, o_res = players[opp]["rounds"][r]
            assert (o_opp, {"w": "b", "b": "w"}[colour]) == (k, o_colour)
            assert o_res == MIRROR[res] or res == o_res == "-", (k, r)  # "-" both: a double forfeit
        assert p["points"] == sum(PLAYED.get(res, 1 if res == "+" else 0) for _, _, res in p["rounds"].values())
    st = {r["name"]: (r["score"], r["place"]) for r in e.standings()}
    assert all(st[p["name"]][0] == p["points"] for p in players.values())
    lib.close()


def test_tobit_scoring_and_a_bye_worth_a_point_say_their_points(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Cup", "tobit", bye_points=1)  # Tobit 2/1/0; a bye a draw's worth: H
    for n, rating in (("Aru", 1500), ("Bek", 1400), ("Dina", None)):
        e.add_entrant(n, rating=rating)
    e.pair_next()
    (game,) = [p for p in e.pairings(1) if p.black is not None]
    e.set_result(1, game.match, "1-0", "reported by both players")
    text = trf_text(e, lib)
    head, players = read_trf(text)
    assert head["072"] == "2" and head["092"] == "Round robin, tobit"
    assert head["XXS"] == ("WW=2.0 BW=2.0 WD=1.0 BD=1.0 WL=0.0 BL=0.0 FW=2.0 FL=0.0 ZPB=0.0 HPB=1.0 FPB=2.0"
                           " PAB=1.0")
    by_name = {p["name"]: p for p in players.values()}
    assert by_name["Aru"]["rating"] == "1500" and by_name["Dina"]["rating"] == ""
    got = sorted((p["name"], p["points"], list(p["rounds"].values())[0][2]) for p in players.values())
    white, black = e.names_by_id()[game.white], e.names_by_id()[game.black]
    bye = ({"Aru", "Bek", "Dina"} - {white, black}).pop()
    assert got == sorted([(white, 2.0, "W"), (black, 0.0, "L"), (bye, 1.0, "H")])
    lib.close()


def test_a_knockout_or_a_team_event_is_refused_in_one_line(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    assert cli.main(T + ["create", "Cup", "--game", "toguz", "--system", "knockout"]) == 0
    assert cli.main(T + ["add", "Cup", "Aru", "Bek"]) == 0
    capsys.readouterr()
    assert cli.main(T + ["standings", "Cup", "-f", "trf"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "TRF holds one game a player a round" in err, err
    lib = Library(db)
    e = Event.create(lib, "Derby", "toguz", team=True, boards_per_match=1)
    with pytest.raises(TournamentError, match="team event"):
        trf_text(e, lib)
    lib.close()


def test_the_command_writes_the_file(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    for argv in (["create", "Spring", "--game", "toguz", "--site", "Almaty, KZ"], ["add", "Spring", "Aru", "Bek"],
                 ["pair", "Spring"], ["result", "Spring", "1", "1", "1-0", "--reason", "reported"]):
        assert cli.main(T + argv) == 0
    out = tmp_path / "spring.trf"
    assert cli.main(T + ["standings", "Spring", "-f", "trf", "-o", str(out)]) == 0
    head, players = read_trf(out.read_text(encoding="utf-8"))
    assert head["022"] == "Almaty, KZ"
    assert {p["name"]: p["rounds"] for p in players.values()} == {
        "Aru": {1: (2, "w", "W")}, "Bek": {1: (1, "b", "L")}}


def test_an_annulled_players_games_are_left_out_as_the_standings_leave_them(tmp_path):
    lib, e = _spring(tmp_path)
    e.withdraw("Erlan", 3)  # one game played of four: his results annulled, for everyone
    assert e.find_pairing(3, "3").result == "-/+"  # (his game of round 3: a forfeit, then annulled)
    head, players = read_trf(trf_text(e, lib))
    assert players[4]["rounds"] == {2: (None, "-", "Z")} and players[4]["points"] == 0.0
    assert players[3]["rounds"] == {2: (5, "b", "+"), 3: (1, "w", "-")}  # Dina's draw with him gone
    assert players[5]["rounds"] == {1: (2, "b", "W"), 2: (3, "w", "-")}  # Gul's forfeit win over him gone
    st = {r["name"]: r["score"] for r in e.standings()}
    assert {p["name"]: p["points"] for p in players.values()} == st
    lib.close()


def test_an_independent_trf_reader_reads_the_same(tmp_path):
    """The `trf` package from PyPI (pinned in requirements-dev.txt; a TRF-16 reader
    written apart from this one) reads the same players, points, colours and results."""
    trf = pytest.importorskip("trf", reason="trf not installed (make setup)")
    import io

    lib, e = _spring(tmp_path)
    t = trf.load(io.StringIO(trf_text(e, lib)))
    lib.close()
    assert (t.name, t.city, t.numplayers) == ("Spring", "Almaty, KZ", 5)
    assert [(p.startrank, p.name, p.points, p.rank, [(g.round, g.startrank, g.color, g.result) for g in p.games])
            for p in t.players] == [
        (1, "Aru", 1.0, 2, [(1, 0, "-", "Z"), (2, 2, "w", "W"), (3, 3, "b", "-")]),
        (2, "Bek", 0.0, 5, [(1, 5, "w", "L"), (2, 1, "b", "L"), (3, 0, "-", "Z")]),
        (3, "Dina", 1.5, 1, [(1, 4, "w", "D"), (2, 5, "b", "+"), (3, 1, "w", "-")]),
        (4, "Erlan", 0.5, 4, [(1, 3, "b", "D"), (2, 0, "-", "Z")]),
        (5, "Gul", 1.0, 3, [(1, 2, "b", "W"), (2, 3, "w", "-")])]
