"""The hall's page for a Tihbat event with one board, in Chromium (a new user's report,
item 13: its rows said "kazan 0" although Tihbat has none, North and South were not
named, and the count said "1 boards")."""
from hall_harness import begin_paired, event_hall_page, skip_without_browser, wait_card

skip_without_browser()


def test_a_tihbat_board_on_the_hall_page_shows_the_captured_balls_of_each_side(tmp_path):
    with event_hall_page(tmp_path, "tihbat", ("Aru", "Bek"), 1) as (boards, page, errors):
        b = boards[0]
        wait_card(page, "1", "players", "Aru \u2013 Bek")
        begin_paired(b)
        page.wait_for_function("() => document.querySelectorAll('#board-1 .stores').length === 2",
                               timeout=20000)
        assert page.eval_on_selector_all("#board-1 .stores", "es => es.map(e => e.textContent)") == [
            "North: captured 0", "South: captured 0"]
        assert page.text_content("#count") == "1 board"
        assert errors == []
