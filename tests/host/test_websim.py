"""The simulator's server and model without a browser: layout data, the pieces in hand,
the HTTP API and its event stream against the real firmware, a port already in use,
a client that goes away."""
import http.client
import json
import socket
import threading

import pytest

from playboard.games.registry import new_game
from playboard_host.cli import main
from playboard_host.simboard import micropython_binary
from playboard_host.websim import server as srv
from playboard_host.websim.model import Pieces, layout_data


def test_layout_data_has_every_game_and_the_tobit_lines():
    d = layout_data()
    assert sorted(d["games"]) == ["tihbat", "tobit", "tobit4", "toguz"]
    assert d["size_mm"] == [400, 460] and d["n_leds"] == 58
    # 5 chols of 6 points and 4 transverse lines of 7 points: 25 + 24 segments
    assert len(d["games"]["tobit"]["edges"]) == 49
    assert len(d["games"]["tobit4"]["edges"]) == 4 * 5 + 4 * 5
    assert [1, 7] in d["games"]["tobit"]["edges"] and [1, 6] not in d["games"]["tobit"]["edges"]
    assert "edges" not in d["games"]["toguz"]
    assert len(d["games"]["toguz"]["cells"]) == 20 and d["levels"] == 11
    assert [d["games"][g]["levels"] for g in ("toguz", "tobit", "tobit4", "tihbat")] == [9, 11, 11, 9]


def test_pieces_in_hand_follow_a_capture_and_a_promotion():
    g = new_game("tobit", "W:W14:B21,27")
    pc = Pieces(g)
    assert pc.symbols() == {14: "w", 21: "b", 27: "b"}
    with pytest.raises(ValueError, match="no piece on point 7"):
        pc.lift(7)
    pc.lift(21)  # the captured piece first: then the capturer
    pc.lift(14)
    with pytest.raises(ValueError, match="point 27 is taken"):
        pc.place(27, 0)
    assert pc.place(28, 0) == "w"  # the mover's colour goes down, not the first lifted
    assert [s for s, _ in pc.hand] == ["b"]
    g.push_text("14:28")
    pc.after_move(g)
    assert pc.hand == [] and pc.symbols() == {27: "b", 28: "w"}
    g2 = new_game("tobit", "W:W32:B22")
    pc2 = Pieces(g2)
    pc2.lift(32)
    pc2.place(38, 0)
    g2.push_text("32-38")
    pc2.after_move(g2)
    assert pc2.symbols()[38] == "W"  # crowned: a tobit now
    with pytest.raises(ValueError, match="nothing in the hand"):
        pc2.place(21, 1)


def test_put_back_returns_lifted_pieces():
    pc = Pieces(new_game("tobit"))
    pc.lift(7)
    pc.lift(30)
    assert sorted(pc.put_back()) == [7, 30] and pc.hand == []
    assert pc.symbols()[7] == "w" and pc.symbols()[30] == "b"


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    return s, port


def test_sim_command_says_when_the_port_is_in_use(capsys):
    s, port = _free_port()
    s.listen(1)
    try:
        assert main(["sim", "--http-port", str(port)]) == 2
    finally:
        s.close()
    err = capsys.readouterr().err
    assert "port %d is already in use" % port in err and "--http-port N" in err
    assert "Traceback" not in err


