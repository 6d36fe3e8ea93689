"""A tournament day end to end (issue 32): six players, three simulated boards with their own
ids (the real firmware on SimBoard, virtual time), the live hall sending each board its
pairing, the players at each board saying they are ready (the game begins when both
are; the page says whom a board waits for), storing every game and taking each result
as it ends, its page in Chromium (Playwright). A round robin (a board unplugged mid-game, a friendly game between rounds,
players at the wrong boards once, put right by the arbiter), then a knockout of the first
four with a tied match (tiebreak games on the same board). The final standings and
crosstable are compared with the ones worked out by hand below."""
import pytest

from hall_harness import (Cable, Notes, begin_paired, hall_page, press_point, screenshot, skip_without_browser,
                          stop_hall, toguz_move, wait, wait_card)
from playboard.games.registry import new_game
from playboard_host import cli
from playboard_host.library import Library
from playboard_host.result_words import result_words
from playboard_host.simboard import SimBoard, micropython_binary
from playboard_host.tournament import hall as hall_mod
from playboard_host.tournament import outputs
from playboard_host.tournament.event import Event
from playboard_host.tournament.hall_server import make_server
from playboard_host.websim import server as srv

pytestmark = pytest.mark.skipif(micropython_binary() is None, reason="micropython not installed (make setup)")

PLAYERS = ["Aru", "Bek", "Dina", "Erlan", "Gul", "Nurlan"]
IDS = ["e6613852a1b2c3d4", "e6614c1a07f0e1d2", "e66138528f9a8b7c"]
# what was really played, round by round in the Berger tables' table order (FIDE C.05 for 6)
PLAN = {1: [("Aru", "Nurlan", "1-0"), ("Bek", "Gul", "1/2-1/2"), ("Dina", "Erlan", "0-1")],
        2: [("Nurlan", "Erlan", "0-1"), ("Gul", "Dina", "1-0"), ("Aru", "Bek", "1/2-1/2")],
        3: [("Bek", "Nurlan", "1-0"), ("Dina", "Aru", "0-1"), ("Erlan", "Gul", "1/2-1/2")],
        4: [("Nurlan", "Gul", "0-1"), ("Aru", "Erlan", "1-0"), ("Bek", "Dina", "1-0")],
        5: [("Dina", "Nurlan", "1/2-1/2"), ("Erlan", "Bek", "0-1"), ("Gul", "Aru", "0-1")]}
# worked out by hand from PLAN: Aru 1+.5+1+1+1, Bek .5+.5+1+1+1, Gul .5+1+.5+1+0, Erlan 1+1+.5+0+0,
# Dina 0+0+0+0+.5, Nurlan 0+0+0+0+.5; Dina and Nurlan equal on h2h (their draw), wins (0) and SB
# (.5 x .5 each): they share 5th place
STANDINGS = [(1, "Aru", 4.5), (2, "Bek", 4), (3, "Gul", 3), (4, "Erlan", 2.5), (5, "Dina", 0.5),
             (5, "Nurlan", 0.5)]
CROSS = {  # row player's points against each column player, standings order
    "Aru": {"Bek": "0.5", "Gul": "1", "Erlan": "1", "Dina": "1", "Nurlan": "1"},
    "Bek": {"Aru": "0.5", "Gul": "0.5", "Erlan": "1", "Dina": "1", "Nurlan": "1"},
    "Gul": {"Aru": "0", "Bek": "0.5", "Erlan": "0.5", "Dina": "1", "Nurlan": "1"},
    "Erlan": {"Aru": "0", "Bek": "0", "Gul": "0.5", "Dina": "1", "Nurlan": "1"},
    "Dina": {"Aru": "0", "Bek": "0", "Gul": "0", "Erlan": "0", "Nurlan": "0.5"},
    "Nurlan": {"Aru": "0", "Bek": "0", "Gul": "0", "Erlan": "0", "Dina": "0.5"}}


def begin(b, paired=True, between=None):
    """The players begin a two-player Toguz Kumalak game at board ``b``; returns its rules
    core. ``paired``: the board keeps the hall's pairing and both sides say they are
    ready (hall_harness.begin_paired; ``between()`` after White's), else a friendly game
    chosen on the board."""
    if paired:
        begin_paired(b, between)
    else:
        b.new_game("toguz", "two")
        b.advance(100)
    return new_game("toguz")


def sow(b, g, k):
    toguz_move(b, g, k)


def end(b, result):
    """End the game on ``b`` with ``result``: both draw pads, or the loser's resign pad twice."""
    if result == "1/2-1/2":
        press_point(b, 1)
        press_point(b, 34)
    else:
        for _ in range(2):
            press_point(b, 38 if result == "1-0" else 5)
    st = b.status()
    assert st["state"] == "over" and st["result"] == result, st


