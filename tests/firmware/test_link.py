"""link.py: framing, every request, bad frames answered with an error, seeded fuzzing.

The link runs over an in-memory pipe against a record.Store on the fake file
system of fakeflash.py; the "host" side here encodes requests with
``encode_frame`` and decodes the board's answers with ``Decoder``.
"""
import gc
import json

from fakeflash import FakeFs
from recordcuts import uids
from tlib import heap_lock_check, raises

gc.collect()  # (MicroPython compiles link.py next: give it the heap in one piece)
from playboard import link as L  # noqa: E402
from playboard.record import Store  # noqa: E402
from playboard.record.read import parse_game  # noqa: E402
from playboard.settings import DEFAULT_SETTINGS  # noqa: E402


class Pipe:
    """A transport: ``inbox`` is what the host sent, ``sent`` what the board wrote."""

    def __init__(self):
        self.inbox = bytearray()
        self.sent = bytearray()

    def read_into(self, buf):
        n = min(len(buf), len(self.inbox))
        buf[0:n] = self.inbox[0:n]
        self.inbox[0:n] = b""
        return n

    def write(self, data):
        self.sent.extend(data)


class Clock:
    def __init__(self):
        self.t = 1000

    def __call__(self):
        return self.t


def _board(games=2, app=None, interrupt=None):
    fs = FakeFs()
    st = Store("/games", fs=fs, uid=uids(), date=None)
    for k in range(games):
        st.new_game("toguz", {"Round": str(k + 1)})
        for i in range(40 + k):
            st.add_move("%d%d" % (i % 9 + 1, (i * 5) % 9 + 1))
        st.finish("1-0" if k % 2 else "0-1", "kazan")
    st.new_game("tobit", {"Mode": "two"})
    st.add_move("7-14")
    pipe = Pipe()
    clock = Clock()
    lk = L.Link(pipe, st, app=app, clock=clock, interrupt=interrupt)
    return lk, pipe, st, fs, clock


def _frames(data):
    """Decode every frame in ``data``: list of (seq, type char, payload bytes) or ("bad", err)."""
    dec = L.Decoder(2000)
    out = []
    for b in data:
        r = dec.feed(b)
        if r == 1:
            out.append((dec.seq, chr(dec.type), bytes(dec.payload())))
        elif r == -1:
            out.append(("bad", dec.err))
    return out


def _ask(lk, pipe, seq, ftype, req=None, raw=None):
    payload = raw if raw is not None else (json.dumps(req).encode() if req is not None else b"")
    pipe.inbox.extend(L.encode_frame(seq, ftype, payload))
    lk.poll()
    got = _frames(pipe.sent)
    pipe.sent = bytearray()
    assert len(got) == 1, got
    s, t, p = got[0]
    assert s == seq
    return t, (p if t == "f" else json.loads(p))


def test_frames_hold_no_control_byte_and_round_trip():
    payload = bytes(range(256)) + b'{"a": 1}'
    fr = L.encode_frame(7, "H", payload)
    assert fr[0] == L.SOF and fr[-1] == L.EOF
    for b in fr[1:-1]:
        assert b >= 0x20 and b not in (0x7F,), b
    assert 0x03 not in fr and 0x01 not in fr and 0x04 not in fr and 0x18 not in fr
    assert _frames(fr) == [(7, "H", payload)]
    buf = bytearray(2 * (len(payload) + 6) + 2)
    n = L.encode_frame(7, "H", payload, buf)
    assert bytes(buf[:n]) == fr
    raises(ValueError, L.encode_frame, 1, "H", b"x" * (L.MAX_PAYLOAD + 1))
    raises(ValueError, L.encode_frame, 256, "H", b"")


