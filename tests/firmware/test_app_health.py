"""Health counters on the real app (playboard.health, docs/museum.md): power-ups and
sensor faults counted on flash, kept across a restart, a corrupt file survived, the
link's ``C`` request taking back what the host stored. Apart from test_app.py: one subject a module."""
import gc

from fakeflash import FakeFs
from apprig import Rig
from tlib import raises

from playboard import health
from playboard.record import Store


def _chatter(r, sensor, ms=1500):
    """Sensor ``sensor`` flips every frame for ``ms`` (a broken wire), then rests."""
    v = r.hw.sensors[sensor]
    for _ in range(ms // 10):
        v = 1 - v
        r.hw.set_sensor(sensor, v)
        r.adv(10)
    r.hw.set_sensor(sensor, 0)
    r.adv(3000)  # quiet past recover_ms: trusted again


def _counters(fs):
    st = Store("/games", fs=fs)
    h = health.read(st)
    return h, st


def test_power_ups_and_a_chattering_sensor_are_counted_and_survive_a_restart():
    r = Rig()
    r.adv(50)
    fs = r.fs
    h, _ = _counters(fs)
    assert (h["power_ups"], h["wdt_resets"], h["stuck"], h["chatter"], h["faulty"]) == (1, 0, 0, 0, [])
    s = r.sensor("tobit", 5)
    _chatter(r, s)
    assert r.app.scanner.deb.seen[s] == 1
    h, _ = _counters(fs)
    assert (h["chatter"], h["stuck"], h["faulty"]) == (1, 0, [[s, 1]])
    _chatter(r, s)  # the same sensor again, same power-up: counted once
    s2 = r.sensor("tobit", 9)
    _chatter(r, s2)
    h, _ = _counters(fs)
    assert (h["power_ups"], h["chatter"], h["faulty"]) == (1, 2, [[s, 1], [s2, 1]])
    assert r.app.state == 0  # the menu all along: a fault changes nothing else
    del r
    gc.collect()
    r2 = Rig(fs)  # switched off and on: the same flash
    r2.adv(50)
    h, _ = _counters(fs)
    assert (h["power_ups"], h["chatter"], h["faulty"]) == (2, 2, [[s, 1], [s2, 1]])
    _chatter(r2, s)  # a new power-up: counted again
    h, _ = _counters(fs)
    assert (h["power_ups"], h["chatter"], h["faulty"]) == (2, 3, [[s, 1], [s2, 1], [s, 1]])


def test_a_corrupt_health_file_gives_one_line_and_loses_nothing():
    fs = FakeFs()
    st = Store("/games", fs=fs, date=None)
    assert st.new_game("toguz", {"Mode": "two"}) is not None
    assert st.add_move("21") and st.finish("1-0", "resigned")
    assert st.save_settings({"brightness": 90})
    f = fs.open("/games/health", "wb")
    f.write(b"power_ups 5\nwdt_resets x\n\xff\xfe garbage\nchatter 2\nfaulty 7:1 9:zz\n")
    f.close()
    del st
    gc.collect()
    r = Rig(fs)
    r.adv(50)
    h = health.link(r.store, {})  # the host reads the counters (a sync)
    lines = [x for x in r.store.report if x.startswith("health")]
    assert len(lines) == 1 and "bad lines" in lines[0] and "health.bad" in lines[0], r.store.report
    assert (h["power_ups"], h["wdt_resets"], h["chatter"]) == (6, 0, 2)  # what read, kept
    h, st = _counters(fs)
    assert (h["power_ups"], h["wdt_resets"], h["chatter"]) == (6, 0, 2)
    assert [x for x in st.report if x.startswith("health")] == []  # rewritten whole: good now
    f = fs.open("/games/health.bad", "rb")
    assert b"garbage" in f.read()  # the bad bytes kept for a person
    f.close()
    assert st.read(1).moves == ["21"] and st.read(1).result == "1-0"  # the game is there
    assert st.load_settings({})["brightness"] == 90  # and the settings


def test_the_link_takes_back_what_the_host_stored_and_refuses_bad_requests():
    fs = FakeFs()
    st = Store("/games", fs=fs, date=None)
    assert health.power_up(st, wdt=True) and health.power_up(st, wdt=False)
    h = health.read(st)
    assert (h["power_ups"], h["wdt_resets"]) == (2, 1)
    assert health.link(st, {}) == {"power_ups": 2, "wdt_resets": 1, "stuck": 0, "chatter": 0,
                                   "memory_errors": 0, "selftest": 0, "restarts": 0, "faults": 0,
                                   "faulty": [], "tracebacks": []}
    for bad in ({"take": {"power_ups": -1}}, {"take": {"resets": 1}}, {"take": 3},
                {"take": {"power_ups": True}}, {"clear": True}, {"take": {"faulty": 5}}):
        e = raises(ValueError, health.link, st, bad)
        assert "\n" not in str(e)
    assert health.read(st)["power_ups"] == 2  # refused: nothing changed
    health.power_up(st, wdt=False)  # a power-up between the host's read and its take
    left = health.link(st, {"take": {"power_ups": 2, "wdt_resets": 1, "faulty": []}})
    assert (left["power_ups"], left["wdt_resets"]) == (1, 0)
    assert "/games/boots" not in fs.files  # folded into the file health
    st = Store("/games", fs=fs, date=None)
    assert health.read(st)["power_ups"] == 1
    assert health.power_up(st, wdt=True)
    assert (health.read(st)["power_ups"], health.read(st)["wdt_resets"]) == (2, 1)


def test_a_menu_whose_count_cannot_load_is_lit_and_tries_again_at_its_next_change():
    """The menu loads its memory-error count (playboard.app.museum) when errors are
    waiting. That code failing with a MemoryError (the names' pool unable to grow,
    found by the soak) left the menu unpainted, so each frame loaded it again: 100
    errors a second, a dark menu. Now the menu is lit first; tried again when it changes."""
    import sys
    from playboard.compat import unload
    r = Rig()
    r.app.settings["attract_s"] = 0
    r.adv(50)
    unload("playboard.app.museum")

    class NoRoom:
        def count_memory_errors(self, app):
            raise MemoryError
    sys.modules["playboard.app.museum"] = NoRoom()
    try:
        r.app.memory_errors += 1
        r.app._menu_dirty = True
        r.adv(10000)
        assert r.app.memory_errors == 2, r.app.memory_errors  # its own error, once
        assert not r.app._menu_dirty and r.lit()
        r.app._menu_dirty = True  # the menu changes (a press): tried once more
        r.adv(10000)
        assert r.app.memory_errors == 3, r.app.memory_errors
    finally:
        del sys.modules["playboard.app.museum"]
    r.adv(60000)
    r.app._menu_dirty = True
    r.adv(50)
    assert _counters(r.fs)[0]["memory_errors"] == 3  # none lost: counted once it loads


def test_memory_errors_and_self_test_faults_are_counted_on_flash():
    r = Rig()
    r.app.settings["attract_s"] = 0  # the menu stays (no attract animation)
    r.adv(50)
    fs = r.fs
    # frames that survived a MemoryError (in play, say): counted when the menu shows
    r.app.memory_errors += 3
    r.app._menu_dirty = True
    r.adv(50)
    h, _ = _counters(fs)
    assert h["memory_errors"] == 3 and r.app.mem_counted == 3
    r.app._menu_dirty = True
    r.adv(50)
    assert _counters(fs)[0]["memory_errors"] == 3  # each counted once
    # more within a minute: written at most once a minute (a heap failing frame after
    # frame writes little)
    r.app.memory_errors += 1
    r.app._menu_dirty = True
    r.adv(50)
    assert _counters(fs)[0]["memory_errors"] == 3
    r.adv(60000)
    r.app._menu_dirty = True
    r.adv(50)
    assert _counters(fs)[0]["memory_errors"] == 4
    # a MemoryError while counting them loses that count and is not retried for its own
    # error (the frame counts it): no frame after frame of errors
    real = r.app.store.fs.open

    def no_room(*a):
        raise MemoryError
    r.app.store.fs.open = no_room
    r.app.memory_errors += 4
    r.adv(60000)
    r.app._menu_dirty = True
    r.adv(200)
    r.app.store.fs.open = real
    assert r.app.memory_errors == 4 + 4 + 1, r.app.memory_errors
    r.adv(60000)
    r.app._menu_dirty = True
    r.adv(50)
    assert _counters(fs)[0]["memory_errors"] == 4
    # the link's C counts those not yet on flash first; its take clears them
    r.app.memory_errors += 2
    st = Store("/games", fs=fs)
    h = health.link(st, {}, r.app)
    assert h["memory_errors"] == 6, h
    assert health.link(st, {"take": {"memory_errors": 6}})["memory_errors"] == 0
    assert health.read(st)["memory_errors"] == 0
    # a judged self-test: a sensor left on all along is stuck, the others never
    # touched are dead: each counted, faulty entries of kind 4 (the last 8)
    from playboard.app import check
    s = r.sensor("toguz", 3)
    r.hw.set_sensor(s, 1)
    check.start(r.app, "selftest", r.t, 5)
    r.adv(12000)
    res = r.app.check_result
    assert res is not None and s in res["stuck"], res
    h, _ = _counters(fs)
    bad = len(res["stuck"]) + len(res["dead"]) + len(res["noisy"])
    assert bad >= 1 and h["selftest"] == bad, h
    assert all(k == 4 for _, k in h["faulty"]) and len(h["faulty"]) == min(8, bad), h
    r.hw.set_sensor(s, 0)


def test_a_daily_restart_is_counted_apart_from_power_ups_and_watchdog_resets():
    # playboard.app.restart appends D before it soft-resets; the start after it appends P
    # (or W: reset_cause still says the chip's last reset): that byte is the restart's
    fs = FakeFs()
    st = Store("/games", fs=fs, date=None)
    health.power_up(st, wdt=False)
    for w in (b"DP", b"DW"):
        f = fs.open("/games/boots", "ab")
        f.write(w)
        f.close()
    health.power_up(st, wdt=True)  # a real watchdog reset
    f = fs.open("/games/boots", "ab")
    f.write(b"D")  # restarted, its start not yet counted
    f.close()
    h = health.read(st)
    assert (h["power_ups"], h["wdt_resets"], h["restarts"]) == (2, 1, 3)
    left = health.link(st, {"take": h})
    assert (left["power_ups"], left["wdt_resets"], left["restarts"]) == (0, 0, 0)


class _Machine:
    """machine as the RP2040 has it after a reset: reset_cause() and SCRATCH4."""
    WDT_RESET = 3
    PWRON_RESET = 1

    def __init__(self, cause, scratch4):
        self.cause = cause
        self.mem32 = {0x4005801C: scratch4}

    def reset_cause(self):
        return self.cause


def test_a_machine_reset_is_a_power_up_and_only_the_watchdogs_timeout_a_watchdog_reset():
    """machine.reset() (mpremote reset, playboard deploy) resets the RP2040 through its
    watchdog: reset_cause() says WDT_RESET, but pico-sdk's watchdog_reboot wrote 0 to
    SCRATCH4 where machine.WDT's watchdog_enable left 0x6ab73121: a power-up, not a
    watchdog reset (it was counted as one)."""
    wr = health.watchdog_reset
    assert wr(_Machine(3, 0x6AB73121), "rp2") is True   # the watchdog's timer ran out
    assert wr(_Machine(3, 0), "rp2") is False           # machine.reset()
    assert wr(_Machine(1, 0x6AB73121), "rp2") is False  # switched on (or the RUN pin)
    assert wr(_Machine(3, 0), "esp32") is True          # another port: reset_cause() alone
    assert wr(None, None) is False                      # no machine here (the unix port, CPython)


def test_contained_faults_are_counted_their_tracebacks_kept_in_a_ring_of_4_and_taken():
    from playboard.app import contain
    from playboard import faultring
    fs = FakeFs()
    st = Store("/games", fs=fs, date=None)
    for k in range(6):
        try:
            raise KeyError("fault %d" % k)
        except KeyError as e:
            contain.keep(st, e, 1000 + k)
    ring = faultring.read_ring(st)
    assert [(n, ms) for n, ms, t in ring] == [(3, 1002), (4, 1003), (5, 1004), (6, 1005)]
    assert "fault 5" in ring[-1][2] and "KeyError" in ring[-1][2]
    h = health.link(st, {})
    assert h["faults"] == 6 and len(h["tracebacks"]) == 1 and h["tracebacks"][0][:2] == [6, 1005]
    assert len(h["tracebacks"][0][2]) <= 160
    try:
        raise KeyError("fault 6")  # one more between the host's read and its take
    except KeyError as e:
        contain.keep(st, e, 1007)
    left = health.link(st, {"take": {"faults": 6, "tracebacks": [[6, 1005]]}})
    assert left["faults"] == 1 and [t[:2] for t in left["tracebacks"]] == [[7, 1007]]
    assert [(n, ms) for n, ms, t in faultring.read_ring(st)] == [(7, 1007)]
