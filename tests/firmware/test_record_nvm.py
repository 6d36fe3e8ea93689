"""hw.nvm: the record's journal in CircuitPython's ``microcontroller.nvm`` (4 KB).

``FakeNvm`` writes as CircuitPython's ``nvm.ByteArray`` does on the RP2040
(``ports/raspberrypi/common-hal/nvm/ByteArray.c``): a slice whose bytes all read 0xff
is page-programmed (new = old AND data, no erase), any other write erases the sector
and programs it whole; one power supply with the fake FAT (``FakeFs(replace=False)``),
a tick a byte programmed and a tick per 256 bytes erased, so a cut can tear a record
or leave the sector half erased. Checked: a move is one or two page programs, no
erase, and no file-system write (the drive is untouched while a game is played); the
folded game is the file the store writes without a journal; a power cut at every tick
of a session (a game's start, its moves, a takeback, its end and fold, the next game)
loses no committed move and no game.
"""
from fakeflash import FakeFs, PowerCut
from recordcuts import check_log, every_cut, move_list, session, uids
from tlib import is_micropython

from playboard.hw.nvm import NvmFlash, nvm_flash
from playboard.record import Store
from playboard.record.journal import Journal
from playboard.record.read import read_game_file

ROOT = "/games"


class FakeNvm:
    """``microcontroller.nvm`` of ``size`` bytes as CircuitPython writes it (see the
    module docstring). ``erases``, ``programs`` (page programs) count what was done;
    ``power``: a fakeflash ``_Power`` (a FakeFs's, shared)."""

    def __init__(self, power, size=4096):
        self.data = bytearray(b"\xff" * size)
        self.power = power
        self.erases = 0
        self.programs = 0

    def __len__(self):
        return len(self.data)

    def __getitem__(self, s):
        return bytearray(self.data[s])

    def __setitem__(self, s, values):
        a, b = s.start, s.stop
        values = bytes(values)
        assert b - a == len(values)
        d = self.data
        if d[a:b] == b"\xff" * (b - a):  # page programs
            p = a - a % 256
            while p < b:
                self.programs += 1
                for i in range(max(a, p), min(b, p + 256)):
                    if values[i - a] != 0xFF:
                        if self.power.allow(1) < 1:
                            raise PowerCut("cut in an nvm program at byte %d" % i)
                        d[i] &= values[i - a]
                p += 256
            return
        whole = bytearray(d[0:4096])  # (one sector: the RP2040's nvm)
        whole[a:b] = values
        for p in range(0, 4096, 256):
            if self.power.allow(1) < 1:
                raise PowerCut("cut in the nvm's erase at byte %d" % p)
            d[p:p + 256] = b"\xff" * 256
        self.erases += 1
        for p in range(0, 4096, 256):
            self.programs += 1
            for i in range(p, p + 256):
                if whole[i] != 0xFF:
                    if self.power.allow(1) < 1:
                        raise PowerCut("cut in the nvm's rewrite at byte %d" % i)
                    d[i] = whole[i]


def _store(fs, nvm=None, fat=False):
    j = Journal(NvmFlash(nvm)) if nvm is not None else None
    if j is not None:
        j.fat = fat  # (as app/onboard.py sets it on CircuitPython)
    return Store(ROOT, fs=fs, uid=uids(), date=None, journal=j)


class _Logged(FakeFs):
    """FakeFs(replace=False) that logs each call that writes: ("open", path, mode),
    ("write", path, bytes), ("rename", a, b), ("remove", path)."""

    def __init__(self):
        super().__init__(replace=False)
        self.log = []

    def open(self, path, mode):
        f = super().open(path, mode)
        if "r" not in mode:
            self.log.append(("open", path, mode))
            w = f.write
            f.write = lambda b: (self.log.append(("write", path, bytes(b))), w(b))[1]
        return f

    def rename(self, a, b):
        self.log.append(("rename", a, b))
        return super().rename(a, b)

    def remove(self, path):
        self.log.append(("remove", path))
        return super().remove(path)


def _files(fs):
    return {k: bytes(v) for k, v in fs.files.items()}


def test_nvm_flash_programs_only_the_bytes_given_and_erases_a_sector():
    fs = FakeFs(replace=False)
    nvm = FakeNvm(fs.power)
    dev = NvmFlash(nvm)
    assert dev.ioctl(4, 0) == 1
    j = Journal(dev)
    assert j.size == 4096
    j.program(250, b"abcdefghij")  # across a page boundary
    j.program(260, b"XY")  # beside bytes already programmed in the page: no erase
    j.program(300, b"\xff\x00\xff")  # 0xff at the ends: left as they are
    buf = bytearray(12)
    j.read(250, buf)
    assert bytes(buf) == b"abcdefghijXY"
    j.read(299, buf)
    assert bytes(buf) == b"\xff\xff\x00" + b"\xff" * 9
    assert nvm.erases == 0 and nvm.programs == 4
    j.erase()
    assert nvm.erases == 1 and nvm.data == b"\xff" * 4096
    j.erase()  # (blank: nothing to erase)
    assert nvm.erases == 1
    assert nvm_flash() is None  # (not CircuitPython: no microcontroller.nvm)


