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


class Placer:
    """Follows `playboard selftest --guided` as a builder does: each point the command
    names gets a White piece, put on and lifted again; the colour phases just wait."""

    def __init__(self, b, monkeypatch):
        self.b = b
        self.st = {}
        self.placed = []
        orig = checks.guided_prompt

        def spy(st, names):
            self.st = st
            return orig(st, names)
        monkeypatch.setattr(checks, "guided_prompt", spy)

    def __call__(self, seconds):
        t = self.st.get("target", -1)
        if t >= 0 and (not self.placed or self.placed[-1] != t):
            self.b.set_sensor(t, 1)
            self.b.advance(600)
            self.b.set_sensor(t, 0)
            self.placed.append(t)
        self.b.advance(int(seconds * 1000))


def test_guided_selftest_names_each_point_and_passes(board, monkeypatch, capsys):
    p = Placer(board, monkeypatch)
    monkeypatch.setattr(checks, "sleep", p)
    assert cli.main(["selftest", "--guided", "--port", board.port, "--seconds", "10",
                     "--timeout", "3"]) == 0
    out = capsys.readouterr().out
    assert "put a White piece on tobit point 1" in out and "(sensor 0), then lift it" in out
    assert "every LED is GREEN now: put a piece on each point whose LED is not GREEN" in out
    assert len(p.placed) == 56 and sorted(p.placed) == sorted(checks.sensor_names())
    assert "56 sensors checked, 56 ok" in out and out.rstrip().endswith("PASS")


def test_guided_summary_explains_each_fault():
    res = {"check": "guided", "checked": 56, "ok": 51, "swapped": [[17, 18], [18, 17]],
           "inverted": [5], "dead": [40], "stuck": [], "dark": [[12, "g"]], "pass": False}
    lines = checks.summary_lines(res)
    text = "\n".join(lines)
    assert lines[0] == "56 sensors checked, 51 ok" and lines[-1] == "FAIL"
    names = checks.sensor_names()
    assert "sensor 17 (%s): a piece there read as sensor 18 (%s)" % (names[17], names[18]) in text
    assert "sensor 5 (%s) read a White piece as Black" % names[5] in text
    assert "sensor 40 (" in text and "never answered" in text
    assert "LED 12: its green does not light" in text
    assert checks.guided_prompt({"running": "guided", "phase": 1, "target": 3, "colour": None},
                                {3: "tobit point 4"}) == \
        "put a White piece on tobit point 4 (sensor 3), then lift it"
    cal = checks.summary_lines({"check": "calibrate", "checked": 56, "bad": [7], "saved": False,
                                "timed_out": True, "pass": False})
    assert cal[0] == ("55 sensors calibrated, 1 refused, saved: no (the board was never clear "
                      "in time: nothing saved)")
