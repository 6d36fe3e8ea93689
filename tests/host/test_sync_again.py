"""`playboard sync` against a board short of heap: a request refused for memory
("memory", nothing lost: a game is acknowledged only once stored) runs the session
again once, with one line; refused again, the command fails with the board's words."""
import pytest

from playboard_host import cli
from playboard_host.commands import sync as sync_cmd
from playboard_host.serial_link import BoardError


def _fake(refusals, calls):
    def session(args, lib):
        calls.append(args.port)
        if len(calls) <= refusals:
            raise BoardError("memory", "out of memory")
        return {}, 2, 1, None, [], {"board": "b1"}
    return session


@pytest.mark.parametrize("refusals", [1, 2])
def test_a_sync_refused_for_memory_is_run_again_once(monkeypatch, tmp_path, capsys, refusals):
    calls = []
    monkeypatch.setattr(sync_cmd, "session", _fake(refusals, calls))
    monkeypatch.setattr(sync_cmd, "AGAIN_S", 0)
    code = cli.main(["sync", "--port", "p", "--library", str(tmp_path / "lib.sqlite"), "-q"])
    out, err = capsys.readouterr()
    assert calls == ["p", "p"] and err.count("syncing again") == 1
    if refusals == 1:  # the second session answers
        assert code == 0 and "synced 2 new games (1 already stored)" in out
    else:  # refused again: the command fails with the board's words
        assert code != 0 and "board refused: memory (out of memory)" in err and "synced" not in out


def test_other_refusals_are_not_asked_again(monkeypatch, tmp_path, capsys):
    calls = []

    def session(args, lib):
        calls.append(1)
        raise BoardError("refused", "the board is locked")
    monkeypatch.setattr(sync_cmd, "session", session)
    code = cli.main(["sync", "--port", "p", "--library", str(tmp_path / "lib.sqlite"), "-q"])
    assert code != 0 and calls == [1]
    assert "syncing again" not in capsys.readouterr().err
