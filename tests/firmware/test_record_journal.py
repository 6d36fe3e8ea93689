"""record.journal: the game in play appended to NOR flash by page programs, no erase.

The store over the record tests' fake file system (``FakeFs``) and a NOR region
(``fakeflash.RamNor``: a program only clears bits, an erase sets 256 bytes a tick)
sharing one power supply: a cut at any tick of either. Checked: a move costs page
programs and no erase; the game's file, once folded, is byte for byte the file the
store writes without a journal; the link reads the game in play from file and
journal; and a power cut at every tick of a session (a game's start, its moves, a
takeback, its end with the fold and the journal's erase, the next game, a resume)
loses no committed move and no game, and recording goes on.
"""
from coldkept import ColdKept
from fakeflash import FakeFs, RamNor
from recordcuts import check_log, every_cut, move_list, session, uids
from tlib import is_micropython

from playboard.record import Store
from playboard.record.journal import Journal
from playboard.record.read import read_game_file

ROOT = "/games"


def _store(fs, nor=None):
    return Store(ROOT, fs=fs, uid=uids(), date=None,
                 journal=Journal(nor) if nor is not None else None)


def _file(fs, gid):
    return bytes(fs.files[ROOT + "/g%d.rec" % gid])


def test_journal_program_keeps_other_bytes_and_spans_pages_and_sectors():
    nor = RamNor(2)
    j = Journal(nor)
    assert j.size == 8192
    j.program(250, b"abcdefghij")  # across a page boundary: two programs
    j.program(4090, b"0123456789")  # across a sector boundary
    j.program(260, b"XY")  # beside bytes already programmed in the page
    buf = bytearray(12)
    j.read(250, buf)
    assert bytes(buf) == b"abcdefghijXY"
    j.read(4090, buf)
    assert bytes(buf) == b"0123456789\xff\xff"
    assert nor.programs == 5 and nor.erases == 0
    assert not j.blank(0) and not j.blank(1)
    j.erase()
    assert j.blank(0) and j.blank(1) and nor.erases == 2
    j.erase()  # (blank sectors are not erased again)
    assert nor.erases == 2


def test_moves_cost_page_programs_and_no_erase_and_the_file_matches():
    fs, nor = FakeFs(), RamNor(4)
    st = _store(fs, nor)
    plain_fs = FakeFs()
    plain = _store(plain_fs)
    moves = move_list(300)
    for s in (st, plain):
        gid = s.new_game("toguz", {"White": "Ann", "Black": "Playboard L3"})
        assert gid == 1
    assert ROOT + "/g1.rec" not in fs.files  # begun in the journal: no file yet
    e0, p0 = nor.erases, nor.programs
    for i, m in enumerate(moves):
        assert st.add_move(m) and plain.add_move(m)
        if i == 150:
            assert st.undo() and plain.undo()
            assert st.add_move(m) and plain.add_move(m)
    assert nor.erases == e0  # not one erase in 302 appends
    assert nor.programs - p0 <= 2 * 302
    assert ROOT + "/g1.rec" not in fs.files  # the game is in the journal only
    # the link reads the game in play whole, from the file and the journal
    assert st.size(1) == plain.size(1) == len(_file(plain_fs, 1))
    buf = bytearray(256)
    got = b""
    off = 0
    while True:
        n = st.read_into(1, off, buf)
        if not n:
            break
        got += bytes(buf[:n])
        off += n
    assert got == _file(plain_fs, 1)
    assert st.finish("1-0", "") and plain.finish("1-0", "")
    # folded: the file the store writes without a journal, byte for byte; the journal's
    # section closed (a J record naming no game), not erased: the next game goes after it
    assert _file(fs, 1) == _file(plain_fs, 1)
    assert nor.erases == e0
    assert Journal(nor).scan(bytearray(512))[0] == 0
    rec = read_game_file(st, 1, True)
    assert rec.finished and rec.plies == 300 and rec.moves == moves


def _files(fs):
    return {k: bytes(v) for k, v in fs.files.items()}


