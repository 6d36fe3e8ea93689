"""The whole firmware end to end: the simulator's model of the chip (`build/micropython-board`) on the simulated board.

The firmware (compiled by mpy-cross, as it is frozen on the board) runs in a
subprocess driven by ``playboard_host.simboard.SimBoard``: games are played
through the sensors, the process is killed at random moments and its flash cut
inside block writes (littlefs on a block-device image), and each restart must
resume with every committed move; then ``playboard sync`` pulls the games over
the pseudo-terminal link and ``playboard export`` gives back the same moves.
"""
import os
import random
import sys
import time

import pytest

from playboard.games.registry import new_game
from playboard.pgn import read_games
from playboard_host import cli
from playboard_host.simboard import SimDied, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")


def _moves(events):
    return [e["move"] for e in events if e["ev"] == "move"]


def _toguz_move(b, g, m):
    """Select pit m (0-based for the mover) by lifting its balls; wait for the auto confirm."""
    b.tap(m + 9 * g.turn, 150)
    b.advance(3000)


def _tobit_move(b, g, m):
    """Play Tobit move m the way people do: lift, put down, take off the captured pieces."""
    caps = g.captured_points(m)
    b.lift(m[1])
    b.advance(120)
    b.place(m[-1])
    b.advance(120)
    for p in caps:
        b.lift(p)
        b.advance(80)
    b.advance(1300)


def _set_up(b, g):
    for p in range(1, g.n_points + 1):
        if g.board[p]:
            b.place(p)
    b.advance(700)


def _resign(b, side):
    # White's resign pad during Toguz Kumalak is Tobit point 5, Black's point 38;
    # pressed deliberately twice
    from playboard_host.gestures import press_sensor
    cell = 5 if side == 0 else 38
    press_sensor(b, _tobit_sensor(cell))
    press_sensor(b, _tobit_sensor(cell))


def _tobit_sensor(cell):
    from playboard.board.layout import load_layout
    return load_layout("tobit").sensor_of(cell)


def random_plan(rng, plies):
    """A Toguz Kumalak game of up to ``plies`` random legal moves from ``rng``: their texts."""
    plan = []
    t = new_game("toguz")
    while len(plan) < plies and not t.is_game_over():
        m = rng.choice(t.legal_moves())
        plan.append(t.move_text(m))
        t.push(m)
    return plan


def play_through_cuts(b, plan, rng, odds, cut_bytes):
    """Play the Toguz Kumalak moves ``plan`` (texts) on simulated board ``b`` (a game
    begun, no move made) while the process is killed and its flash cut at random
    (``rng``): before each move, with ``odds`` = (a, b, c), a kill between two frames
    below a, a kill inside the move's frames below b (at most 3 kills in all), the
    power cut after ``rng.randrange(1, cut_bytes)`` more bytes written below c (inside a
    block write or a page program). After each death the board is restarted and must
    resume the game with every move whose event was seen, and at most the one being
    written. Returns (the rules core at the end, kills, cuts that struck)."""
    g = new_game("toguz")
    committed = 0  # moves whose event we saw: they are on flash
    kills = cuts = 0
    while g.ply < len(plan):
        action = rng.random()
        if action < odds[0] and kills < 3:
            b.kill()  # switched off between two frames
            kills += 1
        elif action < odds[1] and kills < 3:
            # switched off while it runs: somewhere inside a move's frames
            pit = g.parse_move(plan[g.ply])
            os.write(b._ctl_w, b"tap %d 150\nadv 3000\n" % (pit + 9 * g.turn))
            time.sleep(rng.random() * 0.05)
            b.kill()
            kills += 1
        elif action < odds[2]:
            b.cut_after(rng.randrange(1, cut_bytes))
        try:
            m = g.parse_move(plan[g.ply])
            _toguz_move(b, g, m)
            g.push(m)
            committed += len(_moves(b.events()))
            assert committed == g.ply
            continue
        except SimDied:
            if action >= odds[1]:
                cuts += 1
        ready = b.restart()
        st = b.status()
        # every move seen committed is there; the one being written may be too
        assert st["state"] == "play" and st["game"] == "toguz", (st, ready)
        assert committed <= st["ply"] <= committed + 1, (st, committed)
        g = new_game("toguz")
        for text in plan[:st["ply"]]:
            g.push_text(text)
        assert st["fen"] == g.fen()
        committed = st["ply"]
        b.events()
    return g, kills, cuts


