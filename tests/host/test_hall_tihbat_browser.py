"""The hall's page for a Tihbat event with one board, in Chromium (a new user's report,
item 13: its rows said "kazan 0" although Tihbat has none, North and South were not
named, and the count said "1 boards")."""
import pytest

from hall_harness import begin_paired, hall_page, skip_without_browser, wait_card

skip_without_browser()

from playboard_host.library import Library  # noqa: E402
from playboard_host.simboard import SimBoard, micropython_binary  # noqa: E402
from playboard_host.tournament import hall as hall_mod  # noqa: E402
from playboard_host.tournament.event import Event  # noqa: E402
from playboard_host.tournament.hall_server import make_server  # noqa: E402
from playboard_host.websim import server as srv  # noqa: E402


def test_a_tihbat_board_on_the_hall_page_shows_the_captured_balls_of_each_side(tmp_path):
    if micropython_binary() is None:
        pytest.skip("micropython not installed (make setup)")
    db = str(tmp_path / "lib.sqlite")
    lib = Library(db)
    e = Event.create(lib, "Cup", "tihbat", boards=["1=hall-1"])
    for n in ("Aru", "Bek"):
        e.add_entrant(n)
    e.pair_next()
    lib.close()
    hub = srv.Hub()
    b = SimBoard()
    hall = httpd = None
    try:
        b.start("sim", fs_dir=str(tmp_path / "flash"), board_id="hall-1")
        b.advance(100)
        hall = hall_mod.Hall(lambda: [b.port], hub, hall_mod.event_pairings(db, "Cup"), "Cup",
                             str(tmp_path), rescan_s=0.2, refresh_s=0.3)
        hall.start()
        httpd = make_server(hall, hub, "127.0.0.1", 0)
        srv.serve_in_thread(httpd)
        with hall_page("http://127.0.0.1:%d/" % httpd.server_address[1], height=800) as (page, errors):
            wait_card(page, "1", "players", "Aru \u2013 Bek")
            begin_paired(b)
            page.wait_for_function("() => document.querySelectorAll('#board-1 .stores').length === 2",
                                   timeout=20000)
            assert page.eval_on_selector_all("#board-1 .stores", "es => es.map(e => e.textContent)") == [
                "North: captured 0", "South: captured 0"]
            assert page.text_content("#count") == "1 board"
            assert errors == []
    finally:
        if hall is not None:
            hall.stop()
        if httpd is not None:
            srv.stop(httpd, hub)
        b.stop()
