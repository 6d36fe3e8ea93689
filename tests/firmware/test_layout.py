"""The default physical layout: every game's cells, sensors, LEDs and positions."""
from tlib import raises

from playboard.board.layout import load_layout, LayoutError, Layout, GAMES
from playboard.games.registry import new_game


def test_every_game_has_its_cells():
    want = {"tobit": list(range(1, 39)), "tobit4": list(range(1, 33)),
            "toguz": list(range(20)), "tihbat": list(range(6))}
    for game in GAMES:
        lay = load_layout(game)
        assert sorted(lay.cells) == want[game], game
        for c in lay.cells:
            x, y = lay.xy_mm(c)
            w, h = lay.size_mm
            assert 0 < x < w and 0 < y < h
            assert 0 <= lay.led_of(c) < 58
            s = lay.sensor_of(c)
            if lay.kind(c) in ("point", "pit"):
                assert 0 <= s < 64 and lay.cell_of_sensor(s) == c
            else:
                assert s == -1
            assert lay.cell_of_led(lay.led_of(c)) == c


def test_tobit_points_sit_on_the_rules_geometry():
    for game in ("tobit", "tobit4"):
        g = new_game(game)
        lay = load_layout(game)
        assert g.n_points == len(lay.cells)
        for p in range(1, g.n_points + 1):
            x, y = g.xy(p)
            assert lay.xy_mm(p) == (80 + 40 * x, 240 + 40 * y), (game, p)
            assert lay.kind(p) == "point"
    # 4 x 4 reuses the 5 x 4 board's sensors at the same places
    big = load_layout("tobit")
    small = load_layout("tobit4")
    for p in small.cells:
        q = big.cell_of_sensor(small.sensor_of(p))
        assert big.xy_mm(q) == small.xy_mm(p)
    assert big.sensor_of(7) == 6 and big.led_of(7) == 26 and big.xy_mm(7) == (120, 280)


def test_pits_run_counter_clockwise():
    lay = load_layout("toguz")
    for i in range(18):
        j = (i + 1) % 18
        (x0, y0), (x1, y1) = lay.xy_mm(i), lay.xy_mm(j)
        if i < 8:
            assert y1 == y0 == 40 and x1 == x0 + 40
        elif i == 8 or i == 17:
            assert x1 == x0 and y1 != y0          # the turn at the ends
        else:
            assert y1 == y0 == 160 and x1 == x0 - 40
    # South's kazan on South's half of the centre band
    assert lay.kind(18) == "kazan" and lay.kind(19) == "kazan"
    tih = load_layout("tihbat")
    order = [tih.xy_mm(c) for c in (0, 1, 2, 3)]
    assert order == [(200, 40), (240, 40), (240, 160), (200, 160)]
    for c in range(4):
        assert lay.cell_of_sensor(tih.sensor_of(c)) >= 0   # same sensors as Toguz pits
    assert tih.led_of(4) == lay.led_of(18) and tih.led_of(5) == lay.led_of(19)


def test_led_chain_is_short_between_neighbours():
    # the serpentine chain: consecutive LEDs at most one pitch and a turn apart
    pos = {}
    for game in ("tobit", "toguz"):
        lay = load_layout(game)
        for c in lay.cells:
            pos[lay.led_of(c)] = lay.xy_mm(c)
    assert sorted(pos) == list(range(58))
    for k in range(57):
        (x0, y0), (x1, y1) = pos[k], pos[k + 1]
        assert abs(x1 - x0) + abs(y1 - y0) <= 200, (k, pos[k], pos[k + 1])


def test_occupancy_maps_sensors_to_cells():
    lay = load_layout("tobit")
    stable = bytearray(64)
    stable[0] = 1     # point 1
    stable[37] = 2    # point 38
    stable[50] = 1    # a Toguz pit: not a Tobit cell
    out = bytearray(lay.n_cells)
    lay.occupancy(stable, out)
    assert out[1] == 1 and out[38] == 2 and sum(out) == 3
    assert lay.cell_of_sensor(50) == -1 and lay.cell_of_sensor(99) == -1


def test_bad_layouts_are_rejected_clearly():
    raises(LayoutError, load_layout, "chess")
    raises(LayoutError, load_layout, "tobit", "nosuchboard")
    e = raises(LayoutError, Layout, "tobit", "t", [[1, 0, 0, 10, 10, "point"],
                                                   [2, 0, 1, 20, 10, "point"]], 8, 8)
    assert "sensor 0" in str(e)
    e = raises(LayoutError, Layout, "tobit", "t", [[1, 9, 0, 10, 10, "point"]], 8, 8)
    assert "sensor 9" in str(e)
    raises(LayoutError, Layout, "tobit", "t", [[1, 0, 0, 10, 10, "hole"]], 8, 8)
    raises(LayoutError, Layout, "tobit", "t", [[1, 0, 0, 10]], 8, 8)
    lay = load_layout("tihbat")
    raises(IndexError, lay.sensor_of, 6)