def test_sim_port_options_are_not_confused_with_a_serial_port(capsys, tmp_path):
    # --port is a board's serial port everywhere else: sim says so instead of listening on it
    assert main(["sim", "--port", "8765"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == ("playboard: sim's web page port is --http-port N (--port is a board's serial "
                           "port in the other commands)")
    assert main(["sim", "--http-port", "70000"]) == 2
    assert "--http-port must be 1..65535, not 70000" in capsys.readouterr().err
    f = tmp_path / "flash"
    f.write_text("x")
    assert main(["sim", "--flash", str(f)]) == 2
    assert "--flash %s is a file, not a folder" % f in capsys.readouterr().err
    # a level the game has not (Toguz Kumalak's top is 9; Tobit's 11): one line, no traceback
    assert main(["sim", "--game", "toguz", "--level", "11", "--flash", str(tmp_path / "f2")]) == 2
    assert capsys.readouterr().err.strip() == "playboard: --level 11: toguz has levels 1..9"


def test_one_set_of_mode_and_game_names_for_sim_the_page_and_the_board_menu(capsys):
    # the issue: `sim --mode engine`, the page's white/black and the menu's demo differed
    import os
    import re

    from playboard.app.state import GAMES, MODES
    from playboard_host.cli import build_parser

    sim = [a for a in build_parser()._subparsers._group_actions[0].choices["sim"]._actions]
    choices = {a.dest: tuple(a.choices) for a in sim if a.choices}
    assert choices["mode"] == tuple(MODES) == ("two", "white", "black", "demo")
    assert choices["game"] == GAMES
    page = os.path.join(os.path.dirname(srv.__file__), "static", "index.html")
    with open(page) as f:
        html = f.read()
    selects = dict(re.findall(r'<select id="(\w+)">(.*?)</select>', html, re.S))
    assert tuple(re.findall(r'value="(\w+)"', selects["mode"])) == tuple(MODES)
    assert tuple(re.findall(r'value="(\w+)"', selects["game"])) == GAMES
    with pytest.raises(SystemExit) as e:
        main(["sim", "--mode", "engine"])
    assert e.value.code == 2 and "invalid choice: 'engine'" in capsys.readouterr().err


def test_sim_on_every_interface_prints_an_address_others_can_open():
    from playboard_host.commands.sim import page_urls

    assert page_urls("127.0.0.1", 8765) == ["http://localhost:8765/"]
    urls = page_urls("0.0.0.0", 8080)
    assert urls[0] == "http://localhost:8080/ (this computer)"
    assert urls[1].startswith("http://%s:8080/ (other computers" % socket.gethostname())
    assert page_urls("192.168.1.5", 80) == ["http://192.168.1.5:80/"]


def test_sim_open_gives_the_browser_a_bare_address_and_says_when_no_browser_is_found(monkeypatch, capsys):
    import webbrowser

    from playboard_host.commands.sim import local_url, open_page

    # --open on every interface: the browser gets localhost, not page_urls' line with its words
    assert local_url("0.0.0.0", 8080) == "http://localhost:8080/"
    assert local_url("::", 8080) == "http://localhost:8080/"
    assert local_url("192.168.1.5", 80) == "http://192.168.1.5:80/"
    opened = []
    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    assert open_page("http://localhost:8080/") is True
    assert opened == ["http://localhost:8080/"] and capsys.readouterr().err == ""
    # a machine with no browser (ssh, a server): one line, the address to open, and on
    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    assert open_page("http://localhost:8080/") is False
    assert capsys.readouterr().err == "No web browser found here: open http://localhost:8080/ yourself\n"

    def broken(url):
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "open", broken)
    assert open_page("http://localhost:8080/") is False
    assert "open http://localhost:8080/ yourself" in capsys.readouterr().err


class FakeSession:
    """A stand-in for the board: the server's part alone."""

    game_name = "toguz"

    def __init__(self):
        self.acts = []

    def layout_data(self):
        return {"size_mm": [400, 460]}

    def state(self):
        return {"version": len(self.acts), "acts": list(self.acts)}

    def act(self, body):
        if body.get("op") == "bad":
            raise ValueError("no such thing")
        self.acts.append(body)
        return self.state()

    def record_text(self):
        return '[Game "toguz"]\n\n*\n'


@pytest.fixture
def server():
    hub = srv.Hub()
    session = FakeSession()
    hub.publish(session.state())
    httpd = srv.make_server(session, hub, "127.0.0.1", 0)
    srv.serve_in_thread(httpd)
    yield httpd, hub, session
    srv.stop(httpd, hub)


def _req(httpd, method, path, body=None):
    c = http.client.HTTPConnection("127.0.0.1", httpd.server_address[1], timeout=10)
    c.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, r.getheader("Content-Type"), data


def test_server_routes_and_errors(server):
    httpd, hub, session = server
    st, ct, data = _req(httpd, "GET", "/")
    assert st == 200 and ct.startswith("text/html") and b"<svg id=\"board\"" in data
    for name, kind in (("app.js", "text/javascript"), ("style.css", "text/css")):
        st, ct, data = _req(httpd, "GET", "/static/" + name)
        assert st == 200 and ct.startswith(kind) and len(data) > 500
    assert _req(httpd, "GET", "/static/../server.py")[0] == 404
    assert _req(httpd, "GET", "/static/nothing.js")[0] == 404
    assert _req(httpd, "GET", "/nowhere")[0] == 404
    assert json.loads(_req(httpd, "GET", "/api/layout")[2]) == {"size_mm": [400, 460]}
    st, ct, data = _req(httpd, "GET", "/api/record")
    assert st == 200 and data.startswith(b'[Game "toguz"]')
    st, _, data = _req(httpd, "POST", "/api/act", b"not json")
    assert st == 400 and "JSON object" in json.loads(data)["error"]
    st, _, data = _req(httpd, "POST", "/api/act", b'{"op": "bad"}')
    assert st == 400 and json.loads(data)["error"] == "no such thing"
    st, _, data = _req(httpd, "POST", "/api/act", b'{"op": "click", "cell": 3}')
    assert st == 200 and json.loads(data)["acts"] == [{"op": "click", "cell": 3}]


def _post(port, body, headers):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.putrequest("POST", "/api/act", skip_host="Host" in headers)
    for k, v in headers.items():
        c.putheader(k, v)
    c.putheader("Content-Length", str(len(body)))
    c.endheaders(body)
    r = c.getresponse()
    data = r.read()
    c.close()
    return r.status, json.loads(data) if data.startswith(b"{") else data


def test_only_the_page_itself_may_act(server):
    """A page in another tab, a cross-site form, a DNS-rebinding host: refused, the
    session never sees the action; the page's own request (same origin, JSON) passes."""
    httpd, hub, session = server
    port = httpd.server_address[1]
    act = b'{"op": "new", "game": "tobit"}'
    own = "http://127.0.0.1:%d" % port
    refused = [
        ({"Origin": "http://evil.example", "Content-Type": "application/json"}, 403, "another page"),
        ({"Origin": "null", "Content-Type": "application/json"}, 403, "another page"),
        ({"Origin": "http://127.0.0.1:%d" % (port + 1), "Content-Type": "application/json"}, 403, "another page"),
        ({"Origin": "https://127.0.0.1:%d" % port, "Content-Type": "application/json"}, 403, "another page"),
        ({"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}, 403, "another site"),
        ({"Origin": own, "Content-Type": "text/plain"}, 415, "application/json"),  # no preflight: refused
        ({"Origin": own, "Content-Type": "application/x-www-form-urlencoded"}, 415, "application/json"),
        ({"Origin": own}, 415, "not 'nothing'"),
        # DNS rebinding: evil.example resolved to 127.0.0.1; the browser calls it same-origin
        ({"Host": "evil.example:%d" % port, "Origin": "http://evil.example:%d" % port,
          "Content-Type": "application/json"}, 403, "names host 'evil.example"),
        ({"Host": "127.0.0.1:1", "Content-Type": "application/json"}, 403, "names host"),
    ]
    for headers, status, words in refused:
        st, data = _post(port, act, headers)
        assert (st, words in data["error"]) == (status, True), (headers, st, data)
    assert session.acts == []
    st, data = _post(port, act, {"Origin": own, "Content-Type": "application/json; charset=utf-8",
                                 "Sec-Fetch-Site": "same-origin"})
    assert st == 200 and session.acts == [{"op": "new", "game": "tobit"}]
    st, data = _post(port, act, {"Host": "localhost:%d" % port, "Origin": "http://localhost:%d" % port,
                                 "Content-Type": "application/json"})
    assert st == 200 and len(session.acts) == 2
    # the DNS-rebinding host can't read either
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    c.request("GET", "/api/state", headers={"Host": "evil.example:%d" % port})
    r = c.getresponse()
    assert r.status == 403 and b"evil.example" in r.read()
    c.close()


def test_beyond_this_computer_each_action_needs_the_runs_token():
    from playboard_host.websim.guard import Guard

    g = Guard("0.0.0.0")
    assert g.token and len(g.token) >= 20 and Guard("0.0.0.0").token != g.token  # one per run
    assert Guard("127.0.0.1").token is None and Guard("localhost").token is None
    assert g.url_suffix() == "?token=" + g.token
    # beyond this computer: its addresses and names, never a foreign name
    assert g.host_ok("192.168.1.5") and g.host_ok(socket.gethostname().lower()) and not g.host_ok("evil.example")
    assert not Guard("127.0.0.1").host_ok("192.168.1.5")
    hub = srv.Hub()
    session = FakeSession()
    httpd = srv.make_server(session, hub, "127.0.0.1", 0, token="s3cret-token")
    srv.serve_in_thread(httpd)
    try:
        port = httpd.server_address[1]
        base = {"Origin": "http://127.0.0.1:%d" % port, "Content-Type": "application/json"}
        st, data = _post(port, b'{"op": "resign"}', base)
        assert st == 403 and "needs its token" in data["error"]
        st, data = _post(port, b'{"op": "resign"}', dict(base, **{"X-Playboard-Token": "guess"}))
        assert st == 403 and session.acts == []
        st, data = _post(port, b'{"op": "resign"}', dict(base, **{"X-Playboard-Token": "s3cret-token"}))
        assert st == 200 and session.acts == [{"op": "resign"}]
        # the page (which reads the token from its own address) never carries it itself
        assert b"s3cret" not in _req(httpd, "GET", "/")[2] and b"s3cret" not in _req(httpd, "GET", "/api/state")[2]
    finally:
        srv.stop(httpd, hub)


def test_sim_prints_the_token_address_when_it_listens_beyond_this_computer():
    from playboard_host.commands.sim import local_url, page_urls

    urls = page_urls("0.0.0.0", 8080, "?token=abc")
    assert urls[0] == "http://localhost:8080/?token=abc (this computer)"
    assert "/?token=abc (other computers" in urls[1]
    assert local_url("0.0.0.0", 8080, "?token=abc") == "http://localhost:8080/?token=abc"


def _read_event(f):
    lines = []
    while True:
        line = f.readline().decode()
        if line == "\n" and lines:
            return lines
        if line.startswith(":"):
            continue
        if line.strip():
            lines.append(line.strip())


def test_event_stream_and_a_client_that_goes_away(server):
    httpd, hub, session = server
    port = httpd.server_address[1]
    socks = []
    for _ in range(3):  # three clients; two vanish mid-stream
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
        socks.append(s)
    f = socks[0].makefile("rb")
    assert f.readline().startswith(b"HTTP/1.1 200")
    while f.readline() not in (b"\r\n", b""):
        pass
    ev = _read_event(f)
    assert ev[0] == "event: state" and json.loads(ev[1][len("data: "):])["version"] == 0
    socks[1].close()
    socks[2].setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    socks[2].close()  # a reset, as a browser tab killed
    # the server goes on: new states reach the client that stayed, requests are served
    for k in range(3):
        _req(httpd, "POST", "/api/act", json.dumps({"op": "click", "cell": k}).encode())
        hub.publish(session.state())
    seen = 0
    while seen < 3:
        ev = _read_event(f)
        seen = json.loads(ev[1][len("data: "):])["version"]
    assert seen == 3
    assert _req(httpd, "GET", "/api/state")[0] == 200
    socks[0].close()
    assert threading.active_count() < 50


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_session_plays_on_the_real_firmware():
    from playboard_host.websim.session import Session

    s = Session(None, game="toguz", pump=False)
    try:
        s.advance(100)
        st = s.act({"op": "click", "cell": 8})
        s.advance(700)  # (the tap's release is the lift: it selects once held LIFT_MS)
        st = s.state()
        assert st["moves"] == ["98"] and st["turn"] == 1
        assert st["counts"][18] == 10 and st["counts"][8] == 1
        assert ["sky blue", "sowing", True] in [x[1:] for x in st["legend"]]
        assert st["events"][-1].endswith("move 98") and "cell" not in " ".join(st["events"])
        assert any(e.endswith("South 9 touched") for e in st["events"])  # 1-based pit names
        with pytest.raises(ValueError, match="unknown action"):
            s.act({"op": "fly"})
        with pytest.raises(ValueError, match="unknown game"):
            s.act({"op": "new", "game": "chess"})
        with pytest.raises(ValueError, match="level must be 1..11 for tobit"):
            s.act({"op": "new", "game": "tobit", "level": 12})
        with pytest.raises(ValueError, match="level must be 1..9 for toguz"):
            s.act({"op": "new", "game": "toguz", "level": 10})
        s.act({"op": "new", "game": "tobit", "mode": "white", "level": 1})
        s.advance(100)
        assert s.state()["app_state"] == "setup"
        s.act({"op": "setup"})
        s.advance(500)
        s.act({"op": "click", "cell": 7})
        s.act({"op": "click", "cell": 14})
        for _ in range(40):  # the board's engine (Black) thinks, then shows its move
            s.advance(100)
            if s.state()["engine"]["state"] == "move":
                break
        st = s.state()
        assert st["moves"] == ["7-14"] and st["engine"]["state"] == "move"
        assert any(x[2].startswith("engine's move") for x in st["legend"])
        s.act({"op": "engine_move"})
        s.advance(800)
        st = s.state()
        assert len(st["moves"]) == 2 and st["moves"][1] == st["engine"].get("move", st["moves"][1])
        assert s.board.status()["fen"] == s.game.fen()
        text = s.record_text()
        assert '[Game "tobit"]' in text and "1. 7-14 %s *" % st["moves"][1] in text
    finally:
        s.close()


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_a_board_that_dies_is_reported_not_raised():
    import time

    from playboard_host.websim.session import Session

    hub = srv.Hub()
    s = Session(hub, game="tihbat")
    try:
        s.board.kill()  # the firmware process is gone (a crash, a power cut)
        for _ in range(100):
            if not s.alive():
                break
            time.sleep(0.05)
        assert not s.alive() and "the firmware ended" in s.failure()
        st = json.loads(hub.text)
        assert st["alive"] is False and st["error"].startswith("the simulated board stopped")
        with pytest.raises(ValueError, match="the simulated board stopped"):
            s.act({"op": "click", "cell": 0})
    finally:
        s.close()


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_pieces_are_drawn_where_the_sensors_say():
    from playboard_host.websim.session import Session

    s = Session(None, game="tobit", pump=False)
    try:
        s.advance(100)
        assert s.state()["pieces"] == {}  # nothing on the sensors yet
        s.act({"op": "setup"})
        assert sorted(int(p) for p in s.state()["pieces"]) == list(range(1, 13)) + list(range(27, 39))
        s.act({"op": "lift", "cell": 20})  # nothing there: nothing changes
        s.act({"op": "place", "cell": 20})  # a piece the table does not know, put on by hand
        st = s.state()
        assert st["pieces"]["20"] == "?" and st["pieces"]["7"] == "w" and st["pieces"]["30"] == "b"
    finally:
        s.close()


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_resign_and_agreed_draw_on_the_pads():
    from playboard_host.websim.session import Session

    s = Session(None, game="toguz", pump=False)
    try:
        s.advance(100)
        s.act({"op": "click", "cell": 2})
        s.advance(2600)
        s.act({"op": "resign"})  # North is to move and resigns
        s.advance(100)
        st = s.state()
        assert (st["result"], st["termination"], st["app_state"]) == ("1-0", "resignation", "over")
        assert "1-0" in s.record_text() and '[Termination "resignation"]' in s.record_text()
        s.advance(3000)  # the last move's view, then the result: South's half blinks green
        for _ in range(10):
            st = s.state()
            if any(x[3] for x in st["legend"]):
                break
            s.advance(250)
        assert [x[1:] for x in st["legend"] if x[1] in ("green", "lavender")] == [
            ["green", "the winner's side", True], ["lavender", "a draw", False]]
        assert [x[2] for x in st["legend"] if x[3]] == ["the winner's side"]
        assert "engine's move from" in [x[2] for x in st["legend"]]  # the last move's colours stay listed
        assert st["result_text"] == "South won - North resigned (kazans: South 10, North 0)"
        with pytest.raises(ValueError, match="no game is being played"):
            s.act({"op": "resign"})
        s.act({"op": "new", "game": "tihbat", "mode": "two"})
        s.act({"op": "draw"})
        s.advance(100)
        st = s.state()
        assert (st["result"], st["termination"]) == ("1/2-1/2", "agreed draw")
        s.act({"op": "new", "game": "tihbat", "mode": "white"})
        with pytest.raises(ValueError, match="the engine does not agree draws"):
            s.act({"op": "draw"})
    finally:
        s.close()


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_the_boards_own_menu_from_the_page():
    from playboard_host.websim.session import Session

    s = Session(None, game="tobit", pump=False)
    try:
        s.act({"op": "setup"})
        s.advance(500)
        s.act({"op": "menu"})
        s.advance(100)
        st = s.state()
        assert st["app_state"] == "menu" and st["draw"] == "toguz" and st["pieces"] == {}
        # South pit 4: Tihbat; South pit 7: you play White; North pit 2: level 2; North pit 9: START
        for cell in (3, 6, 10):
            s.act({"op": "click", "cell": cell})
            s.advance(200)
        st = s.state()
        assert st["menu"] == {"game": "tihbat", "mode": "white", "level": 2, "top": 9,  # all offered
                              "games": ["toguz", "tobit", "tobit4", "tihbat"],
                              "modes": ["two", "white", "black", "demo"]}
        assert {x[2] for x in st["legend"]} >= {"a choice", "chosen", "the level"}  # START blinks
        s.act({"op": "click", "cell": 17})
        s.advance(200)
        st = s.state()
        assert (st["game"], st["mode"], st["level"], st["app_state"]) == ("tihbat", "white", 2, "play")
        assert st["draw"] == "tihbat" and st["counts"] == [7, 7, 7, 7, 0, 0]
        assert not any("pressed" in e for e in st["events"])  # no pad read as pressed
        with pytest.raises(ValueError, match="has no sensor"):
            s.act({"op": "click", "cell": 5})  # Tihbat's captured counter
        # again, into Tobit: START is no pad there (pressing it again never resigns)
        s.act({"op": "menu"})
        for cell in (1, 5, 17):  # Tobit, two players, START
            s.act({"op": "click", "cell": cell})
            s.advance(200)
        s.advance(1000)
        st = s.state()
        assert (st["game"], st["app_state"]) == ("tobit", "setup")
        assert not any("pressed" in e for e in st["events"]), st["events"]
    finally:
        s.close()


def test_the_page_follows_the_staff_menu_and_a_museum_profiles_menu():
    """With the staff menu open the page says so (not the players' menu) and its pits
    answer; after `playboard settings --profile museum` over the link the menu's
    choice and offer are the profile's (level 2; two players or White against the
    engine; levels 1-4; no Tobit 4), as the board's own menu has them."""
    from playboard.settings import MUSEUM
    from playboard_host.serial_link import BoardLink, open_port
    from playboard_host.websim.session import Session

    s = Session(None, game="toguz", pump=False)
    try:
        s.advance(100)
        s.act({"op": "click", "cell": 8})  # a move (98): a game left at the menu with a
        s.advance(700)  # move is kept (one with none is dropped there: docs/app.md)
        assert s.state()["moves"] == ["98"]
        s.act({"op": "menu"})
        s.advance(100)
        s.act({"op": "staff"})
        s.advance(300)
        st = s.state()
        assert (st["app_state"], st["draw"], st["menu"], st["staff"]) == ("staff", "toguz", None, ""), st
        s.act({"op": "click", "cell": 2})  # South pit 3: the flash view
        s.advance(300)
        st = s.state()
        assert st["app_state"] == "staff" and st["staff"] == (
            "flash: 1 game kept, 0 problems, 0 writes waiting, 0 memory errors"), st["staff"]  # the game put away
        s.act({"op": "click", "cell": 17})  # North pit 9: back to the menu
        s.advance(300)
        st = s.state()
        assert st["app_state"] == "menu" and st["staff"] is None and st["menu"]["level"] == 3
        link = BoardLink(open_port(s.board.port), timeout=3.0)
        try:
            link.set_settings(**MUSEUM)  # what `playboard settings --profile museum` sends
        finally:
            link.close()
        s.advance(300)
        st = s.state()
        assert st["menu"] == {"game": "toguz", "mode": "two", "level": 2, "top": 4,
                              "games": ["toguz", "tobit", "tihbat"], "modes": ["two", "white"]}, st["menu"]
    finally:
        s.close()


def test_a_tournaments_pairing_begins_when_both_sides_say_ready_on_the_page():
    """The ready step (docs/tournament.md) with the page's own gesture: a click on a pit of
    each side's row of the Toguz Kumalak pits (South White's, North Black's)."""
    from playboard_host.serial_link import BoardLink, open_port
    from playboard_host.websim.session import Session

    s = Session(None, game="toguz", pump=False)
    try:
        s.act({"op": "menu"})
        s.advance(100)
        link = BoardLink(open_port(s.board.port), timeout=3.0)
        try:
            assert link.set_game(game="tihbat", pairing={"event": "Cup", "round": "1.1", "white": "Aru",
                                                         "black": "Bek"})["ready"] == 0
        finally:
            link.close()
        s.advance(300)
        s.act({"op": "click", "cell": 2})  # White: South pit 3
        s.advance(200)
        st = s.state()
        assert st["app_state"] == "menu" and "White is ready" in st["events"][-1], st["events"]
        s.act({"op": "click", "cell": 11})  # Black: North pit 3
        s.advance(500)
        st = s.state()
        assert (st["game"], st["mode"], st["app_state"]) == ("tihbat", "two", "play"), st
        assert any("Black is ready: the game begins" in e for e in st["events"]), st["events"]
    finally:
        s.close()


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_sim_prints_its_serial_port_and_sync_reaches_it_and_the_flash_is_kept(tmp_path):
    import signal
    import subprocess
    import sys

    s, port = _free_port()
    s.close()
    flash = tmp_path / "flash"
    lib = tmp_path / "lib.sqlite"
    p = subprocess.Popen([sys.executable, "-m", "playboard_host.cli", "sim", "--http-port", str(port),
                          "--flash", str(flash), "--library", str(lib)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        for line in p.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Ctrl-C"):
                break
        assert lines[0] == "Playboard simulator on http://localhost:%d/" % port
        assert lines[1].startswith("The board's USB serial port: /dev/")
        serial_port = lines[1].split()[5]
        assert lines[1] == ("The board's USB serial port: %s  (playboard sync --port %s; playboard live --port %s)"
                            % (serial_port, serial_port, serial_port))
        assert lines[2] == "Its flash (the games kept): %s; library: %s" % (flash, lib)
        r = subprocess.run([sys.executable, "-m", "playboard_host.cli", "sync", "--port", serial_port, "--library",
                            str(tmp_path / "synced.sqlite"), "-q", "--timeout", "3"],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("synced 0 new games; library %s" % (tmp_path / "synced.sqlite"))
    finally:
        p.send_signal(signal.SIGTERM)
        p.wait(30)
    assert p.returncode == 130  # stopped as by Ctrl-C
    assert flash.is_dir() and any(flash.iterdir())  # the board's flash stays for the next run
    # with the record's journal beside its games, as the product board's (16 KB), begun
    # for the game the page started
    j = (flash / "journal").read_bytes()
    assert len(j) == 4 * 4096 and j[:1] == b"J", j[:16]


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
@pytest.mark.parametrize("game", ["tobit", "toguz"])
def test_the_pages_takeback_against_the_engine_takes_the_players_own_move_back(game):
    """Against the engine the page's Take back, once the engine has answered, takes
    that answer and the player's move back (Tobit: both put back by hand, the board
    waiting 2.5 s after the first before the engine would answer; Toguz Kumalak: the
    board's button, two plies at once): the player is to move again and stays so."""
    from playboard_host.websim.session import Session

    s = Session(None, game=game, pump=False)
    try:
        s.act({"op": "new", "game": game, "mode": "white", "level": 1})
        s.advance(300)
        if game == "tobit":
            s.act({"op": "setup"})
            s.advance(500)
            s.act({"op": "click", "cell": 7})
            s.act({"op": "click", "cell": 14})
        else:
            s.act({"op": "click", "cell": 4})
        for _ in range(60):  # the engine (Black) answers
            s.advance(100)
            st = s.state()
            if game == "tobit" and st["engine"]["state"] == "move":
                s.act({"op": "engine_move"})
                s.advance(800)
            if len(s.state()["moves"]) == 2:
                break
        assert len(s.state()["moves"]) == 2, s.state()["moves"]
        s.advance(3000)
        s.act({"op": "takeback"})
        s.advance(1500)
        st = s.state()
        assert st["moves"] == [] and st["turn"] == 0, st["moves"]
        s.advance(4000)  # past the engine's wait: still the player's turn, nothing replayed
        st = s.state()
        assert st["moves"] == [] and st["turn"] == 0 and st["engine"]["state"] != "move", st["moves"]
        assert s.board.status()["fen"] == s.game.fen()
    finally:
        s.close()


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_tobit_hints_a_compulsory_capture_and_the_men_to_take_off():
    from playboard_host.websim.session import Session

    s = Session(None, game="tobit", pump=False)
    try:
        s.act({"op": "setup"})
        s.advance(500)
        for a, b in ((7, 14), (30, 23), (9, 16)):
            s.act({"op": "click", "cell": a})
            s.act({"op": "click", "cell": b})
            s.advance(600)
        st = s.state()
        assert st["moves"] == ["7-14", "30-23", "9-16"] and st["hint"] == ""
        s.act({"op": "click", "cell": 29})  # Black lifts a man that cannot capture
        s.advance(300)
        assert s.state()["hint"] == ("A capture is compulsory (RULES.md 2.7): the man from point 29 cannot "
                                     "capture, so it cannot move now; put it back and capture, e.g. 23:9:7:21")
        s.act({"op": "putback"})
        s.advance(300)
        assert s.state()["hint"] == ""
        s.act({"op": "click", "cell": 23})
        s.act({"op": "click", "cell": 21})  # the jumps' end: 8, 14 and 16 must come off
        for _ in range(12):
            s.advance(250)
            if s.state()["hint"]:
                break
        assert s.state()["hint"] == "Captured: take the pieces on points 8, 14, 16 off the board"
        for p in (8, 14, 16):
            s.act({"op": "click", "cell": p})
        s.advance(600)
        st = s.state()
        assert st["moves"][-1] == "23:9:7:21" and st["hint"] == ""
    finally:
        s.close()


def test_one_flash_folder_serves_one_simulator_at_a_time(tmp_path, capsys):
    from playboard_host.commands.sim import lock_flash

    held = lock_flash(str(tmp_path))
    try:
        s, port = _free_port()
        s.close()
        assert main(["sim", "--http-port", str(port), "--flash", str(tmp_path)]) == 2
        assert capsys.readouterr().err == (
            "playboard: the flash folder %s is in use by another `playboard sim`; stop it or give another folder "
            "with --flash\n" % tmp_path)
    finally:
        held.close()


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_the_pages_sync_takes_the_games_and_the_boards_health_counters(tmp_path):
    from playboard_host.library import Library
    from playboard_host.websim.session import Session

    db = str(tmp_path / "lib.sqlite")
    s = Session(srv.Hub(), game="toguz", library=db)
    try:
        s.new("tihbat")  # the toguz game, no move made: not kept (issue 34)
        s.advance(300)
        s.act({"op": "click", "cell": 0})  # South 1
        s.advance(700)
        assert len(s.state()["moves"]) == 1
        s.new("toguz")  # the tihbat game abandoned under it: one finished record
        new, old = s.sync_games()
        assert (new, old) == (1, 0)
        lib = Library(db)
        boards = lib.boards()
        assert len(boards) == 1 and boards[0]["syncs"] == 1, boards
        assert boards[0]["health"]["power_ups"] == 1, boards  # the board's power-up, taken
        lib.close()
        s.sync_games()  # taken back by the board: not counted twice
        lib = Library(db)
        assert lib.boards()[0]["health"]["power_ups"] == 1 and lib.boards()[0]["syncs"] == 2
        lib.close()
    finally:
        s.close()


def test_the_hall_server_has_the_same_guard():
    """The hall's page (read-only) behind the same checks: a DNS-rebinding host can't
    read it, a foreign page can't post to it."""
    from playboard_host.tournament import hall as hall_mod
    from playboard_host.tournament.hall_server import make_server as make_hall_server

    hub = srv.Hub()
    hall = hall_mod.Hall(lambda: [], hub)
    httpd = make_hall_server(hall, hub, "127.0.0.1", 0)
    srv.serve_in_thread(httpd)
    try:
        port = httpd.server_address[1]
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("GET", "/", headers={"Host": "evil.example:%d" % port})
        r = c.getresponse()
        assert r.status == 403 and b"evil.example" in r.read()
        c.close()
        st, data = _post(port, b'{"op": "x"}', {"Origin": "http://evil.example", "Content-Type": "application/json"})
        assert st == 403 and "another page" in data["error"]
        st, data = _post(port, b'{"op": "x"}', {"Content-Type": "text/plain"})
        assert st == 415
        st, data = _post(port, b'{"op": "x"}', {"Origin": "http://127.0.0.1:%d" % port,
                                                "Content-Type": "application/json"})
        assert st == 405 and data["error"] == "the hall page only reads"
    finally:
        srv.stop(httpd, hub)


@pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")
def test_a_refused_pit_is_said_in_words_with_what_to_do():
    """A pit of the wrong row and an empty pit: the hint panel and the event log say why
    and what to do, never a code alone; the next move clears the hint."""
    from playboard_host.websim.session import Session

    s = Session(None, game="toguz", pump=False)
    try:
        s.advance(300)
        s.act({"op": "click", "cell": 12})  # North 4: South is to move
        s.advance(700)  # (the tap's release is the lift: it selects once held LIFT_MS)
        st = s.state()
        assert st["hint"] == ("Refused: North 4 is not a pit of South, who is to move. What to do: South plays "
                              "one of their own pits, lit green; the other row waits its turn.")
        assert "why" not in " ".join(st["events"]) and "refused: North 4 is not a pit of South" in st["events"][-1]
        s.act({"op": "click", "cell": 8})  # South 9: legal; the hint goes
        s.advance(3000)
        assert s.state()["hint"] == "" and s.state()["moves"] == ["98"]
    finally:
        s.close()