def test_a_game_start_writes_the_journal_only_and_the_game_reads_whole():
    # a game's start with the journal blank (as the last game's end left it): its
    # header and tags by page programs, not one file-system write (a littlefs commit
    # may erase a sector: 45-400 ms in the start's frame on the RP2040)
    fs, nor = FakeFs(), RamNor(4)
    st = _store(fs, nor)
    assert st.new_game("toguz", {"White": "Ann"}) == 1
    assert st.add_move("11") and st.finish("1-0", "")
    before = _files(fs)
    e0, p0 = nor.erases, nor.programs
    assert st.new_game("tobit", {"White": "Bo", "Black": "Cy"}, fen="start") == 2
    assert _files(fs) == before  # not one file written, made or renamed
    assert nor.erases == e0 and 1 <= nor.programs - p0 <= 2
    # the game in play, listed and read from the journal alone
    assert [g[:4] for g in st.games()] == [(1, "toguz", len(before[ROOT + "/g1.rec"]), True),
                                          (2, "tobit", st.size(2), False)]
    assert st.add_move("a1") and st.add_move("b2") and st.undo()
    rec = st.read(2)
    assert (rec.name, rec.fen, rec.tags["Black"], rec.moves) == ("tobit", "start", "Cy", ["a1"])
    # its end makes its file (written aside and renamed) and the id counter
    assert st.finish("0-1", "")
    assert ROOT + "/g2.rec" in fs.files and ROOT + "/g2.rec.tmp" not in fs.files
    assert read_game_file(st, 2, True).moves == ["a1"]
    assert nor.erases == e0  # (its section closed by a J record: no erase at the end)
    st = _store(fs, nor)  # (power-up: the journal erased)
    assert st.new_game("toguz") == 3  # (the counter says so too: synced and dropped or not)
    # a game left with no move is discarded: no file ever made, its section closed; the
    # next game begins after it, nothing written to the file system, no erase
    assert st.finish("*", "abandoned")
    assert ROOT + "/g3.rec" not in fs.files
    before = _files(fs)
    e0 = nor.erases
    for k in range(4, 40):  # (a day of games left at their start: the journal fills)
        assert st.new_game("tihbat", {"White": "Di"}) == k
        assert _files(fs) == before, k
        assert st.finish("*", "abandoned")
    assert nor.erases - e0 <= 2  # (erased at a game's end once three-quarters used)
    assert st.new_game("toguz") == 40 and st.add_move("11")
    st = _store(fs, nor)  # the power goes: the game in play comes back, no other
    assert st.resume().id == 40 and st.count == 3


def test_power_up_resumes_from_the_journal_and_goes_on():
    fs, nor = FakeFs(), RamNor(4)
    st = _store(fs, nor)
    st.new_game("tobit", {"White": "A", "Black": "B"})
    for m in move_list(40):
        assert st.add_move(m)
    # the power goes (no finish, no close): switched on again
    st = _store(fs, nor)
    r = st.resume()
    assert r.moves == move_list(40) and st.current == 1
    # the game goes on in the journal as it was: not folded, not erased (issue 30)
    assert ROOT + "/g1.rec" not in fs.files and not st.report
    assert st.journal.pos > 0
    e0 = nor.erases
    for m in move_list(10, 3):
        assert st.add_move(m)
    assert nor.erases == e0
    assert st.finish("0-1", "")
    rec = read_game_file(st, 1, True)
    assert rec.finished and rec.moves == move_list(40) + move_list(10, 3)


def test_a_full_journal_is_folded_and_begun_again():
    fs, nor = FakeFs(), RamNor(1)  # 4 KB: about 450 short move records
    moves = move_list(600)
    with ColdKept():
        st = _store(fs, nor)
        st.new_game("toguz")
        for m in moves:
            assert st.add_move(m), st.error
        assert nor.erases == 1  # one fold (and erase) when the journal filled
        head = st.size(1) - sum(len(m) + 6 for m in moves)
        assert st.finish("1/2-1/2", "")
        rec = read_game_file(st, 1, False)  # (600 texts: too many for the test's heap)
        assert rec.finished and rec.plies == 600 and rec.problem is None
        assert len(_file(fs, 1)) == head + sum(len(m) + 6 for m in moves) + 6 + 8


def _flash():
    """A fresh file system and a 16 KB NOR journal on one power supply."""
    fs = FakeFs()
    return fs, RamNor(4, fs.power)


def test_a_power_cut_at_every_tick_loses_no_move_and_no_game():
    step = 3 if is_micropython() else 1
    total, cuts, _ = every_cut(_flash, lambda fs, nor, log: session(_store(fs, nor), log), _resumes, step)
    assert total > 500
    assert cuts >= total // step - 1