def test_hello_status_list_fetch_ack():
    lk, pipe, st, fs, clock = _board(games=12)
    t, r = _ask(lk, pipe, 1, "H")
    assert t == "h" and r["proto"] == L.PROTOCOL and r["max"] == L.MAX_PAYLOAD
    t, r = _ask(lk, pipe, 2, "S")
    assert t == "s" and r["current"] == 13 and r["games"] == 13 and r["finished"] == 12
    t, r = _ask(lk, pipe, 3, "L")
    assert t == "l" and r["more"] and len(r["games"]) == L.LIST_PAGE
    t, r2 = _ask(lk, pipe, 4, "L", {"from": r["games"][-1][0] + 1})
    ids = [g[0] for g in r["games"] + r2["games"]]
    assert ids == list(range(1, 14)) and not r2["more"]
    assert r2["games"][-1] == [13, "tobit", st.size(13), False, "*"]
    # fetch game 2 in chunks and check it against the store
    data = b""
    seq = 5
    while True:
        t, p = _ask(lk, pipe, seq, "F", {"id": 2, "off": len(data)})
        seq += 1
        assert t == "f" and L.get32(p, 0) == len(data) and L.get32(p, 4) == st.size(2)
        if len(p) == 8:
            break
        assert len(p) - 8 <= L.CHUNK
        data += p[8:]
    assert parse_game(data, 2).moves == st.read(2).moves and len(st.read(2).moves) == 41
    t, r = _ask(lk, pipe, seq, "A", {"id": 2})
    assert t == "a" and r == {"id": 2}
    assert 2 not in [g[0] for g in st.games()]
    t, r = _ask(lk, pipe, seq + 1, "A", {"id": 13})  # the game being played
    assert t == "!" and r["err"] == "refused"
    assert 13 in [g[0] for g in st.games()]
    t, r = _ask(lk, pipe, seq + 2, "F", {"id": 2, "off": 0})
    assert t == "!" and "no game 2" in r["msg"]
    t, r = _ask(lk, pipe, seq + 3, "F", {"id": "x"})
    assert t == "!" and r["err"] == "payload"
    t, r = _ask(lk, pipe, seq + 4, "P")
    assert t == "p" and r["total"] == 0


def test_settings_read_write_and_refusals():
    lk, pipe, st, fs, clock = _board()
    t, r = _ask(lk, pipe, 1, "R")
    assert r == DEFAULT_SETTINGS
    t, r = _ask(lk, pipe, 2, "W", {"brightness": 90, "takeback": False})
    assert t == "w" and r["brightness"] == 90 and r["takeback"] is False
    assert st.load_settings({}) == {"brightness": 90, "takeback": False}  # only what was set
    for bad in ({"brightness": 300}, {"brightness": "x"}, {"takeback": 1}, {"nope": 1},
                {"level": True}, {"level": 5, "brightness": -1}, {"max_brightness": 256},
                {"hours": "9-18"}, {"hours": "25:00-18:00"}, {"hours": "09:00-09:00"},
                {"hours": "09:60-18:00"}, {"hours": 900}, {"hours": "09:00-18:00 "}):
        t, r = _ask(lk, pipe, 3, "W", bad)
        assert t == "!" and r["err"] == "refused", bad
    assert lk.settings["brightness"] == 90 and lk.settings["level"] == 3
    assert "level" not in st.load_settings({})
    t, r = _ask(lk, pipe, 4, "W", {"level": 5})
    assert st.load_settings({}) == {"brightness": 90, "takeback": False, "level": 5}


class App:
    def __init__(self):
        self.games = []
        self.changed = []

    def link_status(self):
        return {"game": "tobit", "ply": 1, "mode": "two"}

    def link_set_game(self, req):
        if req.get("game") not in ("toguz", "tobit", "tobit4", "tihbat"):
            raise ValueError("unknown game %r" % req.get("game"))
        self.games.append(req)
        return {"game": req["game"]}

    def link_settings(self, changed):
        self.changed.append(changed)


