"""`playboard selftest` / `playboard calibrate` against the real firmware on the simulated
board (virtual clock): the link's G {"check"} request end to end, a verdict per sensor."""
import pytest

from playboard_host import checks, cli
from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None,
                                reason="micropython not installed (make setup)")

CHASE_MS = 58 * 120     # the LED chase: 58 LEDs, 120 ms each


@pytest.fixture
def board(tmp_path):
    b = SimBoard()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    b.advance(500)
    yield b
    b.stop()


class Visitor:
    """Moves the simulated clock while the command waits and, after the chase, puts a
    piece on each sensor in ``visit`` and lifts it again; ``stuck`` stays pressed."""

    def __init__(self, b, visit, stuck=()):
        self.b = b
        self.visit = list(visit)
        self.t = 0
        for s in stuck:
            b.set_sensor(s, 1)

    def __call__(self, seconds):
        ms = int(seconds * 1000)
        self.t += ms
        if self.t > CHASE_MS + 500:
            for _ in range(12):
                if not self.visit:
                    break
                s = self.visit.pop(0)
                self.b.set_sensor(s, 1)
                self.b.advance(40)
                self.b.set_sensor(s, 0)
                self.b.advance(40)
        self.b.advance(ms)


def test_selftest_passes_when_every_sensor_was_visited(board, monkeypatch, capsys):
    mapped = sorted(checks.sensor_names())
    assert len(mapped) == 56
    monkeypatch.setattr(checks, "sleep", Visitor(board, mapped))
    assert cli.main(["selftest", "--port", board.port, "--seconds", "8", "--timeout", "3"]) == 0
    out = capsys.readouterr().out
    assert "... LED chase" in out and "... sensors" in out
    assert "56 sensors checked, 56 ok, 58 LEDs chased" in out and out.rstrip().endswith("PASS")


def test_selftest_names_stuck_and_dead_sensors(board, monkeypatch, capsys):
    mapped = sorted(checks.sensor_names())
    # sensor 44 (toguz pit S5) stuck; sensor 6 (tobit point 7) never visited
    visit = [s for s in mapped if s not in (6, 44)]
    monkeypatch.setattr(checks, "sleep", Visitor(board, visit, stuck=[44]))
    assert cli.main(["selftest", "--port", board.port, "--seconds", "8", "--timeout", "3"]) == 1
    out = capsys.readouterr().out
    assert "56 sensors checked, 54 ok" in out
    assert "sensor 44 (toguz pit S5, tihbat pit S1) stuck" in out
    assert "sensor 6 (tobit point 7, tobit4 point 6) dead" in out
    assert out.rstrip().endswith("FAIL")


def test_calibrate_is_refused_on_reed_switches_and_bad_seconds(board, capsys):
    assert cli.main(["calibrate", "--port", board.port, "--timeout", "3"]) == 2
    assert "need no calibration" in capsys.readouterr().err
    assert cli.main(["selftest", "--port", board.port, "--seconds", "1", "--timeout", "3"]) == 2
    assert "5..600" in capsys.readouterr().err
