"""record: a game with no move made is not kept on flash (issue 34).

A game left unfinished with no move on record (takebacks applied) is removed when it
ends (``Store.finish("*")``: abandoned when left, a new game over it, closed at
power-up with ``resume`` never) instead of being kept as a 0-move "abandoned" game.
Checked: with and without the journal; a game with a move, a game that ended with a
result before any move (a resignation), and a game cut by a power cut after its
first move are all kept; and a power cut at every tick of a session with empty games
loses no game with a move and leaves no empty game once the board goes on.
"""
from coldkept import ColdKept
from fakeflash import FakeFs, PowerCut, RamNor
from recordcuts import uids

from playboard.record import Store
from playboard.record.journal import Journal
from playboard.record.read import read_game_file

ROOT = "/games"


def _store(fs, nor=None):
    return Store(ROOT, fs=fs, uid=uids(), date=None, journal=Journal(nor) if nor is not None else None)


def _names(fs):
    return sorted(k[len(ROOT) + 1:] for k in fs.files if k.endswith(".rec"))


def test_a_game_abandoned_with_no_move_leaves_no_file_and_no_count():
    fs = FakeFs()
    st = _store(fs)
    assert st.new_game("toguz", {"Mode": "two"}) == 1
    assert _names(fs) == ["g1.rec"] and st.count == 1
    assert st.finish("*", "abandoned")
    assert _names(fs) == [] and st.count == 0 and st.used() == 0 and st.current is None
    assert st.games() == []
    # a new game over an empty one: the empty one goes, the ids go on (never reused)
    assert st.new_game("tihbat") == 2
    assert st.new_game("tobit") == 3
    assert _names(fs) == ["g3.rec"] and st.count == 1
    assert st.add_move("7-14")
    assert st.new_game("toguz") == 4  # the tobit game had a move: kept, abandoned
    assert _names(fs) == ["g3.rec", "g4.rec"]
    rec = st.read(3)
    assert rec.finished and rec.result == "*" and rec.termination == "abandoned" and rec.moves == ["7-14"]
    assert [g[0] for g in st.games()] == [3, 4]
    # the counter on flash: a power-up goes on after the highest id handed out
    st.finish("*", "abandoned")
    st = _store(fs)
    assert st.resume() is None and st.new_game("toguz") == 5


def test_a_move_taken_back_to_the_start_is_no_move_but_a_result_before_any_move_is_kept():
    fs = FakeFs()
    st = _store(fs)
    st.new_game("toguz")
    assert st.add_move("76") and st.undo()
    assert st.finish("*", "abandoned")  # back at the start position: nothing played
    assert _names(fs) == []
    st.new_game("tobit", {"White": "Bek", "Black": "Nurlan", "Round": "1"})
    assert st.finish("0-1", "resignation")  # a decision: kept with its result
    rec = st.read(2)
    assert _names(fs) == ["g2.rec"] and rec.result == "0-1" and rec.plies == 0
    assert rec.tags["White"] == "Bek"


def test_a_power_cut_after_the_first_move_keeps_the_game_and_an_empty_game_resumes():
    fs = FakeFs()
    st = _store(fs)
    st.new_game("toguz")
    # the power goes with the game at its start: it comes back (still to be played)
    st = _store(fs)
    r = st.resume()
    assert r is not None and r.id == 1 and r.moves == [] and _names(fs) == ["g1.rec"]
    assert st.add_move("76")
    # the power goes after the first move: the game and its move come back
    st = _store(fs)
    r = st.resume()
    assert r.id == 1 and r.moves == ["76"]
    assert st.finish("*", "abandoned")  # (``resume`` never): kept, it has a move
    assert st.read(1).moves == ["76"]


def test_with_the_journal_an_empty_game_goes_and_its_section_is_closed():
    fs, nor = FakeFs(), RamNor(4)
    st = _store(fs, nor)
    st.new_game("toguz", {"Mode": "two"})
    assert st.journal.pos > 0
    assert st.add_move("76") and st.undo()  # (in the journal only)
    e0 = nor.erases
    assert st.finish("*", "abandoned")
    # no file, no erase: its section closed (the journal's last J record names no game)
    assert _names(fs) == [] and st.journal.pos == 0 and nor.erases == e0
    assert Journal(nor).scan(bytearray(512))[0] == 0 and not Journal(nor).blank(0)
    # the next game starts after it with no erase and is kept
    st.new_game("tihbat")
    assert nor.erases == e0
    assert st.add_move("1") and st.finish("1-0", "board empty")
    assert read_game_file(st, 2, True).moves == ["1"] and _names(fs) == ["g2.rec"]


def test_a_removal_the_flash_refuses_leaves_the_game_unfinished_and_is_done_again():
    fs = FakeFs()
    st = _store(fs)
    st.new_game("toguz")
    remove = fs.remove

    def refuse(path):
        raise OSError(5)

    fs.remove = refuse
    assert not st.finish("*", "abandoned")
    assert "g1.rec" in st.error and st.current == 1 and _names(fs) == ["g1.rec"]
    fs.remove = remove
    assert st.finish("*", "abandoned") and _names(fs) == [] and st.error is None
    assert st.current is None and st.count == 0


def _day(st, log):
    """A day's session: an empty game, a new game over it, a game of three moves that
    ends, an empty game at the end. ``log`` gets each game with moves once committed."""
    st.new_game("toguz", {"Mode": "two"})
    gid = st.new_game("tihbat")  # the first, empty, goes
    moves = []
    for m in ("1", "3", "2"):
        if st.add_move(m):
            moves.append(m)
            log[gid] = (list(moves), False)
    if st.finish("1-0", "board empty"):
        log[gid] = (list(moves), True)
    st.new_game("tobit")
    st.finish("*", "abandoned")


def _cut_day(k, nor):
    fs = FakeFs()
    if nor:
        nor = RamNor(4, fs.power)
    fs.cut(k)
    log = {}
    cut = 0
    try:
        _day(_store(fs, nor or None), log)
    except PowerCut:
        cut = 1
    fs.power_on()
    st = _store(fs, nor or None)
    r = st.resume()
    for gid in log:
        moves, fin = log[gid]
        rec = read_game_file(st, gid, True)
        assert rec.name is not None and rec.moves[:len(moves)] == moves, (k, gid, rec.moves)
        assert rec.finished or not fin, k
    # the board goes on: the game in play ends (abandoned); no empty game stays
    if r is not None:
        assert st.finish("*", "abandoned"), (k, st.error)
    for gid, name, size, fin, res in st.games():
        assert read_game_file(st, gid, False).plies > 0, (k, gid, _names(fs))
    return cut


def test_a_power_cut_at_every_tick_of_a_day_with_empty_games():
    for nor in (False, True):
        fs = FakeFs()
        _day(_store(fs, RamNor(4, fs.power) if nor else None), {})
        total = fs.power.ticks
        assert total > 100
        cuts = 0
        with ColdKept():  # (hundreds of stores: not compiled again each time)
            for k in range(0, total, 2):
                cuts += _cut_day(k, nor)
        assert cuts >= total // 2 - 1