def test_set_game_status_and_settings_go_through_the_app():
    lk, pipe, st, fs, clock = _board(app=App())
    t, r = _ask(lk, pipe, 1, "S")
    assert r["game"] == "tobit" and r["ply"] == 1 and r["current"] == 3
    t, r = _ask(lk, pipe, 2, "G", {"game": "tihbat", "mode": "engine", "level": 4})
    assert t == "g" and r == {"game": "tihbat"} and lk.app.games[0]["level"] == 4
    t, r = _ask(lk, pipe, 3, "G", {"game": "chess"})
    assert t == "!" and "chess" in r["msg"] and len(lk.app.games) == 1
    _ask(lk, pipe, 4, "W", {"level": 6})
    assert lk.app.changed == [{"level": 6}]
    lk2, pipe2 = _board()[:2]
    t, r = _ask(lk2, pipe2, 1, "G", {"game": "toguz"})
    assert t == "!" and r["err"] == "refused"
    lk.app.link_status = lambda: 1 / 0  # a bug in the app: answered, not fatal
    t, r = _ask(lk, pipe, 5, "S")
    assert t == "!" and r["err"] == "internal" and "ZeroDivision" in r["msg"]


def _state(lk, st, fs):
    """Everything a request could change: flash, settings, live, the store's view."""
    return (dict((k, bytes(v)) for k, v in fs.files.items()), json.dumps(lk.settings),
            lk.live, st.current, [tuple(e) for e in st.games()])


# every request type, each with requests the board must refuse (or answer without
# changing anything): (type, [request, ...])
_REFUSED = (
    ("H", [{"x": 1}]),
    ("S", [{"x": 1}]),
    ("L", [{"from": -1}, {"from": "a"}, {"from": True}]),
    ("A", [{"id": 3}, {"id": -2}, {"id": "1"}, {}]),  # 3: the game being recorded
    ("P", [{"from": -5}, {"from": 1.5}]),
    ("G", [{"game": "tobit"}, {"game": "chess", "mode": "two"}]),  # no app: refused
    ("R", [{"x": 1}]),
    ("W", [{"brightness": 90, "level": 14}, {"takeback": False, "nope": 1},
           {"hints": 0}, {"games": ["toguz", "chess"]}, {"games": []},
           {"modes": ["two", "two"]}, {"resume": "maybe"}, {"level": 5, "max_level": 4},
           {"attract_s": -1}, {}]),
    ("V", [{"on": 1}, {"on": "yes"}]),
    ("T", [{"time": [2026, 13, 1, 0, 0, 0]}, {"time": "now"}]),
    ("F", [{"id": 99, "off": 0}, {"id": "x"}, {"id": 1, "off": -3}]),
)


def test_every_request_type_refused_changes_nothing():
    lk, pipe, st, fs, clock = _board()
    seq = 0
    for t, reqs in _REFUSED:
        for req in reqs:
            before = _state(lk, st, fs)
            seq = (seq + 1) & 255
            rt, r = _ask(lk, pipe, seq, t, req)
            after = _state(lk, st, fs)
            assert after == before, (t, req)
            if t in ("L", "A", "P", "G", "W", "V", "T"):
                assert rt == "!" and r["err"] in ("refused", "payload"), (t, req, rt, r)
                assert "\n" not in r["msg"] and len(r["msg"]) < 200
            elif t == "F":
                assert rt == "!" or get_total(r) == 0, (t, req)
    # and the good ones still change what they should
    assert _ask(lk, pipe, 200, "W", {"level": 5, "max_level": 6})[1]["level"] == 5
    assert st.load_settings({})["max_level"] == 6
    assert _ask(lk, pipe, 201, "V", {"on": True})[1] == {"on": True}


def get_total(payload):
    return L.get32(payload, 4)


def test_set_time():
    lk, pipe = _board()[:2]
    t, r = _ask(lk, pipe, 1, "T", {"time": [2026, 11, 30, 14, 5, 0]})
    assert t == "t" and r == {"set": False}  # no RTC off the board
    for bad in ([2026, 13, 1, 0, 0, 0], [2026, 1, 1], "now", [2026, 1, 1, 0, 0, 0.5]):
        t, r = _ask(lk, pipe, 2, "T", {"time": bad})
        assert t == "!" and r["err"] == "refused", bad


