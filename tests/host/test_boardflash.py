"""``playboard_host.boardflash``: a simulated board's game read from the host as the board
keeps it, its file and the record's journal (docs/app.md, "The journal"). The flash is
written here by the firmware's own store (``record.Store`` with a ``Journal`` over the
record tests' ``RamNor``, the file system ``FakeFs``) and laid out as the simulated
board lays it out (``<flash>/games/g<id>.rec``, ``<flash>/journal``)."""
import os

from fakeflash import FakeFs, RamNor

from playboard.record import Store
from playboard.record.journal import Journal
from playboard.record.read import parse_game
from playboard_host.boardflash import join_journal, journal_of, kept_game, kept_games, with_journal

MOVES = ["76", "98", "11", "23", "45"]


def _store(fs, nor=None):
    return Store("/games", fs=fs, uid=lambda: "u1", date=None,
                 journal=Journal(nor) if nor is not None else None)


def _lay_out(flash, fs, nor):
    """The fake flash as a simulated board's folder: its games and its journal."""
    os.makedirs(os.path.join(flash, "games"))
    for path, data in fs.files.items():
        if path.endswith(".rec"):
            with open(os.path.join(flash, "games", os.path.basename(path)), "wb") as f:
                f.write(bytes(data))
    with open(journal_of(flash), "wb") as f:
        f.write(bytes(nor.data))


def _game(moves, nor, power_up=True):
    """(the store's file system, the same game's bytes written without a journal). With
    ``power_up`` the game's file holds its header (begun where the journal was not
    ready: the file written, then the board switched off and on, the journal begun for
    it at the resume), the moves go to the journal; else the game is begun in the
    journal and has no file yet (a power-up then changes nothing: it goes on there)."""
    fs, plain_fs = FakeFs(), FakeFs()
    st, plain = _store(fs, None if power_up else nor), _store(plain_fs)
    for s in (st, plain):
        assert s.new_game("toguz", {"White": "Ann"}) == 1
    if power_up:
        st = _store(fs, nor)
        assert st.resume().id == 1 and st.journal.pos
    for s in (st, plain):
        for m in moves:
            assert s.add_move(m)
    return fs, bytes(plain_fs.files["/games/g1.rec"])


def test_the_game_in_play_is_its_file_and_the_journal(tmp_path):
    nor = RamNor(4)
    fs, whole = _game(MOVES, nor)
    flash = str(tmp_path / "flash")
    _lay_out(flash, fs, nor)
    with open(os.path.join(flash, "games", "g1.rec"), "rb") as f:
        raw = f.read()
    assert parse_game(raw, 1).moves == []  # the file alone: the moves are in the journal
    assert with_journal(raw, 1, journal_of(flash)) == whole  # byte for byte the plain file
    rec = kept_game(flash, 1)
    assert rec.moves == MOVES and rec.name == "toguz" and rec.problem is None
    assert {n: r.moves for n, r in kept_games(flash).items()} == {"g1.rec": MOVES}
    assert kept_game(flash, 2) is None


def test_a_game_begun_in_the_journal_is_the_journal_alone(tmp_path):
    nor = RamNor(4)
    fs, whole = _game(MOVES, nor, power_up=False)
    flash = str(tmp_path / "flash")
    _lay_out(flash, fs, nor)
    assert not os.path.exists(os.path.join(flash, "games", "g1.rec"))  # no file yet
    assert with_journal(None, 1, journal_of(flash)) == whole  # byte for byte the plain file
    assert with_journal(None, 2, journal_of(flash)) is None
    assert kept_game(flash, 1).moves == MOVES and kept_game(flash, 2) is None
    assert {n: r.moves for n, r in kept_games(flash).items()} == {"g1.rec": MOVES}


def test_what_the_file_holds_already_is_not_taken_twice(tmp_path):
    """A fold cut after the file took the journal's first records (before the journal's
    erase): the file's size says how much it holds, as the board's settle reads it."""
    nor = RamNor(4)
    fs, whole = _game(MOVES, nor)
    raw = bytes(fs.files["/games/g1.rec"])
    j = Journal(nor)
    gid, base, first, end, new = j.scan(bytearray(512))
    assert (gid, base, new) == (1, len(raw), False) and end > first
    two = first + 2 * (len(MOVES[0]) + 6)  # the journal's first two move records
    part = raw + bytes(nor.data[first:two])
    jpath = str(tmp_path / "journal")
    with open(jpath, "wb") as f:
        f.write(bytes(nor.data))
    assert parse_game(part, 1).moves == MOVES[:2]
    assert with_journal(part, 1, jpath) == whole


def test_a_journal_of_another_game_or_none_leaves_the_file_as_it_is(tmp_path):
    nor = RamNor(4)
    fs, whole = _game(MOVES, nor)
    jpath = str(tmp_path / "journal")
    with open(jpath, "wb") as f:
        f.write(bytes(nor.data))
    raw = bytes(fs.files["/games/g1.rec"])
    assert with_journal(raw, 2, jpath) == raw  # the journal holds game 1
    assert with_journal(raw, 1, str(tmp_path / "absent")) == raw  # no journal (--journal 0)
    with open(jpath, "wb") as f:
        f.write(b"\xff" * 4 * 4096)  # erased: the game ended and was folded
    assert with_journal(raw, 1, jpath) == raw
    torn = bytearray(nor.data)
    gid, base, first, end, new = Journal(nor).scan(bytearray(512))
    torn[end - 3] ^= 0xFF  # the last record cut short by a power cut: not read
    with open(jpath, "wb") as f:
        f.write(bytes(torn))
    assert parse_game(with_journal(raw, 1, jpath), 1).moves == MOVES[:-1]


def test_on_fat_a_file_that_is_not_the_journals_counts_for_nothing():
    # CircuitPython's drive (Journal.fat): a fold cut short may leave the file of a game
    # begun in the journal at any size with other bytes; the board writes it again at
    # power-up unless it reads back as the journal's records (Journal._same)
    nor = RamNor(1)
    fs, whole = _game(MOVES, nor, power_up=False)
    data = bytes(nor.data)
    assert join_journal(None, 1, data, fat=True) == whole
    assert join_journal(whole, 1, data, fat=True) == whole
    bad = whole[:20] + b"\x00" * (len(whole) - 20)
    assert join_journal(bad, 1, data, fat=True) == whole
    assert join_journal(whole[:30], 1, data, fat=True) == whole
    assert join_journal(whole[:30], 1, data) == whole  # (littlefs: a file's size counts)
    assert join_journal(bad, 1, data) == bad  # (there a file of that size is whole)
