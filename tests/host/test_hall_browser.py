"""The live hall's page in a real browser (Playwright driving Debian's Chromium headless):
3 simulated boards of an event, moves made through their sensors, and each board's
picture on the page follows within a second. Skips where /usr/bin/chromium is missing
(`apt-get install chromium`; .ci/run installs it)."""
from hall_harness import begin_paired, event_hall_page, screenshot, skip_without_browser, wait_card

skip_without_browser()

from playboard.games.registry import new_game  # noqa: E402


def _toguz_for_two(b):
    b.new_game("toguz", "two")
    b.advance(100)


def test_the_hall_page_shows_three_boards_updating_as_moves_are_made(tmp_path):
    with event_hall_page(tmp_path, "toguz", ("Aru", "Bek", "Dina", "Erlan", "Gul", "Nurlan"), 3,
                         set_up=_toguz_for_two) as (boards, page, errors):
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