def test_toguz_game_survives_kills_and_power_cuts_then_syncs_and_exports_byte_for_byte(board, tmp_path):
    rng = random.Random(20261130)
    b = board()
    image = str(tmp_path / "flash.img")
    ready = b.start("sim", image=image, blocks=48)
    assert ready["ready"] and ready["n_leds"] == 58
    b.new_game("toguz", "two")
    b.advance(100)
    plan = random_plan(rng, 24)
    g, kills, cuts = play_through_cuts(b, plan, rng, (0.12, 0.25, 0.55), 700)
    assert kills >= 1 and cuts >= 2, (kills, cuts)
    b.cut_after(0)
    _resign(b, 1)
    st = b.status()
    assert st["state"] == "over" and st["result"] == "1-0" and st["termination"] == "resignation"
    # sync over the pty link, then export: the same moves byte for byte
    db = str(tmp_path / "lib.sqlite")
    assert cli.main(["sync", "--port", b.port, "--library", db, "-q"]) == 0
    out = str(tmp_path / "out.pgn")
    assert cli.main(["export", "--library", db, "--game", "toguz", "-o", out]) == 0
    with open(out, encoding="utf-8") as f:
        recs = list(read_games(f))
    assert len(recs) == 1
    assert recs[0].moves == plan and recs[0].tags["Result"] == "1-0"
    assert recs[0].tags.get("Termination") == "resignation"
    # acknowledged: the board dropped it
    assert b.status()["store"]["games"] == 0


def test_tobit_against_the_engine_in_the_chips_heap_then_resume_lights_the_pieces(board, tmp_path):
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.new_game("tobit", "white", 3)  # the player has White, the engine Black
    g = new_game("tobit")
    _set_up(b, g)
    assert b.status()["state"] == "play"
    rng = random.Random(7)
    engine_moves = 0
    while g.ply < 12 and not g.is_game_over():
        if g.turn == 0:
            m = rng.choice(g.legal_moves())
            _tobit_move(b, g, m)
        else:
            ev = []
            for _ in range(200):
                ev = [e for e in b.events() if e["ev"] == "engine"]
                if ev:
                    break
                b.advance(100)
            assert ev, b.status()
            m = g.parse_move(ev[0]["move"])
            _tobit_move(b, g, m)
            engine_moves += 1
        g.push(m)
        assert b.status()["fen"] == g.fen()
    assert engine_moves >= 4
    heap = b.mem()
    assert heap["alloc"] + heap["free"] <= 242 * 1024  # the model: the chip's heap (MODEL_HEAP)
    # switched off and on: the board lights where the pieces must go
    b.kill()
    b.restart()
    b.advance(200)  # the first frames: a resume takes a step a frame (and begins again if it meets a broken-up heap)
    st = b.status()
    assert st["state"] == "setup" and st["fen"] == g.fen(), st
    lit = set()
    for _ in range(4):  # Black's points blink (500 ms): lit at some instant of a period
        b.advance(150)
        lit |= {i for i, c in enumerate(b.leds()) if c != (0, 0, 0)}
    from playboard.board.layout import load_layout
    lay = load_layout("tobit")
    want = sorted(lay.led_of(p) for p in range(1, 39) if g.board[p])
    assert sorted(lit) == want
    _set_up(b, g)
    assert b.status()["state"] == "play"


def test_micropython_main_runs_from_source_with_the_link_on_stdio(tmp_path):
    """`micropython firmware/main.py` (from source, the port's default heap) answers a
    link hello on its standard input/output."""
    import subprocess
    from playboard.link import Decoder, encode_frame

    exe = micropython_binary()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    frame = encode_frame(1, "H", b"")
    p = subprocess.run([exe, "firmware/main.py", "--flash", str(tmp_path / "f"), "--clock", "real"],
                       input=frame, capture_output=True, cwd=root, timeout=60)
    dec = Decoder()
    got = None
    for byte in p.stdout:
        if dec.feed(byte) == 1:
            got = (dec.type, bytes(dec.payload()))
            break
    assert got is not None, (p.stdout[-500:], p.stderr[-2000:])
    assert got[0] == ord("h") and b'"proto"' in got[1], sys.stderr


