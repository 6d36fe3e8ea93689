"""serial_link.BoardLink against the firmware's Link in-process: retries, lost answers,
console text, errors, timeouts; and finding the board by its USB id."""
import types

import pytest

from playboard import link as proto
from playboard.record import Store
from playboard_host import serial_link
from playboard_host.serial_link import BoardError, BoardLink, LinkTimeout

from fakeflash import FakeFs  # tests/firmware, on the path by conftest.py


class App:
    def __init__(self):
        self.set_calls = 0

    def link_set_game(self, req):
        self.set_calls += 1
        return {"game": req["game"], "n": self.set_calls}


class Wire:
    """The PC's end of a cable to an in-process board. ``lose``: answers to drop
    (counted from 1); ``console``: text the board prints before each answer."""

    def __init__(self, lose=(), console=b""):
        fs = FakeFs()
        self.store = Store("/games", fs=fs)
        self.store.new_game("toguz")
        self.store.add_move("76")
        self.store.finish("1-0")
        self.app = App()
        self.inbox = bytearray()
        self.out = bytearray()
        self.link = proto.Link(self, self.store, app=self.app, interrupt=None)
        self.lose = set(lose)
        self.answers = 0
        self.console = console

    # the board's transport
    def read_into(self, buf):
        n = min(len(buf), len(self.inbox))
        buf[0:n] = self.inbox[0:n]
        del self.inbox[0:n]
        return n

    def write(self, data):
        self.answers += 1
        if self.answers not in self.lose:
            self.out.extend(self.console + bytes(data))

    # the PC's serial port
    def pc_write(self, data):
        self.inbox.extend(data)
        self.link.poll()

    def pc_read(self, n):
        d = bytes(self.out[:n])
        del self.out[:n]
        return d


def _pc(wire, **kw):
    s = types.SimpleNamespace(write=wire.pc_write, read=wire.pc_read)
    return BoardLink(s, timeout=kw.get("timeout", 0.05), retries=kw.get("retries", 3), alive=kw.get("alive"),
                     patience=kw.get("patience", serial_link.SIM_PATIENCE_S))


def test_lost_answer_is_resent_not_redone():
    w = Wire(lose={1})
    pc = _pc(w)
    assert pc.set_game(game="tihbat") == {"game": "tihbat", "n": 1}
    assert w.app.set_calls == 1 and w.answers == 2


def test_console_text_between_frames_is_kept_aside():
    w = Wire(console=b">>> print('hi')\r\nhi\r\n")
    pc = _pc(w)
    assert pc.hello()["proto"] == proto.PROTOCOL
    assert b"hi\r\n" in bytes(pc.console)


def test_errors_and_timeouts():
    w = Wire()
    pc = _pc(w)
    with pytest.raises(BoardError) as e:
        pc.set_settings(level=99)
    assert e.value.code == "refused"
    silent = types.SimpleNamespace(write=lambda d: None, read=lambda n: b"")
    with pytest.raises(LinkTimeout):
        BoardLink(silent, timeout=0.01, retries=1).hello()
    w2 = Wire(lose={1, 2, 3, 4, 5})
    with pytest.raises(LinkTimeout):
        _pc(w2, retries=2).status()


class LateWire(Wire):
    """A board that gets the CPU late (a simulated board on a loaded machine): it
    reads nothing the PC sends until the PC's ``late``-th write, then answers all."""

    def __init__(self, late):
        super().__init__()
        self.late = late
        self.writes = 0

    def pc_write(self, data):
        self.writes += 1
        self.inbox.extend(data)
        if self.writes >= self.late:
            self.link.poll()


def test_a_simulated_board_answering_late_is_waited_for_while_it_runs():
    # its first answer comes after the 6th hello: past a real board's 4 tries
    w = LateWire(6)
    runs = []

    def alive():
        runs.append(1)
        return True

    pc = _pc(w, alive=alive)
    assert pc.hello()["proto"] == proto.PROTOCOL
    assert w.writes == 6 and len(runs) == 5  # asked after each try that ran out
    assert w.answers == 6  # one answer a hello read (each the same, from the first)
    assert pc.status()["games"] == 1  # the stale answers to the resent hellos skipped
    # a real board's port (no alive): the same late board is 4 tries and a clear line
    w = LateWire(6)
    with pytest.raises(LinkTimeout) as e:
        _pc(w).hello()
    assert w.writes == 4
    assert str(e.value).startswith("no answer from the board to hello after 4 tries (is the Playboard app")
    # (a new user's report, item 19: the port held by `playboard hall` meanwhile)
    assert str(e.value).endswith("the port may be in use by another program, such as playboard hall or "
                                 "live: stop it first)")