def test_live_events_only_when_asked():
    lk, pipe, st, fs, clock = _board()
    assert lk.event("move", {"ply": 1, "move": "76"}) is False and pipe.sent == bytearray()
    t, r = _ask(lk, pipe, 1, "V", {"on": True})
    assert r == {"on": True}
    assert lk.event("move", {"ply": 1, "move": "76"})
    assert lk.event("lift", {"point": 7})
    got = _frames(pipe.sent)
    assert [(s, t) for s, t, p in got] == [(1, "e"), (2, "e")]
    assert json.loads(got[0][2]) == {"ev": "move", "ply": 1, "move": "76"}
    pipe.sent = bytearray()
    st.dropped.append(1)  # as when flash ran short
    st.n_dropped += 1
    lk.poll()
    got = _frames(pipe.sent)
    assert len(got) == 1 and json.loads(got[0][2]) == {"ev": "dropped", "ids": [1]}
    pipe.sent = bytearray()
    for gid in range(2, 40):  # the store keeps the last 16 ids: each new one still told
        if len(st.dropped) >= 16:
            del st.dropped[0]
        st.dropped.append(gid)
        st.n_dropped += 1
        if gid in (20, 39):
            lk.poll()
            got = _frames(pipe.sent)
            pipe.sent = bytearray()
            want = list(range(5, 21)) if gid == 20 else list(range(24, 40))
            assert len(got) == 1 and json.loads(got[0][2]) == {"ev": "dropped", "ids": want}, got
    st.dropped.append(40)
    st.n_dropped += 1
    lk.poll()
    got = _frames(pipe.sent)
    assert len(got) == 1 and json.loads(got[0][2]) == {"ev": "dropped", "ids": [40]}
    pipe.sent = bytearray()
    _ask(lk, pipe, 2, "V", {"on": False})
    assert lk.event("move") is False
    # a host that went away: live events stop by themselves
    _ask(lk, pipe, 3, "V", {"on": True})
    clock.t += L.LIVE_TIMEOUT_MS - 10
    assert lk.event("move")
    clock.t += 20
    assert lk.event("move") is False and not lk.live


def test_bad_frames_each_get_one_error_and_change_nothing():
    lk, pipe, st, fs, clock = _board()
    before = dict((k, bytes(v)) for k, v in fs.files.items())
    good = L.encode_frame(9, "A", b'{"id": 1}')
    cases = [
        (good[:-1] + b"\x01\n", "control"),  # a control byte inside
        (good[:5] + b"\x7d\x41" + good[5:], "escape"),  # an escape of a byte that needs none
        (good[:4] + bytes((good[4] ^ 1,)) + good[5:], "crc"),
        (b"\x1e\x41\x42\n", "short"),
        (b"\x1e" + b"A" * 600 + b"\n", "oversized"),
        (good[:-3] + L.encode_frame(10, "H", b""), "truncated"),
        (L.encode_frame(11, "Z", b""), "unknown"),
        (L.encode_frame(12, "A", b"[1]"), "payload"),
        (L.encode_frame(13, "A", b"{nope"), "payload"),
        (L.encode_frame(14, "A", b'{"id": -1}'), "refused"),
        (L.encode_frame(15, "A", b'{"id": 1.5}'), "refused"),
    ]
    for data, err in cases:
        pipe.inbox.extend(b"noise >>> \r\n" + data)
        lk.poll()
        got = _frames(pipe.sent)
        pipe.sent = bytearray()
        if err == "truncated":
            assert got[0][1] == "!" and json.loads(got[0][2])["err"] == "truncated"
            assert got[1][1] == "h" and got[1][0] == 10
            continue
        assert len(got) == 1 and got[0][1] == "!", (err, got)
        assert json.loads(got[0][2])["err"] == err, (err, got)
    assert dict((k, bytes(v)) for k, v in fs.files.items()) == before
    # a frame left open is answered when it times out
    pipe.inbox.extend(good[:6])
    lk.poll()
    assert pipe.sent == bytearray()
    clock.t += L.TIMEOUT_MS + 1
    lk.poll()
    got = _frames(pipe.sent)
    assert len(got) == 1 and json.loads(got[0][2])["err"] == "truncated"


