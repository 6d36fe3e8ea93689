"""Fixtures shared by the host tests that drive the real firmware on simulated boards."""
import pytest

from playboard_host.simboard import SimBoard


@pytest.fixture
def board():
    """A maker of ``SimBoard``s in the model of the frozen board, each stopped after the test:
    ``b = board(); b.start(...)``. (test_checks.py and test_sync.py define a ``board``
    of their own, for their own kind of board.)"""
    made = []

    def make():
        b = SimBoard()
        made.append(b)
        return b

    yield make
    for b in made:
        b.stop()


@pytest.fixture
def toguz_two(board, tmp_path):
    """A ``SimBoard`` (the model, flash in ``tmp_path/flash``) with a two-player Toguz
    Kumalak game begun and 300 ms run: South to move."""
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.new_game("toguz", "two")
    b.advance(300)
    return b
