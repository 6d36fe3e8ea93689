"""What the hall's and the tournament day's tests share (test_hall.py, test_hall_browser.py,
test_hall_resend.py, test_hall_tihbat_browser.py, test_tournament_day.py,
test_tournament_day_e2e.py, ...): waiting on the hall's threads, a board's USB cable that
can be pulled, the players' gestures on a simulated board (a Toguz Kumalak move, a pad,
"ready"), what the hall printed, a one-board event ("Duel") and its hall, and the hall's
page in Chromium (Playwright), an event's boards and hall behind it.

Imported by name (``from hall_harness import ...``): pytest puts tests/host, which has
no ``__init__.py``, on ``sys.path``.
"""
import contextlib
import os
import shutil
import tempfile
import time

import pytest

from playboard_host.serial_link import open_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARTIFACTS = os.path.join(ROOT, "test-artifacts")


# ---- waiting ---------------------------------------------------------------------------

def wait_for(cond, seconds=40.0, step=0.05):
    """Poll ``cond()`` (on the wall clock: the hall's threads run on it) until it is true
    (returns its value) or ``seconds`` pass (returns None)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(step)
    return None


def wait(cond, what, seconds=60.0):
    """:func:`wait_for`, failing the test with "waited N s for ``what``" at the end."""
    v = wait_for(cond, seconds)
    if not v:
        raise AssertionError("waited %d s for %s" % (seconds, what))
    return v


def board_by_label(hall, label):
    """The hall's state of the board labelled ``label`` (a dict of Hall.state), or None."""
    for b in hall.state()["boards"]:
        if b["label"] == label:
            return b
    return None


class Notes:
    """The hall's console (``Hall(out=...)``): every text written, in order (``lines``)."""

    def __init__(self):
        self.lines = []

    def write(self, t):
        self.lines.append(t)

    def flush(self):
        pass

    def said(self, text):
        """True if a line written holds ``text``."""
        return any(text in n for n in self.lines)


# ---- a board's cable -----------------------------------------------------------------

class Cable:
    """A board's USB cable between the hall and the board's port: pulled out (``out``),
    every read and write fails (as the OS does when the device goes) and the port is
    not listed (``ports``)."""

    def __init__(self, port):
        self.port = port
        self.out = False

    def ports(self):
        return [] if self.out else [self.port]

    def open(self, port):
        s = open_port(port)
        cable = self

        class Stream:
            def __getattr__(self, name):
                return getattr(s, name)

            def read(self, n):
                if cable.out:
                    raise OSError(5, "device disconnected")
                return s.read(n)

            def write(self, data):
                if cable.out:
                    raise OSError(5, "device disconnected")
                return s.write(data)
        return Stream()


# ---- the players at a simulated board ------------------------------------------------

def press_point(b, point):
    """A deliberate press of Tobit point ``point`` on SimBoard ``b``: during the mancala
    games the play pads (5 White's resign, 38 Black's, 1 / 34 the draw offers)."""
    from playboard.board.layout import load_layout
    from playboard_host.gestures import press_sensor
    press_sensor(b, load_layout("tobit").sensor_of(point))


def toguz_move(b, g, k=0, ms=2500):
    """Sow the ``k``-th legal move (modulo their number) of Toguz Kumalak game ``g`` (its
    rules core, kept in step) on SimBoard ``b``: a tap of the pit, then ``ms`` of board
    time. Returns the move's text."""
    m = g.legal_moves()[k % len(g.legal_moves())]
    b.tap(m + 9 * g.turn, 150)
    b.advance(ms)
    text = g.move_text(m)
    g.push(m)
    return text


def resign(b, side):
    """``side`` (0 White, 1 Black) resigns a mancala game on SimBoard ``b``: its resign pad
    pressed twice."""
    for _ in range(2):
        press_point(b, 5 if side == 0 else 38)


def ready(b, side):
    """The player of ``side`` (0 White, 1 Black) says it is ready for the pairing the board
    keeps: a deliberate press of a pit of its own row of the Toguz Kumalak pits (South
    pit 5, North pit 5; firmware app.ui.ready_press)."""
    from playboard.board.layout import load_layout
    from playboard_host.gestures import press_sensor
    press_sensor(b, load_layout("toguz").sensor_of(4 if side == 0 else 13))


def begin_paired(b, between=None):
    """Both players at SimBoard ``b`` say they are ready for the pairing it keeps (waited
    for: the hall sends it), White first; ``between()`` runs after White's. The board's
    last result, if it shows one, has had its 2.5 s (a press takes none before). Fails
    the test unless the game is then in play."""
    wait(lambda: "ready" in b.status(), "the board to keep its pairing")
    b.advance(3000)
    ready(b, 0)
    assert b.status()["ready"] == 1
    if between is not None:
        between()
    ready(b, 1)
    b.advance(100)
    st = b.status()
    assert st["state"] == "play" and st["ply"] == 0, st


# ---- a duel: one event on one board ----------------------------------------------------

def duel_event(tmp_path):
    """The event "Duel" of Toguz Kumalak, Aru (White) v Bek (Black) paired for round 1 on
    board 1 (its id "duel"), in a new library ``tmp_path``/lib.sqlite: returns its path."""
    from playboard_host.library import Library
    from playboard_host.tournament.event import Event
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    e = Event.create(lib, "Duel", "toguz", boards=["1=duel"])
    e.add_entrant("Aru")
    e.add_entrant("Bek")
    e.pair_next()
    lib.close()
    return db