def _resumes(fs, nor, log, k):
    """After a cut at tick ``k`` of ``session``: every game as ``log`` had it, and
    recording goes on (``check_log``); then after another power-up all is still there."""
    st = _store(fs, nor)
    r = check_log(st, log, "cut at tick %d" % k)
    # recording goes on: the resumed game (if any) gets a move and ends, whole
    if r is not None:
        assert st.add_move("11") and st.finish("*", ""), (k, st.error)
        rec = read_game_file(st, r.id, True)
        assert rec.finished and rec.moves == r.moves + ["11"], k
    # and after another power-up all is still there (the journal settled, blank)
    st2 = _store(fs, nor)
    assert st2.resume() is None
    assert all(Journal(nor).blank(s) for s in range(4)), k
    return True


def _folds(fs, nor, log):
    """A game whose journal is folded twice: at a power-up after its 8th move (its file
    made from the journal), at its end (the file and the journal's 16 moves since).
    ``log`` gets the moves committed (and "end" once finished)."""
    st = _store(fs, nor)
    st.new_game("toguz", {"White": "Ann"})
    for m in move_list(8):
        assert st.add_move(m)
        log.append(m)
    st = _store(fs, nor)  # switched off and on: the journal settled into the file
    for m in move_list(16, 5):
        assert st.add_move(m)
        log.append(m)
    if st.finish("1-0", "mate"):
        log.append("end")


def test_a_cut_at_every_tick_of_a_fold_with_torn_writes_keeps_every_record_once():
    # host files (the simulated board's folder) take a write at a time and a cut may
    # leave stray bytes after the last one (FakeFs's ``garbage``): a fold writes the
    # file aside and renames it, so the file is as it was or whole, each record once
    whole = move_list(8) + move_list(16, 5)

    def check(fs, nor, log, k):
        st = _store(fs, nor)
        if not log:  # (cut before the first move: the game may or may not have begun)
            return False
        r = st.resume()
        rec = read_game_file(st, 1, True)
        assert rec.problem is None, (k, rec.problem)
        moves = [m for m in log if m != "end"]
        # every committed move once, in order (the one being made may be there too)
        assert rec.moves in (moves, whole[:len(moves) + 1]), (k, rec.moves, moves)
        assert rec.finished == (r is None), k
        if "end" in log:
            assert rec.finished and rec.result == "1-0" and rec.moves == whole, k
        assert not any(n.endswith(".rec.tmp") for n in fs.files), (k, sorted(fs.files))
        return True

    step = 5 if is_micropython() else 1
    total, _, checked = every_cut(_flash, _folds, check, step, garbage=7)
    assert checked >= total // step - 80


def test_a_resume_at_power_up_goes_on_in_the_journal_with_no_erase_and_no_write():
    # issue 30: the power-up's settle (the fold into the file, then the erase of the
    # journal's used sectors: 1.09 s for a 300-move game at the W25Q16's worst erase)
    # is not waited on when the journal can be appended to as it is
    fs, nor = FakeFs(), RamNor(4)
    st = _store(fs, nor)
    assert st.new_game("toguz", {"White": "A"}) == 1 and st.add_move("11") and st.finish("1-0", "")
    st.new_game("tobit", {"White": "A", "Black": "B"})  # (after a closed section)
    for m in move_list(40):
        assert st.add_move(m)
    files, e0, p0 = _files(fs), nor.erases, nor.programs
    st = _store(fs, nor)  # the power goes: switched on again
    assert _files(fs) == files and nor.erases == e0 and nor.programs == p0  # nothing written
    r = st.resume()
    assert r.id == 2 and r.moves == move_list(40) and st.current == 2 and st.count == 2
    assert st.journal.new and st.journal.pos > st.journal.first > 0
    assert st._next_id == 3
    for m in move_list(10, 3):
        assert st.add_move(m)
    assert nor.erases == e0 and ROOT + "/g2.rec" not in fs.files
    assert st.finish("0-1", "")
    rec = read_game_file(st, 2, True)
    assert rec.finished and rec.moves == move_list(40) + move_list(10, 3)
    assert st.new_game("toguz") == 3  # (the id counter went past 2 at the fold)
    # a game with a file (resumed before) goes on in the journal the same way
    for m in move_list(5):
        assert st.add_move(m)
    st = _store(fs, nor)
    assert _store(fs, nor).resume().moves == move_list(5)
    assert st.resume().moves == move_list(5) and st.add_move("99") and st.finish("*", "")
    assert read_game_file(st, 3, True).moves == move_list(5) + ["99"]