def test_ctrl_c_reaches_the_repl():
    lk, pipe = _board(interrupt=3)[:2]
    pipe.inbox.extend(b"\r\x03\r\x01")
    raises(KeyboardInterrupt, lk.poll)


class Rand:
    """A small seeded generator that gives the same numbers on CPython and MicroPython."""

    def __init__(self, seed):
        self.s = seed

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 7) % n


def _random_request(rnd):
    k = rnd.next(9)
    if k == 0:
        return "H", {}
    if k == 1:
        return "S", {}
    if k == 2:
        return "L", {"from": rnd.next(5)}
    if k == 3:
        return "F", {"id": rnd.next(4) + 1, "off": rnd.next(400)}
    if k == 4:
        return "R", {}
    if k == 5:
        return "W", {"brightness": rnd.next(300)}
    if k == 6:
        return "A", {"id": 100 + rnd.next(50)}  # no such game: acknowledged, nothing dropped
    if k == 7:
        return "V", {"on": rnd.next(2) == 1}
    return "P", {"from": rnd.next(3)}


def _mutate(rnd, fr):
    k = rnd.next(7)
    if k == 0:  # flip a bit
        i = 1 + rnd.next(len(fr) - 2)
        fr = fr[:i] + bytes((fr[i] ^ (1 << rnd.next(8)),)) + fr[i + 1:]
    elif k == 1:  # drop a byte (not the start)
        i = 1 + rnd.next(len(fr) - 1)
        fr = fr[:i] + fr[i + 1:]
    elif k == 2:  # insert a random byte
        i = 1 + rnd.next(len(fr) - 1)
        fr = fr[:i] + bytes((rnd.next(256),)) + fr[i:]
    elif k == 3:  # cut short (the next frame's start ends it)
        fr = fr[:1 + rnd.next(len(fr) - 1)]
    elif k == 4:  # random body
        fr = b"\x1e" + bytes(rnd.next(256) for _ in range(rnd.next(40))) + b"\n"
    elif k == 5:  # oversized
        fr = b"\x1e" + b"x" * (L.MAX_BODY + 1 + rnd.next(50)) + b"\n"
    else:  # a valid frame of an unknown type
        fr = L.encode_frame(rnd.next(256), 0x61 + rnd.next(26) if rnd.next(2) else 0x30, b"")
    return bytes(fr)


def test_fuzz_never_crashes_answers_every_frame_loses_no_game():
    lk, pipe, st, fs, clock = _board(games=3)
    before = dict((k, bytes(v)) for k, v in fs.files.items() if k.endswith(".rec"))
    games_before = st.games()
    rnd = Rand(20261130)
    n_bad = n_good = 0
    for i in range(3000):
        t, req = _random_request(rnd)
        seq = rnd.next(256)
        fr = L.encode_frame(seq, t, json.dumps(req).encode())
        bad = rnd.next(3) == 0
        if bad:
            fr = _mutate(rnd, fr)
        if rnd.next(5) == 0:
            fr = b"text printed by the board\r\n" + fr
        pipe.inbox.extend(fr)
        lk.poll()
        if bad:
            # whatever is left open is ended by a clean frame; count the answers:
            # one per start byte sent, each an error unless it was a whole good frame
            pipe.inbox.extend(L.encode_frame(1, "H", b""))
            lk.poll()
            got = _frames(pipe.sent)
            starts = fr.count(b"\x1e") + 1
            assert len(got) == starts, (i, fr, got)
            assert got[-1][0] == 1 and got[-1][1] == "h", (i, got)
            for g in got[:-1]:
                assert g[0] != "bad" and g[1] == "!", (i, fr, g)
            n_bad += 1
        else:
            got = _frames(pipe.sent)
            assert len(got) == 1 and got[0][0] == seq, (i, got)
            assert got[0][1] in (t.lower(), "!"), (i, got)
            if got[0][1] == "!":
                assert t in ("W", "A", "F") and json.loads(got[0][2])["err"] == "refused", got
            n_good += 1
        pipe.sent = bytearray()
    assert n_bad > 800 and n_good > 1800
    assert st.games() == games_before
    after = dict((k, bytes(v)) for k, v in fs.files.items() if k.endswith(".rec"))
    assert after == before
    assert lk.frames >= 3000 and lk.errors >= n_bad


