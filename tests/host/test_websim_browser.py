"""The simulator page in a real browser: Playwright driving Debian's Chromium headless,
the real firmware under MicroPython behind the page (playboard sim's server, in-process).

Skips, saying how to install it, where /usr/bin/chromium is missing
(`apt-get install chromium`; .ci/run installs it). Screenshots of each game's board
go to test-artifacts/ (gitignored).
"""
import json
import time
import os
import shutil
import tempfile
import urllib.request

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.path.join(ROOT, "test-artifacts")
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's Chromium is not installed at %s: install it with `apt-get install chromium` "
                "(as .ci/run does) to run the browser tests" % CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed: run `make setup`")

from playboard.games.registry import new_game  # noqa: E402
from playboard_host.simboard import micropython_binary  # noqa: E402
from playboard_host.websim import server as srv  # noqa: E402
from playboard_host.websim.session import Session  # noqa: E402

# display colours of the lights' colours on the page (playboard_host.leds.display_colours)
GREEN = "#00ff00"  # legal target
BLUE = "#0033ff"  # the selected piece
TIMEOUT = 20000  # ms


@pytest.fixture(scope="module")
def sim():
    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")
    hub = srv.Hub()
    session = Session(hub, game="toguz")
    httpd = srv.make_server(session, hub, "127.0.0.1", 0)
    srv.serve_in_thread(httpd)
    url = "http://127.0.0.1:%d/" % httpd.server_address[1]
    yield session, url
    srv.stop(httpd, hub)
    session.close()


@pytest.fixture(scope="module")
def pw():
    with sync_api.sync_playwright() as p:
        yield p


def _context(pw, profile, **kw):
    """Debian's Chromium, headless, in the new empty profile folder ``profile``."""
    return pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                 args=CHROMIUM_ARGS, **kw)


@pytest.fixture(scope="module")
def browser(pw):
    profile = tempfile.mkdtemp(prefix="playboard-chromium-")
    ctx = _context(pw, profile, viewport={"width": 1200, "height": 900}, accept_downloads=True)
    yield ctx
    ctx.close()
    shutil.rmtree(profile, ignore_errors=True)


def _open(browser, url):
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_selector("#conn.live", timeout=TIMEOUT)
    return page, errors


def _new_game(page, game, mode="two"):
    """Start ``game`` from the page's choices; wait until the page shows its new board."""
    before = int(page.get_attribute("body", "data-version") or 0)
    page.select_option("#game", game)
    page.select_option("#mode", mode)
    page.click("#new")
    if page.is_visible("#confirm-new"):  # a game with moves: the page asks first
        page.click("#confirm-yes")
    try:
        page.wait_for_function("([g, v]) => document.body.getAttribute('data-game') === g && "
                               "+document.body.getAttribute('data-version') > v && "
                               "document.body.getAttribute('data-ply') === '0'", arg=[game, before],
                               timeout=TIMEOUT)
    except sync_api.TimeoutError:
        raise AssertionError("no new %s game: page shows %s, error %r" % (
            game, page.get_attribute("body", "data-game"), page.text_content("#error")))


MOVES_JS = "Array.from(document.querySelectorAll('#moves li')).flatMap(li => li.textContent.trim().split(/ +/))"


def _wait_moves(page, n):
    """Wait until the page's move list holds ``n`` moves."""
    page.wait_for_function("n => %s.length >= n" % MOVES_JS, arg=n, timeout=TIMEOUT)


