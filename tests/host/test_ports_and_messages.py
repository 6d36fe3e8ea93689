"""`playboard ports`, and the small messages of the serial link (issue 17)."""
import json

from playboard_host.cli import main
from playboard_host.commands import ports as ports_cmd
from playboard_host.serial_link import BoardLink, LinkError, open_port


class Info:
    def __init__(self, device, vid=None, pid=None, description="n/a", serial_number=None):
        self.device, self.vid, self.pid = device, vid, pid
        self.description, self.serial_number = description, serial_number


FAKE = [Info("/dev/ttyS0"), Info("/dev/ttyUSB0", 0x0403, 0x6001, "FT232R USB UART"),
        Info("COM7", 0x2E8A, 0x0005, "Board in FS mode", "E6614C311B")]


def test_ports_lists_boards_first():
    got = ports_cmd.ports(comports=lambda: FAKE)
    assert [(d["port"], d["board"], d["usb"]) for d in got] == [("COM7", True, "2e8a:0005"),
                                                                ("/dev/ttyUSB0", False, "0403:6001")]
    assert got[0]["serial"] == "E6614C311B" and got[1]["description"] == "FT232R USB UART"
    assert [d["port"] for d in ports_cmd.ports(include_all=True, comports=lambda: FAKE)] == [
        "COM7", "/dev/ttyS0", "/dev/ttyUSB0"]


def test_ports_command_runs_on_this_computer(capsys):
    assert main(["ports", "--json"]) == 0
    for line in capsys.readouterr().out.splitlines():
        assert set(json.loads(line)) == {"port", "board", "usb", "description", "serial"}
    assert main(["ports"]) == 0
    assert capsys.readouterr().out.strip()


def test_a_missing_port_is_named_once():
    try:
        open_port("/dev/no-such-board")
    except LinkError as e:
        text = str(e)
    assert text == ("cannot open /dev/no-such-board: no such file or directory (is the board plugged in? "
                    "`playboard ports` lists the serial ports)")
    assert text.count("/dev/no-such-board") == 1


def test_no_answer_names_the_request_not_its_protocol_letter():
    class Silent:
        def write(self, b):
            pass

        def read(self, n):
            return b""

    try:
        BoardLink(Silent(), timeout=0.01, retries=1).request("L", {"from": 0})
    except LinkError as e:
        text = str(e)
    assert text.startswith("no answer from the board to the game list after 2 tries")
    assert " L " not in text


def test_demo_every_must_be_positive(capsys):
    assert main(["demo", "--every", "-3"]) == 2
    assert capsys.readouterr().err == "playboard: --every must be 1 or more, not -3\n"


def test_the_command_line_starts_without_posix_only_modules():
    # as on Windows: no tty, termios, pty or fcntl; every command's options still load
    import subprocess
    import sys

    code = ("import sys\nfor m in ('tty', 'termios', 'pty', 'fcntl'): sys.modules[m] = None\n"
            "from playboard_host.cli import build_parser\n"
            "p = build_parser()\nprint(sorted(p._subparsers._group_actions[0].choices))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "'ports'" in r.stdout and "'sync'" in r.stdout and "'sim'" in r.stdout


def test_the_player_commands_run_without_posix_only_modules(tmp_path):
    # what a Windows user runs (no tty, termios, pty or fcntl in our code; pyserial chooses
    # its own backend by os.name, so it is imported first): ports, perft, replay, and a
    # board port named COM3 that isn't there is one clear line, not a traceback. Only
    # simulated: this machine is Linux; the wheel test installs and runs the command.
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    lib = str(tmp_path / "lib.sqlite")
    code = ("import sys\nimport serial, serial.tools.list_ports\n"
            "for m in ('tty', 'termios', 'pty', 'fcntl'): sys.modules[m] = None\n"
            "from playboard_host.cli import main\n"
            "for argv in (['ports'], ['perft', 'tihbat', '6'], ['replay', sys.argv[1]],\n"
            "             ['sync', '--port', 'COM3', '--library', sys.argv[2]],\n"
            "             ['live', '--port', 'COM3', '--seconds', '1']):\n"
            "    print('rc', main(argv), flush=True)\n")
    r = subprocess.run([sys.executable, "-c", code, os.path.join(root, "tests", "data", "own-games.pgn"), lib],
                       capture_output=True, text=True, timeout=120, cwd=str(tmp_path))
    assert "Traceback" not in r.stderr, r.stderr
    out = r.stdout.splitlines()
    assert [ln for ln in out if ln.startswith("rc ")] == ["rc 0", "rc 0", "rc 0", "rc 2", "rc 2"]
    assert "64" in out  # perft tihbat 6
    assert [ln.split("\t")[1] for ln in out if "\t" in ln] == ["toguz", "tobit", "tobit4", "tihbat"]
    assert r.stderr.count("playboard: cannot open COM3: ") == 2
    assert r.stderr.count("`playboard ports` lists the serial ports") == 2


def test_live_joining_a_game_counts_moves_and_plies_apart():
    # the issue: `live` said "5 moves played" beside "move 3"; a move is both players' plies
    import io

    from playboard_host.commands.live import Follower

    out = io.StringIO()
    f = Follower(out=out, pictures=False)
    f.start("tobit", None, ["7-14", "29-22", "11-18"])
    f.event({"ev": "move", "move": "22-15"})
    lines = out.getvalue().splitlines()
    assert lines[:2] == ["game: tobit; move 2 (3 plies so far), Black to move", "2... 22-15"]
    out.truncate(0)
    out.seek(0)
    f.start("toguz", None, [])
    assert out.getvalue() == "game: toguz; the start (0 plies so far), South to move\n"
