"""The event's PGN file (`tournament pgn`) says how a result entered by hand came: its
record had no Termination (no game) or kept the board's ("resignation" beside the
arbiter's draw), and `playboard replay` of the file noted the result as unexplained."""
import datetime

from playboard.pgn import read_games
from playboard.record.codec import encode_record
from playboard.record.read import parse_game
from playboard_host import cli
from playboard_host.library import Library
from playboard_host.tournament import outputs
from playboard_host.tournament.event import Event
from playboard_host.tournament.results import pairing_tags, take_results


def _board_game(lib, board, gid, tags, moves, result, term):
    data = encode_record(0x47, "toguz\x00%s-%d\x00" % (board, gid))
    for k, v in tags.items():
        data += encode_record(0x54, k + "\x00" + v)
    for m in moves:
        data += encode_record(0x4D, m)
    data += encode_record(0x45, result + "\x00" + term)
    assert lib.add(board, parse_game(data, gid), data, datetime.datetime.now() + datetime.timedelta(seconds=1))


def test_a_result_by_hand_is_an_adjudication_in_the_events_pgn(tmp_path, capsys):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Open", "toguz", boards=["1=b-one", "2=b-two"])
    for n in ("Aru", "Bek", "Dina", "Gul"):
        e.add_entrant(n)
    e.pair_next()
    t1 = pairing_tags(e, e.find_pairing(1, "1"))
    _board_game(lib, "b-one", 1, t1, ["76", "98"], "0-1", "resignation")
    assert len(take_results(e, lib)) == 1
    e.set_result(1, "1", "1/2-1/2", "the resign pad was pressed by mistake; a draw agreed")
    e.set_result(1, "2", "1-0", "the board lost power; both players agree Bek won")
    recs = list(read_games(outputs.event_pgn(e, lib).splitlines()))
    assert [(r.tags["Round"], r.tags["Result"], r.tags["Termination"], r.moves) for r in recs] == [
        ("1.1", "1/2-1/2", "adjudication", ["76", "98"]), ("1.2", "1-0", "adjudication", [])]
    f = tmp_path / "open.pgn"
    f.write_text(outputs.event_pgn(e, lib), encoding="utf-8")
    lib.close()
    assert cli.main(["replay", str(f)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and len(out.splitlines()) == 2


def test_a_result_from_the_board_keeps_the_boards_termination(tmp_path):
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Open", "toguz", boards=["1=b-one"])
    e.add_entrant("Aru")
    e.add_entrant("Bek")
    e.pair_next()
    _board_game(lib, "b-one", 1, pairing_tags(e, e.find_pairing(1, "1")), ["76"], "0-1", "resignation")
    take_results(e, lib)
    (rec,) = read_games(outputs.event_pgn(e, lib).splitlines())
    lib.close()
    assert (rec.tags["Result"], rec.tags["Termination"], "Annotator" in rec.tags) == ("0-1", "resignation", False)


def test_the_events_pgn_has_site_and_a_hand_results_record_its_rounds_date(tmp_path):
    """The event's PGN had no Site tag and a record without a board's game no Date: PGN's
    seven-tag roster wants both ("?" for a place not known)."""
    lib = Library(str(tmp_path / "lib.sqlite"))
    e = Event.create(lib, "Open", "toguz", boards=["1=b-one", "2=b-two"], site="Almaty, KZ")
    bare = Event.create(lib, "Bare", "toguz")  # no site, no boards
    for ev in (e, bare):
        for n in ("Aru", "Bek", "Dina", "Gul"):
            ev.add_entrant(n)
        ev.pair_next()
    t1 = pairing_tags(e, e.find_pairing(1, "1"))
    _board_game(lib, "b-one", 1, dict(t1, Date="2026.05.12"), ["76", "98"], "0-1", "resignation")
    assert len(take_results(e, lib)) == 1
    e.set_result(1, "2", "+/-", "Gul did not come")
    bare.set_result(1, "1", "1/2-1/2", "reported by both players")
    today = datetime.date.today().strftime("%Y.%m.%d")
    recs = list(read_games(outputs.event_pgn(e, lib).splitlines()))
    assert [(r.tags["Round"], r.tags["Site"], r.tags["Date"]) for r in recs] == [
        ("1.1", "Almaty, KZ", "2026.05.12"),  # the board's game: its own date
        ("1.2", "Almaty, KZ", "2026.05.12")]  # the forfeit: its round's, the day its games were played
    assert outputs.round_dates(bare, lib) == {1: today}  # no board: the day its result was entered
    (rec,) = read_games(outputs.event_pgn(bare, lib).splitlines())
    assert (rec.tags["Site"], rec.tags["Date"], rec.tags["Termination"]) == ("?", today, "adjudication")
    assert outputs.event_pgn(bare, lib).startswith(
        '[Event "Bare"]\n[Site "?"]\n[Date "%s"]\n[Round "1.1"]\n' % today)
    lib.close()
