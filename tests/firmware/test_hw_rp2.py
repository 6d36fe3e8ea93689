"""The rp2 backend against fakes of machine/neopixel: pins driven and read in order, LED bytes.

The 74HC165 PIO program is proved in tests/host/test_pio.py (assembled and emulated).
"""
from tlib import raises

from hwfakes import World, install_rp2
from playboard.config import load_board, validate_board
from playboard.hw.open import open_board


def build(name, world, **over):
    cfg = load_board(name)
    for k, v in over.items():
        cfg["sensor"][k] = v
    install_rp2(world)
    return open_board(cfg)


ROWS = [2, 3, 4, 5, 6, 7, 8, 9]
COLS = [10, 11, 12, 13, 14, 15, 16, 17]


def test_matrix_bank_read_scans_rows_in_order():
    w = World()
    b = build("pico-matrix", w)
    assert b.n_sensors == 64 and b.n_leds == 58
    # rows are outputs idling high, columns inputs with pull-ups
    for p in ROWS:
        assert w.mode[p] == "out" and w.level[p] == 1
    for p in COLS:
        assert w.mode[p] == "in" and w.pull[p] == "up"
    w.closed = {(3, 12), (9, 17), (2, 10)}
    w.log = []
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [0, 8 + 2, 63]
    want = []
    for p in ROWS:
        want += [("drive", p, 0), ("sleep_us", 10), ("bank",), ("drive", p, 1)]
    assert w.log == want, w.log[:8]


def test_matrix_pin_by_pin_reads_columns_in_order():
    w = World()
    b = build("pico-matrix", w, bank_read=False, settle_us=0)
    w.closed = {(5, 11), (5, 16)}
    w.log = []
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [3 * 8 + 1, 3 * 8 + 6]
    want = []
    for p in ROWS:
        want.append(("drive", p, 0))
        want += [("read", c) for c in COLS]
        want.append(("drive", p, 1))
    assert w.log == want


def test_matrix_many_pieces_on_one_row_do_not_ghost():
    w = World()
    b = build("pico-matrix", w)
    # an L of three pieces: without diodes (4, 11) would appear too
    w.closed = {(2, 10), (2, 11), (3, 10)}
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [0, 1, 8]


def test_shift_register_over_spi():
    w = World()
    w.load_pin = 13
    # chip k input j is low (active) where a piece stands: sensors 0, 9, 63
    w.chain = [[1] * 8 for _ in range(8)]
    w.chain[0][0] = 0
    w.chain[1][1] = 0
    w.chain[7][7] = 0
    b = build("pico-165-spi", w)
    spi = [e for e in w.log if e[0] == "spi"]
    assert spi == [("spi", 1, 2000000, 0, 0, 8, 0, 14, 12, 15)]   # MOSI named: GP15
    assert w.mode[13] == "out" and w.level[13] == 1
    w.log = []
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [0, 9, 63]
    # latch pulse first, then the read of the whole chain
    assert w.log == [("drive", 13, 0), ("drive", 13, 1), ("spi_read", 8)]


def test_shift_register_inputs_latched_at_the_pulse():
    w = World()
    w.load_pin = 13
    w.chain = [[1] * 8 for _ in range(8)]
    b = build("pico-165-spi", w)
    buf = bytearray(64)
    b.read(buf)
    assert sum(buf) == 0
    w.chain[4][5] = 0
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [37]


def hall_world():
    w = World()
    w.sel_pins = [2, 3, 4, 5]
    w.muxes = [(26, 6), (26, 7), (27, 8), (27, 9)]
    w.quiet()              # the start-up frames unlogged (a small heap): set log = [] to see
    return w