def test_a_simulated_board_that_has_ended_is_not_waited_for():
    w = LateWire(99)
    states = [True, False]
    with pytest.raises(LinkTimeout) as e:
        _pc(w, alive=lambda: bool(states) and states.pop(0), retries=5).hello()
    assert w.writes == 2  # not the 6 tries a running one gets at least
    assert str(e.value) == ("no answer from the simulated board to hello: its firmware is not running "
                            "(its firmware.stderr may say why)")
    # one still running but never answering: waited for ``patience`` seconds, then a clear line
    w = LateWire(10 ** 6)
    with pytest.raises(LinkTimeout) as e:
        _pc(w, alive=lambda: True, patience=0.2).status()
    assert w.writes >= 4 and str(e.value).startswith("no answer from the simulated board to status in ")
    assert str(e.value).endswith("tries), its firmware running all along")


def test_fetch_game_checks_the_records():
    w = Wire()
    pc = _pc(w)
    games = pc.list_games()
    assert games == [{"id": 1, "game": "toguz", "size": w.store.size(1), "finished": True, "result": "1-0"}]
    rec, raw = pc.fetch_game(1)
    assert rec.moves == ["76"] and len(raw) == w.store.size(1)


def test_find_port_by_vid_pid(monkeypatch):
    from serial.tools import list_ports

    ports = [types.SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001),
             types.SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A, pid=0x0005),
             types.SimpleNamespace(device="/dev/ttyACM0", vid=None, pid=None)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert serial_link.find_port() == "/dev/ttyACM1"
    assert serial_link.find_port("0403:6001") == "/dev/ttyUSB0"
    assert serial_link.find_port("1234:5678") is None
    with pytest.raises(serial_link.LinkError) as e:
        serial_link.open_port(None, "1234:5678")
    assert "--port" in str(e.value)


def test_find_port_takes_circuitpythons_data_channel(monkeypatch):
    """A CircuitPython board with usb_cdc.data on has two serial ports: the link's is the
    one whose interface is "CircuitPython CDC2 control", not the REPL's (listed first)."""
    from serial.tools import list_ports

    ports = [types.SimpleNamespace(device="/dev/ttyACM0", vid=0x239A, pid=0x80F4, interface="CircuitPython CDC control"),
             types.SimpleNamespace(device="/dev/ttyACM1", vid=0x239A, pid=0x80F4, interface="CircuitPython CDC2 control"),
             types.SimpleNamespace(device="/dev/ttyACM2", vid=0x2E8A, pid=0x0005, interface=None)]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert serial_link.find_port("239a:80f4") == "/dev/ttyACM1"
    assert serial_link.find_port() == "/dev/ttyACM2"
    monkeypatch.setattr(list_ports, "comports", lambda: ports[:1])
    assert serial_link.find_port("239a:80f4") == "/dev/ttyACM0"  # (data channel off: the console's)


def test_the_simulated_boards_port_is_waited_for_while_its_process_runs(board, tmp_path):
    from playboard_host.simboard import micropython_binary

    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")
    b = board()
    b.start("sim", fs_dir=str(tmp_path / "flash"))
    assert serial_link.SIMULATED_PORTS[b.port] == b.alive
    args = types.SimpleNamespace(port=b.port, vid_pid=serial_link.DEFAULT_VID_PID, timeout=2.0)
    link, hello = serial_link.connect(args)  # (the board answers between control commands)
    assert hello["board"] == "sim" and link.alive == b.alive
    link.close()
    b.kill()  # its process gone: the link says so after one try, not after a minute
    link = BoardLink(serial_link.open_port(b.port), timeout=0.05, alive=serial_link.SIMULATED_PORTS[b.port])
    with pytest.raises(LinkTimeout, match="its firmware is not running"):
        link.hello()
    link.close()
    b.stop()
    assert b.port not in serial_link.SIMULATED_PORTS
