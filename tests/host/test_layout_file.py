"""The committed layout files are exactly what hardware/layout_gen.py makes; the
full-size option's geometry holds what a Toguz Kumalak board must."""
import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_gen():
    spec = importlib.util.spec_from_file_location("layout_gen", os.path.join(ROOT, "hardware", "layout_gen.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_layout_file_is_up_to_date():
    gen = load_gen()
    with open(gen.OUT) as f:
        assert f.read() == gen.dumps(gen.build()), "run python hardware/layout_gen.py"
    with open(gen.path_of(gen.FULL)) as f:
        assert f.read() == gen.dumps(gen.build(gen.FULL)), "run python hardware/layout_gen.py"


def _rect(cell, holes):
    x, y, kind = cell[3], cell[4], cell[5]
    size = holes[kind]
    w, h = (size, size) if not isinstance(size, list) else size
    return x - w / 2, y - h / 2, x + w / 2, y + h / 2


def test_full_size_toguz_panel_holds_its_balls_and_nothing_overlaps():
    import math
    from playboard.board.layout import GAMES, load_layout
    gen = load_gen()
    lay = gen.build(gen.FULL)
    holes = lay["holes_mm"]
    assert holes["pit"] == 70 and lay["depth_mm"]["pit"] == 24     # real boards: 60-80 mm
    ball = 4 / 3 * math.pi * 6 ** 3 / 0.64                          # a 12 mm ball in a heap, mm3
    assert math.pi * 35 ** 2 * lay["depth_mm"]["pit"] >= 40 * ball  # a pit holds 40 balls
    kw, kh = holes["kazan"]
    assert kw * kh * lay["depth_mm"]["kazan"] >= 162 * ball          # a kazan holds all 162
    W, H = lay["size_mm"]
    cells = [c for g in ("toguz", "tobit") for c in lay["games"][g]["cells"]]
    rects = [_rect(c, holes) for c in cells]
    for i, (a0, b0, a1, b1) in enumerate(rects):
        assert 0 < a0 and a1 < W and 0 < b0 and b1 < H, cells[i]
        for j in range(i):
            c0, d0, c1, d1 = rects[j]
            assert a1 <= c0 or c1 <= a0 or b1 <= d0 or d1 <= b0, (cells[i], cells[j])
    # the same cells, sensors and LEDs as the compact board: one wiring for both
    compact = gen.build()
    for g in GAMES:
        assert ([c[:3] for c in lay["games"][g]["cells"]]
                == [c[:3] for c in compact["games"][g]["cells"]])
        assert load_layout(g, "full").size_mm == (840, 660)


def test_tobit_point_numbering_matches_rules():
    gen = load_gen()
    pts = {p: (x, y) for p, x, y in gen.tobit_points(5, 4)}
    assert len(pts) == 38
    assert pts[7] == (1, 1) and pts[14] == (1, 2) and pts[22] == (2, 3) and pts[36] == (3, 5)
    assert len(gen.tobit_points(4, 4)) == 32
