"""The record's journal on the simulated board (``SimBoard.start(journal=4)``, the
default: NOR flash in a file beside the littlefs image or in the flash folder, as the
product board has it below its filesystem; docs/app.md "The journal"): a Toguz Kumalak
game played through the sensors while the process is killed at random moments and its
flash cut inside page programs and block writes; each restart resumes with every
committed move; the game's end folds it into its file, which holds every move, and
closes its section of the journal. And on a flash folder with the default journal, the power cut
right after a move.
"""
import contextlib
import io
import os
import random

import pytest

from playboard.games.registry import new_game
from playboard.record.read import parse_game
from playboard_host.simboard import micropython_binary

from test_app_e2e import _moves, _resign, _toguz_move, play_through_cuts, random_plan

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")


def _game_file(image, blocks, name):
    """File ``/games/<name>`` of the littlefs image (bytes), or None if it has none."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=4096, block_count=blocks, read_size=32, prog_size=32, mount=False)
    with open(image, "rb") as f:
        fs.context.buffer[:] = f.read()
    fs.mount()
    if name not in fs.listdir("/games"):
        return None
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
    plan = random_plan(rng, 20)
    # (cuts inside a page program of the journal)
    g, kills, cuts = play_through_cuts(b, plan, rng, (0.15, 0.3, 0.6), 600)
    assert kills >= 1 and cuts >= 2, (kills, cuts)
    b.cut_after(0)
    # in play, the moves since the last power-up are in the journal, not the file
    m = g.legal_moves()[0]
    plan.append(g.move_text(m))
    _toguz_move(b, g, m)
    g.push(m)
    assert _moves(b.events()) == plan[-1:]
    raw = _game_file(image, 48, "g1.rec")  # (none while the game goes on in the journal)
    assert raw is None or len(parse_game(raw).moves) < len(plan)
    with open(image + ".journal", "rb") as f:
        assert f.read(1) == b"J"
    _resign(b, 1)
    st = b.status()
    assert st["state"] == "over" and st["result"] == "1-0"
    b.kill()
    rec = parse_game(_game_file(image, 48, "g1.rec"))
    assert rec.moves == plan and rec.finished and rec.problem is None
    from playboard_host.boardflash import read_journal
    data, (gid, base, first, end, new) = read_journal(image + ".journal")
    assert gid == 0 and data[end:] == b"\xff" * (4 * 4096 - end)  # its section closed at the end


def test_the_journal_is_on_by_default_and_a_power_cut_right_after_a_move_keeps_it(board, tmp_path):
    """``SimBoard.start`` gives the board the product's journal unless told otherwise:
    a two-player Toguz Kumalak game's header and moves go to ``flash/journal`` (the
    game has no file yet); the power cut the moment the second move is committed (no
    frame after it), the board comes back with both moves (the game goes on in the
    journal as it was: no fold, no erase at power-up) and plays on; a cut after the third
    move again; the game as the board keeps it (``boardflash.kept_game``) is every
    move at each moment."""
    from playboard_host.boardflash import kept_game

    b = board()
    flash = str(tmp_path / "flash")
    b.start("sim", fs_dir=flash)
    b.new_game("toguz", "two")
    b.advance(300)
    g = new_game("toguz")
    plan = []
    plan.append(g.move_text(6))  # South's pit 7
    _toguz_move(b, g, 6)
    g.push(6)
    plan.append(g.move_text(8))  # North's pit 9: the power goes as soon as it is committed
    b.tap(8 + 9 * g.turn, 150)
    g.push(8)
    seen = _moves(b.events())
    for _ in range(150):  # (20 ms at a time: a frame or two after the commit at most)
        if len(seen) == 2:
            break
        b.advance(20)
        seen += _moves(b.events())
    b.kill()
    assert seen == plan
    path = os.path.join(flash, "games", "g1.rec")
    assert not os.path.exists(path)  # begun in the journal: its header and moves are there
    with open(os.path.join(flash, "journal"), "rb") as f:
        assert f.read(1) == b"J"
    assert kept_game(flash, 1).moves == plan
    ready = b.restart()
    assert not any("from the journal" in ln for ln in ready["report"]), ready  # (not settled)
    st = b.status()
    assert st["state"] == "play" and st["ply"] == 2 and st["fen"] == g.fen(), st
    assert not os.path.exists(path)  # it goes on in the journal: no file made at power-up
    with open(os.path.join(flash, "journal"), "rb") as f:
        assert f.read(1) == b"J"
    assert kept_game(flash, 1).moves == plan
    m = g.legal_moves()[0]
    plan.append(g.move_text(m))
    _toguz_move(b, g, m)
    g.push(m)
    assert _moves(b.events()) == plan[-1:]
    assert kept_game(flash, 1).moves == plan
    b.kill()
    b.restart()
    st = b.status()
    assert st["state"] == "play" and st["ply"] == 3 and st["fen"] == g.fen(), st
    assert kept_game(flash, 1).moves == plan


def test_moves_the_host_never_saw_before_a_cut_inside_a_write_are_kept_and_synced(board, tmp_path):
    """The soak's 'lost' moves (main 508e4ab, seed 14: Toguz Kumalak against the
    engine, 4 moves seen, then the power cut inside a write): a museum board (the
    profile: ``resume never``), a game begun in the journal; the host reads the events
    of the first moves, then not: the visitor's next move is confirmed and the engine
    replies (both committed, their events never read), and the power goes inside the
    record of the visitor's move after. At power-up the torn record is voided and the
    game goes on in the journal past it (``Journal.go_on``), then is ended abandoned;
    the sync gets every move the board committed, those the host saw first, the torn
    one not."""
    from playboard.app.state import MENU_GAME, MENU_LEVEL, MENU_MODE, MENU_START
    from playboard.board.layout import load_layout
    from playboard_host import cli
    from playboard_host.gestures import press_sensor
    from playboard_host.library import Library
    from playboard_host.simboard import SimDied
    from test_museum_e2e import _settings

    b = board()
    image = str(tmp_path / "flash.img")
    b.start("sim", image=image, blocks=64, seed=62)
    _settings(b, "--profile", "museum")
    b.restart()  # (switched off and on after the profile, as docs/museum.md says)
    b.advance(3000)
    lay = load_layout("toguz")
    for c in (MENU_GAME[0], MENU_MODE[1], MENU_LEVEL[0], MENU_START):  # White v the engine, level 1
        press_sensor(b, lay.sensor_of(c))
        b.advance(700)
    b.advance(1000)
    st = b.status()
    assert st["state"] == "play" and st["mode"] == "white" and st["ply"] == 0, st
    gid = st["store"]["current"]
    g = new_game("toguz")
    seen = []

    def visitor_moves():  # (the visitor plays White, pit 1..9 of the South row)
        m = g.legal_moves()[0]
        b.tap(m, 150)
        return g.move_text(m)

    for k in (2, 4):  # two moves each, their events read
        visitor_moves()
        for _ in range(40):
            b.advance(500)
            for t in _moves(b.events()):
                seen.append(t)
                g.push_text(t)
            if len(seen) == k:
                break
        b.advance(3000)  # (the engine's sowing view confirmed: the visitor's turn)
    assert len(seen) == 4 and g.turn == 0, seen
    unseen = [visitor_moves()]
    b.advance(8000)  # confirmed (2.5 s), the engine's reply: no event read
    assert b.status()["ply"] == 6
    from playboard_host.boardflash import read_journal
    data, (jgid, base, first, end, new) = read_journal(image + ".journal")
    assert jgid == gid and new and data[end:] == b"\xff" * (len(data) - end)
    b.cut_after(end % 256 + 3)  # the power goes 3 bytes into the next record (a page program)
    visitor_moves()
    with pytest.raises(SimDied):
        b.advance(8000)
    data, (jgid, base, first, end2, new) = read_journal(image + ".journal")
    assert end2 == end and data[end:end + 3] != b"\xff" * 3 and data[end + 3:] == b"\xff" * (len(data) - end - 3)
    ready = b.restart()
    # the torn record voided, the game gone on in the journal past it (no settle, no
    # erase at power-up), then ended abandoned (the museum's ``resume never``)
    assert any("voided" in ln for ln in ready["report"]), ready["report"]
    assert not any("from the journal" in ln for ln in ready["report"]), ready["report"]
    b.advance(2000)
    st = b.status()
    assert st["state"] in ("menu", "attract") and st["store"]["current"] is None, st
    db = str(tmp_path / "library.sqlite")
    with contextlib.redirect_stdout(io.StringIO()):
        assert cli.main(["sync", "--port", b.port, "--library", db, "-q"]) == 0
    lib = Library(db, create=False)
    recs = [r for r in lib.games_from("sim") if r.board_game == gid]
    lib.close()
    assert len(recs) == 1, recs
    r = recs[0]
    assert r.result == "*" and r.termination == "abandoned", (r.result, r.termination)
    # every move the board committed: the 4 seen, the visitor's 5th and the engine's
    # reply (never seen); the move being written when the power went is not there
    assert r.moves[:5] == seen + unseen and len(r.moves) == 6, (r.moves, seen, unseen)
    g.push_text(unseen[0])
    g.push_text(r.moves[5])  # (the engine's reply: a legal move)
