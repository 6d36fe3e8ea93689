"""Issue 31's defects, each replayed on the real firmware through ``SimBoard`` (the chip's heap
model): two pits lifted in one scan, quick lifts put back (a stir), the menu on a board
switched on with full pits. (The fuzzer that looks for more: test_board_fuzz.py.)"""
import random

import pytest

from playboard.app.state import HOLD_MS, MENU_GAME, MENU_MODE, QUIET_MS
from playboard.board.layout import load_layout
from playboard.board.mancala_tracker import LIFT_MS
from playboard_host.simboard import micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")

LAY = load_layout("toguz")
START = "9S,9S,9S,9S,9S,9S,9S,9S,9S/9S,9S,9S,9S,9S,9S,9S,9S,9S 0 0 S 1"


def _full_toguz(b):
    """A lift-selection board with balls in every Toguz pit (sensors on) and a fresh
    two-player game: South to move."""
    for c in range(18):
        b.set_sensor(LAY.sensor_of(c), 1)
    b.advance(500)
    b.new_game("toguz", "two")
    b.advance(500)
    b.events()


def _moves(evs):
    """The pits played (a move's text: its pit, then where the last ball fell)."""
    return [e["move"][0] for e in evs if e["ev"] == "move"]


def test_two_south_pits_lifted_in_one_scan_and_put_back_200_ms_later_play_nothing(board, tmp_path):
    """Issue 31: Toguz Kumalak, lift selection, a fresh game; pits 3 and 4 of South
    lifted in the same scan, put back 200 ms later. The frame raised
    ``IndexError: pop from an empty move stack`` (the tracker reported the selection
    and its withdrawal in one update, the app popped the move for its text). Held
    0.6 s too (both lifts select in one frame: two pits at once, nothing played)."""
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    _full_toguz(b)
    for held in (200, 600):
        s1, s2 = LAY.sensor_of(2), LAY.sensor_of(3)
        b.set_sensor(s1, 0)
        b.set_sensor(s2, 0)
        b.advance(held)
        b.set_sensor(s1, 1)
        b.set_sensor(s2, 1)
        b.advance(3000)
        st = b.status()
        assert (st["state"], st["ply"], st["fen"]) == ("play", 0, START), (held, st)
        evs = b.events()
        assert _moves(evs) == [] and not [e for e in evs if e["ev"] == "undo"], (held, evs)
        if held == 600:  # two pits at once: both flash (why 3)
            assert sorted(e["cell"] for e in evs if e["ev"] == "error") == [2, 3], evs
    assert "Traceback" not in b.stderr()
    # the next deliberate move is read
    s = LAY.sensor_of(4)
    b.set_sensor(s, 0)
    b.advance(700)
    b.set_sensor(s, 1)  # the first ball back, the rest into full pits
    b.advance(3500)
    assert _moves(b.events()) == ["5"]
    assert b.status()["ply"] == 1


def test_a_20_s_stir_of_quick_lifts_commits_nothing_and_the_next_move_is_read(board, tmp_path):
    """Issue 31: a child stirring the balls - pits of both rows lifted and put back
    within LIFT_MS (0.05-0.39 s each, one or two hands, bounce) for 20 s - commits no
    move (before: dozens); then a deliberate move (lifted 0.5 s before the first ball
    drops back) is read as that move, and the reply as the reply."""
    rng = random.Random(31)
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    _full_toguz(b)
    t = 0
    while t < 20000:
        pits = rng.sample(range(18), rng.choice((1, 1, 2)))
        for c in pits:
            b.set_sensor(LAY.sensor_of(c), 0)
        up = rng.randint(50, LIFT_MS - 10 - 40)  # (plus the debounce's 40 ms: < LIFT_MS)
        b.advance(up)
        for c in pits:
            for _ in range(rng.randint(0, 2)):  # the balls bounce in
                b.set_sensor(LAY.sensor_of(c), 0)
                b.advance(3)
                b.set_sensor(LAY.sensor_of(c), 1)
                b.advance(3)
            b.set_sensor(LAY.sensor_of(c), 1)
        gap = rng.randint(30, 600)
        b.advance(gap)
        t += up + gap
    b.advance(3000)
    st = b.status()
    assert (st["ply"], st["fen"]) == (0, START), st
    evs = b.events()
    assert _moves(evs) == [] and not [e for e in evs if e["ev"] == "undo"]
    for cell, want in ((0, "1"), (9, "1")):  # South pit 1, then North pit 1 (no capture)
        s = LAY.sensor_of(cell)
        b.set_sensor(s, 0)
        b.advance(LIFT_MS + 100)
        b.set_sensor(s, 1)
        b.advance(3500)
        assert _moves(b.events()) == [want]
    assert b.status()["ply"] == 2
    assert "Traceback" not in b.stderr()