def test_a_resume_whose_journal_holds_a_record_cut_short_goes_on_after_it_with_no_erase():
    # a cut in the middle of a record's page program leaves its first bytes after the
    # last valid one (never committed): nothing can be programmed over them, so they are
    # voided (0x00) and the section begun again after them by page programs, not folded
    # and erased (the settle's erase of the sectors used: 45-400 ms each, the chip stalled)
    fs, nor = FakeFs(), RamNor(4)
    st = _store(fs, nor)
    plain_fs = FakeFs()
    plain = _store(plain_fs)
    for s in (st, plain):
        s.new_game("toguz", {"White": "Ann"})
        for m in move_list(12):
            assert s.add_move(m)
    st.journal.program(st.journal.pos, b"M\x05ab")  # (a move's first bytes, then the cut)
    files, e0 = _files(fs), nor.erases
    st = _store(fs, nor)
    assert st.resume().moves == move_list(12) and st.current == 1
    assert nor.erases == e0 and _files(fs) == files  # no erase, no file made
    assert any("voided" in ln for ln in st.report) and not any("from the journal" in ln for ln in st.report)
    j = st.journal
    v = j.first - 11  # (the new section's J record: "1", 0, "0", 0, "n" and 6 bytes)
    assert j.new and nor.data[v] == 0x4A and bytes(nor.data[v - 261:v]) == bytes(261)  # the void
    # the game in play reads whole, and goes on: again a record cut short, again gone past
    assert st.size(1) == plain.size(1)
    for s in (st, plain):
        assert s.add_move("11")
    st.journal.program(st.journal.pos, b"U\x00\x12")
    st = _store(fs, nor)
    assert st.resume().moves == move_list(12) + ["11"] and nor.erases == e0
    for s in (st, plain):
        assert s.add_move("22") and s.finish("1-0", "")
    assert _file(fs, 1) == _file(plain_fs, 1)  # folded: byte for byte the plain store's file
    st = _store(fs, nor)  # (its section closed: settled, erased)
    assert st.resume() is None and all(Journal(nor).blank(k) for k in range(4))


def test_bytes_past_one_record_cut_short_or_no_room_are_settled_first():
    # more than one record's bytes after the last valid one (not a cut inside one
    # program: a failure's bytes), or no room to go past: folded and erased as before
    for junk_at, sectors, n in ((300, 4, 12), (0, 1, 300)):
        fs, nor = FakeFs(), RamNor(sectors)
        st = _store(fs, nor)
        st.new_game("toguz")
        with ColdKept():
            for m in move_list(n):
                assert st.add_move(m)
        st.journal.program(st.journal.pos + junk_at, b"M\x05ab")
        e0 = nor.erases
        st = _store(fs, nor)
        r = st.resume()
        assert r.plies == n and nor.erases > e0, (junk_at, sectors)
        assert any("from the journal" in ln for ln in st.report), st.report
        assert st.add_move("11") and st.finish("1-0", "")
        assert read_game_file(st, 1, False).plies == n + 1


def _torn(fs, nor, log):
    """A game of 10 moves whose 11th record was cut short in its page program, switched
    on (gone past it), 3 moves more, switched on again, 2 more: ``log`` the moves."""
    st = _store(fs, nor)
    st.new_game("tihbat", {"White": "Ann"})
    for m in move_list(10):
        assert st.add_move(m)
        log.append(m)
    st.journal.program(st.journal.pos, b"M\x02")
    st = _store(fs, nor)
    assert any("voided" in ln for ln in st.report), st.report  # (gone past, not settled)
    for m in move_list(3, 4):
        assert st.add_move(m)
        log.append(m)
    st = _store(fs, nor)
    for m in move_list(2, 7):
        assert st.add_move(m)
        log.append(m)


def test_a_cut_at_every_tick_of_going_past_a_record_cut_short_loses_no_move():
    def check(fs, nor, log, k):
        st = _store(fs, nor)
        r = st.resume()
        if not log:
            return False
        # every committed move once, in order (the one being made may be there too)
        assert r is not None and r.moves[:len(log)] == log and len(r.moves) <= len(log) + 1, (k, r, log)
        assert st.add_move("11") and st.finish("*", ""), (k, st.error)
        assert read_game_file(st, r.id, True).moves == r.moves + ["11"], k
        st = _store(fs, nor)
        assert st.resume() is None and all(Journal(nor).blank(s) for s in range(4)), k
        return True

    step = 3 if is_micropython() else 1
    total, _, checked = every_cut(_flash, _torn, check, step, garbage=5)
    # (the cuts before its first move is on record leave nothing to check)
    assert total > 500 and checked >= len(range(0, total, step)) * 8 // 10, (total, checked)


