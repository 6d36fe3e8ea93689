"""The live hall's page in a real browser (Playwright driving Debian's Chromium headless):
3 simulated boards of an event, moves made through their sensors, and each board's
picture on the page follows within a second. Skips where /usr/bin/chromium is missing
(`apt-get install chromium`; .ci/run installs it)."""
import pytest

from hall_harness import begin_paired, hall_page, screenshot, skip_without_browser, wait_card

skip_without_browser()

from playboard.games.registry import new_game  # noqa: E402
from playboard_host.library import Library  # noqa: E402
from playboard_host.simboard import SimBoard, micropython_binary  # noqa: E402
from playboard_host.tournament import hall as hall_mod  # noqa: E402
from playboard_host.tournament.event import Event  # noqa: E402
from playboard_host.tournament.hall_server import make_server  # noqa: E402
from playboard_host.websim import server as srv  # noqa: E402


def test_the_hall_page_shows_three_boards_updating_as_moves_are_made(tmp_path):
    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    e = Event.create(lib, "Cup", "toguz", boards=["%d=hall-%d" % (k, k) for k in (1, 2, 3)])
    for n in ("Aru", "Bek", "Dina", "Erlan", "Gul", "Nurlan"):
        e.add_entrant(n)
    e.pair_next()
    lib.close()
    boards = []
    hub = srv.Hub()
    hall = None
    httpd = None
    try:
        for k in range(3):
            b = SimBoard()
            b.start("sim", fs_dir=str(tmp_path / ("flash%d" % k)), board_id="hall-%d" % (k + 1))
            b.new_game("toguz", "two")
            b.advance(100)
            boards.append(b)
        hall = hall_mod.Hall(lambda: [b.port for b in boards], hub, hall_mod.event_pairings(db, "Cup"), "Cup",
                             str(tmp_path), rescan_s=0.2, refresh_s=0.3)
        hall.start()
        httpd = make_server(hall, hub, "127.0.0.1", 0)
        srv.serve_in_thread(httpd)
        with hall_page("http://127.0.0.1:%d/" % httpd.server_address[1], height=800) as (page, errors):
            for label, names in (("1", "Aru \u2013 Nurlan"), ("2", "Bek \u2013 Gul"), ("3", "Dina \u2013 Erlan")):
                wait_card(page, label, "players", names)
            # whose side is where, as the board lights it; the games begun before the pairings
            # came had no move: they gave way to the pairings, whose games the players begin
            assert page.text_content("#board-1 .sides") == \
                "Aru: White, South (white lights) - Nurlan: Black, North (blue lights)"
            wait_card(page, "1", "waiting", "waiting for Aru (White) and Nurlan (Black)")
            for b in boards:
                begin_paired(b)
            wait_card(page, "1", "waiting", None)
            games = [new_game("toguz") for _ in boards]
            for k, b in enumerate(boards):
                g = games[k]
                m = g.legal_moves()[k]
                b.tap(m, 150)
                b.advance(3000)
                text = g.move_text(m)
                g.push(m)
                # the board's card shows the move and the new position (the delay: make bench)
                page.wait_for_function(
                    "([l, t]) => { const d = document.getElementById('board-' + l);"
                    " return d && d.dataset.moves === '1' && d.querySelector('.last').textContent.includes(t); }",
                    arg=[str(k + 1), text], timeout=5000)
                cells = page.eval_on_selector_all("#board-%d table.pos tr:last-child td" % (k + 1),
                                                  "tds => tds.map(t => Number(t.textContent))")
                assert cells == [g.pos[i] for i in range(9)]
                north = page.eval_on_selector_all("#board-%d table.pos tr:first-child td" % (k + 1),
                                                  "tds => tds.map(t => Number(t.textContent))")
                assert north == [g.pos[9 + i] for i in range(8, -1, -1)]
            screenshot(page, "hall.png")
            assert errors == []
    finally:
        if httpd is not None:
            srv.stop(httpd, hub)
        if hall is not None:
            hall.stop()
        for b in boards:
            b.stop()