def play(b, result, plies=2, paired=True, between=None):
    g = begin(b, paired, between)
    for k in range(plies):
        sow(b, g, k)
    end(b, result)


def test_a_tournament_day_with_the_hall_in_chromium(tmp_path, capsys):
    skip_without_browser()
    db = str(tmp_path / "club.sqlite")
    T = ["tournament", "--library", db]

    def tcli(*argv):
        code = cli.main(T + list(argv))
        out, err = capsys.readouterr()
        assert code == 0, (argv, out, err)
        return out

    tcli("create", "Spring", "--game", "toguz", "--tiebreaks", "h2h,wins,sb",
         *sum((["--board", "%d=%s" % (k + 1, i)] for k, i in enumerate(IDS)), []))
    tcli("add", "Spring", *PLAYERS)
    boards = []
    hub = srv.Hub()
    hall = httpd = None
    console = Notes()
    noted = console.said

    def start_hall(event):
        h = hall_mod.Hall(lambda: [c.port for c in cables if not c.out], hub, hall_mod.event_pairings(db, event),
                          event, str(tmp_path), opener=lambda p: cable_of[p].open(p), rescan_s=0.2, refresh_s=0.3,
                          retry_s=0.3, timeout=0.5, keepalive_s=1.0, sync_library=db, out=console)
        h.start()
        return h

    def sent(label, rnd, white, black):
        return wait(lambda: noted("board %s: round %s, %s (White) - %s (Black) sent" % (label, rnd, white, black)),
                    "round %s sent to board %s" % (rnd, label))

    try:
        for k, bid in enumerate(IDS):
            b = SimBoard()
            b.start("sim", fs_dir=str(tmp_path / ("flash%d" % k)), board_id=bid)
            boards.append(b)
        cables = [Cable(b.port) for b in boards]
        cable_of = {c.port: c for c in cables}
        hall = start_hall("Spring")
        httpd = make_server(hall, hub, "127.0.0.1", 0)
        srv.serve_in_thread(httpd)
        url = "http://127.0.0.1:%d/" % httpd.server_address[1]
        with hall_page(url) as (page, errors):
            # three boards, each by its own id and label
            page.wait_for_function("() => document.querySelectorAll('#boards .board').length === 3",
                                   timeout=20000)
            assert hall.state()["alerts"] == [] and sorted(b["id"] for b in hall.state()["boards"]) == \
                sorted(IDS)
            for rnd in range(1, 6):
                tcli("pair", "Spring")
                for t, (w, bl, _) in enumerate(PLAN[rnd]):
                    sent(str(t + 1), "%d.%d" % (rnd, t + 1), w, bl)
                wait_card(page, "1", "players", "%s \u2013 %s" % PLAN[rnd][0][:2])
                if rnd == 2:  # board 2's cable pulled mid-game; the game ends while it is out
                    for t in (0, 2):
                        play(boards[t], PLAN[rnd][t][2])
                    g = begin(boards[1])
                    sow(boards[1], g, 0)
                    wait(lambda: hall.state()["boards"][1]["moves"] == 1, "board 2's first move")
                    cables[1].out = True
                    page.wait_for_selector("#alerts li.disconnected", timeout=20000)
                    assert "board 2 disconnected" in page.text_content("#alerts li.disconnected")
                    sow(boards[1], g, 1)
                    end(boards[1], PLAN[rnd][1][2])
                    cables[1].out = False
                    wait(lambda: noted("board 2 back (toguz, 2 moves, Gul won)"), "board 2 back")
                    page.wait_for_function("() => !document.querySelector('#alerts li.disconnected')",
                                           timeout=20000)
                elif rnd == 3:  # tables 1 and 2 sat at each other's boards
                    play(boards[0], PLAN[3][1][2])  # Dina - Aru played on board 1 (table 1's pairing)
                    play(boards[1], PLAN[3][0][2])  # Bek - Nurlan on board 2
                    play(boards[2], PLAN[3][2][2])
                elif rnd == 1:  # the page says whom each board waits for
                    for t, (w, bl, res) in enumerate(PLAN[rnd]):
                        label = str(t + 1)
                        wait_card(page, label, "waiting", "waiting for %s (White) and %s (Black)" % (w, bl))
                        play(boards[t], res, 2 + (rnd + t) % 3,
                             between=lambda: wait_card(page, label, "waiting", "waiting for %s (Black)" % bl))
                        wait_card(page, label, "waiting", None)  # the game in play
                else:
                    for t, (w, bl, res) in enumerate(PLAN[rnd]):
                        play(boards[t], res, 2 + (rnd + t) % 3)
                for t in range(3):
                    wait(lambda: noted("round %d table %d on board %d:" % (rnd, t + 1, t + 1)),
                         "round %d table %d taken" % (rnd, t + 1))
                if rnd == 1:  # the page gives each board's result in words, with the players' names
                    for label, words in (("1", "Aru won"), ("2", "Draw"), ("3", "Erlan won")):
                        wait_card(page, label, "result", words)
                if rnd == 3:  # the arbiter puts it right: the results the players really got
                    tcli("result", "Spring", "3", "1", "1-0", "--reason", "Bek - Nurlan played at board 2: Bek won")
                    tcli("result", "Spring", "3", "2", "0-1", "--reason", "Dina - Aru played at board 1: Aru won")
                    page.wait_for_function("() => document.querySelectorAll('#alerts li.contradiction').length"
                                           " >= 2", timeout=20000)
                if rnd == 2:  # a friendly game between rounds on board 3: listed, never taken
                    play(boards[2], "0-1", 3, paired=False)
                    wait(lambda: noted("carries no pairing of Spring: listed for the arbiter, not taken"),
                         "the friendly game listed")
            assert sum(("round 2 table 2 on board 2: Gul - Dina: Gul won (1-0" in n) for n in console.lines) == 1
            # round 5's games as played (4, 2 and 3 moves; no move counted twice), positions shown
            assert [(b["moves"], b["position"] is not None) for b in hall.state()["boards"]] == [
                (4, True), (2, True), (3, True)]
            screenshot(page, "hall-spring.png")
            # the round robin's standings and crosstable: as worked out by hand
            lib = Library(db)
            e = Event(lib, "Spring")
            st = e.standings()
            assert [(r["place"], r["name"], r["score"]) for r in st] == STANDINGS
            names = e.names_by_id()
            by_name = {v: k for k, v in names.items()}
            cross = {r["name"]: {o["name"]: outputs._cell(e, r["id"], by_name[o["name"]], None)
                                 for o in st if o["name"] != r["name"]} for r in st}
            assert cross == CROSS
            games = lib.games()
            assert len(games) == 16  # 15 of the event and the friendly one, each stored once
            assert sorted(p.library_game for p in e.pairings()) == sorted(
                g.id for g in games if g.tags.get("Event") == "Spring")
            lib.close()
            hall.stop()
            # the knockout of the first four, seeded by the round robin's places
            tcli("create", "Final4", "--game", "toguz", "--system", "knockout", "--games-per-match", "2",
                 "--tiebreak-games", "2", *sum((["--board", "%d=%s" % (k + 1, i)] for k, i in enumerate(IDS)),
                                               []))
            tcli("add", "Final4", "Aru", "Bek", "Gul", "Erlan")
            del console.lines[:]
            hall = start_hall("Final4")
            httpd.hall = hall  # (the page's server follows the new hall)
            out = tcli("pair", "Final4")
            assert "board 1  Aru" in out and "board 2  Bek" in out and "1.2    board 1  Erlan" in out
            ko = [("1", "1.1", "Aru", "Erlan", "1-0"), ("1", "1.1.2", "Erlan", "Aru", "1/2-1/2"),
                  ("2", "1.2", "Bek", "Gul", "1-0"), ("2", "1.2.2", "Gul", "Bek", "1-0"),
                  "pair",  # match 2 tied 1-1: two tiebreak games, on board 2
                  ("2", "1.2.3", "Bek", "Gul", "1/2-1/2"), ("2", "1.2.4", "Gul", "Bek", "0-1"),
                  "pair",  # the final: Aru - Bek, on board 1
                  ("1", "2.1", "Aru", "Bek", "0-1"), ("1", "2.1.2", "Bek", "Aru", "1-0")]
            for step in ko:
                if step == "pair":
                    tcli("pair", "Final4")
                    continue
                label, rnd, w, bl, res = step
                sent(label, rnd, w, bl)
                play(boards[int(label) - 1], res)
                r, _, table = rnd.partition(".")
                line = "round %s table %s on board %s: %s - %s: %s (%s," % (
                    r, table, label, w, bl, result_words(res, w, bl), res)
                wait(lambda: noted(line), line)
            page.goto(url)
            page.wait_for_function("() => document.getElementById('title').textContent.startsWith('Final4')",
                                   timeout=20000)
            screenshot(page, "hall-final4.png")
            assert errors == []
        lib = Library(db)
        k = Event(lib, "Final4")
        st = k.standings()
        assert [(r["name"], r["score"], r["champion"]) for r in st] == [
            ("Bek", 2, True), ("Aru", 2, False), ("Gul", 1, False), ("Erlan", 1, False)]
        assert {p.board for p in k.pairings(1) if p.match == "2"} == {"2"}  # a match on one board
        assert all(p.source == "board" for p in k.pairings())
        lib.close()
    finally:
        stop_hall(httpd, hub, hall, boards)