def test_hall_sensors_tell_white_from_black():
    w = hall_world()
    b = build("pico-hall", w)
    # enables idle high (every mux off), select pins low
    assert [w.level[p] for p in (6, 7, 8, 9)] == [1, 1, 1, 1]
    mid = 19859
    w.hall[(0, 3)] = mid + 4000       # sensor 3: north pole -> White
    w.hall[(1, 0)] = mid - 4000       # sensor 16: Black
    w.hall[(3, 15)] = mid + 1000      # sensor 63: under the threshold (2500): empty
    buf = bytearray(64)
    log = _Watch()
    w.log = log
    b.read(buf)
    assert buf[3] == 1 and buf[16] == 2 and buf[63] == 0 and sum(buf) == 3
    # channel by channel: select bits, then each mux enabled alone, the settle time
    # waited with it enabled, read, disabled
    first = log.first
    assert first[:4] == [("drive", 2, 0), ("drive", 3, 0), ("drive", 4, 0), ("drive", 5, 0)]
    assert first[4:9] == [("drive", 6, 0), ("sleep_us", 25), ("adc", 26, 0, 0), ("drive", 6, 1),
                          ("drive", 7, 0)]
    assert log.adcs[:5] == [
        ("adc", 26, 0, 0), ("adc", 26, 1, 0), ("adc", 27, 2, 0), ("adc", 27, 3, 0), ("adc", 26, 0, 1)]
    assert log.n_adc == 64 and log.bad == []


class _Watch:
    """A log that keeps little (the chip's heap): the first 22 entries, the first 5 ADC
    reads, and each read's neighbours checked as they come: enable low, the settle
    time, the read, enable high."""

    def __init__(self):
        self.first = []
        self.adcs = []
        self.n_adc = 0
        self.prev = [None, None]
        self.want_next = None
        self.bad = []

    def append(self, e):
        if len(self.first) < 22:
            self.first.append(e)
        if self.want_next is not None:
            if e != self.want_next and len(self.bad) < 3:
                self.bad.append((self.want_next, e))
            self.want_next = None
        if e[0] == "adc":
            self.n_adc += 1
            if len(self.adcs) < 5:
                self.adcs.append(e)
            en, sl = self.prev
            if not (sl == ("sleep_us", 25) and en[0] == "drive" and en[2] == 0):
                if len(self.bad) < 3:
                    self.bad.append((en, sl, e))
            else:
                self.want_next = ("drive", en[1], 1)
        self.prev[0] = self.prev[1]
        self.prev[1] = e


def test_hall_calibration_and_polarity():
    w = hall_world()
    b = build("pico-hall", w)
    w.quiet()
    w.hall_default = 21000            # this board's sensors rest higher
    w.hall[(2, 5)] = 22500            # a sensor that rests higher still (1.13 V)
    assert b.calibrate(frames=2) == []
    assert b.zero[0] == 21000 and b.zero[37] == 22500
    buf = bytearray(64)
    b.read(buf)
    assert sum(buf) == 0
    w.hall[(2, 5)] = 22500 - 3000
    b.read(buf)
    assert buf[37] == 2
    b.polarity[37] = 255              # this sensor mounted the other way up
    b.read(buf)
    assert buf[37] == 1
    path = "/tmp/playboard_hall_cal.json"
    b.save_calibration(path)
    assert b.calibrated
    b2 = build("pico-hall", w)
    assert not b2.calibrated          # hall_cal.json does not exist in the working folder
    b2.load_calibration(path)
    b2.read(buf)
    assert buf[37] == 1 and b2.zero[37] == 22500
    # the board definition's calibration file is loaded at start-up when it exists
    b3 = build("pico-hall", w, calibration=path)
    assert b3.calibrated and b3.zero[37] == 22500 and b3.polarity[37] == 255
    # a power cut while saving leaves the previous file whole (written aside, renamed)
    import sys
    real_json = sys.modules.get("json")

    class CutJson:
        @staticmethod
        def dump(obj, f):
            f.write('{"zero": [1')
            raise OSError(5)      # the power goes while writing

    sys.modules["json"] = CutJson
    try:
        b3.zero[37] = 20000
        raises(OSError, b3.save_calibration)
    finally:
        if real_json is None:
            del sys.modules["json"]
        else:
            sys.modules["json"] = real_json
    b4 = build("pico-hall", w, calibration=path)
    assert b4.calibrated and b4.zero[37] == 22500 and b4.calibration_error is None
    # a broken file (another cause) never stops the board: uncalibrated, each sensor's
    # own reading its zero, the reason kept; the next save repairs it
    with open(path, "w") as f:
        f.write("{broken")
    b5 = build("pico-hall", w, calibration=path)
    assert not b5.calibrated and "not valid JSON" in b5.calibration_error
    assert b5.zero[0] == 21000
    b5.read(buf)
    assert sum(buf) == 0
    e = raises(ValueError, b5.load_calibration, path)
    assert "not valid JSON" in str(e)
    b5.save_calibration()
    assert b5.calibrated and b5.calibration_error is None
    assert build("pico-hall", w, calibration=path).calibrated


