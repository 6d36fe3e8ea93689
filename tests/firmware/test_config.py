"""Board definitions: every shipped one loads; bad ones fail with a clear message; self-test."""
from tlib import raises, heap_lock_check, is_micropython

from playboard.config import load_board, validate_board, list_boards, ConfigError
from playboard.board.layout import read_layout_file, boards_dir
from playboard.sim.open import open_board
from playboard.hw.selftest import SelfTest, sensor_leds, CHASE, SENSORS


def board(**over):
    d = {"name": "t", "backend": "rp2", "n_sensors": 64,
         "sensor": {"kind": "matrix", "rows": [2, 3, 4, 5, 6, 7, 8, 9],
                    "cols": [10, 11, 12, 13, 14, 15, 16, 17]},
         "leds": {"pin": 22, "count": 58}}
    for k, v in over.items():
        d[k] = v
    return d


def message(d):
    return str(raises(ConfigError, validate_board, d, "t"))


def test_shipped_boards_load():
    names = list_boards()
    for want in ("pico-matrix", "pico-165", "pico-165-spi", "pico-hall", "feather-matrix-cp", "sim"):
        assert want in names, names
    for name in names:
        d = load_board(name)
        assert d["name"] == name
        assert d["leds"]["budget_ma"] == 1500
        assert d["scan"]["stable_ms"] == 40


def test_defaults_are_filled():
    d = validate_board(board(), "t")
    assert d["sensor"]["settle_us"] == 10 and d["sensor"]["bank_read"] is True
    assert d["leds"]["order"] == "GRB" and d["leds"]["ma_per_led"] == 60
    assert d["scan"] == {"hz": 100, "stable_ms": 40, "max_on_ms": 5000}
    assert d["pit_select"] == "lift" and d["layout"] == "default"


def test_bad_definitions_name_the_field():
    m = message(board(backend="arduino"))
    assert "board t: backend" in m and "arduino" in m
    m = message(board(sensor={"kind": "matrix", "rows": [2, 3, 25], "cols": [10]}))
    assert "sensor.rows[2]" in m and "GP25" in m
    m = message(board(sensor={"kind": "matrix", "rows": [2, 3], "cols": [3, 4]}))
    assert "sensor.cols[0]" in m and "already used by sensor.rows[1]" in m
    m = message(board(n_sensors=65))
    assert "n_sensors" in m and "reads only 64" in m
    m = message(board(leds={"pin": 10, "count": 58}))
    assert "leds.pin" in m
    m = message(board(leds={"pin": 22, "count": 58, "order": "XYZ"}))
    assert "leds.order" in m
    m = message(board(leds={"pin": 22, "count": 58, "budget_ma": 50}))
    assert "leds.budget_ma" in m
    m = message(board(scan={"hz": 100, "stable_ms": 5}))
    assert "scan.stable_ms" in m
    m = message(board(pit_select="touch"))
    assert "pit_select" in m
    m = message(board(sensor={"kind": "shift_register", "chain": 8, "load": 13, "clk": 14}))
    assert "sensor.data: missing" in m
    m = message(board(sensor={"kind": "hall_mux", "select": [2, 3, 4, 5],
                              "muxes": [{"adc": 26}, {"adc": 26, "en": 7}]}))
    assert "sensor.muxes[0].en" in m
    m = message(board(sensor={"kind": "hall_mux", "select": [2, 3, 4, 5], "muxes": [{"adc": 12}]}))
    assert "ADC" in m
    m = message(board(sensor={"kind": "sim"}))
    assert "sensor.kind" in m
    m = message(board(sensor={"kind": "sim_hall"}))  # the simulated hall board: backend sim only
    assert "sensor.kind" in m and "'rp2'" in m
    sim_leds = {"count": 58}
    m = message(board(backend="sim", leds=sim_leds, sensor={"kind": "sim_hall", "polarity": 2}))
    assert "sensor.polarity" in m and "expected 1 or -1, got 2" in m
    d = validate_board(board(backend="sim", leds=sim_leds, sensor={"kind": "sim_hall"}), "t")
    assert d["sensor"] == {"kind": "sim_hall", "threshold": 2500, "polarity": 1, "calibration": "hall_cal.json"}
    m = message(board(n_sensors="64"))
    assert "n_sensors" in m and "integer" in m


