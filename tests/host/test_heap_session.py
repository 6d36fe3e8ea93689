"""Many games in one power-on session, in the chip's heap model (issue 11).

The firmware runs in the simulator's model of the chip (``build/micropython-board``, ``SimBoard``), its code in the
heap. Every game and mode is begun in turn (each at one of levels 1-3), each abandoned by the
next after a few seconds of play (the engine moving for itself; in Tobit a
spectator makes its moves on the sensors): every game must begin, and the heap
after each (collected, in the same game and mode, from the second round on) must not
grow: no leak, whatever the last game left. ``make bench`` runs the same for 200 games (bench/mp_memory.py).
"""
import pytest

from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")

GAMES = ("toguz", "tobit", "tobit4", "tihbat")
MODES = ("two", "white", "black", "demo")
ROUNDS = 3  # every game x mode three times: 48 games


def test_every_game_and_mode_begins_again_and_again_without_a_leak(tmp_path):
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), link=False)
        b.keep_events(False)
        b.spectator(True)
        heap = {}
        for i in range(ROUNDS * 16):
            game, mode = GAMES[i % 4], MODES[(i // 4) % 4]
            b.new_game(game, mode, 1 + (i % 16) % 3)  # each game and mode: its own level
            if game.startswith("tobit"):
                b.set_up()
            b.advance(5000)
            st = b.status()
            assert st["game"] == game and st["state"] in ("setup", "play", "over"), (i, st)
            heap.setdefault((game, mode), []).append(b.mem()["alloc"])
        for key, allocs in heap.items():
            assert len(allocs) == ROUNDS
            # the same game and mode, begun again: the heap it leaves is the same. (The
            # first round is not compared: loading each game's code the first time
            # interns its names, which MicroPython keeps for ever: about 16 KB on the
            # unix port, none on the board, where they are in flash with the frozen code.)
            later = allocs[1:]
            assert max(later) - min(later) <= 2048, (key, allocs)
    finally:
        b.stop()
