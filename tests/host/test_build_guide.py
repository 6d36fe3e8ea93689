"""The builder's guide walked (docs/build.md, issue 34): every `playboard` command of its
code blocks run as written, in order, against the simulated board (the whole firmware
on the simulator's model of the chip) over its own serial port, with a builder's hands
doing what each step says: the LED chase watched LED by LED, each sensor tried with a
piece and its LED looked at, the guided test's points visited. The port is added
(`--port`: the simulated board's pseudo-terminal) and the waits move the board's
virtual clock.

A hall board's steps (8: the first power-up's calibration, 9: `playboard calibrate`,
10: the guided test) are walked on the simulated hall board (``sim-hall``: analog
sensors, each with its own zero-field output, read through the board's own
calibration), with a builder's faults put in: a sensor out of its window, a piece left
on, a sensor upside down, two wires crossed, a dead LED colour. The `mpremote` lines
of step 5 are walked on the emulated Pico (tests/rp2/test_build_guide_flash.py)."""
import json
import os
import re
import shlex

import pytest

from hands import Hands
from playboard.board.layout import GAMES, load_layout
from playboard_host import checks, cli
from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHASE = ("red", "green", "blue", "white")  # LED k's colour in the chase: CHASE[k % 4]
CHASE_MS = 58 * 120  # the chase: 58 LEDs, 120 ms each


