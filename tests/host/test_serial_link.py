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
    return BoardLink(s, timeout=kw.get("timeout", 0.05), retries=kw.get("retries", 3))


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
