"""What sync and boards say of a self-test that found every sensor dead (a new user's
report, item 10: "56 sensor failing its self-tests ... (sensor 50, ..., 57)": the count
and the list disagreed, nothing said the list was cut). The real firmware on the
simulated board, through the CLI."""
import pytest

from playboard_host import checks, cli
from playboard_host.simboard import SimBoard, micropython_binary

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")


def test_sync_and_boards_say_the_faulty_list_is_cut_and_count_in_good_english(tmp_path, monkeypatch, capsys):
    b = SimBoard()
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"))
        b.advance(500)
        monkeypatch.setattr(checks, "sleep", lambda seconds: b.advance(int(seconds * 1000)))
        port = ["--port", b.port, "--timeout", "3"]
        assert cli.main(["selftest", "--seconds", "5"] + port) == 1  # nobody visits a sensor
        assert "56 sensors checked, 0 ok" in capsys.readouterr().out
        b.advance(6000)
        lib = ["--library", str(tmp_path / "lib.sqlite")]
        assert cli.main(["sync"] + port + lib) == 0
        out, err = capsys.readouterr()
        line = [ln for ln in (out + err).splitlines() if "since the last sync" in ln]
        assert line == ["board sim: 56 sensors failing a self-test since the last sync (the last 8 kept: "
                        "sensors 50, 51, 52, 53, 54, 55, 56, 57) (playboard boards)"], out + err
        assert cli.main(["boards"] + lib) == 0
        row = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("sim ")]
        assert len(row) == 1 and row[0].split()[-6:] == ["(the", "last", "8", "of", "56", "kept)"], row
        assert "50 self-test, 51 self-test" in row[0] and "57 self-test (the last" in row[0]
    finally:
        b.stop()


def test_one_faulty_sensor_is_named_in_the_singular():
    from playboard_host.commands.sync import health_line
    from playboard_host.stats import faulty_text

    h = {"selftest": 1, "faulty": [[44, 4]]}
    assert health_line("b1", h) == ("board b1: 1 sensor failing a self-test since the last sync "
                                    "(sensor 44) (playboard boards)")
    assert faulty_text([[44, 4]], 1) == "44 self-test"