def _press_lifting(b, s):
    """A deliberate press of a full pit: its balls lifted HOLD_MS + 200 ms, put back."""
    b.set_sensor(s, 0)
    b.advance(HOLD_MS + 200)
    b.set_sensor(s, 1)
    b.advance(QUIET_MS + 200)


def test_menu_presses_on_a_board_switched_on_with_full_pits_count_from_the_first(board, tmp_path):
    """Issue 31: the app took each pit's rest value before its first scan, so on a board
    switched on with balls in every pit a full pit rested as "empty": lifting its balls
    began nothing, putting them back began the hold, and three presses left the board
    at its menu. Now the first scan's values are the rest: the first press counts."""
    b = board()
    full = bytearray(64)
    for c in range(18):
        full[LAY.sensor_of(c)] = 1
    b._sensors = full.hex()  # switched on with the pits full (the bridge's --sensors)
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.advance(300)
    _press_lifting(b, LAY.sensor_of(MENU_GAME[1]))  # Tobit
    assert b.status()["game"] == "tobit"
    _press_lifting(b, LAY.sensor_of(MENU_MODE[1]))  # White against the engine
    st = b.status()
    assert (st["state"], st["game"], st["mode"]) == ("menu", "tobit", "white"), st
    # a press of a full pit the other way (balls put in) is not one: it fills the pit
    _press_lifting(b, LAY.sensor_of(MENU_GAME[0]))  # Toguz Kumalak
    assert b.status()["game"] == "toguz"


class _HostFs:
    """The firmware's file calls on a folder of this machine (the sim board's flash)."""
    open = staticmethod(open)
    rename = staticmethod(__import__("os").replace)
    remove = staticmethod(__import__("os").remove)


class _FlashStore:
    def __init__(self, root):
        self.fs = _HostFs()
        self.root = root
        self.report = []
        self.error = None


def test_playboard_boards_shows_the_kept_traceback_synced_from_the_board(board, tmp_path, capsys):
    """A contained fault's count and traceback (kept on the board's flash by
    ``playboard.app.contain.keep``, as the app does when a frame raises) go over the link
    (``C``: ``faults``, ``tracebacks``) into the library at ``playboard sync``, the board
    drops the tracebacks it gave, and ``playboard boards`` shows the last one."""
    import os
    from playboard.app import contain
    from playboard import faultring, health
    from playboard_host import cli

    flash = tmp_path / "flash"
    os.makedirs(str(flash / "games"))
    st = _FlashStore(str(flash / "games"))
    for what in ("first", "second"):
        try:
            raise IndexError("pop from an empty move stack (%s)" % what)
        except IndexError as e:
            contain.keep(st, e, 4321)
    assert health.read(st)["faults"] == 2 and len(faultring.read_ring(st)) == 2
    b = board()
    b.start("sim", fs_dir=str(flash))
    b.advance(300)
    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["sync", "--port", b.port, "--library", db, "-q"]) == 0
    assert not os.path.exists(str(flash / "games" / "faults"))  # taken by the host
    capsys.readouterr()
    assert cli.main(["boards", "--library", db]) == 0
    out = capsys.readouterr().out
    assert "2 faults contained" in out, out
    assert "the last (fault 2, at 4321 ms" in out and "pop from an empty move stack (second)" in out, out
    assert "(first)" not in out


def test_three_tihbat_pits_lifted_in_one_scan_keep_the_record_the_boards_position(board, tmp_path):
    """Found by the whole-board fuzzer (bench/py_fuzz.py, seeds 1005 and 1006: "position
    2S,11S/4S,11S, the record's replay 3S,11S/10S,4S"): Tihbat, lift selection, North 2,
    South 1 and North 1 lifted in one scan. The tracker committed two moves in one
    update and the app wrote the second one's text for both. Now one commit an update:
    the board's position is always its record's replay."""
    from playboard_host.fuzz import Fuzz

    f = Fuzz(board, 1005, str(tmp_path / "flash"))
    lay = load_layout("tihbat")
    b = f.b
    b.new_game("tihbat", "two", 3)
    for c in range(4):
        b.set_sensor(lay.sensor_of(c), 1)
    f.adv(3000)
    f.check()
    for c in (3, 0, 2):
        b.set_sensor(lay.sensor_of(c), 0)
    for _ in range(8):
        f.adv(500)
        st = f.check()  # (raises FuzzFailure if the position is not the record's replay)
    assert st["ply"] >= 1 and f.inconsistent == 0
