"""A board on the host for the link tests: the firmware's record.Store and link.Link
over this process's standard input/output, run by MicroPython (or CPython).

Usage: build/micropython-board tests/host/mp_board.py FOLDER [GAMES] [play]
       micropython tests/host/mp_board.py FOLDER record N
       micropython tests/host/mp_board.py FOLDER legal N

FOLDER holds the games (a real folder); GAMES finished toguz games are recorded
first (default 0). With ``play``, once the host turns live events on, the board
plays a short Tobit game: each move recorded, then sent as an event.
Stops at end of input. With ``record N``: resume the unfinished game (or start
one), print ``resumed K``, then append moves up to N plies, printing ``ok K``
after each is on flash (a test kills the process at random moments). With
``legal N``: N seeded random games played by the rules cores (toguz, tobit,
tobit4, tihbat in turn) are recorded in their notation, then it serves the link.
"""
import sys

try:  # the simulator's model has the firmware frozen in (as the board): import that
    import playboard.frozen_files  # noqa: F401
except ImportError:
    sys.path.insert(0, "firmware")

from playboard.record import Store  # noqa: E402
from playboard.link import Link, StdioTransport  # noqa: E402

try:
    from time import sleep_ms
except ImportError:
    from time import sleep

    def sleep_ms(ms):
        sleep(ms / 1000)

PLAY = ["7-14", "29-22", "6-7", "22-21", "11-18", "30-23"]


class App:
    def __init__(self, st):
        self.st = st
        self.game = None

    def link_status(self):
        return {"game": self.game, "mode": "two"}

    def link_set_game(self, req):
        self.game = req.get("game")
        return {"game": self.game}


def move_text(i):
    return "%d%d" % (i % 9 + 1, (i * 4) % 9 + 1)


def record_loop(root, n):
    st = Store(root)
    r = st.resume()
    k = 0
    if r is None:
        st.new_game("toguz", {"Mode": "kill test"})
    else:
        for i, t in enumerate(r.moves):
            if t != move_text(i):
                print("wrong move", i, t)
                return
        k = len(r.moves)
    print("resumed", k, "report", len(st.report))
    while k < n:
        st.add_move(move_text(k))
        k += 1
        print("ok", k)


def record_legal(st, n):
    from playboard.games.registry import new_game

    names = ("toguz", "tobit", "tobit4", "tihbat")
    s = 12345
    for k in range(n):
        name = names[k % 4]
        g = new_game(name)
        st.new_game(name, {"White": "Ann", "Black": "Bob", "Round": str(k + 1)})
        for _ in range(80):
            ms = g.legal_moves()
            if not ms:
                break
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            m = ms[(s >> 8) % len(ms)]
            st.add_move(g.move_text(m))
            g.push(m)
        st.finish(g.result(), g.termination)
        g = None


def serve(st, play):
    app = App(st)
    t = StdioTransport()
    link = Link(t, st, app=app)  # a Ctrl-C (0x03) from the host stops it, as on the board
    played = 0
    while not t.closed:
        link.poll()
        if play and link.live and played < len(PLAY):
            if played == 0:
                st.new_game("tobit", {"Mode": "two"})
                app.game = "tobit"
                link.event("game", {"game": "tobit", "id": st.current})
            st.add_move(PLAY[played])
            link.event("move", {"ply": played + 1, "move": PLAY[played]})
            played += 1
            if played == 3:
                link.event("lift", {"point": 11})
        sleep_ms(2)


def main():
    root = sys.argv[1]
    if len(sys.argv) > 3 and sys.argv[2] == "record":
        record_loop(root, int(sys.argv[3]))
        return
    st = Store(root)
    if len(sys.argv) > 3 and sys.argv[2] == "legal":
        record_legal(st, int(sys.argv[3]))
        serve(st, False)
        return
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    for k in range(n):
        st.new_game("toguz", {"White": "Ann", "Black": "Playboard L%d" % (k % 9 + 1), "Round": str(k + 1)})
        for i in range(30 + 7 * k):
            st.add_move("%d%d" % ((i * 7 + k) % 9 + 1, (i * 5) % 9 + 1))
        st.finish("1-0" if k % 2 else "0-1", "kazan")
    serve(st, "play" in sys.argv)


main()
