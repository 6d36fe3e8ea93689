"""A board's port held by one playboard command (the hall, `live`, a sync) is refused to a
second one in one line at once: two programs reading one port stole each other's answers
("no answer to hello", "device disconnected or multiple access on port", a hall's drop),
and the hall started with a port pattern followed other programs' boards."""
import os

import pytest

from playboard_host.cli import main
from playboard_host.serial_link import LinkError, open_port

pytestmark = pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal stands in for the board's port")


@pytest.fixture
def pty_port():
    master, slave = os.openpty()
    try:
        yield os.ttyname(slave)
    finally:
        os.close(master)
        os.close(slave)


def test_a_port_already_open_is_refused_in_one_line_and_free_again_once_closed(pty_port):
    first = open_port(pty_port)
    try:
        with pytest.raises(LinkError) as e:
            open_port(pty_port)
        assert str(e.value) == ("cannot open %s: another program has it open (playboard hall, live or sync?): "
                                "stop it first; while the hall follows a board, sync it through the hall "
                                "(hall --sync)" % pty_port)
    finally:
        first.close()
    open_port(pty_port).close()  # free again


def test_sync_on_a_port_the_hall_holds_is_one_line(pty_port, tmp_path, capsys):
    held = open_port(pty_port)
    try:
        assert main(["sync", "--port", pty_port, "--library", str(tmp_path / "lib.sqlite")]) == 2
    finally:
        held.close()
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "another program has it open" in err, err
