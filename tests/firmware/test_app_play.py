"""Real play on the in-process rig (issue 10): the board is never blind while the
engine thinks. A change made during the search is shown at once; the player's move
put back during the search stops it and is taken back (Tobit by the board, Toguz
Kumalak by the takeback button); the engine thinks again only on its turn with the
board at the game's position."""
from tlib import SkipTest, is_micropython

from apprig import Rig, _moves
from playboard.board import tracker as T


def _slow_engine(frames):
    """Engine.step patched: once the search is over it says so ``frames`` frames later
    (a search that spans many frames). Returns (restore, held counter)."""
    from playboard.engine.search import Engine
    real = Engine.step
    held = [0]

    def slow(self, *a, **kw):
        done = real(self, *a, **kw)
        if done and held[0] < frames:
            held[0] += 1
            return False
        return done

    Engine.step = slow

    def restore():
        Engine.step = real
    return restore, held


def _button(r, s, v, bounces):
    """A person's hand on button sensor ``s``, going to ``v``: ``bounces`` contact
    bounces first (each a scan at ``v`` and one back: under the debounce, as
    bench/humanlib.py's 1-5 ms bounces are at the rig's 10 ms scan), then ``v``."""
    for _ in range(bounces):
        r.hw.set_sensor(s, v)
        r.adv(10)
        r.hw.set_sensor(s, 1 - v)
        r.adv(10)
    r.hw.set_sensor(s, v)


def _tobit_against_the_engine():
    from tobitrig import tobit_rig
    return tobit_rig("white", 2)  # engine: Black


def _move(r, lay, m, gap=150):
    from tobitrig import play
    play(r, lay, m, gap)


def test_tobit_a_change_during_the_search_is_shown_at_once_and_the_search_goes_on():
    if is_micropython():
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    r, g, lay = _tobit_against_the_engine()
    restore, held = _slow_engine(300)
    try:
        m = [x for x in g.legal_moves() if not g.captured_points(x)][0]
        _move(r, lay, m)
        r.adv(400)  # committed; the engine thinks
        while not r.app.thinking:
            r.adv(10)
        p = [q for q in range(1, g.n_points + 1) if q != m[-1] and r.hw.sensors[lay.sensor_of(q)]][0]
        r.hw.set_sensor(lay.sensor_of(p), 0)  # a piece knocked off while it thinks
        r.adv(400)
        tr = r.app.tracker
        assert r.app.thinking, "a knocked piece is no reason to stop the search"
        assert tr.correcting and tr.request.roles[p] == T.R_MISSING
        assert r.hw.shown_led(lay.led_of(p)) != (0, 0, 0)  # lit on the board itself
        assert "correction" in r.kinds()
        r.hw.set_sensor(lay.sensor_of(p), 1)  # put back
        r.adv(400)
        assert not tr.correcting and "resolved" in r.kinds()
        while r.app.thinking:
            r.adv(10)
    finally:
        restore()
    assert "stopped" not in r.kinds() and r.app.expecting is not None


def test_tobit_the_players_move_put_back_during_the_search_stops_it_and_is_taken_back():
    if is_micropython():
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    r, g, lay = _tobit_against_the_engine()
    restore, held = _slow_engine(10 ** 6)  # a search that would never end by itself
    try:
        m = [x for x in g.legal_moves() if not g.captured_points(x)][0]
        _move(r, lay, m)
        r.adv(400)
        while not r.app.thinking:
            r.adv(10)
        assert g.ply == 1 or r.app.thinking  # (the game holds the search's moves)
        # the previous position put back, a hand's timing: lifted, 0.4 s, put down
        r.hw.set_sensor(lay.sensor_of(m[-1]), 0)
        r.adv(400)
        r.hw.set_sensor(lay.sensor_of(m[1]), 1)
        r.adv(600)
        assert "stopped" in r.kinds() and "undo" in r.kinds()
        assert not r.app.thinking and g.ply == 0 and g.turn == 0  # the player's turn
        assert r.store.read(1).moves == []
        r.adv(2000)
        assert not r.app.thinking  # not the engine's turn: it does not think
        # the player plays again: the engine thinks again
        _move(r, lay, m)
        r.adv(600)
        assert r.app.thinking
    finally:
        restore()