def _shot(page, name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    path = os.path.join(ARTIFACTS, name)
    page.locator("#board").screenshot(path=path)
    assert os.path.getsize(path) > 5000
    return path


def _lit(page):
    """{cell: colour} of the cells whose LED is lit on the page."""
    return page.evaluate("""() => Object.fromEntries(Array.from(document.querySelectorAll('.cell'))
        .filter(e => e.getAttribute('data-colour')).map(e => [e.getAttribute('data-cell'),
        e.getAttribute('data-colour')]))""")


LIT_JS = """() => Object.fromEntries(Array.from(document.querySelectorAll('.cell'))
    .filter(e => e.getAttribute('data-colour')).map(e => [e.getAttribute('data-cell'),
    e.getAttribute('data-colour')]))"""


def _wait_lit(page, want):
    """Wait until exactly the cells of ``want`` ({cell: colour}) are lit, in those colours."""
    try:
        page.wait_for_function("w => JSON.stringify(Object.entries((%s)()).sort()) === "
                               "JSON.stringify(Object.entries(w).sort())" % LIT_JS, arg=want, timeout=TIMEOUT)
    except sync_api.TimeoutError:
        assert _lit(page) == want


def _moves(page):
    return page.evaluate("() => " + MOVES_JS)


def test_tobit_by_clicks_with_a_multi_capture_and_the_leds_of_a_lifted_piece(sim, browser):
    page, errors = _open(browser, sim[1])
    _new_game(page, "tobit")
    page.wait_for_selector("#setup-all:not([hidden])", timeout=TIMEOUT)
    # set-up: the LEDs ask for every start point (24 of them, magenta)
    page.wait_for_function("() => document.querySelectorAll('.cell[data-colour]:not([data-colour=\"\"])')"
                           ".length === 24", timeout=TIMEOUT)
    page.click("#setup-all")
    page.wait_for_function("() => document.querySelectorAll('.cell[data-piece=\"w\"]').length === 12 && "
                           "document.querySelectorAll('.cell[data-piece=\"b\"]').length === 12", timeout=TIMEOUT)
    page.wait_for_selector("#setup-all[hidden]", state="attached", timeout=TIMEOUT)
    # lift White's man on 7: its LED shows blue (selected), 14 (its only free step) green
    page.click("#cell-7")
    _wait_lit(page, {"7": BLUE, "14": GREEN})
    assert page.get_attribute("#cell-7", "data-piece") == ""
    assert page.text_content("#hand") == "In hand: w"
    page.click("#cell-14")
    _wait_moves(page, 1)
    # 30-23, 9-16, then Black's 23:9:7:21 takes three men in one move
    g = new_game("tobit")
    g.push_text("7-14")
    for text in ("30-23", "9-16", "23:9:7:21"):
        m = g.parse_move(text)
        caps = g.captured_points(m)
        page.click("#cell-%d" % m[1])
        page.click("#cell-%d" % m[len(m) - 1])
        for p in caps:
            page.click("#cell-%d" % p)
        g.push(m)
        _wait_moves(page, g.ply)
    assert sorted(caps) == [8, 14, 16]
    assert _moves(page) == ["7-14", "30-23", "9-16", "23:9:7:21"]
    for p in (8, 14, 16, 23):
        assert page.get_attribute("#cell-%d" % p, "data-piece") == ""
    assert page.get_attribute("#cell-21", "data-piece") == "b"
    assert page.text_content("#hand") == ""
    # the board's own position agrees
    with sim[0].lock:  # the board's control channel is the clock thread's too
        assert sim[0].board.status()["fen"] == g.fen()
    _shot(page, "websim-tobit.png")
    assert errors == []
    page.close()


def test_toguz_tuzdyk_by_taps_and_the_exported_record(sim, browser):
    page, errors = _open(browser, sim[1])
    _new_game(page, "toguz")
    g = new_game("toguz")
    for text in ("19", "32", "23", "11x"):
        m = g.parse_move(text)
        # wait until the board offers the mover's pits (green) again, then tap
        page.wait_for_function("c => document.getElementById('cell-' + c).getAttribute('data-colour') === '%s'"
                               % GREEN, arg=g.turn * 9 + m, timeout=TIMEOUT)
        page.click("#cell-%d" % (g.turn * 9 + m))
        g.push(m)
        _wait_moves(page, g.ply)
    assert g.tuzdyk_of(1) == 0  # North's tuzdyk: South's pit 1
    page.wait_for_function("() => document.getElementById('cell-0').textContent.includes('X')", timeout=TIMEOUT)
    counts = page.evaluate("() => Array.from({length: 20}, (_, c) => "
                           "+document.getElementById('cell-' + c).getAttribute('data-count'))")
    assert counts == list(g.pos[:20])
    # the tuzdyk's LED is yellow in the sowing view
    assert _lit(page).get("0") == "#ffff3c"
    _shot(page, "websim-toguz.png")
    with page.expect_download(timeout=TIMEOUT) as dl:
        page.click("#export")
    path = dl.value.path()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert dl.value.suggested_filename == "playboard-toguz.pgn"
    assert '[Game "toguz"]' in text and '[Result "*"]' in text
    assert text.rstrip().endswith("1. 19 32 2. 23 11x *")
    assert errors == []
    page.close()


def test_tihbat_and_tobit4_boards_are_drawn_from_the_layout(sim, browser):
    page, errors = _open(browser, sim[1])
    from playboard_host.websim.model import layout_data

    data = layout_data()
    height = data["size_mm"][1]
    for game, n in (("tihbat", 6), ("tobit4", 32)):
        _new_game(page, game)
        assert page.locator(".cell").count() == n
        # each cell and its LED at the layout's x, y (mm; the page's y runs down)
        drawn = page.evaluate("""() => Array.from(document.querySelectorAll('.cell')).map(g => {
            const h = g.querySelector('.led');
            const box = h.tagName === 'rect' ? [+h.getAttribute('x') + +h.getAttribute('width') / 2,
                                                 +h.getAttribute('y') + +h.getAttribute('height') / 2]
                                             : [+h.getAttribute('cx'), +h.getAttribute('cy')];
            return [+g.getAttribute('data-cell'), +g.getAttribute('data-led'), box[0], box[1]]; })""")
        want = sorted([c[0], c[2], c[3], height - c[4]] for c in data["games"][game]["cells"])
        assert sorted(drawn) == want
        _shot(page, "websim-%s.png" % game)
    assert errors == []
    page.close()


def test_a_browser_that_goes_away_mid_game_leaves_the_game_going(sim, browser):
    session, url = sim
    page, _ = _open(browser, url)
    _new_game(page, "toguz")
    g = new_game("toguz")
    first = g.move_text(4)
    g.push(4)
    second = g.move_text(0)
    page.click("#cell-4")
    _wait_moves(page, 1)
    page.close()  # gone mid-game, its event stream open
    with urllib.request.urlopen(url + "api/state", timeout=10) as r:
        st = json.loads(r.read())
    assert st["moves"] == [first] and st["alive"]
    page, errors = _open(browser, url)  # a new browser sees the same game and plays on
    _wait_moves(page, 1)
    page.wait_for_function("() => document.getElementById('cell-9').getAttribute('data-colour') === '%s'" % GREEN,
                           timeout=TIMEOUT)
    page.click("#cell-9")
    _wait_moves(page, 2)
    assert session.state()["moves"] == [first, second]
    assert errors == []
    page.close()


def test_against_the_engine_its_thinking_and_its_move_are_shown(sim, browser):
    page, errors = _open(browser, sim[1])
    _new_game(page, "tobit", "white")
    page.click("#setup-all")
    page.wait_for_selector("#setup-all[hidden]", state="attached", timeout=TIMEOUT)
    page.click("#cell-9")
    page.click("#cell-16")
    # the board's engine (Black) thinks, then shows its move in purple for the player to make
    page.wait_for_selector("#engine[data-state='move']", timeout=TIMEOUT)
    text = page.text_content("#engine-text")
    import re
    ahead = re.search(r"\(looked (\d+) (ply|plies) ahead\)", text)  # "1 ply", "2 plies"
    assert text.startswith("plays ") and ahead and "nodes" not in text
    assert (ahead.group(2) == "ply") == (ahead.group(1) == "1"), text
    move = text.split()[1]
    g = new_game("tobit")
    g.push_text("9-16")
    m = g.parse_move(move)
    lit = _lit(page)
    assert lit[str(m[1])] == "#dc00ff" and lit[str(m[len(m) - 1])] == "#ff648c"  # engine: purple from, rose to
    events = page.eval_on_selector_all("#events li", "l => l.map(e => e.textContent)")
    assert any("engine thinking (level 3)" in e for e in events)
    page.click("#engine-move")
    _wait_moves(page, 2)
    assert _moves(page) == ["9-16", move]
    page.wait_for_selector("#engine[data-state='idle']", timeout=TIMEOUT)
    assert errors == []
    page.close()


def test_a_pit_played_by_touch(sim, pw):
    profile = tempfile.mkdtemp(prefix="playboard-chromium-touch-")
    ctx = _context(pw, profile, has_touch=True, is_mobile=True, viewport={"width": 412, "height": 915})
    try:
        page, errors = _open(ctx, sim[1])
        _new_game(page, "tihbat")
        page.wait_for_function("() => document.getElementById('cell-1').getAttribute('data-colour') === '%s'"
                               % GREEN, timeout=TIMEOUT)
        page.tap("#cell-1")  # South's pit 2
        _wait_moves(page, 1)
        assert _moves(page) == ["2"]
        _shot(page, "websim-tihbat-touch.png")
        assert errors == []
    finally:
        ctx.close()
        shutil.rmtree(profile, ignore_errors=True)


# --- issue 17: the page as a new user meets it ---------------------------------------------------
def _wait_body(page, attr, value):
    page.wait_for_function("([a, v]) => document.body.getAttribute(a) === v", arg=[attr, value], timeout=TIMEOUT)


def test_the_header_follows_a_game_started_from_the_board_menu_and_a_reload(sim, browser):
    page, errors = _open(browser, sim[1])
    _new_game(page, "tihbat")
    assert (page.input_value("#game"), page.input_value("#mode")) == ("tihbat", "two")
    page.click("#menu")
    page.wait_for_function("() => document.getElementById('status-text').textContent.includes(\"board's menu\")",
                           timeout=TIMEOUT)
    for cell in (0, 8):  # South pit 1: Toguz Kumalak; South pit 9: demo (the engine against itself)
        page.click("#cell-%d" % cell)
    page.wait_for_function("() => document.getElementById('status-text').textContent.includes('now: toguz, demo')",
                           timeout=TIMEOUT)
    page.click("#cell-17")  # START
    page.wait_for_function("() => document.getElementById('mode').value === 'demo'", timeout=TIMEOUT)
    assert page.input_value("#game") == "toguz"  # the header shows the game the board plays
    page.reload()
    page.wait_for_selector("#conn.live", timeout=TIMEOUT)
    page.wait_for_function("() => document.getElementById('mode').value === 'demo'", timeout=TIMEOUT)
    assert page.eval_on_selector("#mode", "e => e.selectedIndex") >= 0  # never blank after a reload
    assert page.input_value("#game") == "toguz"
    about = page.text_content("#about-text")
    assert "Toguz Kumalak" in about and "You win with 82 balls" in about
    assert errors == []
    page.close()


def test_a_long_move_list_scrolls_inside_its_panel(sim, browser):
    page, errors = _open(browser, sim[1])
    _new_game(page, "toguz")
    # 64 plies in the page's own render (the layout is the page's: no board needed for it)
    page.evaluate("() => render(Object.assign({}, STATE, {moves: Array.from({length: 64}, (_, i) => "
                  "String(11 + i % 89)), version: STATE.version + 1000000}))")
    box = page.evaluate("""() => { const ol = document.getElementById('moves');
        const r = ol.getBoundingClientRect(); const items = Array.from(ol.querySelectorAll('li'));
        const last = items[items.length - 1].getBoundingClientRect();
        return {n: items.length, scroll: ol.scrollHeight > ol.clientHeight, top: ol.scrollTop,
                inside: last.bottom <= r.bottom + 1 && last.top >= r.top - 1,
                wide: items.every(li => li.scrollWidth <= ol.clientWidth),
                text: items[31].textContent}; }""")
    assert box["n"] == 32 and box["scroll"] and box["top"] > 0  # scrolled to the newest move
    assert box["inside"] and box["wide"]  # the last line is shown whole, no column cut off
    assert box["text"].split() == [str(11 + 62 % 89), str(11 + 63 % 89)]
    page.close()


def test_tobit_point_numbers_the_kings_key_and_the_board_turned_for_black(sim, browser):
    page, errors = _open(browser, sim[1])
    _new_game(page, "tobit")
    nums = page.eval_on_selector_all(".pointno", "l => l.map(e => +e.textContent)")
    assert sorted(nums) == list(range(1, 39))
    assert "a gold ring marks a king" in page.text_content("#pieces-key")
    y = page.evaluate("p => +document.querySelector('#cell-' + p + ' .pointno').getAttribute('y')", 1)
    y38 = page.evaluate("p => +document.querySelector('#cell-' + p + ' .pointno').getAttribute('y')", 38)
    assert y > y38  # White's side at the bottom
    assert page.get_attribute("#board", "data-turned") == "0"
    _new_game(page, "tobit", "black")
    page.wait_for_selector("#board[data-turned='1']", timeout=TIMEOUT)
    y = page.evaluate("p => +document.querySelector('#cell-' + p + ' .pointno').getAttribute('y')", 1)
    y38 = page.evaluate("p => +document.querySelector('#cell-' + p + ' .pointno').getAttribute('y')", 38)
    assert y < y38  # Black's side (38) at the bottom, near the player
    x1 = page.evaluate("p => +document.querySelector('#cell-' + p + ' .pointno').getAttribute('x')", 1)
    x5 = page.evaluate("p => +document.querySelector('#cell-' + p + ' .pointno').getAttribute('x')", 5)
    assert x1 > x5  # and left and right turned too
    _shot(page, "websim-tobit-black.png")
    # the legend is steady: every colour of the game listed, lit or not
    rows = page.eval_on_selector_all("#legend li", "l => l.map(e => e.textContent)")
    assert len(rows) == 10 and any("mint: put a piece here" in r for r in rows)
    page.select_option("#game", "toguz")
    page.select_option("#mode", "black")
    page.click("#new")  # the engine (South) moves at once: no wait for ply 0
    page.wait_for_selector("body[data-game='toguz'] #board[data-turned='1']", timeout=TIMEOUT)
    top = page.evaluate("() => +document.querySelector('#cell-0 circle.hole').getAttribute('cy')")
    bottom = page.evaluate("() => +document.querySelector('#cell-17 circle.hole').getAttribute('cy')")
    assert top < bottom  # North's pits nearest the player
    label_y = "c => [+document.querySelector('#cell-' + c + ' text.label').getAttribute('y'), " \
              "+document.querySelector('#cell-' + c + ' circle.hole').getAttribute('cy')]"
    ly, cy = page.evaluate(label_y, 9)
    assert page.text_content("#cell-9 text.label") == "N1" and ly > cy  # North's names on North's far side
    _shot(page, "websim-toguz-north.png")
    _new_game(page, "toguz", "two")
    page.wait_for_selector("#board[data-turned='0']", timeout=TIMEOUT)
    ly, cy = page.evaluate(label_y, 9)
    assert ly < cy
    ly, cy = page.evaluate(label_y, 0)
    assert page.text_content("#cell-0 text.label") == "S1" and ly > cy
    assert errors == []
    page.close()


def test_tobit_set_up_asks_for_white_steady_and_black_blinking(sim, browser):
    # the issue: set-up lit one colour for both sides' pieces; now White's points are
    # steady mint and Black's blink mint, as the page shows the board's LEDs
    import time

    from playboard.board.lights import DEFAULT_COLOURS, ERROR
    from playboard_host import leds

    mint = "#%02x%02x%02x" % tuple(leds.display_colours([leds.shown_colour(DEFAULT_COLOURS[ERROR][1])])[0])
    page, errors = _open(browser, sim[1])
    _new_game(page, "tobit")  # a new game starts from an empty table: the set-up view
    page.wait_for_function("() => document.querySelectorAll('.cell[data-colour]').length >= 12", timeout=TIMEOUT)
    white = {str(p) for p in range(1, 13)}
    black = {str(p) for p in range(27, 39)}
    seen = []
    t_end = time.monotonic() + 2.0  # four blink periods of the board (500 ms)
    while time.monotonic() < t_end:
        seen.append({c for c, col in _lit(page).items() if col == mint})
        time.sleep(0.05)
    assert all(white <= lit for lit in seen)  # White's: always lit
    assert all(lit <= white | black for lit in seen)
    assert any(black <= lit for lit in seen) and any(not (black & lit) for lit in seen)  # Black's: blinking
    rows = page.eval_on_selector_all("#legend li", "l => l.map(e => e.textContent)")
    assert any("mint: put a piece here: White's steady, Black's blinking" in r for r in rows), rows
    _shot(page, "websim-tobit-setup.png")
    page.click("#setup-all")
    page.wait_for_function("m => !document.querySelector('.cell[data-colour=\"' + m + '\"]')", arg=mint,
                           timeout=TIMEOUT)  # the position stands: nothing more to put
    assert errors == []
    page.close()


def test_games_are_kept_on_the_flash_and_synced_from_the_page(browser, tmp_path):
    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")
    flash = str(tmp_path / "flash")
    library = str(tmp_path / "lib.sqlite")
    hub = srv.Hub()
    s = Session(hub, game="tihbat", flash_dir=flash, library=library)
    s.act({"op": "click", "cell": 1})  # South plays pit 2
    time.sleep(3.5)  # the board confirms the sowing
    s.act({"op": "resign"})
    time.sleep(0.5)
    assert s.state()["result"] == "1-0"  # North, to move, resigned
    s.close()  # switched off: the finished game stays on its flash
    assert os.path.isdir(flash)
    hub = srv.Hub()
    s = Session(hub, game="toguz", flash_dir=flash, library=library)
    httpd = srv.make_server(s, hub, "127.0.0.1", 0)
    srv.serve_in_thread(httpd)
    try:
        page, errors = _open(browser, "http://127.0.0.1:%d/" % httpd.server_address[1])
        info = page.text_content("#boardinfo")
        assert s.board.port in info and flash in info and library in info
        page.click("#sync")
        page.wait_for_function("() => document.getElementById('boardinfo').textContent.includes('1 new game synced')",
                               timeout=TIMEOUT)
        from playboard_host.library import Library

        lib = Library(library, create=False)
        games = lib.games()
        lib.close()
        assert [(g.game, g.result, g.moves) for g in games] == [("tihbat", "1-0", ["2"])]
        page.click("#sync")  # again: nothing new (the board acknowledged it)
        page.wait_for_function("() => document.getElementById('boardinfo').textContent.includes('0 new games')",
                               timeout=TIMEOUT)
        assert errors == []
        page.close()
    finally:
        srv.stop(httpd, hub)
        s.close()


# --- issue 34: every gesture on the page, every refusal in words -----------------------------------
def _wait_hint(page, words):
    try:
        page.wait_for_function("w => document.getElementById('hint').textContent.includes(w) && "
                               "!document.getElementById('hint').hidden", arg=words, timeout=TIMEOUT)
    except sync_api.TimeoutError:
        raise AssertionError("hint %r, not %r" % (page.text_content("#hint"), words))


def _full_shot(page, name):
    os.makedirs(ARTIFACTS, exist_ok=True)
    path = os.path.join(ARTIFACTS, name)
    page.screenshot(path=path, full_page=True)
    assert os.path.getsize(path) > 20000
    return path


def _set_up_tobit(page, game="tobit"):
    _new_game(page, game)
    page.wait_for_selector("#setup-all:not([hidden])", timeout=TIMEOUT)
    page.click("#setup-all")
    page.wait_for_selector("#setup-all[hidden]", state="attached", timeout=TIMEOUT)


def test_each_games_refusal_is_shown_in_words_with_what_to_do(sim, browser):
    """A wrong pit in each mancala game, a wrong move in each Tobit game: the hint panel
    and the event log say what happened and what to do (never "why N"); a screenshot of
    each goes to test-artifacts/websim-refusal-GAME.png."""
    page, errors = _open(browser, sim[1])
    for game, wrong in (("toguz", 12), ("tihbat", 3)):  # North's pit: South is to move
        _new_game(page, game)
        page.wait_for_function("() => document.getElementById('cell-0').getAttribute('data-colour') === '%s'"
                               % GREEN, timeout=TIMEOUT)
        page.click("#cell-%d" % wrong)
        pit = "North %d" % (wrong - (9 if game == "toguz" else 2) + 1)
        _wait_hint(page, "Refused: %s is not a pit of South, who is to move. What to do: South plays one of "
                         "their own pits" % pit)
        events = page.eval_on_selector_all("#events li", "l => l.map(e => e.textContent)")
        assert any("refused: %s is not a pit of South" % pit in e for e in events), events
        assert not any("why" in e for e in events), events
        _full_shot(page, "websim-refusal-%s.png" % game)
    for game, frm, to in (("tobit", 7, 20), ("tobit4", 6, 13)):  # a man put where it cannot go
        _set_up_tobit(page, game)
        page.click("#cell-%d" % frm)
        page.click("#cell-%d" % to)
        _wait_hint(page, "The board differs from the game: put White's man back on point %d; take the piece "
                         "off point %d" % (frm, to))
        assert _lit(page).get(str(to)) == "#ff0000"  # red: take it off (and mint where it goes back)
        _full_shot(page, "websim-refusal-%s.png" % game)
        page.click("#cell-%d" % to)  # lifted again
        page.click("#cell-%d" % frm)  # and put back: the board matches, the hint goes
        page.wait_for_function("() => document.getElementById('hint').hidden", timeout=TIMEOUT)
    assert errors == []
    page.close()


def test_takeback_on_the_page_in_every_game_a_tobit_capture_too(sim, browser):
    page, errors = _open(browser, sim[1])
    for game, pits in (("toguz", (8, 9)), ("tihbat", (1, 2))):
        _new_game(page, game)
        assert page.is_hidden("#takeback")  # no move yet
        g = new_game(game)
        for cell in pits:
            page.wait_for_function("c => document.getElementById('cell-' + c).getAttribute('data-colour') === '%s'"
                                   % GREEN, arg=cell, timeout=TIMEOUT)
            page.click("#cell-%d" % cell)
            g.push(cell % g.n_pits)
            _wait_moves(page, g.ply)
        page.click("#takeback")
        page.wait_for_function("n => %s.length === n" % MOVES_JS, arg=1, timeout=TIMEOUT)
        g.pop()
        counts = page.evaluate("n => Array.from({length: n}, (_, c) => "
                               "+document.getElementById('cell-' + c).getAttribute('data-count'))",
                               2 * g.n_pits + 2)
        assert counts == list(g.pos[:2 * g.n_pits + 2])
        events = page.eval_on_selector_all("#events li", "l => l.map(e => e.textContent)")
        assert events[-1].endswith("move taken back")
    # Tobit: Black's 23:9:7:21 takes three men; the takeback puts them back
    _set_up_tobit(page)
    g = new_game("tobit")
    for text in ("7-14", "30-23", "9-16", "23:9:7:21"):
        m = g.parse_move(text)
        page.click("#cell-%d" % m[1])
        page.click("#cell-%d" % m[len(m) - 1])
        for p in g.captured_points(m):
            page.click("#cell-%d" % p)
        g.push(m)
        _wait_moves(page, g.ply)
    page.click("#takeback")
    page.wait_for_function("n => %s.length === n" % MOVES_JS, arg=3, timeout=TIMEOUT)
    g.pop()
    for p in (8, 14, 16):
        page.wait_for_function("p => document.getElementById('cell-' + p).getAttribute('data-piece') === 'w'",
                               arg=p, timeout=TIMEOUT)
    assert page.get_attribute("#cell-23", "data-piece") == "b" and page.get_attribute("#cell-21", "data-piece") == ""
    with sim[0].lock:
        assert sim[0].board.status()["fen"] == g.fen()
    # by hand too: a captured piece put back from beside the board (a click on its empty point)
    m = g.parse_move("23:9:7:21")
    page.click("#cell-23")
    page.click("#cell-21")
    for p in g.captured_points(m):
        page.click("#cell-%d" % p)
    g.push(m)
    _wait_moves(page, 4)
    page.click("#cell-21")
    page.click("#cell-23")
    for p in (8, 14, 16):
        page.click("#cell-%d" % p)  # nothing in the hand: the captured man comes back
    page.wait_for_function("n => %s.length === n" % MOVES_JS, arg=3, timeout=TIMEOUT)
    assert errors == []
    page.close()


def test_new_game_asks_before_abandoning_a_game_with_moves(sim, browser):
    page, errors = _open(browser, sim[1])
    _new_game(page, "tihbat")
    page.click("#new")  # no move yet: no question
    assert page.is_hidden("#confirm-new")
    page.wait_for_function("() => document.getElementById('cell-1').getAttribute('data-colour') === '%s'" % GREEN,
                           timeout=TIMEOUT)
    page.click("#cell-1")
    _wait_moves(page, 1)
    page.select_option("#game", "toguz")
    page.click("#new")
    assert page.is_visible("#confirm-new")
    assert "has 1 move" in page.text_content("#confirm-text")
    page.click("#confirm-no")
    time.sleep(0.5)
    assert page.get_attribute("body", "data-game") == "tihbat" and _moves(page) == ["2"]  # kept
    page.click("#new")
    page.click("#confirm-yes")
    _wait_body(page, "data-game", "toguz")
    assert errors == []
    page.close()


def test_the_staff_gesture_and_a_long_press_on_the_page(sim, browser):
    page, errors = _open(browser, sim[1])
    page.click("#menu")
    page.wait_for_function("() => document.getElementById('status-text').textContent.includes(\"board's menu\")",
                           timeout=TIMEOUT)
    page.click("#gestures summary")
    page.click("#staff")
    page.wait_for_function("() => Array.from(document.querySelectorAll('#events li'))"
                           ".some(e => e.textContent.includes('the staff menu is open'))", timeout=TIMEOUT)
    # the status says the staff menu, not the players' menu (its pits, North pit 9 back)
    page.wait_for_function("() => document.getElementById('status-text').textContent"
                           ".startsWith('The staff menu: North pits 1-8 the brightness')", timeout=TIMEOUT)
    assert "board's menu" not in page.text_content("#status-text")
    # a long press (the pointer held on a pit): the board's deliberate press
    _new_game(page, "tihbat")
    page.wait_for_function("() => document.getElementById('cell-1').getAttribute('data-colour') === '%s'" % GREEN,
                           timeout=TIMEOUT)
    page.click("#cell-1")
    _wait_moves(page, 1)
    page.click("#resign")
    page.wait_for_function("() => document.getElementById('status-text').textContent.startsWith('Game over')",
                           timeout=TIMEOUT)
    time.sleep(3)  # the result shows (2.5 s after the end)
    box = page.locator("#cell-0").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    time.sleep(1.2)
    page.mouse.up()
    page.wait_for_function("() => document.getElementById('status-text').textContent.includes(\"board's menu\")",
                           timeout=TIMEOUT)
    assert errors == []
    page.close()


def test_on_a_phone_the_point_numbers_are_readable_and_the_takeback_is_there(sim, pw):
    profile = tempfile.mkdtemp(prefix="playboard-chromium-phone-")
    ctx = _context(pw, profile, has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    try:
        page, errors = _open(ctx, sim[1])
        _set_up_tobit(page)
        sizes = page.evaluate("() => Array.from(document.querySelectorAll('.pointno'))"
                              ".map(t => t.getBoundingClientRect().height)")
        assert len(sizes) == 38 and min(sizes) >= 10, sizes
        page.tap("#cell-7")
        page.tap("#cell-14")
        _wait_moves(page, 1)
        assert page.is_visible("#takeback")
        page.tap("#takeback")
        page.wait_for_function("() => %s.length === 0" % MOVES_JS, timeout=TIMEOUT)
        assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth + 1")
        _full_shot(page, "websim-phone-tobit.png")
        assert errors == []
    finally:
        ctx.close()
        shutil.rmtree(profile, ignore_errors=True)


def test_the_curators_report_fits_a_phone(pw, tmp_path):
    pytest.importorskip("matplotlib")
    from types import SimpleNamespace

    from playboard_host.library import Library
    from playboard_host.stats import Stats, write_report

    lib = Library(str(tmp_path / "lib.sqlite"))
    for i in range(3):
        rec = SimpleNamespace(uid="u%d" % i, id=i + 1, name="toguz", result="1-0", termination="kazan",
                              tags={"Date": "2026.12.0%d" % (i + 1), "Mode": "white", "Level": "3"}, fen=None,
                              moves=["m"] * 30)
        lib.add("hall-a", rec, b"raw%d" % i)
    lib.add_health("hall-a", {"power_ups": 3, "wdt_resets": 1, "stuck": 0, "chatter": 1,
                              "faulty": [[12, 1], [40, 2], [41, 2]]})
    games, boards = lib.games(), lib.boards()
    lib.close()
    write_report(Stats(games), boards, str(tmp_path / "report"))
    profile = tempfile.mkdtemp(prefix="playboard-chromium-report-")
    ctx = _context(pw, profile, has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        page.goto("file://" + str(tmp_path / "report" / "index.html"))
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 391
        os.makedirs(ARTIFACTS, exist_ok=True)
        page.screenshot(path=os.path.join(ARTIFACTS, "report-phone.png"), full_page=True)
    finally:
        ctx.close()
        shutil.rmtree(profile, ignore_errors=True)


def test_the_result_is_shown_in_words(sim, browser):
    """Issue 34: a game's end on the page says who won in words (the notation stays in
    the record): a resignation, then an agreed draw."""
    page, errors = _open(browser, sim[1])
    _new_game(page, "tihbat")
    page.wait_for_function("() => document.getElementById('cell-1').getAttribute('data-colour') === '%s'" % GREEN,
                           timeout=TIMEOUT)
    page.click("#cell-1")
    _wait_moves(page, 1)
    page.click("#resign")  # North, to move, resigns
    page.wait_for_function("() => document.getElementById('status-text').textContent.startsWith('Game over')",
                           timeout=TIMEOUT)
    text = page.text_content("#status-text")
    assert text.startswith("Game over: South won - North resigned (captured: South "), text
    assert "1-0" not in text
    _new_game(page, "toguz")
    page.click("#draw")
    page.wait_for_function("() => document.getElementById('status-text').textContent.startsWith('Game over')",
                           timeout=TIMEOUT)
    text = page.text_content("#status-text")
    assert text.startswith("Game over: Draw - agreed (kazans: South 0, North 0)"), text
    _full_shot(page, "result-in-words.png")
    assert errors == []
    page.close()


def _wrong_tobit_capture(page, tap, shot):
    """7-14 28-21, then White's 8-15 while 14:28 is compulsory: the lift is seen first
    (the page says so), then the wrong put-down; the hint and the event log say why and
    what to do; put right, the hint goes."""
    for a, z in ((7, 14), (28, 21)):
        tap("#cell-%d" % a)
        tap("#cell-%d" % z)
        _wait_moves(page, 1 if a == 7 else 2)
    tap("#cell-8")
    _wait_hint(page, "A capture is compulsory (RULES.md 2.7): the man from point 8 cannot capture")
    page.wait_for_timeout(700)  # a player's pause, the piece in the hand
    tap("#cell-15")
    _wait_hint(page, "Refused: a capture is compulsory: 14:28 takes the piece on point 21 (RULES.md 2.7); the man "
                     "on point 8 cannot capture, so it may not move. What to do: put it back on point 8, then "
                     "capture: 14:28. The board differs from the game: put White's man back on point 8; take the "
                     "piece off point 15")
    events = page.eval_on_selector_all("#events li", "l => l.map(e => e.textContent)")
    assert any("refused: a capture is compulsory: 14:28 takes the piece on point 21" in e for e in events), events
    assert not any("why" in e for e in events), events
    assert _lit(page).get("15") == "#ff0000"  # red: take it off
    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    _full_shot(page, shot)
    tap("#cell-15")  # lifted again
    tap("#cell-8")  # and put back: the board matches, the refusal's words go
    page.wait_for_function("() => document.getElementById('hint').hidden", timeout=TIMEOUT)


def test_a_wrong_tobit_move_says_a_capture_is_compulsory_on_desktop_and_phone(sim, browser, pw):
    page, errors = _open(browser, sim[1])
    _set_up_tobit(page)
    _wrong_tobit_capture(page, page.click, "websim-refusal-tobit-capture.png")
    assert errors == []
    page.close()
    profile = tempfile.mkdtemp(prefix="playboard-chromium-phone-")
    ctx = _context(pw, profile, has_touch=True, is_mobile=True, viewport={"width": 390, "height": 844})
    try:
        page, errors = _open(ctx, sim[1])
        _set_up_tobit(page)
        _wrong_tobit_capture(page, page.tap, "websim-phone-refusal-tobit-capture.png")
        assert errors == []
    finally:
        ctx.close()
        shutil.rmtree(profile, ignore_errors=True)
