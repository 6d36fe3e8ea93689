"""record.py: checked records, resume after a power cut at any byte, space, settings.

The power-cut tests run a scripted session (two games, a takeback, tags,
settings, an acknowledgement) against a fake flash that cuts the power at every
write tick in turn, then switch the "board" on again and check that what the
store holds is the state before or after the operation that was cut, never
anything else, and that recording goes on from there.
"""
import gc
import os

from coldkept import ColdKept
from fakeflash import FakeFs, PowerCut, RamFlash
from recordcuts import uids
from tlib import SkipTest, is_micropython, raises

from playboard import record
from playboard.record import StoreError, Store
from playboard.record import codec
from playboard.record.codec import encode_record
from playboard.record.read import decode_records, parse_game

ROOT = "/games"


def _store(fs, **kw):
    kw.setdefault("date", None)
    return Store(ROOT, fs=fs, uid=uids(), **kw)


# ---- records ----------------------------------------------------------------------

def test_crc32_matches_zlib_value():
    assert codec.crc32(b"123456789") == 0xCBF43926
    assert codec.crc32_py(b"123456789") == 0xCBF43926
    assert codec.crc32_py(b"") == 0
    data = bytes(range(256)) * 3
    assert codec.crc32_py(data) == codec.crc32(data)
    assert codec.crc32_py(b"world", codec.crc32_py(b"hello ")) == codec.crc32(b"hello world")


def test_record_round_trip_and_every_corruption_is_caught():
    recs = encode_record(0x47, "toguz\x00u1\x00") + encode_record(0x4D, "76") + encode_record(0x4D, "98")
    got, good, problem = decode_records(recs)
    assert problem is None and good == len(recs)
    assert got == [(0x47, b"toguz\x00u1\x00"), (0x4D, b"76"), (0x4D, b"98")]
    last = len(recs) - 8  # the last record ("98") is 8 bytes
    for cut in range(len(recs)):
        got, good, problem = decode_records(recs[:cut])
        assert good <= cut and (problem is not None) == (good < cut)
    for i in range(last, len(recs)):
        for bit in (1, 0x80):
            bad = bytearray(recs)
            bad[i] ^= bit
            got, good, problem = decode_records(bytes(bad))
            assert good == last and len(got) == 2, (i, bit)
            assert "record 2 at byte %d" % last in problem


def test_record_payload_limit():
    encode_record(0x4D, "x" * 255)
    e = raises(StoreError, encode_record, 0x4D, "x" * 256)
    assert "256" in str(e)
    fs = FakeFs()
    st = _store(fs)
    gid = st.new_game("toguz")
    st.add_move("76")
    raises(StoreError, st.add_move, "7" * 256)
    raises(StoreError, st.new_game, "tobit", {"Event": "e" * 300})  # refused before anything changed
    raises(StoreError, st.new_game, "tobit", {"Ev\x00nt": "x"})
    raises(StoreError, st.set_tag, "a\x00b", "x")
    assert st.current == gid and st.resume() is None
    assert _store(fs).resume().moves == ["76"]


def test_parse_game_applies_takebacks_tags_and_end():
    data = (encode_record(0x47, "tobit\x00u9\x00W:W1:B38") + encode_record(0x54, "White\x00Ann")
            + encode_record(0x4D, "7-14") + encode_record(0x4D, "29-22") + encode_record(0x55, "")
            + encode_record(0x4D, "30-23") + encode_record(0x45, "1-0\x00resigned"))
    g = parse_game(data, 4)
    assert (g.id, g.name, g.uid, g.fen) == (4, "tobit", "u9", "W:W1:B38")
    assert g.tags == {"White": "Ann"}
    assert g.moves == ["7-14", "30-23"]
    assert g.finished and g.result == "1-0" and g.termination == "resigned"
    assert g.size == len(data) and g.problem is None
    g2 = parse_game(data + b"\x4d\x02ab", 4)
    assert g2.moves == ["7-14", "30-23"] and g2.size == len(data)
    assert parse_game(b"", 1).name is None
    assert parse_game(encode_record(0x4D, "76"), 1).name is None


# ---- the store on a fake file system ----------------------------------------------