def guide_lines(name):
    """The command lines of docs/NAME's code blocks, comments removed."""
    with open(os.path.join(ROOT, "docs", name), encoding="utf-8") as f:
        text = f.read()
    out = []
    for block in re.findall(r"```\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                out.append(line)
    return out


def _colour(rgb):
    r, g, b = rgb
    if not (r or g or b):
        return None
    if r and g and b:
        return "white"
    return "red" if r and not (g or b) else "green" if g and not (r or b) else "blue" if b and not (r or g) else "mixed"


def _sensor_leds():
    """{sensor: LED beside it} over every game's layout (as the self-test lights them)."""
    out = {}
    for g in GAMES:
        lay = load_layout(g)
        for c in lay.cells:
            s, led = lay.sensor_of(c), lay.led_of(c)
            if s >= 0 and led >= 0:
                out.setdefault(s, led)
    return out


class Builder:
    """The builder's hands and eyes while a check runs (``checks.sleep`` replaced): during
    the LED chase the board's clock moves in 40 ms steps and each lit LED is written
    down; in the sensor phase each sensor of ``visit`` gets a piece (four a poll), its
    LED is looked at (150-300 ms), and the piece is lifted; in the guided test each
    point asked for gets a White piece (held 400-800 ms). Every change with a
    person's contact bounce (tests/host/hands.py)."""

    def __init__(self, b, visit=(), guided=False, monkeypatch=None):
        self.b = b
        self.visit = list(visit)
        self.seen = []  # (LED, colour) in the order the chase lit them
        self.tried = {}  # sensor -> the colour of its LED with the piece on
        self.st = {}
        self.placed = []
        self.colours = []  # the guided test's LED phase: the colours looked at
        self.dark = []  # (sensor, colour) whose LED did not show that colour
        self.t = 0  # board ms since the check began
        self.leds = _sensor_leds()
        self.hands = Hands(b, len(self.visit))  # bounce on every change, human holds
        if guided:
            orig = checks.guided_prompt

            def spy(st, names):
                self.st = st
                return orig(st, names)
            monkeypatch.setattr(checks, "guided_prompt", spy)

    def __call__(self, seconds):
        b = self.b
        ms = int(seconds * 1000)
        c = self.st.get("colour")
        if c and c not in self.colours:  # the guided test's LED phase: every LED looked at
            self.colours.append(c)
            shown = b.leds()
            for s, led in sorted(self.leds.items()):
                if _colour(shown[led]) != checks.COLOUR_NAMES[c].lower():
                    self.dark.append((s, c))
                    self.hands.press(s, self.hands.rng.randint(400, 800))
                    b.advance(100)
        t = self.st.get("target", -1)
        if t >= 0 and (not self.placed or self.placed[-1] != t):
            self.hands.press(t, self.hands.rng.randint(400, 800))
            self.placed.append(t)
        if self.t < CHASE_MS + 200:  # the chase: watched LED by LED
            for _ in range(ms // 40):
                b.advance(40)
                self.t += 40
                lit = [(i, _colour(c)) for i, c in enumerate(b.leds()) if _colour(c)]
                if self.t <= CHASE_MS and len(lit) == 1 and (not self.seen or self.seen[-1] != lit[0]):
                    self.seen.append(lit[0])
            return
        for s in self.visit[:4]:  # the sensor phase: four sensors tried, each LED looked at
            self.hands.put(s)
            b.advance(self.hands.rng.randint(150, 300))
            self.tried[s] = _colour(b.leds()[self.leds[s]])
            self.hands.lift(s)
            b.advance(100)
        del self.visit[:4]
        b.advance(ms)
        self.t += ms


def test_every_command_of_the_builders_guide_on_the_simulated_board(tmp_path, monkeypatch, capsys):
    lines = guide_lines("build.md")
    assert lines[:2] == ["echo pico-matrix > board.txt && .venv/bin/mpremote cp board.txt :board.txt",
                         ".venv/bin/mpremote reset"]
    cmds = [shlex.split(ln)[1:] for ln in lines if ln.startswith(".venv/bin/playboard ")]
    assert cmds == [["ports"], ["selftest", "--seconds", "5"], ["selftest", "--seconds", "600"], ["calibrate"],
                    ["selftest", "--guided"], ["selftest"]], cmds
    sensors = sorted(checks.sensor_names())
    assert len(sensors) == 56
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"))
        b.advance(500)
        for step, argv in enumerate(cmds):
            b.advance(60000)  # the builder's work between two steps (the last verdict shows 5 s)
            if argv != ["ports"]:
                argv = argv + ["--port", b.port, "--timeout", "3"]
            guided = "--guided" in argv
            # steps 7 and 10 on an empty board; step 8 and the later check: every sensor tried
            hands = Builder(b, sensors if step in (2, 5) else (), guided, monkeypatch)
            monkeypatch.setattr(checks, "sleep", hands)
            status = cli.main(argv)
            out, err = capsys.readouterr()
            assert "Traceback" not in err, (argv, err)
            if argv == ["ports"]:
                assert status == 0, err  # (the simulated board's port is no USB device: not listed)
            elif step == 1:
                # step 7: the chase, LED 0 to LED 57 in turn, red, green, blue, white; the
                # sensors not fitted yet: every one dead, FAIL (as the guide says)
                assert hands.seen == [(k, CHASE[k % 4]) for k in range(58)], hands.seen
                assert status == 1 and "56 sensors checked, 0 ok, 58 LEDs chased" in out, out
                assert out.rstrip().endswith("FAIL")
            elif step == 2:
                # step 8: each sensor tried: the LED beside it lights green; then PASS
                assert hands.tried == {s: "green" for s in sensors}, (out, err, hands.t, hands.tried)
                assert status == 0 and "56 sensors checked, 56 ok" in out and out.rstrip().endswith("PASS"), out
            elif argv[0] == "calibrate":
                # step 9 is for hall boards; this one has reed switches: refused, in one line
                assert status == 2 and "need no calibration" in err and len(err.strip().splitlines()) == 1, err
            elif guided:
                # step 10: each point named in turn, a piece put there and lifted; PASS
                assert "put a White piece on tobit point 1" in out and "(sensor 0), then lift it" in out
                assert sorted(hands.placed) == sensors
                assert status == 0 and "56 sensors checked, 56 ok" in out and out.rstrip().endswith("PASS"), out
            else:
                # the free self-test later: every sensor visited within its 30 s
                assert "within 30 s" in out
                assert status == 0 and out.rstrip().endswith("PASS"), out
        assert b.alive()
    finally:
        b.stop()


def _cli(argv, capsys):
    status = cli.main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err, (argv, err)
    return status, out, err


def test_the_hall_steps_of_the_builders_guide_on_the_simulated_hall_board(tmp_path, monkeypatch, capsys):
    """Steps 8-10 of docs/build.md on a hall board (``sim-hall``): the first power-up
    calibrates by itself (the board clear: saved); `playboard calibrate` as the guide
    says (56 calibrated, 0 refused, saved: yes, PASS; green above each sensor and the
    kazans); a sensor out of its 0.90-1.15 V window is named and nothing is saved, nor
    with a piece left on the board (the file stays as it was); the guided test names a
    sensor mounted upside down, two crossed wires and an LED's dead green."""
    lines = guide_lines("build.md")
    calibrate = [shlex.split(ln)[1:] for ln in lines if ln.startswith(".venv/bin/playboard calibrate")]
    guided = [shlex.split(ln)[1:] for ln in lines if ln.startswith(".venv/bin/playboard selftest --guided")]
    assert calibrate == [["calibrate"]] and guided == [["selftest", "--guided"]]
    sensors = sorted(checks.sensor_names())
    flash = tmp_path / "flash"
    b = SimBoard()
    try:
        b.start("sim-hall", fs_dir=str(flash))
        b.advance(10000)  # step 8: the first power-up, the board clear: calibrated and saved
        ev = [e for e in b.events() if e["ev"] == "check"]
        assert [(e.get("check"), e.get("saved"), e.get("checked"), e.get("bad")) for e in ev] == [
            ("calibrate", None, None, None), ("calibrate", True, 56, [])], ev
        cal = json.loads((flash / "hall_cal.json").read_text())
        zeros = [cal["zero"][s] for s in sensors]
        assert all(17873 <= z <= 22838 for z in zeros) and len(set(zeros)) > 40, zeros  # each its own
        port = ["--port", b.port, "--timeout", "3"]
        monkeypatch.setattr(checks, "sleep", lambda seconds: b.advance(int(seconds * 1000)))

        status, out, err = _cli(calibrate[0] + port, capsys)  # step 9, the board empty
        assert status == 0 and "56 sensors calibrated, 0 refused, saved: yes" in out, (out, err)
        assert out.rstrip().endswith("PASS")
        shown = b.leds()
        assert {_colour(shown[led]) for led in range(58)} == {"green"}, shown  # sensors and kazans
        before = (flash / "hall_cal.json").read_bytes()

        b.fault("offset", 7, 30000)  # at once (the verdict on show gives way): a sensor out of its window
        status, out, err = _cli(calibrate[0] + port, capsys)
        assert status == 1 and "55 sensors calibrated, 1 refused, saved: no" in out, out
        assert "sensor 7 (tobit point 8, tobit4 point 7) outside the zero-field window 0.90-1.15 V" in out
        assert out.rstrip().endswith("FAIL")
        b.advance(6000)
        b.advance(1000)
        b.fault("offset", 7, 20000)  # the sensor replaced; a piece left on point 4
        Hands(b, 3).put(3)
        status, out, err = _cli(calibrate[0] + port, capsys)
        assert status == 1 and "saved: no (the board was never clear in time" in out, out
        assert "sensor 3 (tobit point 4, tobit4 point 4)" in out
        assert (flash / "hall_cal.json").read_bytes() == before  # nothing saved
        Hands(b, 4).lift(3)
        b.advance(1000)

        b.fault("invert", 12)  # step 10 with a builder's faults
        b.fault("swap", 20, 21)
        b.fault("kill", 30, 1)
        hands = Builder(b, (), True, monkeypatch)
        monkeypatch.setattr(checks, "sleep", hands)
        status, out, err = _cli(guided[0] + port, capsys)
        assert status == 1 and out.rstrip().endswith("FAIL"), out
        assert "sensor 12 (tobit point 13, tobit4 point 11)" in out and "upside down" in out, out
        assert "sensor 20 (tobit point 21, tobit4 point 18): a piece there read as sensor 21" in out, out
        assert "LED 30: its green does not light" in out, out
        assert sorted(hands.placed) == sensors
        assert b.alive()
    finally:
        b.stop()
