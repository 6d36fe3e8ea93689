"""The CPython twins of the rules cores' viper functions (playboard_host.twins) give the
same positions as the viper code (run as Python), and are what the host runs."""
import random

from playboard.games import tobit, toguz
from playboard.games.perft import perft
from playboard.games.registry import new_game
from playboard.games.toguz import Toguz

from playboard_host import twins


def test_the_host_runs_the_twins():
    assert toguz._sow is twins.toguz_sow and toguz._perft_twin is twins.toguz_perft
    assert tobit._push is twins.tobit_push and tobit._scan is twins.tobit_scan
    assert tobit._unmake is twins.tobit_unmake
    assert toguz._sow_viper is not twins.toguz_sow


def test_a_core_imported_again_takes_its_twins():
    # the app (and its tests) unload a game's modules to give their heap back
    import importlib
    import sys
    saved = sys.modules.pop("playboard.games.toguz")
    try:
        again = importlib.import_module("playboard.games.toguz")
        assert again is not saved
        assert again._sow is twins.toguz_sow and again._perft_twin is twins.toguz_perft
        assert perft(again.Toguz(), 3) == 613
    finally:
        sys.modules["playboard.games.toguz"] = saved


def test_twin_perft_counts_as_push_and_pop():
    from playboard.games.base import Game
    g = new_game("toguz")
    assert perft(g, 3) == Game.perft(g, 3) == 613  # RULES.md 1.9


def test_cpython_sowing_twin_gives_the_same_positions():
    # CPython runs a twin of the viper sowing (slice operations); both must agree.
    rnd = random.Random(7)
    tried = 0
    for _ in range(300):
        g = Toguz()
        while not g.is_game_over() and tried < 20000:
            for m in g.legal_moves():
                a = bytearray(g.pos)
                b = bytearray(g.pos)
                toguz._sow_viper(a, m)
                twins.toguz_sow(b, m)
                assert a == b, (g.fen(), m)
                tried += 1
            g.push(rnd.choice(g.legal_moves()))
    assert tried >= 20000


def test_cpython_twins_match_the_viper_code():
    # CPython runs slice-based twins of the viper make and scan; both must agree.
    rnd = random.Random(11)
    tried = 0
    for name in ("tobit", "tobit4"):
        for _ in range(40):
            g = new_game(name)
            while not g.is_game_over() and g.ply < 200:
                b1, b2 = bytearray(64), bytearray(64)
                assert tobit._scan_viper(g.board, g._geo, g.turn + 1, b1) == \
                    twins.tobit_scan(g.board, g._geo, g.turn + 1, b2)
                assert b1 == b2
                for m in g.legal_moves():
                    bs = [bytearray(g.board), bytearray(g.board)]
                    sts = [bytearray(g.st), bytearray(g.st)]
                    us = [bytearray(g._snap), bytearray(g._snap)]
                    for k, fn in enumerate((tobit._push_viper, twins.tobit_push)):
                        sts[k][8] = len(m)
                        fn(bs[k], m, sts[k], us[k], 0, g._geo, g._z)
                    assert bs[0] == bs[1] and sts[0] == sts[1] and us[0] == us[1], (g.fen(), m)
                    tried += 1
                g.push(rnd.choice(g.legal_moves()))
    assert tried > 5000
