"""`playboard sim --pico`'s console and board files, without the emulator (the
emulator itself: tests/rp2/test_pico.py)."""
import io
import json

import pytest

from playboard_host.pico import console, frame_rgb, matrix_args


class FakePico:
    def __init__(self):
        self.cfg = {"n_sensors": 64}
        self.sets = []
        self.leds = [(0, 0, 0), (0, 17, 0), (0, 0, 0)]
        self.led_frames = 7
        self.time_us = 2500000
        self.busy_us = 500000
        self.resets = [(1200000, "timer")]

    def set_closed(self, idx, at_us=None):
        self.sets.append((sorted(idx), at_us))


def test_console_commands_and_bad_input_one_line_each():
    p = FakePico()
    out = io.StringIO()
    c = console.Console(p, out)
    assert c.command("close 40 41")
    assert c.command("open 41")
    assert p.sets == [([40, 41], None), ([40], None)]
    assert c.command("tap 42 200")
    assert p.sets[-2:] == [([40, 42], 2520000), ([40], 2720000)]
    n = len(p.sets)
    for bad in ("close 64", "close x", "tap", "open", "jump 3", "close '40"):
        assert c.command(bad)
    assert len(p.sets) == n                       # bad input changed nothing
    errors = [ln for ln in out.getvalue().splitlines() if ln.startswith("error:")]
    assert len(errors) == 6 and "sensor 64 is not on this board (0..63)" in errors[0]
    out.truncate(0)
    out.seek(0)
    c.command("leds")
    c.command("time")
    assert out.getvalue().splitlines() == [
        "frame 7: 1: 0,17,0",
        "emulated 2.50 s, busy 0.50 s, watchdog resets: 1.20 s (timer)"]
    assert not c.command("quit")


def test_board_files_and_wiring(tmp_path):
    mine = dict(json.load(open(console.os.path.join(console.pico.ROOT, "firmware", "boards", "pico-matrix.json"))),
                name="my-board")
    f = tmp_path / "mine.json"
    f.write_text(json.dumps(mine))
    cfg, extra = console.load_board_file("unused", None, str(f))
    assert cfg["name"] == "my-board" and extra["board.txt"] == b"my-board"
    assert json.loads(extra["boards/my-board.json"]) == mine
    assert matrix_args(cfg) == ["--matrix", "2,3,4,5,6,7,8,9:10,11,12,13,14,15,16,17", "--leds", "22"]
    with pytest.raises(ValueError, match="no board definition 'nope'"):
        console.load_board_file(console.os.path.join(console.pico.ROOT, "firmware"), "nope", None)
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="can't read the board definition"):
        console.load_board_file("unused", None, str(tmp_path / "bad.json"))
    # WS2812 wire bytes in GRB order back to (r, g, b); a partial pixel dropped
    assert frame_rgb(bytes([1, 2, 3, 4, 5, 6, 7]), "GRB") == [(2, 1, 3), (5, 4, 6)]


def test_sim_pico_runs_the_product_image_when_built_else_says_it_runs_the_stock_one(tmp_path, monkeypatch):
    """`playboard sim --pico` picks the product image (``make uf2``'s, here
    $PLAYBOARD_FROZEN_UF2) where it is built; the stock image and the .mpy deploy when
    asked (``--stock`` or a ``--uf2``), or when the product image is absent: with a
    line that says so and how to build it."""
    product = tmp_path / "playboard-pico.uf2"
    product.write_bytes(b"UF2")
    monkeypatch.setenv("PLAYBOARD_FROZEN_UF2", str(product))
    assert console.pick_image() == (str(product), True, None)
    assert console.pick_image(stock=True) == (None, False, None)
    assert console.pick_image(uf2="/my/stock.uf2") == ("/my/stock.uf2", False, None)
    monkeypatch.setenv("PLAYBOARD_FROZEN_UF2", str(tmp_path / "absent.uf2"))
    uf2, frozen, note = console.pick_image()
    assert (uf2, frozen) == (None, False)
    assert "make uf2" in note and "stock MicroPython" in note and "\n" not in note


def test_sim_options_of_the_emulated_pico_alone_are_refused_in_one_line(capsys):
    from playboard_host import cli
    for argv in (["sim", "--stock"], ["sim", "--uf2", "x.uf2"]):
        assert cli.main(argv) != 0
        err = capsys.readouterr().err
        assert "add --pico" in err and len(err.strip().splitlines()) == 1, err


def test_sim_pico_passes_its_image_choice_to_the_console(monkeypatch):
    from playboard_host import cli
    seen = []
    monkeypatch.setattr(console, "run", lambda board, board_file, **kw: seen.append((board, kw)) or 0)
    assert cli.main(["sim", "--pico"]) == 0
    assert cli.main(["sim", "--pico", "--stock", "--board", "pico-165"]) == 0
    assert [(b, kw["stock"], kw["uf2"]) for b, kw in seen] == [("pico-matrix", False, None), ("pico-165", True, None)]
