"""`playboard live`: follow the game on the board, printing moves and a picture of the board."""
import sys
import time

from playboard.games.common import GameError
from playboard.games.registry import new_game

from playboard_host.boardtext import picture
from playboard_host.result_words import result_words
from playboard_host.cli import CommandError
from playboard_host.serial_link import LinkError, add_port_arguments, connect
from playboard_host.words import capture_hint, event_words, game_over_words, sides

KEEPALIVE_S = 5.0  # well inside the board's LIVE_TIMEOUT_MS

HELP = "follow the game being played on the board: moves, lifts, corrections and a text picture"


def add_arguments(p):
    add_port_arguments(p)
    p.add_argument("--seconds", type=float, help="stop after this many seconds (default: until Ctrl-C)")
    p.add_argument("--events", type=int, help="stop after this many events")
    p.add_argument("--no-picture", action="store_true", help="print the moves only")


class Follower:
    """Keeps a rules-core copy of the board's game from its events and prints them."""

    def __init__(self, out=None, pictures=True):
        self.g = None
        self.tags = {}  # the game's record tags where known (the players' names)
        self.pairing = None  # the header tags of a tournament's game followed (run)
        self.next_pairing = None  # the tags of the pairing the board keeps for its next game
        self.out = out or sys.stdout
        self.pictures = pictures

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def show(self):
        if self.g is not None and self.pictures:
            self.say(picture(self.g))

    def start(self, name, fen=None, moves=(), tags=None):
        self.tags = tags or {}
        try:
            self.g = new_game(name, fen)
            for m in moves:
                self.g.push_text(m)
        except GameError as e:
            self.say("cannot follow %s: %s" % (name, e))
            self.g = None
            return
        g = self.g
        w, b = sides(name)
        self.say("game: %s%s; %s (%d plies so far), %s to move" % (
            name, " from " + fen if fen else "",
            "move %d" % getattr(g, "fullmove", g.ply // 2 + 1) if moves or fen else "the start",
            len(moves), (w, b)[g.turn]))
        self.show()

    def event(self, ev):
        kind = ev.get("ev")
        if kind == "game":
            self.start(ev.get("game"), ev.get("fen"))
        elif kind == "move":
            text = ev.get("move", "?")
            g = self.g
            if g is None:
                self.say("move %s" % text)
                return
            no = getattr(g, "fullmove", g.ply // 2 + 1)
            self.say("%d.%s %s" % (no, "" if g.turn == 0 else "..", text))
            try:
                g.push_text(text)
            except GameError as e:
                self.say("  (not legal here: %s; following stopped until the next game)" % e)
                self.g = None
                return
            self.show()
        elif kind == "undo":
            if self.g is not None and self.g.ply:
                self.g.pop()
            self.say("move taken back")
            self.show()
        elif kind == "over":
            name = self.g.name if self.g is not None else ev.get("game", "toguz")
            self.say("game over: %s" % game_over_words(name, ev.get("result"), ev.get("termination"), self.g,
                                                     self.tags))
        elif kind in ("ready", "pairing"):
            return  # (run says the pairing and who the board waits for, with the players' names)
        else:
            line = event_words(ev, self.g.name if self.g is not None else ev.get("game", "toguz"),
                               self.g.turn if self.g is not None else None)
            if line:
                self.say(line.strip())
            if kind == "lift" and self.g is not None:
                hint = capture_hint(self.g, ev.get("cell", ev.get("point")))
                if hint:
                    self.say("  " + hint)


def pairing_line(game, tags):
    """The tournament pairing in ``tags`` (a game's header, or the status's pairing kept
    for the next game): "Spring, round 1.1: Aru: White, South (white lights) - Bek:
    Black, North (blue lights)", whose side is where as the board lights it; None
    without one."""
    from playboard_host.tournament.results import sides_text
    if not tags or not tags.get("Round"):
        return None
    return "%s, round %s: %s" % (tags.get("Event", "?"), tags["Round"],
                                 sides_text(game, tags.get("White", "?"), tags.get("Black", "?")))


def _say_pairing(f, link, current=True):
    """Say the pairing of the board's game in play (its header; kept in ``f.pairing``
    for its result; ``current`` False: not again), then the one it keeps for the next
    game (the status's ``pairing``, unless the game in play carries that one) and who
    it waits for."""
    st = link.status()
    if current:
        f.pairing = None
        if st.get("current") is not None:
            rec = link.fetch_game(st["current"])[0]
            line = pairing_line(rec.name, rec.tags)
            if line:
                f.pairing = rec.tags
                f.say(line)
    f.next_pairing = None
    kept = st.get("pairing")
    if kept and not (st.get("current") is not None and f.pairing and all(
            f.pairing.get(k) == kept.get(k) for k in ("Event", "Round", "White", "Black"))):
        f.say("the next game's pairing: " + pairing_line(st.get("game", "toguz"), kept))
        f.next_pairing = kept
        _say_waiting(f, st.get("ready"))


def _say_waiting(f, ready):
    """Say who the board waits for before the next game's pairing begins ("waiting for
    Bek (Black)"; tournament.results.waiting_text), ``ready`` the status's bits."""
    from playboard_host.tournament.results import waiting_text
    t = f.next_pairing
    if t:
        f.say(waiting_text(t.get("White", "?"), t.get("Black", "?"), ready))


def run(args):
    f = Follower(pictures=not args.no_picture)
    n = 0
    try:
        link, hello = connect(args)
        try:
            st = link.status()
            if st.get("current") is not None:
                rec, raw = link.fetch_game(st["current"])
                f.start(rec.name, rec.fen, rec.moves, rec.tags)
            else:
                f.say("no game in play (board firmware %s)" % hello.get("fw"))
            _say_pairing(f, link)
            link.live(True)
            t_end = time.monotonic() + args.seconds if args.seconds else None
            t_keep = time.monotonic() + KEEPALIVE_S
            while t_end is None or time.monotonic() < t_end:
                if time.monotonic() >= t_keep:  # the board stops live events if it hears nothing
                    link.live(True)
                    t_keep = time.monotonic() + KEEPALIVE_S
                for ev in link.wait_events(0.2):
                    f.event(ev)
                    if ev.get("ev") == "game":  # a tournament's game: whose side is where
                        _say_pairing(f, link)
                    elif ev.get("ev") == "pairing":  # a pairing sent (a hall, tournament send)
                        _say_pairing(f, link, current=False)
                    elif ev.get("ev") == "ready":  # a side confirmed the pairing kept
                        if f.next_pairing is None:  # (kept since before: its names)
                            _say_pairing(f, link, current=False)
                        else:
                            _say_waiting(f, ev.get("ready"))
                    elif ev.get("ev") == "over" and f.pairing:  # its result with the players' names
                        t = f.pairing
                        f.say("%s, round %s: %s" % (t.get("Event", "?"), t["Round"], result_words(
                            ev.get("result"), t.get("White", "?"), t.get("Black", "?"))))
                    n += 1
                    if args.events and n >= args.events:
                        return 0
                if link.missed_events:
                    f.say("(%d events lost)" % link.missed_events)
                    link.missed_events = 0
        finally:
            try:
                link.live(False)
            except LinkError:
                pass
            link.close()
    except LinkError as e:
        raise CommandError(str(e))
    return 0
