"""The builder's guide walked (docs/build.md, issue 34): every `playboard` command of its
code blocks run as written, in order, against the simulated board (the whole firmware
on the simulator's model of the chip) over its own serial port, with a builder's hands
doing what each step says: the LED chase watched LED by LED, each sensor tried with a
piece and its LED looked at, the guided test's points visited. The port is added
(`--port`: the simulated board's pseudo-terminal) and the waits move the board's
virtual clock.

Not walked here: the `mpremote` lines of step 5 (they need a Pico: the image and its
deploy run on the emulated Pico in tests/rp2/), and a hall board's calibration (the
simulated board has reed switches: the command's refusal is checked; the calibration
itself runs on the real app in tests/firmware/test_app_check.py)."""
import os
import re
import shlex

import pytest

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
    LED is looked at, and the piece is lifted; in the guided test each point asked for
    gets a White piece."""

    def __init__(self, b, visit=(), guided=False, monkeypatch=None):
        self.b = b
        self.visit = list(visit)
        self.seen = []  # (LED, colour) in the order the chase lit them
        self.tried = {}  # sensor -> the colour of its LED with the piece on
        self.st = {}
        self.placed = []
        self.t = 0  # board ms since the check began
        self.leds = _sensor_leds()
        if guided:
            orig = checks.guided_prompt

            def spy(st, names):
                self.st = st
                return orig(st, names)
            monkeypatch.setattr(checks, "guided_prompt", spy)

    def __call__(self, seconds):
        b = self.b
        ms = int(seconds * 1000)
        t = self.st.get("target", -1)
        if t >= 0 and (not self.placed or self.placed[-1] != t):
            b.set_sensor(t, 1)
            b.advance(600)
            b.set_sensor(t, 0)
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
            b.set_sensor(s, 1)
            b.advance(200)
            self.tried[s] = _colour(b.leds()[self.leds[s]])
            b.set_sensor(s, 0)
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