def test_a_game_left_at_the_menu_is_put_away_a_step_a_call_and_the_next_start_writes_no_file():
    fs, nor = FakeFs(), RamNor(4)
    st = _store(fs, nor)
    st.new_game("toguz", {"White": "Ann"})
    for m in move_list(7):
        assert st.add_move(m)
    files, e0 = _files(fs), nor.erases
    assert st.put_away() and st.current == 1  # its E record: the journal only
    assert _files(fs) == files and nor.erases == e0
    assert st.put_away() and st.current is None  # its fold: the file made
    assert st.put_away() and st.current is None  # (nothing left to do)
    rec = read_game_file(st, 1, True)
    assert rec.finished and rec.result == "*" and rec.termination == "abandoned" and rec.moves == move_list(7)
    files = _files(fs)
    assert st.new_game("tihbat") == 2  # the start: the journal's page programs only
    assert _files(fs) == files and nor.erases == e0
    # a game with no move made: dropped in one step (its section closed)
    assert st.put_away() and st.current is None and st.count == 1
    assert _files(fs) == files


def _menu_session(st, log):
    """A game left at the menu with moves, put away step by step, the next game begun
    and played: ``log`` as ``recordcuts.session``'s."""
    gid = st.new_game("toguz", {"White": "Ann"})
    if gid is None:
        return
    moves = []
    log.append((gid, [], False))
    for m in move_list(9):
        if st.add_move(m):
            moves.append(m)
            log.append((gid, list(moves), False))
    while st.current is not None:
        assert st.put_away()
    log.append((gid, list(moves), True))
    gid = st.new_game("tihbat")
    log.append((gid, [], False))
    moves = []
    for m in move_list(5, 2):
        if st.add_move(m):
            moves.append(m)
            log.append((gid, list(moves), False))


def test_a_power_cut_at_every_tick_of_a_game_put_away_at_the_menu_keeps_every_record_once():
    def check(fs, nor, log, k):
        st = _store(fs, nor)
        r = check_log(st, log, "cut at tick %d" % k)
        if log and log[-1][2]:  # put away: ended, not resumed
            assert r is None or r.id == log[-1][0] + 1, k
        if r is not None:
            assert st.add_move("11") and st.finish("*", ""), (k, st.error)
            assert read_game_file(st, r.id, True).moves == r.moves + ["11"], k
        assert not any(n.endswith(".rec.tmp") for n in fs.files), (k, sorted(fs.files))
        return True

    step = 3 if is_micropython() else 1
    total, _, checked = every_cut(_flash, lambda fs, nor, log: _menu_session(_store(fs, nor), log), check, step,
                                   garbage=5)
    assert total > 100 and checked == len(range(0, total, step))


def test_a_cut_at_every_tick_then_the_museums_power_up_ends_the_game_with_every_move():
    # a museum board (``resume never``): at power-up the game found unfinished is ended
    # abandoned at once (app/startup.py), whatever the cut left in the journal (a record
    # cut short, a fold cut short, a game begun there with no file); with a move on
    # record it is kept whole and ended, with none it is dropped; the next game begins
    def check(fs, nor, log, k):
        st = _store(fs, nor)
        r = check_log(st, log, "cut at tick %d" % k)
        if r is not None:
            assert st.finish("*", "abandoned"), (k, st.error)
            rec = read_game_file(st, r.id, True)
            if r.plies:
                assert rec.finished and rec.termination == "abandoned" and rec.moves == r.moves, k
            else:
                assert rec.name is None and ROOT + "/g%d.rec" % r.id not in fs.files, k
        gid = st.new_game("toguz")
        assert gid is not None and gid > max([g for g, _, _ in log] or [0]), (k, gid)
        assert st.add_move("11") and st.finish("1-0", "")
        assert read_game_file(st, gid, True).moves == ["11"], k
        return True

    step = 5 if is_micropython() else 2
    total, _, checked = every_cut(_flash, lambda fs, nor, log: session(_store(fs, nor), log), check, step,
                                   garbage=5)
    assert total > 500 and checked == len(range(0, total, step))