def test_missing_or_broken_files():
    m = str(raises(ConfigError, load_board, "no-such-board"))
    assert "not found" in m
    path = "/tmp/playboard_bad_board.json"
    with open(path, "w") as f:
        f.write("{ nope")
    m = str(raises(ConfigError, load_board, path))
    assert "not valid JSON" in m


def test_every_board_definition_stands_in_on_the_simulated_board():
    # playboard.sim.standin (not the chip's config module): a hardware board's
    # definition on the simulated board keeps its layout, buttons and LEDs, its
    # backend and sensors the simulated board's; a sim board's is as it is
    from playboard.sim.standin import load_stand_in
    names = list_boards()
    for name in names:
        d = load_stand_in(name)
        own = load_board(name, with_layout=False)
        assert d["backend"] == "sim" and d["sensor"]["kind"] in ("sim", "sim_hall"), name
        assert d["name"] == name and d["layout"] == own["layout"], name
        assert d.get("buttons") == own.get("buttons") and d["leds"]["count"] == own["leds"]["count"]
        assert d["n_sensors"] == own["n_sensors"] and "pin" not in d["leds"], name
    d = load_stand_in("pico-matrix-takeback")
    assert d["buttons"] == {"menu": 62, "takeback": 63} and d["module"] == "pico"
    assert d["leds"]["budget_ma"] == 1500 and d["leds"]["supply"] == "sense"  # its supply
    assert load_stand_in("sim-hall")["sensor"]["kind"] == "sim_hall"  # a sim board's own
    import sys  # (load_stand_in imports playboard.config when called: the module loaded
    # now, which an earlier test of the run may have loaded again; its ConfigError)
    e = raises(sys.modules["playboard.config"].ConfigError, load_stand_in, "no-such-board")
    assert "no-such-board" in str(e) and "not found" in str(e)
    assert raises(TypeError, load_board, "pico-matrix", False, True)  # the chip's: no stand-in


def test_self_test_chases_leds_then_shows_sensors():
    cfg = load_board("sim")
    hw = open_board(cfg)
    lay = read_layout_file(boards_dir() + "/layout_default.json")
    sl = sensor_leds(lay, hw.n_sensors)
    assert sl[6] == 26 and sl[40] == 0 and sl[38] == 255
    st = SelfTest(hw, sl, step_ms=100, level=40)
    seen = []
    t = 0
    while st.step(t) == CHASE:
        lit = hw.lit()
        assert len(lit) == 1
        if not seen or seen[-1] != lit[0]:
            seen.append(lit[0])
        if lit[0] == 3:
            assert hw.shown_led(3) == (40, 40, 40)   # red, green, blue, white in turn
        if lit[0] == 5:
            assert hw.shown_led(5) == (0, 40, 0)
        t += 50
    assert seen == list(range(58))
    hw.set_sensor(6, 1)      # Tobit point 7: LED 26
    hw.set_sensor(45, 2)     # Toguz pit 5 (index 5): LED 5, a Black magnet
    hw.set_sensor(38, 1)     # spare input: no LED
    assert st.step(t) == SENSORS
    assert hw.lit() == [5, 26]
    assert hw.shown_led(26) == (0, 40, 0) and hw.shown_led(5) == (0, 0, 40)
    assert st.active == 3 and st.unmapped == 1

    def steps():
        for k in range(20):
            st.step(t + k)

    assert not heap_lock_check(steps)
    if not is_micropython():
        steps()
    assert hw.lit() == [5, 26]


def test_feather_red_led_pin_is_refused_as_a_sensor_line():
    d = board(module="feather_rp2040", backend="circuitpython",
              sensor={"kind": "matrix", "rows": [24, 25, 18, 19, 20, 1, 0, 6],
                      "cols": [7, 8, 9, 10, 11, 12, 13, 29]},
              leds={"pin": 28, "count": 58})
    assert "sensor.cols[6]: GP13 drives the Feather RP2040's red LED" in message(d)
    # the shipped Feather board moved that column to GP26 (A0)
    f = load_board("feather-matrix-cp")
    assert f["module"] == "feather_rp2040" and 13 not in f["sensor"]["cols"]
    assert 26 in f["sensor"]["cols"]
    # GP16 (the Feather's own NeoPixel) is not on its headers
    d["sensor"]["cols"][6] = 16
    assert "GP16 is not a free pin" in message(d)


def _spi(**kw):
    s = {"kind": "shift_register", "chain": 8, "load": 13, "clk": 14, "data": 12,
         "reader": "spi", "spi_id": 1}
    s.update(kw)
    return board(sensor=s)


