"""Debounce on the simulated board: one change per bounce, stuck and chattering sensors."""
from tlib import heap_lock_check, raises, is_micropython

from playboard.board.debounce import Debouncer, CHATTER, STUCK, OK
from playboard.sim.hw import SimBoard


def run(board, deb, raw, t0, t1, step=10):
    """Scan from t0 to t1 (exclusive) every `step` ms; return list of (t, sensor, value)."""
    out = []
    t = t0
    while t < t1:
        board.tick(t)
        board.read(raw)
        k = deb.update(raw, t)
        for j in range(k):
            s = deb.changes[j]
            out.append((t, s, deb.stable[s]))
        t += step
    return out


def test_first_frame_is_taken_as_stable():
    b = SimBoard(8, 0)
    b.set_sensor(2, 1)
    d = Debouncer(8)
    raw = bytearray(8)
    assert run(b, d, raw, 0, 100) == []
    assert list(d.stable) == [0, 0, 1, 0, 0, 0, 0, 0]


def test_bouncing_contact_gives_one_change():
    b = SimBoard(64, 0)
    d = Debouncer(64, stable_ms=40)
    raw = bytearray(64)
    run(b, d, raw, 0, 50, step=1)
    b.bounce(100, 17, 1, flips=6, step_ms=2)  # 100..112 ms bounces, settles on 1
    ev = run(b, d, raw, 50, 400, step=1)
    assert ev == [(152, 17, 1)], ev
    # lifting with bounce: one change back to 0
    b.bounce(500, 17, 0, flips=5, step_ms=3)
    ev = run(b, d, raw, 400, 700, step=1)
    assert ev == [(552, 17, 0)], ev  # last flip at 512 ms
    assert d.faults() == []


def test_short_pulse_is_ignored_and_stable_time_is_configurable():
    b = SimBoard(4, 0)
    d = Debouncer(4, stable_ms=60)
    raw = bytearray(4)
    run(b, d, raw, 0, 20)
    b.schedule(100, 1, 1)
    b.schedule(150, 1, 0)  # 50 ms < 60 ms: never counts
    assert run(b, d, raw, 20, 400) == []
    b.schedule(500, 1, 1)
    ev = run(b, d, raw, 400, 700)
    assert ev == [(560, 1, 1)], ev


def test_chattering_sensor_is_reported_not_turned_into_changes():
    b = SimBoard(8, 0)
    d = Debouncer(8, stable_ms=30, chatter_limit=10, window_ms=1000, recover_ms=500)
    raw = bytearray(8)
    run(b, d, raw, 0, 100)
    # sensor 5 flips every 50 ms: each value holds long enough to count at first
    t = 100
    v = 1
    while t < 1000:
        b.schedule(t, 5, v)
        v = 1 - v
        t += 50
    faults_seen = []
    ev = []
    tt = 100
    while tt < 1000:
        b.tick(tt)
        b.read(raw)
        k = d.update(raw, tt)
        for j in range(k):
            ev.append((tt, d.changes[j]))
        for j in range(d.n_fault_changes):
            faults_seen.append((tt, d.fault_changes[j], d.fault[d.fault_changes[j]]))
        tt += 10
    assert faults_seen and faults_seen[0][1] == 5 and faults_seen[0][2] == CHATTER
    t_fault = faults_seen[0][0]
    # once faulted, no more changes of sensor 5 are reported
    assert all(t < t_fault for (t, s) in ev), (ev, t_fault)
    assert len(ev) <= 10
    assert d.faults() == [(5, CHATTER)]
    # it settles: after recover_ms quiet it is trusted again, with its real value
    b.set_sensor(5, 1)
    ev2 = run(b, d, raw, 1000, 2000)
    assert d.fault[5] == OK
    assert d.stable[5] == 1
    assert len(ev2) <= 1


def _faults_and_changes(b, d, raw, t0, t1, step=10):
    """Scan t0..t1; return ([(t, sensor) changes], [(t, sensor, fault)])."""
    ev = []
    fs = []
    t = t0
    while t < t1:
        b.tick(t)
        b.read(raw)
        k = d.update(raw, t)
        for j in range(k):
            ev.append((t, d.changes[j]))
        for j in range(d.n_fault_changes):
            s = d.fault_changes[j]
            fs.append((t, s, d.fault[s]))
        t += step
    return ev, fs


def test_a_slow_flipper_is_chatter_within_a_second_and_recovers_by_itself():
    # a weak magnet flipping at 5 Hz (every 100 ms: each value outlasts stable_ms,
    # so the raw flip count stays far below chatter_limit) with the default settings
    for period, within in ((100, 900), (200, 2700)):
        b = SimBoard(8, 0)
        d = Debouncer(8)
        raw = bytearray(8)
        run(b, d, raw, 0, 100)
        script = [(2500, 6, 1)]  # a piece put down elsewhere meanwhile
        v = 1
        for t in range(1000, 6000, period):
            script.append((t, 3, v))
            v = 1 - v
        script.append((6000, 3, 0))
        script.sort()
        for (t, s, v) in script:
            b.schedule(t, s, v)
        ev, fs = _faults_and_changes(b, d, raw, 100, 9000)
        trips = [(t, s) for (t, s, f) in fs if f == CHATTER]
        assert len(trips) == 1 and trips[0][1] == 3, fs
        assert 1000 < trips[0][0] <= 1000 + within, (period, trips)
        # after the trip no change of sensor 3 until it has been quiet recover_ms (2 s)
        mine = [t for (t, s) in ev if s == 3]
        assert all(t < trips[0][0] for t in mine[:-1]) and mine[-1] >= 7800, (period, mine)
        assert len(mine) <= 11, mine  # (the last: its value once trusted again)
        assert (2540, 6) in ev, ev  # the other sensor is never held up
        assert [(s, f) for (t, s, f) in fs] == [(3, CHATTER), (3, OK)], fs
        assert d.stable[3] == 0 and d.fault[3] == OK