class Idle:
    """A transport with nothing to read (no allocation)."""

    def read_into(self, buf):
        return 0

    def write(self, data):
        raise AssertionError("nothing to answer")


def test_idle_poll_allocates_nothing():
    lk = _board()[0]
    lk.t = Idle()
    lk.poll()
    assert not heap_lock_check(lk.poll)
    assert lk.poll() == 0


class _ShortApp(App):
    """An app whose status runs out of memory ``fails`` times; ``make_room`` says
    whether it could make room (no game in play) and counts its calls."""

    def __init__(self, fails, room):
        App.__init__(self)
        self.fails = fails
        self.room = room
        self.made = 0

    def link_status(self):
        if self.fails:
            self.fails -= 1
            raise MemoryError("memory allocation failed")
        return App.link_status(self)

    def make_room(self):
        self.made += 1
        return self.room


def test_a_read_that_runs_out_of_memory_is_asked_again_once_the_app_made_room():
    app = _ShortApp(1, True)  # no game in play: the app drops the last game's code
    lk, pipe, st, fs, clock = _board(app=app)
    t, r = _ask(lk, pipe, 1, "S")
    assert t == "s" and r["game"] == "tobit" and app.made == 1
    app = _ShortApp(1, False)  # a game in play keeps its heap: the host is told
    lk, pipe, st, fs, clock = _board(app=app)
    t, r = _ask(lk, pipe, 1, "S")
    assert t == "!" and r["err"] == "memory" and app.made == 1
    app = _ShortApp(2, True)  # asked again once only
    lk, pipe, st, fs, clock = _board(app=app)
    t, r = _ask(lk, pipe, 1, "S")
    assert t == "!" and r["err"] == "memory" and app.made == 1
    t, r = _ask(lk, pipe, 2, "S")  # the next request is answered
    assert t == "s"


def test_a_status_over_a_frame_sheds_what_a_host_can_do_without():
    """A status with a tournament's pairing in Cyrillic names, a finished game's result
    and the supply's fields is over ``MAX_PAYLOAD`` as JSON: the board used to raise in
    ``send`` and answer nothing (the hall lost the board). Now the reply sheds the
    fields of ``_SHED`` in order, says ``cut``, and keeps what follows the game and who
    is ready for the pairing (``ready``)."""
    class App:
        def link_status(self):
            return {"game": "toguz", "state": "over", "mode": "two", "level": 3, "ply": 120, "turn": 1,
                    "fen": "11S,11S,11S,11S,11S,1S,11S,2S,10S/1S,11S,2S,1,11S,11S,11S,11S,11S 80 14 N 61",
                    "result": "1-0", "termination": "resignation", "queue": 0, "flash_low": False,
                    "supply": "adapter", "led_cap_ma": 1500,
                    "pairing": {"Event": "Весенний турнир", "Round": "3.2", "White": "Әлия Нұрланқызы",
                                "Black": "Бекзат Сейітқали"}, "ready": 1}
    lk, pipe, st, fs, clock = _board(app=App())
    full = dict(lk._status({}))
    assert len(json.dumps(full, separators=(",", ":")).encode()) > L.MAX_PAYLOAD  # (the case)
    t, p = _ask(lk, pipe, 5, "S", {})
    assert t == "s" and p["cut"] == 1
    assert "pairing" not in p and "dropped" not in p
    # who is ready for the pairing stays (the hall knows the pairing it sent)
    for k in ("fen", "result", "termination", "ply", "turn", "current", "games", "state", "game", "ready"):
        assert p[k] == full[k], k