def test_leds_bytes_in_strip_order():
    w = World()
    b = build("pico-matrix", w)
    assert w.mode[22] == "out"
    b.set_led(0, 10, 20, 30)
    b.set_led(57, 255, 0, 1)
    w.log = []
    b.show()
    writes = [e for e in w.log if e[0] == "np_write"]
    assert len(writes) == 1 and writes[0][1] == 22
    data = writes[0][2]
    assert len(data) == 58 * 3
    assert data[0:3] == bytes([20, 10, 30])          # GRB
    assert data[57 * 3:] == bytes([0, 255, 1])
    assert data[3:57 * 3] == bytes(56 * 3)
    cfg = load_board("pico-matrix")
    cfg["leds"]["order"] = "RGB"
    w2 = World()
    install_rp2(w2)
    b2 = open_board(cfg)
    b2.set_led(1, 1, 2, 3)
    b2.show()
    assert [e for e in w2.log if e[0] == "np_write"][0][2][3:6] == bytes([1, 2, 3])


def test_unknown_kind_is_an_error():
    from playboard.hw.rp2 import open_rp2
    cfg = validate_board({"name": "x", "backend": "sim", "n_sensors": 4, "sensor": {"kind": "sim"},
                          "leds": {"count": 2}})
    install_rp2(World())
    raises(ValueError, open_rp2, cfg)
    cfg = load_board("pico-165")          # the PIO reader without an rp2 module
    raises(ValueError, open_rp2, cfg)


def test_reads_and_show_allocate_nothing():
    from hwfakes import install_quiet_rp2
    from tlib import heap_lock_check, is_micropython
    install_quiet_rp2()
    buf = bytearray(64)
    for name, over in (("pico-matrix", {}), ("pico-matrix", {"bank_read": False}),
                       ("pico-165-spi", {}), ("pico-hall", {})):
        cfg = load_board(name)
        for k, v in over.items():
            cfg["sensor"][k] = v
        b = open_board(cfg)
        b.set_led(3, 1, 2, 3)

        def frame():
            b.read(buf)
            b.show()

        assert not heap_lock_check(frame), (name, over)
        if not is_micropython():
            frame()
        if name == "pico-165-spi":
            assert [i for i in range(64) if buf[i]] == [8 * k for k in range(8)]
        if name == "pico-hall":
            assert sum(buf) == 64          # 30000 - 19859 > 2500: every sensor reads White


def test_matrix_with_fewer_sensors_than_crossings():
    w = World()
    cfg = load_board("pico-matrix")
    cfg["n_sensors"] = 60
    install_rp2(w)
    b = open_board(cfg)
    w.closed = {(9, 13), (9, 17)}      # sensor 59 and (past the end) 63
    buf = bytearray(61)
    buf[60] = 7
    b.read(buf)
    assert [i for i in range(60) if buf[i]] == [59] and buf[60] == 7