def test_store_records_resumes_and_lists():
    fs = FakeFs()
    st = _store(fs)
    assert st.resume() is None and st.report == []
    gid = st.new_game("toguz", {"White": "Ann", "Mode": "engine"})
    for t in ("76", "98", "66"):
        assert st.add_move(t)
    assert st.undo()
    assert st.add_move("67")
    st.close()
    st2 = _store(fs)
    r = st2.resume()
    assert r.id == gid and r.name == "toguz" and r.fen is None
    assert r.moves == ["76", "98", "67"] and not r.finished
    assert r.tags == {"White": "Ann", "Mode": "engine"}
    assert st2.resume() is None  # handed out once
    assert st2.add_move("12")
    assert st2.finish("0-1", "kazan")
    gid2 = st2.new_game("tihbat", None, "7S,7S/7S,7S 0 0 S 1")
    assert gid2 == gid + 1
    assert st2.games() == [(gid, "toguz", st2.size(gid), True, "0-1"),
                           (gid2, "tihbat", st2.size(gid2), False, "*")]
    g = st2.read(gid)
    assert g.moves == ["76", "98", "67", "12"] and g.termination == "kazan"
    assert raises(StoreError, st2.ack, gid2)
    assert st2.ack(gid) and st2.ack(gid)  # the second is a no-op
    assert [x[0] for x in st2.games()] == [gid2]
    # the id counter survives acknowledging every game
    st2.finish("*")
    st2.ack(gid2)
    st3 = _store(fs)
    assert st3.games() == [] and st3.new_game("toguz") == gid2 + 1


def test_date_tag_when_the_clock_is_set():
    fs = FakeFs()
    st = _store(fs, date=lambda: "2026.11.30")
    a = st.new_game("toguz")
    st.add_move("76")  # (a game with no move made is not kept once a new one starts)
    b = st.new_game("toguz", {"Date": "2025.01.02"})
    assert st.read(a).tags == {"Date": "2026.11.30"} and st.read(b).tags == {"Date": "2025.01.02"}
    st2 = _store(FakeFs(), date=lambda: None)
    assert st2.read(st2.new_game("toguz")).tags == {}
    d = record.today()
    assert d is None or (len(d) == 10 and d[4] == "." and int(d[:4]) >= 2024)


def test_read_into_gives_the_valid_prefix_in_pieces():
    fs = FakeFs()
    st = _store(fs)
    gid = st.new_game("toguz", {"Event": "x" * 100})
    for i in range(30):
        st.add_move("%d%d" % (i % 9 + 1, (i * 7) % 9 + 1))
    st.finish("1-0")
    fs.files[ROOT + "/g%d.rec" % gid].extend(b"\x00\x01junk")  # a tail that is not valid
    st = _store(fs)
    total = st.size(gid)
    buf = bytearray(50)
    out = b""
    while True:
        n = st.read_into(gid, len(out), buf)
        if n == 0:
            break
        out += bytes(buf[:n])
    assert len(out) == total and parse_game(out).moves == st.read(gid).moves
    assert len(parse_game(out).moves) == 30
    raises(StoreError, st.read_into, gid, total + 1, buf)
    raises(StoreError, st.read_into, 999, 0, buf)


def test_bad_tail_is_reported_skipped_and_repaired_before_appending():
    fs = FakeFs()
    st = _store(fs)
    gid = st.new_game("toguz")
    st.add_move("76")
    st.add_move("98")
    st.close()
    path = ROOT + "/g%d.rec" % gid
    good = len(fs.files[path])
    fs.files[path].extend(b"M\x02")  # a torn record
    st = _store(fs)
    assert any("g%d.rec" % gid in line and "truncated" in line for line in st.report), st.report
    assert st.resume().moves == ["76", "98"]
    assert st.add_move("66")
    assert any("rewritten" in line for line in st.report)
    assert len(fs.files[path]) == good + 8
    assert _store(fs).resume().moves == ["76", "98", "66"]


def test_power_cut_during_a_repair_loses_nothing_even_where_rename_will_not_replace():
    for replace in (True, False):
        cut = 0
        while True:
            fs = FakeFs(replace)
            st = _store(fs)
            gid = st.new_game("toguz", {"Event": "repair"})
            for t in ("76", "98", "66"):
                st.add_move(t)
            st.close()
            fs.files[ROOT + "/g%d.rec" % gid].extend(b"M\x05ab")  # a torn record
            st = _store(fs)
            fs.cut(cut, 2)
            try:
                assert st.add_move("67")  # repairs (copy + rename), then appends
                done = True
            except PowerCut:
                done = False
            fs.power_on()
            r = _store(fs).resume()
            assert r is not None, (replace, cut)
            assert r.moves in (["76", "98", "66"], ["76", "98", "66", "67"]), (replace, cut, r.moves)
            assert r.tags == {"Event": "repair"}
            if done:
                break
            cut += 1
        assert cut > 60