def test_toguz_takeback_button_during_the_search_stops_it_and_takes_the_move_back():
    r = Rig()
    r.app.buttons = {"takeback": 60}
    r.app.link_set_game({"game": "toguz", "mode": "white", "level": 2})  # engine: North
    r.begun()
    restore, held = _slow_engine(10 ** 6)
    try:
        r.tap("toguz", 4, 200)  # South pit 5
        r.adv(2800)  # the view confirmed: the engine thinks
        assert r.app.thinking and r.app.game.ply == 1
        _button(r, 60, 1, 3)  # pressed (bouncing), held 250 ms
        r.adv(250)
        assert "stopped" in r.kinds() and r.kinds().count("undo") == 1
        assert not r.app.thinking and r.app.game.ply == 0
        assert r.store.read(1).moves == []
        _button(r, 60, 0, 2)
        r.adv(1000)
        assert not r.app.thinking and r.app.game.ply == 0  # the player's turn
    finally:
        restore()
    assert len(_moves(r)) == 1  # played once, then taken back


def test_toguz_takeback_button_after_the_engines_answer_takes_the_players_move_back_too():
    """Against the engine, once it has answered, the takeback button takes back its
    answer and the player's move (two plies, two records): the player is to move again,
    the engine does not answer anew; the next move the player makes is played."""
    r = Rig()
    r.app.buttons = {"takeback": 60}
    r.app.link_set_game({"game": "toguz", "mode": "white", "level": 1})  # engine: North
    r.begun()
    r.tap("toguz", 4, 200)  # South pit 5
    for _ in range(60):  # the engine's answer (its view confirmed by the player's hands: none)
        r.adv(100)
        if r.app.game.ply == 2:
            break
    assert r.app.game.ply == 2 and not r.app.thinking
    r.adv(3000)  # its sowing shown
    r.tap("toguz", 1, 200)  # South pit 2, the player's reply (0-3 s: 1.2 s)
    for _ in range(60):  # the engine's second answer
        r.adv(100)
        if r.app.game.ply == 4:
            break
    assert r.app.game.ply == 4 and not r.app.thinking
    r.adv(300)  # a fast reply: the takeback pressed 0.3 s after the answer, bouncing
    n = len(_moves(r))
    _button(r, 60, 1, 2)
    r.adv(400)  # held
    _button(r, 60, 0, 3)
    r.adv(50)
    assert r.app.game.ply == 2 and r.app.game.turn == 0  # one press: two plies, not four
    assert r.kinds().count("undo") == 2
    assert len(r.store.read(1).moves) == 2
    r.adv(4000)  # past the engine's wait after a takeback: still the player's turn
    assert r.app.game.ply == 2 and not r.app.thinking and len(_moves(r)) == n


def test_after_a_takeback_that_leaves_it_to_move_the_engine_waits_before_it_answers():
    """A takeback that leaves the engine to move (Tobit: its answer put back by hand)
    gives the player 2.5 s to take their own move back too before the engine thinks."""
    r = Rig()
    r.app.buttons = {"takeback": 60}
    r.app.link_set_game({"game": "toguz", "mode": "black", "level": 1})  # engine: South, first
    r.begun()
    for _ in range(60):
        r.adv(100)
        if r.app.game.ply == 1:
            break
    assert r.app.game.ply == 1
    r.adv(3000)
    _button(r, 60, 1, 1)  # its first move taken back: the engine to move at ply 0
    r.adv(200)
    _button(r, 60, 0, 2)
    assert r.app.game.ply == 0 and not r.app.thinking
    r.adv(1800)
    assert r.app.game.ply == 0 and not r.app.thinking  # it waits
    for _ in range(40):
        r.adv(100)
        if r.app.thinking or r.app.game.ply == 1:
            break
    assert r.app.thinking or r.app.game.ply == 1  # then it answers