def test_hall_read_waits_for_a_slowly_settling_sensor():
    # DRV5053 outputs that need 20 us to charge the mux and ADC (13-25 us by the
    # datasheet's 300 uA): a checkerboard of strong White and Black pieces, every
    # neighbour read on the same ADC pulling the other way
    mid = 19859
    want = bytearray(64)
    for i in range(64):
        if i % 3 == 0:
            want[i] = 1 + (i // 3) % 2
    def world():
        w = hall_world()
        w.hall_settle_us = 20
        return w
    w = world()
    b = build("pico-hall", w)
    for i in range(64):
        w.hall[divmod(i, 16)] = mid + (6000 if want[i] == 1 else -6000 if want[i] == 2 else 0)
    buf = bytearray(64)
    b.read(buf)
    assert buf == want
    # the same sensors read at once after the switch (the old order: settle while every
    # multiplexer was off, enable, read at once) see the previous sensor's voltage
    w2 = world()
    b2 = build("pico-hall", w2, settle_us=0)
    w2.hall = dict(w.hall)
    b2.read(buf)
    assert buf != want and sum(1 for i in range(64) if buf[i] != want[i]) > 20


def test_uncalibrated_hall_board_takes_each_sensor_own_zero():
    # the datasheet allows 0.90-1.15 V at zero field: sensors resting at 0.92 V and
    # 1.13 V are empty, not pieces (a fixed 1.0 V reference with a 2500 threshold
    # saw phantoms there)
    w = hall_world()
    w.hall[(0, 1)] = 18200                 # 0.92 V
    w.hall[(1, 2)] = 22500                 # 1.13 V
    w.hall[(2, 3)] = 30000                 # a piece standing there at power-up
    b = build("pico-hall", w)
    assert not b.calibrated
    assert b.zero[1] == 18200 and b.zero[18] == 22500 and b.zero[35] == b.MID
    buf = bytearray(64)
    b.read(buf)
    assert [i for i in range(64) if buf[i]] == [35]
    w.hall[(2, 3)] = 19859                 # the piece lifted: all empty
    b.read(buf)
    assert sum(buf) == 0
    # calibration keeps its own zero, refuses an out-of-window sensor (a magnet near)
    w.hall[(3, 0)] = 26000
    assert b.calibrate(frames=2) == [48]
    assert b.zero[48] == 19859


def test_hall_settle_time_too_short_for_a_drv5053_is_refused():
    cfg = load_board("pico-hall")
    assert cfg["sensor"]["settle_us"] == 25
    import json
    with open(_boards() + "/pico-hall.json") as f:
        d = json.load(f)
    d["sensor"]["settle_us"] = 5
    e = raises(ValueError, validate_board, d, "pico-hall")      # a ConfigError
    assert "sensor.settle_us: 5 not in 13..1000" in str(e)


def _boards():
    from tlib import ROOT  # (the source's: a frozen firmware's boards_dir() is no folder here)
    return ROOT + "/firmware/boards"


def test_guided_calibration_waits_for_a_clear_board_then_saves():
    from playboard.hw.calibrate import GuidedCalibration, WAIT, MEASURE, DONE
    w = hall_world()
    path = "/tmp/playboard_hall_cal2.json"
    try:
        import os
        os.remove(path)
    except OSError:
        pass
    b = build("pico-hall", w, calibration=path)
    assert not b.calibrated
    sl = bytearray(b"\xff" * 64)
    for s in range(56):
        sl[s] = s                        # sensors 56..63: spare channels, no LED
    w.hall[(0, 4)] = 30000               # a piece still on sensor 4
    w.hall[(3, 10)] = 0                  # a spare channel (10 k to ground): not judged
    w.hall[(1, 1)] = 21500               # sensor 17 rests at 1.08 V
    cal = GuidedCalibration(b, sl, frames=4, quiet_ms=1000, timeout_ms=20000)
    t = 0
    for _ in range(30):
        assert cal.step(t) == WAIT
        t += 100
    assert b.leds[3 * 4:3 * 4 + 3] == bytearray((48, 0, 0))     # shown red
    w.hall[(0, 4)] = 19000               # lifted
    while cal.step(t) == WAIT:
        t += 100
    assert 1000 <= t - 3000 <= 1200
    while cal.step(t) == MEASURE:
        t += 100
    s = cal.summary()
    assert s == {"saved": True, "checked": 56, "bad": [], "pass": True}
    assert b.calibrated and b.zero[17] == 21500 and b.zero[4] == 19000
    assert b.zero[58] == b.MID           # the spare channel left alone
    b2 = build("pico-hall", w, calibration=path)
    assert b2.calibrated and b2.zero[17] == 21500
    # a dead sensor (output at ground) is refused and switched off: no phantom piece
    w.hall[(2, 2)] = 100
    cal = GuidedCalibration(b2, sl, frames=2, quiet_ms=500, timeout_ms=2000, save=False)
    t = 0
    while cal.step(t) != DONE:
        t += 100
    assert cal.summary()["bad"] == [34] and not cal.summary()["pass"]
    assert 2000 <= t <= 2300
    buf = bytearray(64)
    b2.read(buf)
    assert buf[34] == 0 and b2.threshold[34] == 65535