def duel_hall(db, console, ports=None, cable=None, **kw):
    """The hall following :func:`duel_event`'s Duel (library ``db``: its pairings, and
    the games it syncs) on the boards ``ports()`` lists, or on ``cable``'s (a
    :class:`Cable`: its opener, and link timeouts short enough to see it pulled within
    a second), writing to ``console`` (a :class:`Notes`); other keywords go to
    ``Hall`` (``live_dir``). Started: the caller stops it."""
    from playboard_host.tournament import hall as hall_mod
    if cable is not None:
        ports = cable.ports
        kw.update(opener=cable.open, retry_s=0.3, timeout=0.5, keepalive_s=1.0)
    h = hall_mod.Hall(ports, None, hall_mod.event_pairings(db, "Duel"), "Duel", rescan_s=0.2,
                      refresh_s=0.3, sync_library=db, out=console, **kw)
    h.start()
    return h


# ---- the hall's page in Chromium -------------------------------------------------------

def skip_without_browser():
    """The Playwright module (``sync_api``), or the test skipped: no /usr/bin/chromium
    (``apt-get install chromium``, as .ci/run does), or no playwright (``make setup``)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's Chromium is not installed at %s: install it with `apt-get install chromium` "
                    "(as .ci/run does) to run the browser tests" % CHROMIUM, allow_module_level=True)
    return pytest.importorskip("playwright.sync_api", reason="playwright not installed: run `make setup`")


@contextlib.contextmanager
def hall_page(url, height=900):
    """The hall's page at ``url`` open in headless Chromium, live (its server-sent events
    connected): yields (page, errors), ``errors`` the page's script errors (a test
    asserts it is empty). Its profile goes at the end."""
    sync_api = skip_without_browser()
    profile = tempfile.mkdtemp(prefix="playboard-chromium-")
    try:
        with sync_api.sync_playwright() as pw:
            ctx = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                        args=CHROMIUM_ARGS, viewport={"width": 1200, "height": height})
            try:
                page = ctx.new_page()
                errors = []
                page.on("pageerror", lambda x: errors.append(str(x)))
                page.goto(url)
                page.wait_for_selector("#conn.live", timeout=20000)
                yield page, errors
            finally:
                ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@contextlib.contextmanager
def event_hall_page(tmp_path, game, entrants, n_boards, set_up=None, height=800):
    """An event "Cup" of ``game`` with ``entrants`` (names), its first round paired on
    ``n_boards`` simulated boards ("hall-1", ... labelled 1, ..., each on a flash of its
    own under ``tmp_path``; ``set_up(board)`` run on each once started, else 100 ms of
    board time), the live hall following them (its library and files in ``tmp_path``)
    and its page open in Chromium: yields (boards, page, errors) as :func:`hall_page`.
    Skips without micropython; everything stopped at the end."""
    from playboard_host.library import Library
    from playboard_host.simboard import SimBoard, micropython_binary
    from playboard_host.tournament import hall as hall_mod
    from playboard_host.tournament.event import Event
    from playboard_host.tournament.hall_server import make_server
    from playboard_host.websim import server as srv
    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    e = Event.create(lib, "Cup", game, boards=["%d=hall-%d" % (k, k) for k in range(1, n_boards + 1)])
    for n in entrants:
        e.add_entrant(n)
    e.pair_next()
    lib.close()
    boards = []
    hub = srv.Hub()
    hall = httpd = None
    try:
        for k in range(n_boards):
            b = SimBoard()
            boards.append(b)
            b.start("sim", fs_dir=str(tmp_path / ("flash%d" % k)), board_id="hall-%d" % (k + 1))
            if set_up is not None:
                set_up(b)
            else:
                b.advance(100)
        hall = hall_mod.Hall(lambda: [b.port for b in boards], hub, hall_mod.event_pairings(db, "Cup"), "Cup",
                             str(tmp_path), rescan_s=0.2, refresh_s=0.3)
        hall.start()
        httpd = make_server(hall, hub, "127.0.0.1", 0)
        srv.serve_in_thread(httpd)
        with hall_page("http://127.0.0.1:%d/" % httpd.server_address[1], height=height) as (page, errors):
            yield boards, page, errors
    finally:
        stop_hall(httpd, hub, hall, boards)


def stop_hall(httpd, hub, hall, boards):
    """Stop what a hall test started, each where it was (``httpd`` and ``hall`` may be
    None): the page's server (of ``hub``), the hall, then the simulated boards."""
    from playboard_host.websim import server as srv
    if httpd is not None:
        srv.stop(httpd, hub)
    if hall is not None:
        hall.stop()
    for b in boards:
        b.stop()


def wait_card(page, label, part, text, timeout=20000):
    """Wait until board ``label``'s card on the hall's page shows ``text`` in its ``part``
    (a class: "players", "sides", "waiting", "result"); ``text`` None: until it has no
    such part."""
    if text is None:
        page.wait_for_function("([l, p]) => { const d = document.getElementById('board-' + l);"
                               " return d && !d.querySelector('.' + p); }", arg=[label, part], timeout=timeout)
        return
    page.wait_for_function("([l, p, t]) => { const d = document.getElementById('board-' + l);"
                           " const e = d && d.querySelector('.' + p); return e && e.textContent === t; }",
                           arg=[label, part, text], timeout=timeout)


def screenshot(page, name):
    """Keep the page as test-artifacts/``name``."""
    os.makedirs(ARTIFACTS, exist_ok=True)
    page.screenshot(path=os.path.join(ARTIFACTS, name))
