"""bench/screen_toguz.py (docs/engine.md, "Search features at equal nodes"): under the
simulator's model, the same search against itself from the same openings with both
colours scores exactly 50% (each opening's two games mirror each other); the old top
level (``py``) plays the engine's own search; a feature on a search without features is
one clear line."""
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _screen(*args):
    from playboard_host.simboard import MODEL_HEAP, model_binary

    exe = model_binary()
    if exe is None:
        pytest.skip("no simulator's model (make setup)")
    env = dict(os.environ, MICROPYPATH="firmware:bench")
    return subprocess.run([exe, "-X", "heapsize=" + MODEL_HEAP, "bench/screen_toguz.py"] + list(args),
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_the_same_search_from_both_sides_scores_half_and_each_game_is_reported():
    r = _screen("-", "-", "4", "300")
    games = re.findall(r"^G (\d+) ([01.]+) (\d+) \d+$", r.stdout, re.M)
    assert [g[0] for g in games] == ["0", "1", "2", "3"], r.stdout + r.stderr
    # an opening's two games: the same plies, the result the other way round
    assert games[0][2] == games[1][2] and float(games[0][1]) + float(games[1][1]) == 1.0
    assert games[2][2] == games[3][2] and float(games[2][1]) + float(games[3][1]) == 1.0
    assert "RESULT - vs - nodes 300: 4 games" in r.stdout and "= 50.0%" in r.stdout, r.stdout


def test_the_old_top_level_the_features_and_a_bad_player():
    r = _screen("-", "py", "2", "300", "1")  # game 1 alone: the old top level moves first
    assert re.search(r"^RESULT - vs py nodes 300: 1 games \d-\d-\d", r.stdout, re.M), r.stdout + r.stderr
    r = _screen("3", "0", "2", "300")  # the kept features (PVS, reductions) against none
    assert re.search(r"^RESULT 3 vs 0 nodes 300: 2 games \d-\d-\d", r.stdout, re.M), r.stdout + r.stderr
    r = _screen("x", "-", "2", "300")
    assert r.returncode != 0 and r.stderr.strip().splitlines()[-1].startswith(
        "a player is -, py or the features' bits"), r.stderr
