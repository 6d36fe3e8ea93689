"""The simulator page in Chromium (as tests/host/test_websim_browser.py): what a new
user reported of its drawing and status (items 16, 15), each failing before its fix."""
import os
import shutil
import tempfile

import pytest

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's Chromium is not installed at %s: install it with `apt-get install chromium` "
                "(as .ci/run does) to run the browser tests" % CHROMIUM, allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright not installed: run `make setup`")

from playboard_host.simboard import micropython_binary  # noqa: E402
from playboard_host.websim import server as srv  # noqa: E402
from playboard_host.websim.session import Session  # noqa: E402

TIMEOUT = 20000  # ms
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]


@pytest.fixture
def page_of():
    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")
    made = []
    profile = tempfile.mkdtemp(prefix="playboard-chromium-")
    with sync_api.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                                                   viewport={"width": 1200, "height": 900})

        def make(**kw):
            hub = srv.Hub()
            s = Session(hub, **kw)
            httpd = srv.make_server(s, hub, "127.0.0.1", 0)
            srv.serve_in_thread(httpd)
            made.append((httpd, hub, s))
            page = ctx.new_page()
            page.goto("http://127.0.0.1:%d/" % httpd.server_address[1])
            page.wait_for_selector("#conn.live", timeout=TIMEOUT)
            return s, page

        try:
            yield make
        finally:
            ctx.close()
            for httpd, hub, s in made:
                srv.stop(httpd, hub)
                s.close()
            shutil.rmtree(profile, ignore_errors=True)


def test_a_pit_with_one_ball_draws_it_beside_its_count_not_over_it(page_of):
    s, page = page_of(game="toguz")
    page.click("#cell-0")  # South pit 1 (9 balls): its first ball back into it, 1 left there
    page.wait_for_function("() => document.getElementById('cell-0').getAttribute('data-count') === '1'",
                           timeout=TIMEOUT)
    far = page.evaluate("""() => {
        const g = document.getElementById('cell-0');
        const t = g.querySelector('text.count'), b = g.querySelector('circle.ball');
        return Math.hypot(+b.getAttribute('cx') - +t.getAttribute('x'), +b.getAttribute('cy') - +t.getAttribute('y'));
    }""")
    assert far >= 8, far  # the "1" is about 7 px wide: the ball (r 3.6) clear of it


def test_the_status_says_the_engines_toguz_move_is_to_be_made_on_the_board(page_of):
    s, page = page_of(game="toguz", mode="white", level=1)
    page.click("#cell-4")  # South pit 5: the player's move; the engine answers
    page.wait_for_function("() => document.getElementById('engine').getAttribute('data-state') === 'move'",
                           timeout=TIMEOUT)
    status = page.text_content("#status-text")
    assert status.startswith("The engine plays ") and status.endswith("make it on the board"), status
    assert page.is_visible("#engine-move")
    page.click("#engine-move")
    page.wait_for_function("() => document.getElementById('engine').getAttribute('data-state') === 'idle'",
                           timeout=TIMEOUT)
    assert page.text_content("#status-text").startswith("South to move")
