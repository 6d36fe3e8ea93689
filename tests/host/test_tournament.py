"""Tournaments without boards: pairing systems, tiebreaks on hand-worked examples, team
scoring, results from synced games, hand corrections, flags, outputs and bad input."""
import datetime
import itertools
import json
import sqlite3

import pytest

from playboard.games.registry import new_game
from playboard.pgn import read_games
from playboard.record.codec import encode_record
from playboard.record.read import parse_game
from playboard_host import cli
from playboard_host.library import SCHEMA_VERSION, Library, LibraryError
from playboard_host.tournament import outputs, pairing, scoring
from playboard_host.tournament.event import Event, TournamentError
from playboard_host.tournament.results import final_kazans, pairing_tags, take_results


def _raw(name, moves, result="1-0", tags=None, uid="u1", term=None):
    data = encode_record(0x47, name + "\x00" + uid + "\x00")
    for k, v in (tags or {}).items():
        data += encode_record(0x54, k + "\x00" + v)
    for m in moves:
        data += encode_record(0x4D, m)
    return data + encode_record(0x45, result + "\x00" + (term or ""))


def _sync(lib, board, gid, name, result, tags=None, moves=("7-14",), when=None):
    raw = _raw(name, list(moves), result, tags, uid="%s-%d" % (board, gid))
    assert lib.add(board, parse_game(raw, gid), raw, when or datetime.datetime.now() + datetime.timedelta(seconds=1))


# ---- pairing ------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(3, 17))
def test_berger_tables_meet_each_pair_once_with_colours_balanced(n):
    rounds = pairing.berger_rounds(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = []
    whites = {p: 0 for p in range(1, n + 1)}
    blacks = dict(whites)
    for rnd in rounds:
        seen = [p for pair in rnd for p in pair if p is not None]
        assert len(seen) == len(set(seen)) == n  # everyone once a round
        assert sum(None in pair for pair in rnd) == n % 2  # one bye when n is odd
        for w, b in rnd:
            if w is None or b is None:
                continue
            met.append(frozenset((w, b)))
            whites[w] += 1
            blacks[b] += 1
    assert sorted(map(sorted, met)) == sorted(map(sorted, itertools.combinations(range(1, n + 1), 2)))
    assert all(abs(whites[p] - blacks[p]) <= 1 for p in whites), (whites, blacks)
    # a double round robin: each pair twice, once with each colour
    two = pairing.round_robin(n, 2)
    pairs = [(w, b) for rnd in two for (w, b) in rnd if w and b]
    assert len(pairs) == len(set(pairs)) == n * (n - 1)


def test_berger_table_for_six_is_fides():
    assert pairing.berger_rounds(6) == [
        [(1, 6), (2, 5), (3, 4)], [(6, 4), (5, 3), (1, 2)], [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)], [(3, 6), (4, 2), (5, 1)]]
    with pytest.raises(ValueError):
        pairing.berger_rounds(1)