def test_headerless_file_and_temporary_files_are_cleaned_up():
    fs = FakeFs()
    fs.mkdir(ROOT)
    fs.files[ROOT + "/g3.rec"] = bytearray(b"G\x05to")  # cut inside the header
    fs.files[ROOT + "/g4.rec.new"] = bytearray(b"garbage")  # a new game cut short
    fs.files[ROOT + "/notes.txt"] = bytearray(b"left alone")
    st = _store(fs)
    assert st.games() == [] and st.resume() is None
    assert ROOT + "/g3.rec" not in fs.files and ROOT + "/g4.rec.new" not in fs.files
    assert ROOT + "/notes.txt" in fs.files
    assert len(st.report) == 2
    assert st.new_game("toguz") == 4  # after the highest game id seen on flash


def test_older_unfinished_game_is_kept_as_abandoned():
    fs = FakeFs()
    st = _store(fs)
    a = st.new_game("toguz")
    st.add_move("76")
    b = st.new_game("tobit")  # closes a as abandoned
    st.add_move("7-14")
    assert st.read(a).finished and st.read(a).termination == record.TERM_ABANDONED
    # an older file that never got its end record: listed as finished "*", can be synced
    path_a = ROOT + "/g%d.rec" % a
    fs.files[path_a] = fs.files[path_a][:-(6 + 10)]  # remove a's end record
    st = _store(fs)
    assert st.resume().id == b
    assert st.games()[0] == (a, "toguz", st.size(a), True, "*")
    assert any("abandoned" in x for x in st.report)
    assert st.read(a).moves == ["76"]
    assert st.ack(a) and [g[0] for g in st.games()] == [b]


def test_flash_short_drops_oldest_synced_games_and_never_an_unsynced_one():
    fs = FakeFs()
    st = _store(fs, budget=400)
    ids = []
    for k in range(6):
        ids.append(st.new_game("toguz", {"Round": str(k)}))
        for i in range(8):
            assert st.add_move("%d%d" % (i % 9 + 1, k % 9 + 1))
        assert st.finish("1-0") and st.ack(ids[-1])  # synced: kept while there is room
    kept = [int(n[1:-4]) for n in fs.listdir(ROOT) if n[0] == "s"]
    assert st.used() <= 400 and ids[-1] in kept and st.synced == len(kept)
    assert st.dropped == ids[:len(ids) - len(kept)] and st.dropped
    assert st.n_dropped == len(st.dropped)
    # housekeeping, not a problem: no line in the report (its 32 lines held ~4 KB of heap)
    assert not any("dropped" in x for x in st.report), st.report
    assert st.games() == [] and st.count == 0
    # games not yet synced are never dropped: the flash is full, and says so
    fs2 = FakeFs()
    st2 = _store(fs2, budget=600)
    a = st2.new_game("toguz")
    for i in range(8):
        assert st2.add_move("11")
    assert st2.finish("1-0")
    b = st2.new_game("toguz")
    for i in range(100):  # over the budget: nothing to drop, so the moves go on (the
        assert st2.add_move("22")  # budget is the room synced games may keep)
    assert st2.low and st2.dropped == [] and st2.used() > 600
    fs2.full_at = fs2.total()  # the flash itself is full: appends fail, nothing is lost
    assert not st2.add_move("33") and st2.error
    assert [x[0] for x in st2.games()] == [a, b]
    assert _store(fs2, budget=600).resume().moves == ["22"] * 100
    # statvfs-style free space: a synced game goes first, then appends go on
    fs3 = FakeFs()
    st3 = _store(fs3, reserve=1000)
    fs3.free_bytes = 5000
    g1 = st3.new_game("toguz")
    st3.finish("1-0")
    st3.ack(g1)
    fs3.free_bytes = 900
    g2 = st3.new_game("toguz")
    assert st3.dropped == [g1] and st3.low
    for i in range(20):
        assert st3.add_move("11")  # (this fake's flash takes them all the same)
    assert [x[0] for x in st3.games()] == [g2]


def test_full_flash_returns_false_and_loses_nothing_committed():
    fs = FakeFs()
    st = _store(fs)
    st.new_game("toguz")
    assert st.add_move("76")
    fs.full_at = fs.total() + 3
    assert st.add_move("98") is False and "g1.rec" in st.error
    fs.full_at = None
    assert st.add_move("99")
    assert _store(fs).resume().moves == ["76", "99"]