def test_every_refused_link_request_leaves_the_app_as_it_was():
    """Through the real link and the real app: a refused request (a level or setting
    out of range, an unknown field, a bad game or mode, a game in play without force)
    changes neither the engine's level, the choice, the settings nor the game."""
    import json
    from playboard import link as L

    class Pipe:
        def __init__(self):
            self.inbox = bytearray()
            self.sent = bytearray()

        def ready(self):
            return len(self.inbox) > 0

        def read_into(self, buf):
            n = min(len(buf), len(self.inbox))
            buf[0:n] = self.inbox[0:n]
            self.inbox[0:n] = b""
            return n

        def write(self, data):
            self.sent.extend(data)

    r = Rig()
    pipe = Pipe()
    r.app.transport = pipe
    r.app.open_link()
    seq = [0]

    def ask(t, req):
        seq[0] += 1
        pipe.inbox.extend(L.encode_frame(seq[0], t, json.dumps(req).encode()))
        r.adv(20)
        dec = L.Decoder(2000)
        out = []
        for b in pipe.sent:
            if dec.feed(b) == 1:
                out.append((chr(dec.type), json.loads(bytes(dec.payload()))))
        pipe.sent = bytearray()
        return [o for o in out if o[0] != "e"][-1]

    def seen():
        a = r.app
        st = a.link_status()
        return (st["game"], st["mode"], st["level"], st["state"], st.get("ply"), a.level,
                a.game_name, a.mode, json.dumps(a.settings), r.store.current)

    r.adv(50)
    refused = (("W", {"level": 14}), ("W", {"level": 5, "max_level": 4}),
               ("W", {"level": 5, "nope": 1}), ("W", {"brightness": 300, "level": 6}),
               ("G", {"game": "tobit", "mode": "fly"}), ("G", {"game": "chess", "level": 2}),
               ("G", {"game": "tihbat", "level": 10}), ("G", {"level": 4, "start": "yes"}),
               ("G", {"level": 10}))  # the game chosen (Toguz Kumalak, then Tihbat) has levels 1-9
    for t, req in refused:
        before = seen()
        rt, ans = ask(t, req)
        assert rt == "!" and ans["err"] == "refused", (t, req, rt, ans)
        assert seen() == before, (t, req)
    rt, ans = ask("W", {"level": 5})  # a good one changes the level at once (the menu)
    assert rt == "w" and r.app.level == 5 and r.app.link_status()["level"] == 5, (rt, ans)
    # a game with a move in play: a game change without force is refused whole
    rt, ans = ask("G", {"game": "tihbat", "mode": "two"})
    r.begun()
    r.tap("tihbat", 0, 150)
    r.adv(2800)
    assert r.app.game.ply == 1
    for t, req in refused + (("G", {"game": "toguz", "level": 2}), ("G", {"resign": 0, "game": "toguz"})):
        before = seen()
        rt, ans = ask(t, req)
        assert rt == "!" and ans["err"] == "refused", (t, req, rt, ans)
        assert seen() == before, (t, req)
    assert r.app.game.name == "tihbat" and r.app.level == 5


def test_tobit_a_move_made_for_the_engine_is_never_taken_as_its_move():
    # the player's move and, at once, a move of the engine's side made by hand (as
    # if for it): the player's move is committed, the other never; the board shows
    # the correction, and the engine thinks once the board is put back
    if is_micropython():
        raise SkipTest("Tobit in-process rig: CPython only (see tests/host/test_app_e2e.py)")
    r, g, lay = _tobit_against_the_engine()
    restore, held = _slow_engine(10 ** 6)
    try:
        from playboard.games.registry import game_class
        ref = game_class("tobit4")(capacity=32)
        m = [x for x in ref.legal_moves() if not ref.captured_points(x)][0]
        ref.push(m)
        b = [x for x in ref.legal_moves() if not ref.captured_points(x)
             and x[1] not in (m[1], m[-1]) and x[-1] not in (m[1], m[-1])][0]
        _move(r, lay, m)  # the player's move stands...
        r.adv(100)
        _move(r, lay, b)  # ...and 100 ms later Black's piece moved by hand
        r.adv(1500)
        assert _moves(r) == [_text(m)], _moves(r)
        assert not r.app.thinking and r.app.tracker.correcting
        assert "correction" in r.kinds()
        r.hw.set_sensor(lay.sensor_of(b[-1]), 0)  # put back
        r.adv(150)
        r.hw.set_sensor(lay.sensor_of(b[1]), 1)
        r.adv(400)
        assert r.app.thinking and len(_moves(r)) == 1  # now the engine thinks
    finally:
        restore()


def _text(m):
    from playboard.games.registry import game_class
    return game_class("tobit4")(capacity=32).move_text(m)