def test_a_person_on_one_sensor_is_never_chatter():
    # a piece lifted and put back every second for 10 s, and bursts of three
    # stylus taps on the same pit (6 changes in 1.2 s) every 3 s
    b = SimBoard(8, 0, script_len=128)
    d = Debouncer(8)
    raw = bytearray(8)
    run(b, d, raw, 0, 100)
    script = []
    for t in range(200, 10200, 1000):
        script += [(t, 2, 1), (t + 250, 2, 0)]
    for t in range(300, 10300, 3000):
        for k in range(3):
            script += [(t + 400 * k, 4, 1), (t + 400 * k + 150, 4, 0)]
    script.sort()
    for (t, s, v) in script:
        b.schedule(t, s, v)
    ev, fs = _faults_and_changes(b, d, raw, 100, 11000)
    assert fs == [], fs
    assert len([1 for (t, s) in ev if s == 2]) == 20
    assert len([1 for (t, s) in ev if s == 4]) == 24


def test_momentary_sensor_stuck_on_at_start_is_reported_not_a_press():
    b = SimBoard(20, 0)
    b.set_sensor(7, 1)  # stylus pad stuck from power-up
    d = Debouncer(20, stable_ms=40, max_on_ms=3000)
    d.set_momentary(range(20))
    raw = bytearray(20)
    b.read(raw)
    assert d.update(raw, 0) == 0
    assert d.n_fault_changes == 1 and d.fault_changes[0] == 7
    assert d.fault[7] == STUCK
    assert run(b, d, raw, 10, 5000) == []   # never becomes a press
    assert d.stable[7] == 0
    # released: recovers quietly; a later real press counts
    b.set_sensor(7, 0)
    assert run(b, d, raw, 5000, 5200) == []
    assert d.fault[7] == OK
    b.set_sensor(7, 1)
    assert run(b, d, raw, 5200, 5300) == [(5240, 7, 1)]


def test_momentary_sensor_held_too_long_becomes_stuck():
    b = SimBoard(4, 0)
    d = Debouncer(4, stable_ms=40, max_on_ms=2000)
    d.set_momentary([0, 1])
    raw = bytearray(4)
    run(b, d, raw, 0, 100)
    b.set_sensor(1, 1)
    b.set_sensor(2, 1)  # not momentary: a piece may stay for ever
    ev = run(b, d, raw, 100, 5000)
    assert ev[:2] == [(140, 1, 1), (140, 2, 1)], ev
    assert ev[2] == (2100, 1, 0), ev   # on since 100 ms: forced back to 0 at 2100
    assert len(ev) == 3
    assert d.faults() == [(1, STUCK)]


def test_ticks_wrap():
    b = SimBoard(2, 0)
    d = Debouncer(2, stable_ms=40)
    raw = bytearray(2)
    t0 = (1 << 30) - 25
    b.read(raw)
    d.update(raw, t0)
    b.set_sensor(0, 1)
    seen = []
    for k in range(1, 10):
        t = (t0 + 10 * k) & ((1 << 30) - 1)
        b.read(raw)
        if d.update(raw, t):
            seen.append(k)
    assert seen == [5], seen


def test_bad_parameters():
    raises(ValueError, Debouncer, 0)
    raises(ValueError, Debouncer, 300)
    raises(ValueError, Debouncer, 8, 0)
    raises(ValueError, Debouncer, 8, 40, 70000)
    raises(IndexError, Debouncer(4).set_momentary, [4])


def test_update_allocates_nothing():
    b = SimBoard(64, 64)
    d = Debouncer(64, max_on_ms=1000)
    d.set_momentary(range(40, 64))
    raw = bytearray(64)
    b.read(raw)
    d.update(raw, 0)
    b.set_sensor(3, 1)
    b.set_sensor(50, 1)
    state = [10]

    def frames():
        t = state[0]
        for _ in range(300):
            b.read(raw)
            d.update(raw, t)
            t += 10
        state[0] = t

    assert not heap_lock_check(frames)
    if not is_micropython():
        frames()
    assert d.stable[3] == 1
    assert d.fault[50] == STUCK


def test_scanner_reads_at_its_rate_and_debounces():
    from playboard.board.scan import Scanner
    from playboard.config import load_board
    b = SimBoard(64, 58)
    sc = Scanner(b, hz=100, stable_ms=40)
    assert sc.poll(0) == 0
    assert sc.poll(5) == -1 and b.reads == 1
    b.set_sensor(9, 1)
    got = []
    for t in range(10, 100):
        if sc.poll(t) > 0:
            got.append((t, sc.deb.changes[0]))
    assert got == [(50, 9)], got
    assert b.reads == 10
    cfg = load_board("sim")
    cfg["pit_select"] = "stylus"
    b2 = SimBoard(64, 58)
    b2.set_sensor(41, 1)
    s2 = Scanner.from_config(b2, cfg, momentary=range(40, 58))
    s2.poll(0)
    assert s2.deb.fault[41] == STUCK


def test_forced_sensor_reads_its_forced_value():
    b = SimBoard(4, 0)
    raw = bytearray(4)
    b.set_sensor(1, 1)
    b.force(2, 1)
    b.force(2, 1)
    b.read(raw)
    assert list(raw) == [0, 1, 1, 0]
    b.release(2)
    b.read(raw)
    assert list(raw) == [0, 1, 0, 0]
    assert not heap_lock_check(b.read, raw)
