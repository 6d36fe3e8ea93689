"""The committed default layout file is exactly what hardware/layout_gen.py makes."""
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


def test_tobit_point_numbering_matches_rules():
    gen = load_gen()
    pts = {p: (x, y) for p, x, y in gen.tobit_points(5, 4)}
    assert len(pts) == 38
    assert pts[7] == (1, 1) and pts[14] == (1, 2) and pts[22] == (2, 3) and pts[36] == (3, 5)
    assert len(gen.tobit_points(4, 4)) == 32
