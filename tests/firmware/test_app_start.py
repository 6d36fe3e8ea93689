"""A game's start (``playboard.app.gamestart.begin``, issues 30 and 31): between any
two frames of a start the app scans the sensors, updates the LEDs and feeds the
watchdog; a frame does as many of the start's units as fit its share of time, so a
start takes a frame or two where units are quick (the frozen image) and a unit a
frame where each takes tens of ms (the ``.mpy`` deploy). The in-process rig; its
clock stands for each case."""
from apprig import Rig


class _Wdt:
    def __init__(self, log):
        self.log = log

    def feed(self):
        self.log.append("feed")


def _watched(r):
    """Log, in order, each start frame (``start``), each scan made, each LED frame and
    each watchdog feed of ``r``'s app."""
    app = r.app
    log = []
    begin, poll, lights = app.begin_pending, app.scanner.poll, app.lights.frame

    def begin_pending(now_ms):
        log.append("start")
        begin(now_ms)

    def scan(now_ms):
        n = poll(now_ms)
        if n >= 0:
            log.append("scan")
        return n

    def frame(now_ms):
        log.append("lights")
        return lights(now_ms)

    app.begin_pending = begin_pending
    app.scanner.poll = scan
    app.lights.frame = frame
    app.wdt = _Wdt(log)
    return log


def _between_starts(log):
    """What happened between each two start frames of ``log``: a list of sets."""
    out = []
    cur = None
    for x in log:
        if x == "start":
            if cur is not None:
                out.append(cur)
            cur = set()
        elif cur is not None:
            cur.add(x)
    return out


def test_a_start_of_many_frames_scans_lights_and_feeds_the_watchdog_between_any_two():
    for game, mode in (("tobit", "white"), ("toguz", "demo"), ("tihbat", "two")):
        r = Rig()
        r.adv(50)
        log = _watched(r)
        r.app.clock = lambda: r.t + 30  # each unit takes 30 ms: a unit a frame (the .mpy deploy)
        r.app.choose(game, mode, 2)
        r.app.new_game(r.t)
        r.begun()
        gaps = _between_starts(log)
        assert len(gaps) >= 10, (game, log)  # (the module's load, then a unit a frame)
        for g in gaps:
            assert g == {"scan", "lights", "feed"}, (game, gaps)
        assert r.app.state in (1, 2) and r.app.game.name == game


def test_a_sensor_changed_during_a_long_start_is_seen_when_the_game_begins():
    r = Rig()
    r.adv(50)
    r.app.clock = lambda: r.t + 30
    r.app.choose("tobit", "two")
    r.app.new_game(r.t)
    r.adv(20)
    s = r.sensor("tobit", 1)  # White's first point, during the start
    r.hw.set_sensor(s, 1)
    while r.app._pending is not None:
        r.adv(10)
    assert r.app.scanner.deb.stable[s] == 1  # debounced by the start's own scans
    r.adv(10)
    assert r.app.state == 1 and r.app.occ[1] == 1  # the set-up reads it at its first frame


def test_a_start_whose_units_are_quick_takes_one_frame():
    r = Rig()  # the rig's clock stands still within a frame: every unit fits its share
    r.adv(50)
    log = _watched(r)
    r.app.choose("tobit", "white", 3)
    r.app.new_game(r.t)
    r.begun()
    assert log.count("start") == 1 and r.app.state == 1, log


def test_a_game_left_at_the_menu_is_ended_in_the_menus_frames_not_in_the_next_start():
    # issue 30: its end (an E record, then its fold into a file: littlefs commits, a
    # sector erase at worst, 45-400 ms) no longer lies in a frame of the next start
    from apprig import _moves, _play_tihbat
    from fakeflash import RamNor
    from playboard.record.journal import Journal
    r = Rig()
    nor = RamNor(4)
    r.store.journal = Journal(nor)  # (as the product image's store has it)
    r.app.choose("tihbat", "two")
    r.app.new_game(r.t)
    r.begun()
    _play_tihbat(r, [0, 1])
    played = _moves(r)
    assert len(played) == 2 and r.store.current == 1
    r.app.open_menu(r.t)  # (the menu button: the game left unfinished)
    files = {k: bytes(v) for k, v in r.fs.files.items()}
    r.adv(10)  # a menu frame: its E record, in the journal only
    assert r.store.current == 1 and r.store.journal.ending
    assert {k: bytes(v) for k, v in r.fs.files.items()} == files
    r.adv(10)  # the next: its fold
    assert r.store.current is None and not r.app.pending
    rec = r.store.read(1)
    assert rec.finished and rec.termination == "abandoned" and rec.moves == played
    files, e0 = {k: bytes(v) for k, v in r.fs.files.items()}, nor.erases
    r.app.new_game(r.t)
    r.begun()
    assert r.store.current == 2 and r.app.game.ply == 0
    # the start wrote its header to the journal only: no file, no erase
    assert {k: bytes(v) for k, v in r.fs.files.items()} == files and nor.erases == e0
