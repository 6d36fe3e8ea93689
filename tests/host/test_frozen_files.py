"""The image carries the firmware's data files (host_tools/playboard_host/frozen_data.py
writes playboard/frozen_files.py, firmware/manifest.py freezes it): the firmware reads a
board definition, a layout or the Tihbat table from there where the filesystem has none,
and a file on the filesystem wins (a maker's own board definition)."""
import os
import sys
import types

import pytest

from playboard_host import frozen_data

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def frozen(monkeypatch):
    """The generated module installed as playboard.frozen_files (as in the image)."""
    mod = types.ModuleType("playboard.frozen_files")
    exec(compile(frozen_data.text(), "frozen_files.py", "exec"), mod.__dict__)
    monkeypatch.setitem(sys.modules, "playboard.frozen_files", mod)
    return mod


def _read(rel):
    with open(os.path.join(ROOT, "firmware", rel), "rb") as f:
        return f.read()


def test_the_module_holds_every_board_definition_layout_and_table_byte_for_byte(frozen):
    names = sorted(f for f in os.listdir(os.path.join(ROOT, "firmware", "boards")) if f.endswith(".json"))
    assert len(names) >= 9
    for f in names:
        assert frozen.get("/boards/" + f) == _read("boards/" + f)
    assert frozen.get("x/y/data/tihbat.tbl") == _read("data/tihbat.tbl")
    assert len(frozen.get("data/tihbat.tbl")) == 38328
    assert frozen.get("boards/nothing.json") is None and frozen.get("tihbat.tbl") is None
    assert "sim" in frozen.BOARDS and "pico-matrix" in frozen.BOARDS
    assert not [b for b in frozen.BOARDS if b.startswith("layout_")]


def test_the_firmware_reads_them_where_flash_has_none_and_a_file_on_flash_wins(frozen, monkeypatch, tmp_path):
    from playboard import config
    from playboard.board import layout
    from playboard.compat import frozen_file
    from playboard.engine import tihbat_table as tt

    assert frozen_file("/boards/pico-hall.json") == _read("boards/pico-hall.json")
    monkeypatch.setattr(layout, "boards_dir", lambda: str(tmp_path / "boards"))  # no such folder
    cfg = config.load_board("pico-165")  # and its layout, read from the image too
    assert cfg["name"] == "pico-165"
    assert config.list_boards() == sorted(frozen.BOARDS)
    with pytest.raises(config.ConfigError, match="not found"):
        config.load_board("no-such-board")
    # a maker's own definition on flash, and one of the same name as the image's: the file wins
    (tmp_path / "boards").mkdir()
    mine = _read("boards/pico-165.json").replace(b'"name": "pico-165"', b'"name": "mine"')
    (tmp_path / "boards" / "mine.json").write_bytes(mine)
    (tmp_path / "boards" / "pico-165.json").write_bytes(mine)
    assert config.load_board("mine")["name"] == "mine"
    assert config.load_board("pico-165")["name"] == "mine"
    assert "mine" in config.list_boards() and "sim" in config.list_boards()
    # the Tihbat table: the image's bytes where the file is missing, the same values
    rom = tt.Table(str(tmp_path / "data" / "tihbat.tbl"))
    disk = tt.Table()
    assert rom._rom is not None and disk._rom is None
    for b in ((7, 7, 7, 7), (1, 1, 0, 0), (2, 0, 0, 0), (0, 2, 0, 0), (3, 5, 1, 9)):
        assert rom.lookup(*b) == disk.lookup(*b)
    rom.close()
    disk.close()
    with pytest.raises(OSError):
        tt.Table(str(tmp_path / "tihbat.tbl"))  # not a data/ file: nothing in the image


def test_the_generator_leaves_an_unchanged_module_alone(tmp_path):
    assert frozen_data.main([str(tmp_path)]) == 0
    out = tmp_path / "playboard" / "frozen_files.py"
    t0 = out.stat().st_mtime_ns
    assert frozen_data.main([str(tmp_path)]) == 0
    assert out.stat().st_mtime_ns == t0  # (make rebuilds nothing when nothing changed)
