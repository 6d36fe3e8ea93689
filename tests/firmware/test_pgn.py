"""Game records (PGN-style reader/writer and replay) and whole recorded games.

The shared records (../shared/cases) are third-party: read in place, skipped
with a message where absent."""
from tlib import raises, cases_dir, DATA

from playboard.pgn import read_games, replay, format_game, RecordError
from playboard.games.registry import new_game


def _replay_file(path, check):
    n = 0
    with open(path) as f:
        for rec in read_games(f):
            g, res = replay(rec)
            check(rec, g, res)
            n += 1
    return n


def test_masters_2018_replay_with_landing_digits_and_final_kazans():
    path = cases_dir() + "/toguz-masters-2018.pgn"

    def check(rec, g, res):
        assert "%d-%d" % g.kazans() == rec.tags["FinalKazans"], rec.number
        assert res == rec.tags["Result"], rec.number
        # every landing digit and x as recorded: the core writes each move back identically
        h = new_game("toguz")
        for t in rec.moves:
            m = h.parse_move(t)
            assert h.move_text(m) == t.replace("\u0445", "x"), (rec.number, t)
            h.push(m)

    assert _replay_file(path, check) == 600


def test_generated_games_replay_to_final_position_and_result():
    path = cases_dir() + "/generated-games.pgn"
    seen = {}

    def check(rec, g, res):
        name = rec.tags["Game"]
        seen[name] = seen.get(name, 0) + 1
        assert res == rec.tags["Result"], rec.number
        assert g.termination == rec.tags["Termination"], rec.number
        if "FinalPosition" in rec.tags:
            assert g.fen() == rec.tags["FinalPosition"], rec.number
        if "FinalCaptures" in rec.tags:
            assert "%d-%d" % g.final_captures() == rec.tags["FinalCaptures"], rec.number

    assert _replay_file(path, check) == 76
    assert seen == {"tobit": 30, "tobit4": 16, "tihbat": 30}


def test_own_records_replay():
    want = {}

    def check(rec, g, res):
        want[rec.number] = (rec.tags["Game"], res, g.fen())
        assert g.fen() == rec.tags["FinalPosition"], rec.number
        assert res == rec.tags["Result"]

    assert _replay_file(DATA + "/own-games.pgn", check) == 4
    assert [want[i][0] for i in (1, 2, 3, 4)] == ["toguz", "tobit", "tobit4", "tihbat"]


def test_writer_reader_round_trip():
    tags = {"Game": "toguz", "White": 'A "quoted" name', "Result": "1-0", "Round": "3"}
    moves = ["76", "98", "66", "87"]
    text = format_game(tags, moves)
    assert text.startswith('[Round "3"]\n[White "A \\"quoted\\" name"]\n[Result "1-0"]\n[Game "toguz"]\n\n')
    recs = list(read_games(text.splitlines()))
    assert len(recs) == 1 and recs[0].moves == moves and recs[0].tags == tags and recs[0].result == "1-0"
    # a game set up with Black to move numbers its first move "N..."
    text = format_game({"Game": "tihbat", "FEN": "5S,10S/7S,2S 4 0 N 5"}, ["1", "2"], "*", 1, 5)
    assert "5... 1 6. 2 *" in text


def test_reader_handles_comments_and_glued_numbers():
    text = ['[Game "tobit"]', "", "1.7-14 {a comment} 29-22 ; to the end of the line", "2. 6-7 *"]
    rec = list(read_games(text))[0]
    assert rec.moves == ["7-14", "29-22", "6-7"] and rec.result == "*"


def _first_error(lines):
    try:
        for rec in read_games(lines):
            replay(rec)
    except RecordError as e:
        return e
    raise AssertionError("no error")


def test_errors_name_game_line_and_ply():
    good = ['[Game "toguz"]', '[Result "*"]', "", "1. 76 98 *", ""]
    e = _first_error(good + ['[Game "toguz"]', "", "1. 76 97 *"])
    assert e.game == 2 and e.ply == 2 and e.line == 8 and "lands in pit 8" in str(e)
    e = _first_error(['[Game "tobit"]', "", "1. 7-14 30-22 *"])
    assert e.ply == 2 and "not legal" in str(e)
    e = _first_error(['[Game "chess"]', "", "1. e4 *"])
    assert "unknown game" in str(e)
    e = _first_error(["1. 76 98"])
    assert "not a game record" in str(e)
    e = _first_error(['[Game "toguz" ', "1. 76"])
    assert e.line == 1 and "tag" in str(e)
    e = _first_error(['[Game "toguz"]', "1. 76 {never closed"])
    assert "unterminated" in str(e)
    e = _first_error(['[Game "toguz"]', "", "1. 76 9"])  # truncated movetext
    assert e.ply == 2
    e = _first_error(['[Game "toguz"]', "", "1. 76 98 2. 66"])  # cut after a whole move
    assert e.ply == 3 and e.line == 3 and "truncated" in str(e)
    e = _first_error(['[Game "tobit"]', '[Result "0-1"]', "", "1. 22:35 0-1"] and
                     ['[Game "tobit"]', '[FEN "W:W22:B29"]', '[Result "0-1"]', "", "1. 22:35 0-1"])
    assert "contradicts" in str(e)
    e = _first_error(['[Game "tobit"]', '[FEN "W:W22:B29"]', "", "1. 22:35 1-7"])
    assert "after the game ended" in str(e)


def test_whole_games_of_each_inside_the_heap_with_all_games_loaded():
    # The MicroPython run holds this to the chip's heap: all three cores loaded,
    # one whole game of each played.
    import playboard.games.toguz
    import playboard.games.tobit
    import playboard.games.tihbat  # noqa: F401
    n = 0
    with open(DATA + "/own-games.pgn") as f:
        for rec in read_games(f):
            g, res = replay(rec)
            assert g.ply == len(rec.moves) and g.ply > 20
            n += 1
    assert n == 4