def test_the_cold_modules_are_dropped_after_each_rare_job_and_play_imports_none():
    import sys
    cold = ("playboard.record.folder", "playboard.record.read")
    fs = FakeFs()
    st = _store(fs)  # the power-up scan: folder and read, dropped after
    assert not [m for m in cold if m in sys.modules]
    gid = st.new_game("toguz", {"White": "Ann"})
    assert st.add_move("76") and st.finish("1-0")
    jobs = (lambda: st.games(), lambda: st.size(gid), lambda: st.read(gid), lambda: st.ack(gid),
            lambda: st.load_settings({"a": 1}), lambda: st.save_settings({"a": 2}))
    for job in jobs:
        assert job()
        assert not [m for m in cold if m in sys.modules], job
    assert st.load_settings({"a": 1}) == {"a": 2} and st.synced == 1
    # play: a new game, moves, a takeback, a tag, the end import nothing
    before = sorted(sys.modules)
    assert st.new_game("toguz") == gid + 1
    assert st.add_move("76") and st.add_move("98") and st.undo() and st.set_tag("Round", "2")
    assert st.finish("0-1", "resigned")
    assert sorted(sys.modules) == before


def test_settings_round_trip_and_fallbacks():
    fs = FakeFs()
    st = _store(fs)
    defaults = {"brightness": 40, "level": 3, "takeback": True}
    assert st.load_settings(defaults) == defaults
    assert st.save_settings({"brightness": 80, "level": 5, "takeback": False, "name": "Ann"})
    s = _store(fs).load_settings(defaults)
    assert s == {"brightness": 80, "level": 5, "takeback": False, "name": "Ann"}
    fs.files[ROOT + "/settings"][-1] ^= 1
    st = _store(fs)
    assert st.load_settings(defaults) == defaults and any("settings" in x for x in st.report)
    raises(StoreError, st.save_settings, {"x": "y" * 300})


# ---- power cuts at every tick -------------------------------------------------------

SCRIPT = [
    ("settings", {"brightness": 30, "level": 2}),
    ("new", "toguz", {"White": "Ann", "Black": "Playboard"}, None),
    ("move", "76"), ("move", "98"), ("move", "66"), ("undo",), ("move", "67"),
    ("tag", "Level", "4"),
    ("move", "12"),
    ("finish", "1-0", "kazan"),
    ("new", "tobit4", {"Mode": "two"}, "W:W1,2:B31,32"),
    ("move", "7-14"), ("move", "29-22"),
    ("settings", {"brightness": 60, "level": 2, "takeback": False}),
    ("ack",),
    ("move", "14:30"),
]


def _apply_model(model, op):
    games, settings = model
    games = [dict(g, moves=list(g["moves"]), tags=dict(g["tags"])) for g in games]
    k = op[0]
    if k == "settings":
        settings = dict(op[1])
    elif k == "new":
        games.append({"name": op[1], "tags": dict(op[2] or {}), "fen": op[3], "moves": [],
                      "finished": False, "result": "*"})
    elif k == "move":
        games[-1]["moves"].append(op[1])
    elif k == "undo":
        games[-1]["moves"].pop()
    elif k == "tag":
        games[-1]["tags"][op[1]] = op[2]
    elif k == "finish":
        games[-1]["finished"] = True
        games[-1]["result"] = op[1]
    elif k == "ack":
        games.pop(0)
    return games, settings


def _do(st, op):
    k = op[0]
    if k == "settings":
        return st.save_settings(op[1])
    if k == "new":
        return st.new_game(op[1], op[2], op[3]) is not None
    if k == "move":
        return st.add_move(op[1])
    if k == "undo":
        return st.undo()
    if k == "tag":
        return st.set_tag(op[1], op[2])
    if k == "finish":
        return st.finish(op[1], op[2])
    if k == "ack":
        return st.ack(st.games()[0][0])
    raise ValueError(k)


def _canon(model):
    games, settings = model
    out = []
    for g in games:
        out.append((g["name"], g["fen"], sorted(g["tags"].items()), g["moves"], g["finished"], g["result"]))
    return out, sorted(settings.items())


def _state(st):
    games = []
    for gid, name, size, fin, res in st.games():
        r = st.read(gid)
        games.append({"name": r.name, "fen": r.fen, "tags": r.tags, "moves": r.moves,
                      "finished": r.finished, "result": r.result})
    return _canon((games, st.load_settings({})))


def _run(fs, ops):
    """Run ``ops`` until done or cut; return (ops completed, model before, model after the cut op)."""
    st = _store(fs)
    model = ([], {})
    for i, op in enumerate(ops):
        after = _apply_model(model, op)
        try:
            assert _do(st, op)
        except PowerCut:
            return i, model, after
        model = after
    return len(ops), model, model


