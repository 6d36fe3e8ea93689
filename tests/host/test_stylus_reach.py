"""The hall board's stylus through its deep pits (hardware/stylus.py): over a pit full
to its brim the 10 x 20 mm N42 magnet still gives the DRV5053 twice the field the
firmware's threshold needs at its lowest sensitivity, and the nearest other sensor
stays under its threshold with the stylus on a pit's floor; the field model is the
cylinder's exact axial solution, and a deeper pit or a smaller magnet is caught."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "hardware"))

import stylus  # noqa: E402


def test_the_field_model_matches_the_magnets_known_figures():
    # at the face of a long magnet the axial field tends to Br / 2 (640 mT for N42's 1.28 T)
    assert 600 < stylus.axial_mt(0.0, 10.0, 200.0) < 640
    # a 10 x 20 mm N42 rod: about 620 mT at its face, 6.3 mT at 28.5 mm
    assert 610 < stylus.axial_mt(0.0) < 630
    assert 6.0 < stylus.axial_mt(28.5) < 6.5
    # far away the exact solution and the dipole agree (on the axis: 2 Br V / (4 pi r^3))
    z = 200.0
    assert abs(stylus.axial_mt(z) / stylus.dipole_vertical_mt(0.0, z + 10.0) - 1) < 0.02


def test_the_stylus_reaches_its_sensor_over_a_full_pit_and_spares_the_next():
    r = stylus.reach("pico-hall")
    # the threshold (2500 of 65535 at 3.3 V: 126 mV) at -45 mV/mT less 10 %: 3.1 mT
    assert 3.0 < r["operate_mt"] < 3.2
    # 24 mm of balls, 3.5 mm of plywood under the pit's floor, the element 1 mm in
    assert r["far_mm"] == 24 + 3.5 + 1.0
    assert r["margin"] >= 1.5, r
    assert r["neighbour_mm"] == 40 and r["release_margin"] >= 1.5, r


def test_a_deeper_pit_or_a_smaller_magnet_is_caught(monkeypatch):
    import generate
    monkeypatch.setitem(generate.STACK, "top", 30.0)          # 24 mm more plywood
    assert stylus.reach("pico-hall")["margin"] < 1.0
    monkeypatch.setitem(generate.STACK, "top", 6.0)
    monkeypatch.setattr(stylus, "MAGNET_L_MM", 3.0)          # an 8 x 3 piece magnet's size
    monkeypatch.setattr(stylus, "MAGNET_D_MM", 8.0)
    assert stylus.reach("pico-hall")["margin"] < 1.0
    with pytest.raises(ValueError):
        stylus.reach("pico-matrix")
