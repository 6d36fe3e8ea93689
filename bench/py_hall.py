"""The live hall with 16 simulated boards at once (the real firmware under MicroPython,
`-X heapsize=192k`, each on its own pseudo-terminal), one Hall following them all.

Targets (issue 15): 16 boards followed at once; a move shown by the hall (its state,
which the page's server-sent events carry) within 1 s of the board committing it;
the hall keeps up with every board moving at once (no move lost, at least 16
moves/s handled, here 4 moves a second offered on each board, far faster than
people play).
"""
import os
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, "firmware")
sys.path.insert(0, "host_tools")
sys.path.insert(0, "bench")

from benchlib import report  # noqa: E402

N_BOARDS = 16


def main():
    from playboard.games.registry import new_game
    from playboard_host.simboard import SimBoard, build_firmware, micropython_binary
    from playboard_host.tournament.hall import Hall
    from playboard_host.tournament.hall_server import make_server
    from playboard_host.websim.server import Hub, serve_in_thread, stop

    if micropython_binary() is None:
        raise SystemExit("micropython not installed (make setup)")
    build_firmware()
    tmp = tempfile.mkdtemp(prefix="playboard-hall-bench-")
    boards = []
    hall = httpd = None
    try:
        for k in range(N_BOARDS):
            b = SimBoard()
            b.start("sim", fs_dir=os.path.join(tmp, "b%d" % k), board_id="bench-%d" % (k + 1))
            b.new_game("toguz", "two")
            b.advance(100)
            boards.append(b)
        hub = Hub()
        # the boards' clocks are virtual and run ahead of the wall clock; live events stop
        # after 20 s of a board's time without a request, so the hall asks every 0.5 s
        hall = Hall(lambda: [b.port for b in boards], hub, rescan_s=0.2, keepalive_s=0.5)
        t0 = time.perf_counter()
        hall.start()
        while sum(1 for s in list(hall.boards.values()) if s.connected) < N_BOARDS:
            if time.perf_counter() - t0 > 60:
                break
            time.sleep(0.01)
        connected = sum(1 for s in hall.boards.values() if s.connected)
        report("hall: simulated boards followed at once", connected, "boards", ">= %d" % N_BOARDS,
               connected >= N_BOARDS)
        report("hall: time to connect to all of them", round(time.perf_counter() - t0, 2), "s")
        state = {b.port: hall.boards[b.port] for b in boards}
        # a page's event stream, as the browser reads it: the moves it has been told of
        httpd = make_server(hall, hub, "127.0.0.1", 0)
        serve_in_thread(httpd)
        page = {"moves": 0}

        def listen():
            import json
            import urllib.request
            try:
                r = urllib.request.urlopen("http://127.0.0.1:%d/api/events" % httpd.server_address[1], timeout=60)
                for line in r:
                    if line.startswith(b"data: "):
                        page["moves"] = sum(b["moves"] for b in json.loads(line[6:])["boards"])
            except OSError:
                pass
        threading.Thread(target=listen, daemon=True).start()
        games = [new_game("toguz") for _ in boards]

        def move(k):
            g = games[k]
            m = g.legal_moves()[0]
            boards[k].tap(m + 9 * g.turn, 150)
            boards[k].advance(3000)
            g.push(m)

        # latency: one move at a time, from the board's committing it to the hall's state
        # (measured from the end of the board's frames that committed it: the event left
        # the board during them, so this is an upper bound of the delay after the move)
        lat = []
        sse = []
        for rnd in range(2):
            for k, b in enumerate(boards):
                want = state[b.port].moves_seen + 1
                want_page = sum(g.ply for g in games) + 1
                move(k)
                t1 = time.perf_counter()
                while state[b.port].moves_seen < want and time.perf_counter() - t1 < 5:
                    time.sleep(0.0005)
                lat.append(time.perf_counter() - t1)
                while page["moves"] < want_page and time.perf_counter() - t1 < 5:
                    time.sleep(0.0005)
                sse.append(time.perf_counter() - t1)
        for what, xs in (("hall state", lat), ("the page's event stream", sse)):
            xs.sort()
            med, worst = xs[len(xs) // 2] * 1000, xs[-1] * 1000
            report("hall: move to %s, median of %d" % (what, len(xs)), round(med, 1), "ms", "<= 1000 ms",
                   med <= 1000)
            report("hall: move to %s, worst" % what, round(worst, 1), "ms", "<= 1000 ms", worst <= 1000)
        # throughput: every board moving at once, each from its own thread
        before = sum(s.moves_seen for s in state.values())
        per_board = 6
        t0 = time.perf_counter()

        def play(k):  # a move every 0.25 s of wall time per board (3 s of the board's time each)
            t = time.perf_counter()
            for i in range(per_board):
                if not games[k].is_game_over():
                    move(k)
                time.sleep(max(0.0, t + 0.25 * (i + 1) - time.perf_counter()))
        threads = [threading.Thread(target=play, args=(k,)) for k in range(N_BOARDS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        made = sum(g.ply for g in games) - len(lat)
        while sum(s.moves_seen for s in state.values()) - before < made and time.perf_counter() - t0 < 60:
            time.sleep(0.001)
        dt = time.perf_counter() - t0
        seen = sum(s.moves_seen for s in state.values()) - before
        rate = seen / dt
        report("hall: moves seen / made with all %d boards moving" % N_BOARDS, seen, "of %d" % made,
               "all", seen == made)
        report("hall: moves handled per second, all boards moving", round(rate, 1), "moves/s", ">= 16",
               rate >= 16)
        t0 = time.perf_counter()
        for _ in range(50):
            hall.state()
        report("hall: whole state for the page (16 boards)", round((time.perf_counter() - t0) / 50 * 1000, 2),
               "ms", "<= 50 ms", (time.perf_counter() - t0) / 50 <= 0.05)
    finally:
        if httpd is not None:
            stop(httpd, hub)
        if hall is not None:
            hall.stop()
        for b in boards:
            b.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
