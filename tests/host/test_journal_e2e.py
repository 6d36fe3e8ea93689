"""The record's journal on the simulated board (``SimBoard(journal=4)``: NOR flash in a
file beside the littlefs image, as the product board has it below its filesystem;
docs/app.md "The journal"): a Toguz Kumalak game played through the sensors while the
process is killed at random moments and its flash cut inside page programs and block
writes; each restart resumes with every committed move; the game's end folds it into
its file, which holds every move, and the journal is left erased.
"""
import os
import random
import time

import pytest

from playboard.games.registry import new_game
from playboard.record.read import parse_game
from playboard_host.simboard import SimDied, micropython_binary

from test_app_e2e import _moves, _resign, _toguz_move

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")


def _game_file(image, blocks, name):
    from littlefs import LittleFS
    fs = LittleFS(block_size=4096, block_count=blocks, read_size=32, prog_size=32, mount=False)
    with open(image, "rb") as f:
        fs.context.buffer[:] = f.read()
    fs.mount()
    with fs.open("/games/" + name, "rb") as f:
        return f.read()


def test_a_game_on_the_journal_survives_kills_and_cuts_and_ends_whole_in_its_file(board, tmp_path):
    rng = random.Random(20261205)
    b = board()
    image = str(tmp_path / "flash.img")
    ready = b.start("sim", image=image, blocks=48, journal=4)
    assert ready["ready"]
    b.new_game("toguz", "two")
    b.advance(100)
    g = new_game("toguz")
    plan = []
    t = new_game("toguz")
    while len(plan) < 20 and not t.is_game_over():
        m = rng.choice(t.legal_moves())
        plan.append(t.move_text(m))
        t.push(m)
    committed = 0
    kills = cuts = 0
    while g.ply < len(plan):
        action = rng.random()
        if action < 0.15 and kills < 3:
            b.kill()
            kills += 1
        elif action < 0.3 and kills < 3:
            pit = g.parse_move(plan[g.ply])
            os.write(b._ctl_w, b"tap %d 150\nadv 3000\n" % (pit + 9 * g.turn))
            time.sleep(rng.random() * 0.05)
            b.kill()
            kills += 1
        elif action < 0.6:
            b.cut_after(rng.randrange(1, 600))  # inside a page program of the journal
        try:
            m = g.parse_move(plan[g.ply])
            _toguz_move(b, g, m)
            g.push(m)
            committed += len(_moves(b.events()))
            assert committed == g.ply
            continue
        except SimDied:
            if action >= 0.3:
                cuts += 1
        b.restart()
        st = b.status()
        assert st["state"] == "play" and st["game"] == "toguz", st
        assert committed <= st["ply"] <= committed + 1, (st, committed)
        g = new_game("toguz")
        for text in plan[:st["ply"]]:
            g.push_text(text)
        assert st["fen"] == g.fen()
        committed = st["ply"]
        b.events()
    assert kills >= 1 and cuts >= 2, (kills, cuts)
    b.cut_after(0)
    # in play, the moves since the last power-up are in the journal, not the file
    m = g.legal_moves()[0]
    plan.append(g.move_text(m))
    _toguz_move(b, g, m)
    g.push(m)
    assert _moves(b.events()) == plan[-1:]
    assert len(parse_game(_game_file(image, 48, "g1.rec")).moves) < len(plan)
    with open(image + ".journal", "rb") as f:
        assert f.read(1) == b"J"
    _resign(b, 1)
    st = b.status()
    assert st["state"] == "over" and st["result"] == "1-0"
    b.kill()
    rec = parse_game(_game_file(image, 48, "g1.rec"))
    assert rec.moves == plan and rec.finished and rec.problem is None
    with open(image + ".journal", "rb") as f:
        assert f.read() == b"\xff" * 4 * 4096  # erased at the game's end