def test_link_sets_the_game_and_follows_it_live_on_the_simulated_board(board, tmp_path):
    from playboard_host.serial_link import BoardLink, open_port

    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    link = BoardLink(open_port(b.port), timeout=3.0)
    try:
        assert link.hello()["proto"] >= 1
        st = link.set_game(game="toguz", mode="two")
        assert st["game"] == "toguz" and st["mode"] == "two"
        assert link.live(True)["on"] is True
        b.advance(300)  # the game begins over the next frames (a step a frame)
        g = new_game("toguz")
        m = g.legal_moves()[4]
        text = g.move_text(m)
        _toguz_move(b, g, m)
        ev = link.wait_events(1.0)
        kinds = [e["ev"] for e in ev]
        assert "game" in kinds and "move" in kinds, ev
        assert [e["move"] for e in ev if e["ev"] == "move"] == [text]
        st = link.status()
        assert st["state"] == "play" and st["ply"] == 1 and st["current"] == 1
        # a game being played is not abandoned without force
        with pytest.raises(Exception, match="force"):
            link.set_game(game="tobit")
        # settings go to the app at once: brightness 0 darkens every LED
        link.set_settings(brightness=0)
        b.advance(100)
        assert all(c == (0, 0, 0) for c in b.leds())
    finally:
        link.close()


def test_playboard_settings_get_set_profile_refusals_and_flash(board, tmp_path, capsys):
    """`playboard settings` over the simulated board's link (whole firmware)."""
    b = board()
    flash = str(tmp_path / "flash")
    b.start("sim", fs_dir=flash)
    port = ["--port", b.port, "--timeout", "3"]
    assert cli.main(["settings"] + port) == 0
    out = capsys.readouterr().out
    assert "brightness 48\n" in out and "games toguz,tobit,tobit4,tihbat\n" in out
    assert "locked false\n" in out and "idle_s 0\n" in out
    assert cli.main(["settings", "set", "brightness", "90", "attract_s", "30"] + port) == 0
    assert "brightness=90" in capsys.readouterr().out
    # bad values: one clear line each, exit status 2, nothing changed on the board
    for words in (["brightness", "300"], ["takeback", "maybe"], ["games", "toguz,chess"],
                  ["colour", "red"], ["level", "6", "max_level", "4"], ["brightness"]):
        assert cli.main(["settings", "set"] + words + port) == 2, words
        err = capsys.readouterr().err
        assert err.startswith("playboard: ") and err.count("\n") == 1, err
    bad = tmp_path / "bad.json"
    bad.write_text('{"brightness": 10, "resume": "later"}')
    assert cli.main(["settings", "--from", str(bad)] + port) == 2
    assert "resume" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text('{"hints": false, "idle_s": 600}')
    assert cli.main(["settings", "--from", str(good)] + port) == 0
    capsys.readouterr()
    assert cli.main(["settings", "get", "brightness"] + port) == 0
    assert capsys.readouterr().out == "brightness 90\n"
    # the museum profile locks the board: the link refuses changes from then on
    assert cli.main(["settings", "--profile", "museum"] + port) == 0
    capsys.readouterr()
    assert cli.main(["settings", "set", "brightness", "20"] + port) == 2
    assert "locked" in capsys.readouterr().err
    # kept on flash: a restarted board has every setting
    b.restart()
    assert cli.main(["settings", "--port", b.port, "--timeout", "3"]) == 0  # a new pty
    out = capsys.readouterr().out
    assert "locked true\n" in out and "brightness 64\n" in out and "hints true\n" in out
    assert "idle_s 300\n" in out and "attract_s 60\n" in out and "resume never\n" in out
    st = b.status()
    assert st["state"] == "menu" and st["game"] in ("toguz", "tobit", "tihbat")