def _check_after_cut(fs, done, before, after):
    fs.power_on()
    st = _store(fs)
    got = _state(st)
    assert got in (_canon(before), _canon(after)), (done, got, _canon(before), _canon(after))
    model = before if got == _canon(before) else after
    r = st.resume()
    games = model[0]
    open_game = games[-1] if games and not games[-1]["finished"] else None
    if open_game is None:
        assert r is None
        assert st.new_game("tihbat") is not None
        model = _apply_model(model, ("new", "tihbat", {}, None))
    else:
        assert r is not None and r.moves == open_game["moves"] and r.name == open_game["name"]
    # recording goes on after the restart, and survives the next one
    assert st.add_move("2")
    assert st.add_move("1")
    model = _apply_model(_apply_model(model, ("move", "2")), ("move", "1"))
    st.close()
    st = _store(fs)
    assert _state(st) == _canon(model), done
    assert st.resume().moves == model[0][-1]["moves"]


def _cut_everywhere(garbage, step=1, replace=True):
    with ColdKept():  # (hundreds of stores: not compiled again each time)
        return _cut_everywhere_kept(garbage, step, replace)


def _cut_everywhere_kept(garbage, step, replace):
    fs = FakeFs(replace)
    done, before, after = _run(fs, SCRIPT)
    assert done == len(SCRIPT)
    total = fs.power.ticks
    assert total > 200
    n = 0
    for cut in range(0, total, step):
        fs = FakeFs(replace)
        fs.cut(cut, garbage)
        done, before, after = _run(fs, SCRIPT)
        assert done < len(SCRIPT), cut
        _check_after_cut(fs, done, before, after)
        n += 1
    return n


def test_power_cut_at_every_byte_loses_at_most_the_move_being_written():
    assert _cut_everywhere(0) > 200


def test_power_cut_leaving_a_torn_garbage_tail():
    assert _cut_everywhere(9) > 200


def test_power_cut_where_rename_will_not_replace():
    # FAT-like: a rewritten file is removed, then its whole copy renamed in place
    assert _cut_everywhere(5, 1, False) > 200


# ---- littlefs on a block device that loses power (MicroPython only) -------------------

def _lfs_mount(flash, mkfs):
    bd = flash.device()
    if mkfs:
        os.VfsLfs2.mkfs(bd)
    os.mount(os.VfsLfs2(bd), "/pbflash")


def _umount():
    try:
        os.umount("/pbflash")
    except OSError:
        pass


def test_power_cut_inside_littlefs_block_writes():
    if not is_micropython() or not hasattr(os, "VfsLfs2"):
        raise SkipTest("littlefs block-device test needs MicroPython with VfsLfs2")
    with ColdKept():  # (hundreds of stores: not compiled again each time)
        _lfs_cuts()


def _lfs_cuts():
    root = "/pbflash/games"
    gc.collect()
    flash = RamFlash(64, 256)
    _lfs_mount(flash, True)
    try:
        st = Store(root, uid=uids(), date=None)
        for op in SCRIPT:
            assert _do(st, op)
        st.close()
    finally:
        _umount()
    total = flash.written
    assert total > 2000
    runs = 0
    cut = 7
    while cut < total:
        flash.cut_at = None
        flash.erase_all()
        _lfs_mount(flash, True)
        flash.written = 0
        flash.cut_at = cut
        model = after = ([], {})
        done = len(SCRIPT)
        st = None
        try:
            st = Store(root, uid=uids(), date=None)
            for i, op in enumerate(SCRIPT):
                after = _apply_model(model, op)
                done = i
                assert _do(st, op)
                model = after
            done = len(SCRIPT)
        except PowerCut:
            pass
        # The dead board's files still open are closed by the garbage collector on a
        # private copy of the flash (they are not the board's acts after the cut).
        flash.view.kill()
        st = None
        _umount()
        gc.collect()
        flash.cut_at = None
        _lfs_mount(flash, False)  # switched on again: a new view of the same flash
        try:
            st = Store(root, uid=uids(), date=None)
            got = _state(st)
            assert got in (_canon(model), _canon(after)), (cut, done, got)
            r = st.resume()
            games = model[0] if got == _canon(model) else after[0]
            if games and not games[-1]["finished"]:
                assert r.moves == games[-1]["moves"]
                assert st.add_move("9")
            st.close()
        finally:
            _umount()
        runs += 1
        cut += 13 + (cut * 7) % 17
    assert runs > 150