def test_spi_pads_must_belong_to_the_chosen_spi_block():
    d = validate_board(_spi(), "t")
    assert d["sensor"]["mosi"] == 11          # MicroPython's default MOSI of SPI1, reserved
    assert validate_board(_spi(mosi=15), "t")["sensor"]["mosi"] == 15
    # spi_id 1 with SPI0 pads (GP18 SCK0, GP16 RX0)
    m = message(_spi(clk=18, data=16))
    assert "sensor.clk: GP18 is not an SCK pad of SPI1 (it is SPI0 SCK)" in m, m
    m = message(_spi(spi_id=0))
    assert "sensor.clk: GP14 is not an SCK pad of SPI0 (it is SPI1 SCK)" in m, m
    # data on a pad of the right block but not RX (GP13 is CSn1)
    assert "sensor.data: GP13 is not an RX pad of SPI1" in message(_spi(data=13, load=20))
    # the right block on SPI0: GP18 SCK, GP16 RX; MOSI defaults to GP7
    d = validate_board(_spi(spi_id=0, clk=18, data=16, load=17), "t")
    assert d["sensor"]["mosi"] == 7
    # the default MOSI pin taken by something else: machine.SPI would drive it
    m = message(board(sensor={"kind": "shift_register", "chain": 8, "load": 11, "clk": 14,
                              "data": 12, "reader": "spi", "spi_id": 1}))
    assert "sensor.mosi: GP11 (the MOSI pin machine.SPI drives) already used by sensor.load" in m
    m = message(board(sensor={"kind": "shift_register", "chain": 8, "load": 13, "clk": 14,
                              "data": 12, "reader": "spi", "spi_id": 1, "mosi": 15},
                      leds={"pin": 15, "count": 58}))
    assert "leds.pin: GP15 already used by sensor.mosi" in m, m
    assert "sensor.mosi: GP14 is not a TX (MOSI) pad of SPI1" in message(_spi(mosi=14))
    # the PIO reader uses any pins
    validate_board(_spi(reader="pio", clk=18, data=16), "t")


def test_board_file_brightness_is_optional_and_checked():
    assert validate_board(board(), "t")["leds"]["brightness"] is None
    assert validate_board(board(leds={"pin": 22, "count": 58, "brightness": 120}),
                          "t")["leds"]["brightness"] == 120
    assert "leds.brightness: 300 not in 0..255" in message(
        board(leds={"pin": 22, "count": 58, "brightness": 300}))


def test_board_file_engine_block_is_checked():
    # "engine": {"native": true|false} decides at power-up whether Tobit's native
    # search is loaded (onboard.native_wanted): null crashed the power-up
    # (AttributeError, the board restarting for ever) and "false" or "no", being
    # truthy, loaded it; both now one line naming the field
    assert "engine: expected an object, got None" in message(board(engine=None))
    assert "engine.native: expected true or false, got 'false'" in message(
        board(engine={"native": "false"}))
    assert "engine.native: expected true or false, got 0" in message(board(engine={"native": 0}))
    assert validate_board(board(engine={"native": False}), "t")["engine"] == {"native": False}
    assert validate_board(board(engine={"tt_size": 256}), "t")["engine"] == {"tt_size": 256}


def test_usb_only_power_caps_the_leds():
    # USB gives 500 mA (the image declares bMaxPower 500 mA): the Pico (60) and a reserve
    # (50) leave 390 for a reed board's LEDs; a hall board's +5V has no path from USB:
    # it cannot run from USB only
    d = validate_board(board(leds={"pin": 22, "count": 58, "supply": "usb"}), "t")
    assert d["leds"]["budget_ma"] == 390
    assert validate_board(board(), "t")["leds"]["budget_ma"] == 1500   # the adapter's
    hall = load_board("pico-hall")
    hall["leds"] = {"pin": 22, "count": 58, "supply": "usb"}
    assert "leds.supply: this board cannot run from USB only" in message(hall)
    m = message(board(leds={"pin": 22, "count": 58, "supply": "usb", "budget_ma": 1500}))
    assert "leds.budget_ma: 1500 mA over USB: 500 mA" in m and "at most 390 for the LEDs" in m
    assert "leds.supply: 'mains' not adapter, usb or sense" in message(
        board(leds={"pin": 22, "count": 58, "supply": "mains"}))