def test_knockout_brackets_give_byes_to_the_top_seeds():
    assert pairing.bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert pairing.knockout_first_round(5) == [(1, None), (4, 5), (2, None), (3, None)]
    assert pairing.knockout_first_round(6) == [(1, None), (4, 5), (2, None), (3, 6)]
    for n in range(2, 33):
        first = pairing.knockout_first_round(n)
        byes = sorted(a for a, b in first if b is None)
        assert byes == list(range(1, len(byes) + 1))  # the byes go to seeds 1, 2, ...
        assert sorted(x for m in first for x in m if x) == list(range(1, n + 1))
    assert pairing.snake_groups(8, 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    with pytest.raises(ValueError):
        pairing.snake_groups(5, 3)


# ---- tiebreaks on hand-worked examples --------------------------------------------------

def test_every_tiebreak_on_a_hand_worked_example():
    # 1 beats 2; 3 beats 4; 2 beats 4 (a win scores 1): 1, 2, 3 tie on 1 point.
    O = scoring.Outcome
    outs = [O(1, 2, 1, 0, ka=90, kb=70), O(3, 4, 1, 0, ka=82, kb=80), O(2, 4, 1, 0, ka=100, kb=40)]
    v = scoring.tiebreak_values([1, 2, 3, 4], outs, ["h2h", "wins", "sb", "buchholz", "kazan"], 1)
    # h2h among {1, 2, 3}: 1 beat 2 -> 1; 2 lost to 1 -> 0; 3 never met them -> 0
    # wins: 1, 1, 1, 0; SB: 1: beat 2 (1 pt) -> 1; 2: beat 4 (0 pts) -> 0; 3: beat 4 -> 0
    # Buchholz: 1: 2's 1; 2: 1's 1 + 4's 0 = 1; 3: 4's 0; 4: 3's 1 + 2's 1 = 2
    # kazans: 1: 90-70 = 20; 2: (70-90) + (100-40) = 40; 3: 2; 4: -2 - 60 = -62
    assert v == {1: [1, 1, 1, 1, 1, 20], 2: [1, 0, 1, 0, 1, 40], 3: [1, 0, 1, 0, 0, 2], 4: [0, 0, 0, 0, 2, -62]}
    ranked = scoring.rank(scoring.tiebreak_values([1, 2, 3, 4], outs, ["h2h", "buchholz"], 1))
    assert ranked == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert scoring.rank(scoring.tiebreak_values([1, 2, 3, 4], outs, ["kazan"], 1)) == [(1, 2), (2, 1), (3, 3), (4, 4)]
    # equal on everything: one place shared
    assert scoring.rank({5: [1, 0], 6: [1, 0], 7: [0, 0]}) == [(1, 5), (1, 6), (3, 7)]
    with pytest.raises(ValueError):
        scoring.tiebreak_values([1], [], ["median"], 1)


def test_sonneborn_berger_with_tobit_scoring_on_a_round_robin(tmp_path):
    # A-B 1-0, A-C 0-1, A-D 1-0, B-C 1/2, B-D 1-0, C-D 0-1 at 2/1/0:
    # A 4, B 3, C 3, D 2. B and C: h2h 1 each, one win each;
    # SB B = 2 (D's) * 2/2 + 3 (C's) * 1/2 = 3.5; SB C = 4 (A's) * 2/2 + 3 (B's) * 1/2 = 5.5
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "RR", "tobit", tiebreaks=["h2h", "wins", "sb", "buchholz"])
    for n in "ABCD":
        e.add_entrant(n)
    res = {("A", "B"): "1-0", ("A", "C"): "0-1", ("A", "D"): "1-0", ("B", "C"): "1/2-1/2", ("B", "D"): "1-0",
           ("C", "D"): "0-1"}
    names = None
    for r in range(3):
        _, ps = e.pair_next()
        names = e.names_by_id()
        for p in ps:
            w, b = names[p.white], names[p.black]
            x = res.get((w, b)) or {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1/2-1/2"}[res[(b, w)]]
            e.set_result(p.round, p.match, x, "scoresheet")
    st = e.standings()
    assert [(r["place"], r["name"], r["score"]) for r in st] == [(1, "A", 4), (2, "C", 3), (3, "B", 3), (4, "D", 2)]
    assert st[1]["tiebreaks"] == {"h2h": 1, "wins": 1, "sb": 5.5, "buchholz": 9}
    assert st[2]["tiebreaks"] == {"h2h": 1, "wins": 1, "sb": 3.5, "buchholz": 9}
    with pytest.raises(TournamentError, match="all 3 rounds"):
        e.pair_next()
    # outputs: text, CSV, JSON and the HTML crosstable agree
    assert "C" in outputs.standings_text(e).splitlines()[2]
    rows = outputs.standings_text(e, "csv").splitlines()
    assert rows[0] == "table,place,name,score,played,h2h,wins,sb,buchholz,withdrawn" and rows[2] == ",2,C,3,3,1,1,5.5,9,"
    js = json.loads(outputs.standings_text(e, "json"))
    assert js[0]["standings"][0]["name"] == "A"
    page = outputs.standings_text(e, "html")
    assert page.count("<tr>") == 5 and "<td class='name'>C</td>" in page
    assert json.loads(outputs.pairings_text(e, 1, "json"))[0]["white"] == "A"
    lib.close()


def test_team_round_robin_scores_matches_and_game_points(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Teams", "toguz", team=True, boards_per_match=2)
    for t, players in (("North", ("N1", "N2")), ("South", ("S1", "S2")), ("East", ("E1", "E2"))):
        e.add_entrant(t)
        for p in players:
            e.add_entrant(p, team=t)
    assert e.settings["tiebreaks"] == ["games", "h2h", "sb", "kazan"]
    r, ps = e.pair_next()  # round 1: North bye, South - East on 2 boards
    names = e.names_by_id()
    games = [(names[p.white], names.get(p.black), p.result) for p in ps]
    assert games == [("North", None, "bye"), ("S1", "E1", None), ("E2", "S2", None)]
    e.set_result(1, "2.1", "1-0", "sheet", kazans="85-60")  # S1 beats E1
    e.set_result(1, "2.2", "1/2-1/2", "sheet", kazans="81-81")  # E2 draws S2
    st = e.standings()
    # South 1.5 game points to 0.5: match won, 1 match point (toguz 1/0.5/0)
    assert [(x["name"], x["score"], x["tiebreaks"]["games"], x["tiebreaks"]["kazan"]) for x in st] == [
        ("South", 1, 1.5, 25), ("East", 0, 0.5, -25), ("North", 0, 0, 0)]
    lib.close()


def test_knockout_with_byes_and_tiebreak_games(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "KO", "tobit", system="knockout", games_per_match=2, tiebreak_games=2)
    for n in ("P1", "P2", "P3", "P4", "P5"):
        e.add_entrant(n)
    r, ps = e.pair_next()
    names = e.names_by_id()
    assert [(p.match, p.game_no, names[p.white], names.get(p.black), p.result) for p in ps] == [
        ("1", 1, "P1", None, "bye"), ("2", 1, "P4", "P5", None), ("2", 2, "P5", "P4", None),
        ("3", 1, "P2", None, "bye"), ("4", 1, "P3", None, "bye")]
    e.set_result(1, "2.1", "1-0", "sheet")
    e.set_result(1, "2.2", "1-0", "sheet")  # 1-1: tied
    r, ps = e.pair_next()
    assert r == 1 and [(p.game_no, names[p.white]) for p in ps if p.match == "2"][2:] == [(3, "P4"), (4, "P5")]
    e.set_result(1, "2.3", "1/2-1/2", "sheet")
    e.set_result(1, "2.4", "1-0", "sheet")  # P5 wins the match 2.5-1.5 in games (5:3 points)
    r, ps = e.pair_next()
    assert r == 2 and [(p.match, names[p.white], names[p.black]) for p in ps if p.game_no == 1] == [
        ("1", "P1", "P5"), ("2", "P2", "P3")]
    for p in ps:
        e.set_result(2, "%s.%d" % (p.match, p.game_no), "1-0" if names[p.white] in ("P1", "P2") else "0-1", "s")
    r, ps = e.pair_next()
    assert r == 3 and [(names[p.white], names[p.black]) for p in ps] == [("P1", "P2"), ("P2", "P1")]
    e.set_result(3, "1.1", "0-1", "s")
    e.set_result(3, "1.2", "1-0", "s")  # P2 wins both
    with pytest.raises(TournamentError, match="the winner is P2"):
        e.pair_next()
    st = e.standings()
    assert [x["name"] for x in st][:2] == ["P2", "P1"] and st[0]["champion"] is True
    assert [(x["score"], x["tiebreaks"]["out in"]) for x in st] == [(3, None), (3, 3), (2, 2), (2, 2), (1, 1)]


def test_groups_then_a_knockout_final_seeded_from_the_groups(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "G", "tihbat", system="groups", groups=2, advance=2, games_per_match=1, tiebreak_games=1)
    for i in range(1, 9):
        e.add_entrant("S%d" % i)
    g = {k: [x.name for x in v] for k, v in e.groups().items()}
    assert g == {"A": ["S1", "S4", "S5", "S8"], "B": ["S2", "S3", "S6", "S7"]}
    seed = {x.id: x.seed for x in e.entrants()}
    for r in range(3):
        rnd, ps = e.pair_next()
        assert {p.stage for p in ps} == {"group A", "group B"} and len(ps) == 4
        for p in ps:  # the better seed wins
            e.set_result(rnd, p.match, "1-0" if seed[p.white] < seed[p.black] else "0-1", "s")
    rnd, ps = e.pair_next()
    names = e.names_by_id()
    # A1 = S1 meets B2 = S3; B1 = S2 meets A2 = S4
    assert rnd == 4 and [(p.stage, names[p.white], names[p.black]) for p in ps] == [
        ("final", "S1", "S3"), ("final", "S2", "S4")]
    tables = outputs.standings_tables(e)
    assert [t for t, _, _ in tables] == ["Group A", "Group B", "Final"]
    assert [x["name"] for x in tables[0][2]] == ["S1", "S4", "S5", "S8"]


def test_withdrawal_before_half_the_games_annuls_and_forfeits(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "W", "tobit")
    for n in "ABCD":
        e.add_entrant(n)
    _, ps = e.pair_next()  # A-D, B-C
    e.set_result(1, "1", "0-1", "s")  # D beats A
    e.set_result(1, "2", "1-0", "s")
    _, ps = e.pair_next()  # D-C, A-B
    assert e.withdraw("D") == 2
    p = e.find_pairing(2, "D")
    assert p.result == "-/+" and p.source == "forfeit"  # D had White against C
    st = {x["name"]: x for x in e.standings()}
    # D played 1 of 3 games: its results are annulled, so A's loss to D does not count
    assert st["A"]["score"] == 0 and st["A"]["played"] == 0 and st["D"]["score"] == 0
    assert st["C"]["score"] == 0  # C's forfeit win over D is annulled too
    assert st["D"]["withdrawn"] == 2


# ---- results from synced games ---------------------------------------------------------

def _event_on_boards(tmp_path, players="ABCD", boards=("1=b-one", "2=b-two")):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Club", "tobit", boards=boards)
    for n in players:
        e.add_entrant(n)
    return lib, e


def _carrying(e, round_, who):
    """The header tags a board writes for pairing ``who`` of round ``round_`` (sent before the game)."""
    return pairing_tags(e, e.find_pairing(round_, who))


def test_results_are_taken_only_from_the_game_carrying_the_pairing(tmp_path):
    lib, e = _event_on_boards(tmp_path)
    _sync(lib, "b-one", 1, "tobit", "1-0", when=datetime.datetime(2020, 1, 1))  # before the pairing: not looked at
    r, ps = e.pair_next()
    assert [(p.board, p.match) for p in ps] == [("1", "1"), ("2", "2")]
    assert _carrying(e, 1, "1") == {"Event": "Club", "Round": "1.1", "White": "A", "Black": "D"}
    _sync(lib, "b-one", 2, "tobit", "*", tags=_carrying(e, 1, "1"))  # abandoned: not taken
    _sync(lib, "b-one", 3, "tobit", "1-0", tags={"White": "Player", "Black": "Player"})  # a friendly game
    _sync(lib, "b-one", 4, "tobit", "0-1", tags=_carrying(e, 1, "1"))
    _sync(lib, "b-two", 7, "tobit", "1/2-1/2", tags=_carrying(e, 1, "2"))
    _sync(lib, "b-stray", 1, "tobit", "1-0", tags=_carrying(e, 1, "2"))  # a board not in the event
    lines = take_results(e, lib)
    assert lines == [
        "board 1: game 3 (Player - Player, 1-0) carries no pairing of Club: listed for the arbiter, not taken",
        "round 1 table 1 on board 1: A - D: D won (0-1, game 4)",
        "round 1 table 2 on board 2: B - C: Draw (1/2-1/2, game 5)",
        "game 6 (library) from board b-stray is not from a board of Club: left aside"]
    assert [(p.result, p.source, p.library_game) for p in e.pairings(1)] == [("0-1", "board", 4),
                                                                            ("1/2-1/2", "board", 5)]
    assert take_results(e, lib) == [lines[0], lines[3]]  # nothing taken twice; the others listed again
    # a second game carrying table 1 (the pairing was sent again): listed, never taken
    _sync(lib, "b-one", 5, "tobit", "1-0", tags=_carrying(e, 1, "1"))
    assert ("board 1: game 7 (A - D, 1-0) carries round 1.1, which game 4 filled: listed for the arbiter,"
            " not taken") in take_results(e, lib)
    # the event's games in one PGN-style file, with Event, Round and Board tags
    recs = list(read_games(outputs.event_pgn(e, lib).splitlines()))
    assert [(r.tags["Event"], r.tags["Round"], r.tags["Board"], r.tags["White"], r.tags["Result"])
            for r in recs] == [("Club", "1.1", "1", "A", "0-1"), ("Club", "1.2", "2", "B", "1/2-1/2")]
    assert recs[0].moves == ["7-14"]
    lib.close()


def test_hand_correction_is_kept_with_its_reason_and_a_contradiction_is_flagged(tmp_path):
    lib, e = _event_on_boards(tmp_path)
    e.pair_next()
    _sync(lib, "b-one", 1, "tobit", "1-0", tags=_carrying(e, 1, "1"))
    # the board's game names the players the other way round: flagged, not taken
    _sync(lib, "b-two", 1, "tobit", "1-0", tags=dict(_carrying(e, 1, "2"), White="C", Black="B"))
    lines = take_results(e, lib)
    assert "round 1 table 2 on board 2: FLAG the board's game 2 names C - B, the pairing is B - C: result not" \
        " taken (the arbiter: tournament take or result)" in lines
    assert e.find_pairing(1, "2").result is None
    # the arbiter corrects table 1 (the players agreed a draw the board didn't see)
    p = e.set_result(1, "A", "1/2-1/2", "players agreed a draw; board showed a resignation by mistake")
    assert p.result == "1/2-1/2" and p.source == "hand"
    assert p.flag == ("the result by hand, Draw (1/2-1/2), differs from the board's, A won (1-0) "
                      "(players agreed a draw; board showed a resignation by mistake)")
    assert [c[3:6] for c in e.corrections()] == [("1-0", "1/2-1/2",
                                                   "players agreed a draw; board showed a resignation by mistake")]
    # corrected back: the board's result again, the flag clears
    p = e.set_result(1, "A", "1-0", "the resignation stands after all")
    assert (p.result, p.source, p.flag) == ("1-0", "board", None)
    # the players of table 2 had swapped colours: the arbiter takes the game turned round
    p = e.take_game(1, "2", 2, "the players swapped seats; the arbiter saw C win with White", swapped=True)
    assert (p.result, p.source, p.flag, p.library_game) == ("0-1", "board", None, 2)
    # a result entered by hand first, then a board game that contradicts it: hand kept, flagged
    r, ps = e.pair_next()
    names = e.names_by_id()
    assert (names[ps[0].white], names[ps[0].black], ps[0].board) == ("D", "C", "1")
    e.set_result(2, "D", "0-1", "reported by the players")
    _sync(lib, "b-one", 2, "tobit", "1-0", tags=_carrying(e, 2, "1"))
    lines = take_results(e, lib)
    assert "round 2 table 1 on board 1: FLAG the result by hand, C won (0-1), differs from the board's game 3," \
           " D won (1-0): hand result kept" in lines
    assert e.find_pairing(2, "D").result == "0-1"
    text = outputs.pairings_text(e, 2)
    assert "! the result by hand, C won (0-1), differs" in text
    lib.close()


def test_kazans_come_from_replaying_the_synced_game(tmp_path):
    g = new_game("toguz")
    moves = []
    for _ in range(20):
        m = g.legal_moves()[0]
        moves.append(g.move_text(m))
        g.push(m)
    lib = Library(str(tmp_path / "lib.sqlite"))
    _sync(lib, "b", 1, "toguz", "*", moves=moves)
    kz = final_kazans(lib.games()[0])
    assert kz == (g.pos[18], g.pos[19]) and kz[0] + kz[1] > 0
    lib.close()


# ---- bad input: one clear line, nothing lost ---------------------------------------------

def _cli(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_bad_input_gives_one_line_and_changes_nothing(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    L = ["tournament", "--library", db]
    assert _cli(capsys, *L, "create", "Cup", "--game", "tobit", "--board", "1=aa", "--board", "2=bb")[0] == 0
    assert _cli(capsys, *L, "add", "Cup", "Ann", "Bob", "Cid")[0] == 0
    code, out, err = _cli(capsys, *L, "pair", "Cup")
    assert code == 0 and "round 1 paired" in out
    before = sqlite3.connect(db).execute("SELECT * FROM pairings").fetchall()
    for argv, want in (
            (("result", "Cup", "1", "Zoe", "1-0", "--reason", "x"),
             "playboard: no player or team named 'Zoe' in Cup (entered: Ann, Bob, Cid)\n"),
            (("assign", "Cup", "1", "2", "7"), "playboard: Cup has no board '7' (boards: 1, 2; add one with"
                                               " `tournament board`)\n"),
            (("pair", "Nope"), "playboard: no event named 'Nope' in %s (events: Cup)\n" % db),
            (("result", "Cup", "1", "2", "1-0", "--reason", " "), "playboard: a result entered by hand needs a reason"
                                                                  " (--reason)\n"),
            (("add", "Cup", "Dan"), "playboard: round 1 is paired: no one can enter Cup any more\n"),
            (("result", "Cup", "1", "Ann", "1-0", "--reason", "x"), "playboard: Ann has no game in round 1\n")):
        code, out, err = _cli(capsys, *L, *argv)
        assert (code, out, err) == (2, "", want)
    assert sqlite3.connect(db).execute("SELECT * FROM pairings").fetchall() == before
    code, out, err = _cli(capsys, *L, "create", "Cup", "--game", "toguz")
    assert err == "playboard: an event named 'Cup' already exists\n"


def _old_library(path):
    """A library as playboard wrote it before tournaments: the games table only, version 0."""
    from playboard_host.library import SCHEMA
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    raw = _raw("tobit", ["7-14"], "1-0", uid="old")
    db.execute("INSERT INTO games (board, uid, board_game, game, result, termination, date, fen, tags, moves, plies,"
               " record, synced_at) VALUES ('b1','old',1,'tobit','1-0',NULL,'2026.11.01',NULL,'{}','[\"7-14\"]',1,?,"
               "'2026-11-01T10:00:00')", (raw,))
    db.commit()
    db.close()


def test_a_library_from_before_tournaments_is_upgraded_and_keeps_its_games(tmp_path, capsys):
    db = str(tmp_path / "old.sqlite")
    _old_library(db)
    code, out, err = _cli(capsys, "tournament", "--library", db, "create", "Cup", "--game", "tobit")
    assert code == 0 and err == "library %s upgraded from version 0 to %d (its games kept)\n" % (db, SCHEMA_VERSION)
    lib = Library(db)
    assert lib.upgraded_from is None and lib.count() == 1 and lib.games()[0].moves == ["7-14"]
    assert Event.names(lib) == ["Cup"]
    lib.close()
    assert sqlite3.connect(db).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    # a library from a newer playboard is refused and left as it was
    sqlite3.connect(db).execute("PRAGMA user_version=%d" % (SCHEMA_VERSION + 1))
    with pytest.raises(LibraryError, match="written by a newer playboard"):
        Library(db)
    code, out, err = _cli(capsys, "games", "--library", db)
    assert code == 2 and err.count("\n") == 1 and "newer playboard" in err


def test_a_failing_migration_leaves_the_old_library_as_it_was(tmp_path, monkeypatch):
    from playboard_host import library
    db = str(tmp_path / "old.sqlite")
    _old_library(db)
    monkeypatch.setattr(library, "MIGRATIONS", library.MIGRATIONS + ((SCHEMA_VERSION + 1, "CREATE TABLE x (;"),))
    monkeypatch.setattr(library, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(LibraryError):
        Library(db)
    c = sqlite3.connect(db)
    # the steps before went through whole, the broken last one not at all; the game is there
    assert c.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert c.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1


def test_forfeits_score_but_are_no_wins_and_carry_no_moves(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "F", "tobit", tiebreaks=["wins", "sb"], scoring_={"forfeit_loss": -1})
    for n in "ABC":
        e.add_entrant(n)
    _, ps = e.pair_next()  # A bye; B-C
    assert e.find_pairing(1, "B").match == "2"
    e.set_result(1, "B", "+/-", "C did not come")
    st = {x["name"]: x for x in e.standings()}
    assert (st["B"]["score"], st["B"]["tiebreaks"]["wins"]) == (2, 0)  # a forfeit win scores, is no win
    assert st["C"]["score"] == -1 and st["A"]["score"] == 0  # --forfeit-loss; a bye scores 0 by default
    recs = list(read_games(outputs.event_pgn(e, lib).splitlines()))
    assert [(r.tags["White"], r.tags["Result"], r.tags["Termination"], r.moves) for r in recs] == [
        ("B", "1-0", "forfeit", [])]
    lib.close()


def test_knockout_withdrawal_sends_the_opponent_through(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "K", "toguz", system="knockout", games_per_match=1)
    for n in "ABCD":
        e.add_entrant(n)
    e.withdraw("D", 1)
    _, ps = e.pair_next()  # A-D forfeited at once, B-C to play
    names = e.names_by_id()
    assert [(names[p.white], names[p.black], p.result) for p in ps] == [("A", "D", "+/-"), ("B", "C", None)]
    e.set_result(1, "B", "0-1", "s")
    _, ps = e.pair_next()
    assert [(names[p.white], names[p.black]) for p in ps] == [("A", "C")]
    lib.close()


def test_a_game_carrying_a_pairing_on_another_board_is_flagged_not_taken(tmp_path):
    lib, e = _event_on_boards(tmp_path)
    e.pair_next()
    _sync(lib, "b-two", 1, "tobit", "1-0", tags=_carrying(e, 1, "1"))  # table 1's pairing, played on board 2
    _sync(lib, "b-one", 1, "toguz", "0-1", tags=_carrying(e, 1, "1"))  # the board played another game
    lines = take_results(e, lib)
    assert lines == [
        "round 1 table 1 on board 1: FLAG game 1 carrying round 1.1 was played on board 2, not on its board 1:"
        " result not taken (the arbiter: tournament take or result)",
        "round 1 table 1 on board 1: game 2 (0-1) is toguz, the event plays tobit: left aside"]
    p = e.find_pairing(1, "1")
    assert (p.result, p.library_game) == (None, None) and p.flag.startswith("game 1 carrying round 1.1")
    p = e.take_game(1, "1", 1, "the arbiter saw A and D play at board 2")  # the arbiter takes it
    assert (p.result, p.flag, p.library_game) == ("1-0", None, 1)
    with pytest.raises(TournamentError, match="game 1 is round 1 table 1's already"):
        e.take_game(1, "2", 1, "again")
    with pytest.raises(TournamentError, match="game 2 is toguz, Club plays tobit"):
        e.take_game(1, "2", 2, "wrong game")
    lib.close()


def test_a_knockout_double_forfeit_is_nobodys_win_and_the_next_opponent_has_a_bye(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "KO", "toguz", "knockout", games_per_match=1, boards=["1", "2"])
    for n in "ABCD":
        e.add_entrant(n)
    e.pair_next()
    e.set_result(1, "1", "-/-", "neither A nor D came")
    e.set_result(1, "2", "1-0", "B won")
    with pytest.raises(TournamentError, match="tied with a double forfeit: record who goes on"):
        e.pair_next()
    with pytest.raises(TournamentError, match="the winner is A or D or nobody"):
        e.decide(1, "1", "B", "arbiter", "x")
    assert e.decide(1, "1", "nobody", "arbiter", "both absent") is None
    r, ps = e.pair_next()
    names = e.names_by_id()
    assert [(names[p.white], p.black, p.result) for p in ps] == [("B", None, "bye")]  # B the champion
    recs = list(read_games(outputs.event_pgn(e, lib).splitlines()))
    assert [(r.tags["Round"], r.tags["Result"], r.tags.get("Forfeit"), r.tags.get("Termination")) for r in recs] == [
        ("1.1", "*", "-/-", "forfeit"), ("1.2", "1-0", None, "adjudication")]  # (a result by hand)
    lib.close()


def test_a_knockout_slot_left_empty_by_two_double_forfeits_gives_the_next_opponent_a_bye(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "KO8", "toguz", "knockout", games_per_match=1)
    for n in "ABCDEFGH":
        e.add_entrant(n)
    r, ps = e.pair_next()  # 1-8, 4-5, 2-7, 3-6
    for p, res in zip(ps, ("-/-", "-/-", "1-0", "0-1")):
        e.set_result(1, p.match, res, "reported")
    for m in ("1", "2"):
        e.decide(1, m, "nobody", "arbiter", "both absent")
    r, ps = e.pair_next()  # slot 1 (matches 1 and 2) is empty; B - F
    names = e.names_by_id()
    assert [(p.match, names[p.white], names.get(p.black)) for p in ps] == [("2", "B", "F")]
    e.set_result(2, "2", "0-1", "reported")
    r, ps = e.pair_next()  # the final: F alone, by a bye
    assert [(p.match, names[p.white], p.black, p.result) for p in ps] == [("1", "F", None, "bye")]
    assert e.standings()[0]["name"] == "F" and e.standings()[0]["champion"]
    lib.close()


def test_result_words_name_the_winner_or_say_what_happened():
    from playboard_host.result_words import result_words
    assert [result_words(r, "Aru", "Bek", state="pairing")
            for r in ("1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-", "*", None)] == [
        "Aru won", "Bek won", "Draw", "Aru won by forfeit", "Bek won by forfeit", "Both lost by forfeit",
        "No result yet", "No result yet"]
    assert result_words("bye", "Dina", None) == "Dina had a bye"
    assert result_words("0-1", "Aru", "Bek", "by resignation") == "Bek won by resignation"
    assert result_words("2-0", "Aru", "Bek") == "Unfinished"  # no result a person can read


def test_tables_for_people_give_results_in_words_files_for_programs_the_notation(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Words", "toguz", boards=["1=b-one", "2=b-two"])
    for n in ("Aru", "Bek", "Dina", "Erlan", "Nurlan"):
        e.add_entrant(n)
    e.pair_next()  # round 1: two games and a bye (5 players)
    names = e.names_by_id()
    games = [(p.match, names[p.white], names[p.black] if p.black else None) for p in e.pairings(1)]
    played = [g for g in games if g[2] is not None]
    assert len(played) == 2
    e.set_result(1, played[0][0], "-/+", "%s did not come" % played[0][1])
    e.set_result(1, played[1][0], "1/2-1/2", "agreed")
    bye = [g for g in games if g[2] is None][0]
    text = outputs.pairings_text(e, 1).splitlines()
    assert text[0] == "Round 1"
    want = {played[0][0]: "%s won by forfeit" % played[0][2], played[1][0]: "Draw"}
    for line in text[1:]:
        table = line.split()[0]
        if table == bye[0]:
            assert line.endswith("%s bye" % bye[1].ljust(24)), line
        else:
            assert line.endswith(want[table]), line
    page = outputs.pairings_text(e, 1, "html")
    assert "<td>%s won by forfeit</td>" % played[0][2] in page and "<td>Draw</td>" in page
    # the files for programs keep the notation
    assert sorted(r["result"] for r in json.loads(outputs.pairings_text(e, 1, "json"))) == ["-/+", "1/2-1/2", "bye"]
    assert {line.split(",")[7] for line in outputs.pairings_text(e, 1, "csv").splitlines()[1:]} == {
        "-/+", "1/2-1/2", "bye"}
    recs = list(read_games(outputs.event_pgn(e, lib).splitlines()))
    assert sorted((r.tags["Result"], r.tags.get("Forfeit")) for r in recs) == [("0-1", "-/+"), ("1/2-1/2", None)]
    # the crosstable: points in the cells (F: a forfeit), each cell's games in words when pointed at
    cross = outputs.standings_text(e, "html")
    assert "title='round 1: %s won by forfeit'>1F</td>" % played[0][2] in cross
    assert "title='round 1: %s won by forfeit'>0F</td>" % played[0][2] in cross
    assert "title='round 1: Draw'>0.5</td>" in cross and "F: a forfeit" in cross
    # a double forfeit is nobody's win, in words too
    e.set_result(1, played[0][0], "-/-", "neither came after all")
    assert outputs.pairings_text(e, 1).splitlines()[1 + [g[0] for g in games].index(played[0][0])].endswith(
        "Both lost by forfeit")
    lib.close()


def test_the_arbiters_commands_say_results_in_words(tmp_path, capsys):
    db = str(tmp_path / "lib.sqlite")
    T = ["tournament", "--library", db]
    assert _cli(capsys, *T, "create", "Club", "--game", "toguz")[0] == 0
    assert _cli(capsys, *T, "add", "Club", "Aru", "Bek", "Dina", "Nurlan")[0] == 0
    assert _cli(capsys, *T, "pair", "Club")[0] == 0
    code, out, err = _cli(capsys, *T, "result", "Club", "1", "Nurlan", "+/-", "--reason", "Nurlan did not come")
    assert (code, out) == (0, "round 1 table 1: Aru won by forfeit (+/-; Nurlan did not come)\n"), (out, err)
    code, out, err = _cli(capsys, *T, "result", "Club", "1", "1", "1/2-1/2", "--reason", "he came late: agreed")
    assert out == "round 1 table 1: Draw (1/2-1/2; he came late: agreed)\n", out
    code, out, err = _cli(capsys, *T, "show", "Club")
    corr = [ln.rsplit(", ", 1)[0] for ln in out.splitlines() if ln.startswith("  correction")]
    assert corr == ["  correction round 1 table 1: No result yet -> Aru won by forfeit (none -> +/-; Nurlan did not come",
                    "  correction round 1 table 1: Aru won by forfeit -> Draw (+/- -> 1/2-1/2; he came late: agreed"]