def test_moves_cost_no_erase_and_no_drive_write_and_the_folded_file_matches():
    fs = FakeFs(replace=False)
    nvm = FakeNvm(fs.power)
    st = _store(fs, nvm)
    plain_fs = FakeFs(replace=False)
    plain = _store(plain_fs)
    moves = move_list(120)
    for s in (st, plain):
        assert s.new_game("toguz", {"White": "Ann", "Black": "Playboard L3"}) == 1
    drive = _files(fs)
    assert ROOT + "/g1.rec" not in drive  # begun in nvm: no file on the drive yet
    e0, p0 = nvm.erases, nvm.programs
    for i, m in enumerate(moves):
        assert st.add_move(m) and plain.add_move(m)
        if i == 60:
            assert st.undo() and plain.undo()
            assert st.add_move(m) and plain.add_move(m)
    assert nvm.erases == e0  # not one erase in 122 appends
    assert nvm.programs - p0 <= 2 * 122
    assert _files(fs) == drive  # the drive not written while the game is played
    assert st.finish("1-0", "") and plain.finish("1-0", "")
    assert bytes(fs.files[ROOT + "/g1.rec"]) == bytes(plain_fs.files[ROOT + "/g1.rec"])
    rec = read_game_file(st, 1, True)
    assert rec.finished and rec.plies == 120 and rec.moves == moves


def test_a_full_nvm_journal_is_folded_and_the_game_goes_on():
    fs = FakeFs(replace=False)
    nvm = FakeNvm(fs.power)
    st = _store(fs, nvm)
    st.new_game("tihbat")
    moves = move_list(500)  # about 4 KB of records: the 4 KB journal fills once
    for m in moves:
        assert st.add_move(m), st.error
    assert nvm.erases == 1  # the one fold of a full journal
    st = _store(fs, nvm)  # power-up: the game resumes, whole
    r = st.resume()
    assert r is not None and r.moves == moves


def test_on_fat_a_games_end_is_one_create_one_write_and_no_counter():
    fs = _Logged()
    nvm = FakeNvm(fs.power)
    st = _store(fs, nvm, fat=True)
    plain_fs = FakeFs(replace=False)
    plain = _store(plain_fs)
    moves = move_list(40)
    for s in (st, plain):
        assert s.new_game("toguz", {"White": "Ann"}) == 1
        for m in moves:
            assert s.add_move(m)
    assert fs.log == []  # (nothing on the drive while the game is played)
    assert st.finish("1-0", "") and plain.finish("1-0", "")
    whole = bytes(plain_fs.files[ROOT + "/g1.rec"])
    # the fold: one create, the whole game in one write; no .tmp, rename, counter
    assert fs.log == [("open", ROOT + "/g1.rec", "wb"), ("write", ROOT + "/g1.rec", whole)], fs.log
    assert ROOT + "/next" not in fs.files and bytes(fs.files[ROOT + "/g1.rec"]) == whole
    # the next game's id from the drive's newest file at power-up
    st = _store(fs, nvm, fat=True)
    assert st.new_game("tihbat") == 2


def test_on_fat_a_bad_file_from_a_cut_fold_is_written_again_from_the_journal():
    for bad in (b"", b"G\x05garbage", None):
        fs = FakeFs(replace=False)
        nvm = FakeNvm(fs.power)
        st = _store(fs, nvm, fat=True)
        st.new_game("toguz")
        for m in move_list(10):
            assert st.add_move(m)
        assert st._append(0x45, "1-0\x00")  # its E record in nvm, the fold cut
        whole = bytes(nvm.data[st.journal.first:st.journal.pos])
        if bad is None:  # the right size, wrong bytes (a cluster not yet written)
            bad = b"\x00" * len(whole)
        fs.files[ROOT + "/g1.rec"] = bytearray(bad)
        st = _store(fs, nvm, fat=True)  # power-up: settled
        assert bytes(fs.files[ROOT + "/g1.rec"]) == whole, bad
        rec = read_game_file(st, 1, True)
        assert rec.finished and rec.moves == move_list(10) and st.resume() is None
        assert any("from the journal" in r for r in st.report), st.report


def test_on_fat_the_counter_is_written_before_a_synced_game_is_dropped():
    fs = FakeFs(replace=False)
    nvm = FakeNvm(fs.power)
    st = _store(fs, nvm, fat=True)
    for _ in range(3):
        st.new_game("toguz")
        assert st.add_move("11") and st.finish("1-0", "")
    assert ROOT + "/next" not in fs.files
    assert st.ack(3) and st.ack(2)
    from playboard.record import folder
    assert folder.clear_synced(st) == 2
    st = _store(fs, nvm, fat=True)  # games 2 and 3 gone: their ids are not given again
    assert st.new_game("tihbat") == 4


def test_a_power_cut_at_every_tick_loses_no_committed_move_and_no_game():
    _cut_everywhere(False)


def test_on_fat_a_power_cut_at_every_tick_loses_no_committed_move_and_no_game():
    _cut_everywhere(True)  # (the game's file made in place: ``Journal._write_new``)


def _cut_everywhere(fat):
    def flash():
        fs = FakeFs(replace=False)
        return fs, FakeNvm(fs.power)

    def check(fs, nvm, log, k):
        st = _store(fs, nvm, fat)
        r = check_log(st, log, "cut at tick %d" % k, unbegun=True)
        if r is not None:  # recording goes on
            assert st.add_move("11") and st.finish("*", ""), (k, st.error)
            rec = read_game_file(st, r.id, True)
            assert rec.finished and rec.moves == r.moves + ["11"], k
        return True

    step = 3 if is_micropython() else 1
    total, cuts, checked = every_cut(flash, lambda fs, nvm, log: session(_store(fs, nvm, fat), log, 20),
                                     check, step, 8 if fat else 0)  # (FAT: a torn write may leave stray bytes)
    assert total > 400 and checked == len(range(0, total, step))
    assert cuts >= total // step - 1
