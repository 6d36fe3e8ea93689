"""The live hall: every board of a room followed at once, for one web page and the
operator (docs/tournament.md, "The live hall").

A :class:`Hall` watches a set of serial ports (given, or found by the boards' USB
id; the set is looked at again every ``rescan_s`` seconds, so a board plugged in
later is picked up and one that comes back is followed again). Each port gets a
:class:`BoardWatch` thread that speaks the board's protocol (docs/protocol.md):
hello, the game in play fetched, live events on (``V`` repeated every 5 s); each
event updates that board's state (position from the rules core, moves, last move,
result) and the hall publishes the whole state to a ``websim.server.Hub`` (the
page's server-sent events) and rewrites the round's live PGN-style file.

Alerts for the operator: a board disconnected; a board in correction (the board
shows a mistake to put right) for more than ``correction_s`` seconds; a result or
a game that contradicts the event's pairing on that board.
"""
import os
import sqlite3
import threading
import time

from playboard import pgn
from playboard.games.common import GameError
from playboard.games.registry import new_game

from playboard_host.boardtext import view
from playboard_host.result_words import result_words
from playboard_host.serial_link import LinkError, BoardLink, open_port

KEEPALIVE_S = 5.0
CORRECTION_S = 30.0


class BoardState:
    """What the hall knows of the board on ``port``: its ``board_id``, ``connected``,
    the rules-core game ``g`` and its ``moves``, ``last_move``, ``result``,
    ``termination``, ``correction_since`` (the hall's ``clock()`` or None), ``error``
    (why it went away), ``moves_seen`` and ``updated`` (time.time() of the last
    change)."""

    def __init__(self, port):
        self.port = port
        self.board_id = None
        self.connected = False
        self.error = None
        self.g = None
        self.game = None
        self.moves = []
        self.last_move = None
        self.result = None
        self.termination = None
        self.correction_since = None
        self.moves_seen = 0
        self.updated = time.time()
        self.lost_events = 0
        self.base_ply = 0  # the ply of the game's first position (its move events count from it)
        self.drops = 0  # times the link went away
        self.tags = {}  # the game's header (a pairing's Event, Round, White, Black)
        self.in_play = False  # its game is the one in play (the status's ``current``), not a finished one
        self.sent = None  # the pairing request last sent to the board (hall.send_pairing)
        self.kept = None  # the pairing the board keeps for its next game (its status's tags), or None
        self.ready = 0  # which sides confirmed it (bit 0 White, bit 1 Black: the status's "ready")
        self.claimed = False  # its id is this board's in the hall (another answering it is refused)
        self.duplicate = None  # the port of a board answering the same id (this one is not followed)

    def keeps(self, status):
        """Take the pairing the board keeps and who is ready from its ``status`` (dict:
        the link's ``S`` reply or a ``G`` pairing's): its tags are shed from a full
        frame, ``ready`` never is (then the pairing sent stands in: ``waiting``)."""
        if "ready" in status:
            self.kept = status.get("pairing") or (self.kept or {"sent": True})
            r = status.get("ready")
            self.ready = r if isinstance(r, int) else 0
        elif not status.get("cut"):
            self.kept = None
            self.ready = 0

    def start(self, name, fen=None, moves=(), result=None, tags=None):
        self.tags = tags or {}
        self.game = name
        if name is None:  # no game on the board
            self.moves, self.last_move, self.result, self.termination = [], None, None, None
            self.correction_since, self.base_ply, self.g = None, 0, None
            return
        self.moves = list(moves)
        self.last_move = self.moves[-1] if self.moves else None
        self.result = result if result not in (None, "*") else None
        self.termination = None
        self.correction_since = None
        self.base_ply = 0
        try:
            self.g = new_game(name, fen)
            self.base_ply = self.g.ply
            for m in self.moves:
                self.g.push_text(m)
        except (GameError, ValueError):
            self.g = None

    def event(self, ev, now):
        """Apply live event ``ev`` (dict) at ``now`` (the hall's clock, s). True if it changed anything shown."""
        kind = ev.get("ev")
        if kind in ("game", "resumed", "over", "menu"):
            self.in_play = kind in ("game", "resumed")
        if kind == "game":
            self.start(ev.get("game"), ev.get("fen"))
            self.kept = None  # (a two-player game took the pairing kept, or it stays: run asks)
        elif kind == "resumed":  # the position only: the moves before it are in the board's record
            self.start(ev.get("game"), ev.get("fen"))
        elif kind == "move":
            ply = ev.get("ply")
            if isinstance(ply, int) and ply - self.base_ply <= len(self.moves):
                return False  # already in the record fetched (its event was on the way meanwhile)
            text = ev.get("move", "?")
            self.moves.append(text)
            self.last_move = text
            self.moves_seen += 1
            self.correction_since = None
            if self.g is not None:
                try:
                    self.g.push_text(text)
                except (GameError, ValueError):
                    self.g = None
        elif kind == "undo":
            if self.moves:
                self.moves.pop()
            self.last_move = self.moves[-1] if self.moves else None
            if self.g is not None and self.g.ply:
                self.g.pop()
        elif kind == "over":
            self.result = ev.get("result")
            self.termination = ev.get("termination")
            self.correction_since = None
        elif kind == "correction":
            if self.correction_since is None:
                self.correction_since = now
        elif kind == "resolved":
            self.correction_since = None
        elif kind == "ready":  # a side confirmed the pairing kept (firmware app.ui.ready_press)
            r = ev.get("ready")
            self.ready = r if isinstance(r, int) else 0
        elif kind == "menu":  # a finished game's result stays shown; an unfinished one is gone
            if self.game is None or self.result is not None:
                return False
            self.start(None)
            self.g = None
        else:
            return False
        self.updated = time.time()
        return True


class BoardWatch(threading.Thread):
    """The thread that follows one port for ``hall``; ``opener(port)`` gives the stream."""

    def __init__(self, hall, port, opener, timeout=1.0, keepalive_s=KEEPALIVE_S):
        threading.Thread.__init__(self, daemon=True, name="hall " + port)
        self.hall = hall
        self.port = port
        self.opener = opener
        self.timeout = timeout
        self.keepalive_s = keepalive_s
        self.stopping = False

    @staticmethod
    def _board_game(link, status):
        """The board's game now (a record.GameRecord, moves whole): the one in play, else
        the last one it finished that is not synced yet, else None."""
        cur = status.get("current")
        if cur is not None:
            return link.fetch_game(cur)[0]
        done = [g for g in link.list_games() if g["finished"]]
        return link.fetch_game(done[-1]["id"])[0] if done else None

    def run(self):
        link = None
        st = self.hall.state_of(self.port)
        try:
            link = BoardLink(self.opener(self.port), timeout=self.timeout)
            hello = link.hello()
            try:
                link.set_time()
            except LinkError:
                pass
            status = link.status()
            rec = self._board_game(link, status)
            in_play = status.get("current") is not None
            with self.hall.lock:
                twin = [o.port for o in self.hall.boards.values() if o is not st and o.claimed
                        and o.board_id == hello.get("board")]
                st.claimed = not twin  # (checked and claimed at once: two threads' hellos race)
                if twin:
                    st.duplicate = twin[0]
                    raise LinkError("the board on %s answers id %s too: each board needs its own id"
                                    " (a simulated board's: playboard sim --board-id ID)" % (twin[0], hello.get("board")))
                st.duplicate = None
                st.board_id = hello.get("board")
            link.live(True)
            # a board already showing a mistake to put right (since before the hall came, or
            # during a drop) sent its correction event to nobody: its status says so; read
            # after live events are on, so a resolution from here on comes as an event
            status = link.status()
            correcting = bool(status.get("correcting"))
            with self.hall.lock:
                st.keeps(status)
                st.board_id = hello.get("board")
                back = st.drops > 0 and not st.connected
                st.connected = True
                st.error = None
                if rec is not None:
                    st.start(rec.name, rec.fen, rec.moves, rec.result, rec.tags)
                    st.termination = rec.termination
                    st.in_play = in_play
                if correcting:  # (counted from now: when it began is not known)
                    st.correction_since = self.hall.clock()
                st.updated = time.time()
            if back:  # every return said, as every drop is
                self.hall.notice("board %s back (%s)" % (self.hall.label_of(st), _game_line(st)))
            self.hall.changed(st)
            self.hall.sync_board(link, st)
            st.sent = None  # (a board that lost power forgot it: sent again at every connection)
            t_keep = time.monotonic() + self.keepalive_s
            while not self.stopping and not self.hall.stopping:
                self.hall.send_pairing(link, st)
                if time.monotonic() >= t_keep:
                    link.live(True)
                    t_keep = time.monotonic() + self.keepalive_s
                evs = [ev for ev in link.wait_events(0.05) if isinstance(ev, dict)]
                if evs:
                    now = self.hall.clock()
                    with self.hall.lock:
                        shown = [st.event(ev, now) for ev in evs]
                        st.lost_events += link.missed_events
                        link.missed_events = 0
                    if any(ev.get("ev") in ("resumed", "game") for ev in evs):
                        # a power cut: the game's moves before it from the board's record; a new
                        # game: its header (the pairing it carries)
                        now_st = link.status()
                        with self.hall.lock:
                            st.keeps(now_st)
                        rec = self._board_game(link, now_st)
                        if rec is not None:
                            with self.hall.lock:
                                st.start(rec.name, rec.fen, rec.moves, rec.result, rec.tags)
                                st.in_play = now_st.get("current") is not None
                                if now_st.get("correcting"):  # (start forgot it)
                                    st.correction_since = self.hall.clock()
                    if any(shown):
                        self.hall.changed(st, evs)
                    if any(ev.get("ev") == "over" for ev in evs):
                        self.hall.sync_board(link, st)
        except Exception as e:  # the link failed (LinkError, OSError) or a bug: shown, tried again
            with self.hall.lock:
                was = st.connected
                if was:
                    st.drops += 1
                st.connected = False
                st.claimed = False
                st.error = str(e) or type(e).__name__
                if not isinstance(e, (LinkError, OSError, ValueError)):
                    st.error = "internal error: %s: %s" % (type(e).__name__, e)
                st.updated = time.time()
            if was:  # every drop said, on the console and the page (the alert stays while it is away)
                self.hall.notice("board %s disconnected (%s; drop %d), its game: %s" % (
                    self.hall.label_of(st), st.error, st.drops, _game_line(st)))
            self.hall.changed(st)
        finally:
            if link is not None:
                try:
                    link.live(False)
                except (LinkError, OSError, ValueError):
                    pass
                link.close()


def _game_line(st):
    if st.game is None:
        return "no game"
    return "%s, %d moves, %s" % (st.game, len(st.moves), _result_words(st, st.result))


def usb_ports(vid_pid):
    """A function listing the serial ports of boards with USB id ``vid_pid`` now."""
    from playboard_host.serial_link import parse_vid_pid

    vid, pid = parse_vid_pid(vid_pid)

    def ports():
        from serial.tools import list_ports
        return sorted(p.device for p in list_ports.comports() if p.vid == vid and p.pid == pid)
    return ports


class Hall:
    """The boards on the ports ``ports()`` returns (a function, called again every
    ``rescan_s`` s), published to ``hub`` (a websim.server.Hub, or None).

    ``pairings``: None, or a function board id -> dict {label, round, table, white,
    black, result, source, flag, game, send, tags} of the pairing in play on it (``tags``:
    the header its game carries, tournament.results.pairing_tags; the page and the live
    files show a board's game under its pairing only when it carries them) (or {"label":
    ..., "none": True}; None for a board not in the event), called every
    ``refresh_s`` s and when a board first answers, from the hall's threads (so it
    must open what it reads itself, as :func:`event_pairings` does). ``live_dir``: folder for the
    live PGN-style files (``round-N.pgn``, ``live.pgn`` for boards without a
    pairing). ``keepalive_s``: how often live events are asked for again (a board
    stops them after 20 s of its own time without a request). ``sync_library``: a
    library path: each board's finished games are stored there (then acknowledged)
    when it connects and whenever a game ends, and with an event its results are
    taken at once (``notices`` keeps what that said; ``out``, a file, is told too).
    ``clock``: seconds (float) for how long a board has been in correction
    (``correction_s``); time.monotonic, or a test's own clock."""

    def __init__(self, ports, hub=None, pairings=None, event_name=None, live_dir=None, opener=None,
                 rescan_s=1.0, correction_s=CORRECTION_S, refresh_s=2.0, retry_s=3.0, timeout=1.0,
                 keepalive_s=KEEPALIVE_S, sync_library=None, out=None, clock=time.monotonic):
        self.ports = ports
        self.hub = hub
        self.pairings = pairings
        self.event_name = event_name
        self.live_dir = live_dir
        self.opener = opener or (lambda p: open_port(p))
        self.rescan_s = rescan_s
        self.correction_s = correction_s
        self.refresh_s = refresh_s
        self.retry_s = retry_s
        self.timeout = timeout
        self.keepalive_s = keepalive_s
        self.sync_library = sync_library
        self.out = out
        self.clock = clock
        self.notices = []
        self.lock = threading.RLock()
        self.file_lock = threading.Lock()
        self.boards = {}
        self.watches = {}
        self.tried = {}
        self.pairing_of = {}
        self.stopping = False
        self.thread = None
        self.version = 0
        self.publishes = 0
        self.seen_version = threading.Condition(self.lock)

    # ---- life ---------------------------------------------------------------------

    def start(self):
        self.thread = threading.Thread(target=self._run, daemon=True, name="hall")
        self.thread.start()
        return self

    def stop(self):
        self.stopping = True
        if self.thread is not None:
            self.thread.join(5)
        for w in list(self.watches.values()):
            w.join(5)

    def _run(self):
        t_refresh = 0
        while not self.stopping:
            self.scan()
            now = time.monotonic()
            if self.pairings is not None and now >= t_refresh:
                self.refresh()
                t_refresh = now + self.refresh_s
            self.publish()  # the correction alerts' seconds move on
            end = time.monotonic() + self.rescan_s
            while not self.stopping and time.monotonic() < end:
                time.sleep(0.05)

    def scan(self):
        """Follow every port ``ports()`` lists that no thread follows (a board that went
        away is tried again after ``retry_s`` s)."""
        try:
            ports = list(self.ports())
        except OSError:
            return
        now = time.monotonic()
        for p in ports:
            w = self.watches.get(p)
            if w is not None and w.is_alive():
                continue
            if w is not None and now - self.tried.get(p, 0) < self.retry_s:
                continue
            self.tried[p] = now
            self.state_of(p)
            w = BoardWatch(self, p, self.opener, self.timeout, self.keepalive_s)
            self.watches[p] = w
            w.start()

    def state_of(self, port):
        with self.lock:
            st = self.boards.get(port)
            if st is None:
                st = self.boards[port] = BoardState(port)
            return st

    def refresh(self):
        """Read the pairing on each board again (the event may have moved on)."""
        with self.lock:
            ids = [s.board_id for s in self.boards.values() if s.board_id]
        got = {}
        for bid in ids:
            try:
                got[bid] = self.pairings(bid)
            except Exception as e:  # a library being written: try again next time
                got[bid] = self.pairing_of.get(bid, {"error": str(e)})
        with self.lock:
            changed = got != self.pairing_of
            moved = [s for s in self.boards.values() if s.board_id in got
                     and got[s.board_id] != self.pairing_of.get(s.board_id)]
            self.pairing_of = got
        if self.live_dir:  # a board's new pairing: its round's file shows it (no game yet)
            for s in moved:
                self.write_live(s)
        if changed:
            self.changed(None)

    def notice(self, text):
        with self.lock:
            self.notices = (self.notices + [text])[-20:]
        if self.out is not None:
            self.out.write(text + "\n")
            self.out.flush()

    def sync_board(self, link, st):
        """Store the finished games of the board on ``link`` in the library (then
        acknowledge them), and take the event's results from them. A failure is a
        notice; the board is still followed."""
        if not self.sync_library:
            return
        from playboard_host.commands.sync import health_line, sync, sync_health
        from playboard_host.library import Library, LibraryError
        from playboard_host.tournament.event import Event, TournamentError
        from playboard_host.tournament.results import take_results

        try:
            lib = Library(self.sync_library)
        except LibraryError as e:
            self.notice("can't store the games of board %s: %s" % (st.board_id, e))
            return
        try:
            new, _ = sync(link, st.board_id, lib, progress=False)
            line = health_line(st.board_id, sync_health(link, st.board_id, lib, getattr(st, "fw", None)))
            if line:  # the board's health counters taken with its games (docs/museum.md)
                self.notice(line)
            if new:
                with self.lock:  # (the event's label of the board where it has one, as the page)
                    label = (self.pairing_of.get(st.board_id) or {}).get("label") or st.board_id
                self.notice("board %s: %d game%s stored" % (label, new, "" if new == 1 else "s"))
            if new and self.event_name:
                # (one BEGIN IMMEDIATE transaction: the boards' threads, and any other
                # playboard on the library, take in turn from pairings read under the lock)
                for line in take_results(Event(lib, self.event_name), lib):
                    self.notice(line)
        except (LinkError, TournamentError, LibraryError, sqlite3.Error) as e:
            self.notice("board %s: sync stopped: %s (it is tried again when a game ends)" % (st.board_id, e))
        finally:
            lib.close()
        if self.pairings is not None:
            self.refresh()

    def label_of(self, st):
        return (self.pairing_of.get(st.board_id) or {}).get("label") or st.board_id or st.port

    def send_pairing(self, link, st):
        """Send the board on ``link`` its next pairing (the event's ``send`` request, see
        :func:`event_pairings`) when it differs from the one sent last: the next game
        begun there carries it in its header. A refusal is a notice."""
        with self.lock:
            want = (self.pairing_of.get(st.board_id) or {}).get("send") if st.board_id else None
        if want is None or want == st.sent:
            return
        st.sent = want
        with self.lock:
            carried = _carries(st, want["pairing"])
        if carried:  # its game (in play, or ended and not yet taken) is the pairing's own
            return
        try:
            status = link.set_game(**want)
        except LinkError as e:
            self.notice("board %s: its pairing was not taken: %s" % (st.board_id, e))
            return
        with self.lock:
            st.keeps(status if isinstance(status, dict) else {})
        self.changed(st)
        p = want["pairing"]
        self.notice("board %s: round %s, %s (White) - %s (Black) sent: its next game" % (
            (self.pairing_of.get(st.board_id) or {}).get("label") or st.board_id, p["round"], p["white"], p["black"]))

    # ---- state ----------------------------------------------------------------------

    def changed(self, st, events=None):
        """A board changed: pairings of new boards, live file, publish."""
        if st is not None and self.pairings is not None and st.board_id and st.board_id not in self.pairing_of:
            try:
                p = self.pairings(st.board_id)
            except Exception:
                p = None
            with self.lock:
                self.pairing_of[st.board_id] = p
        if self.live_dir and st is not None and (events is None or any(e.get("ev") in (
                "move", "undo", "game", "resumed", "over") for e in events)):
            self.write_live(st)
        self.publish()

    def _alerts(self, st, pair, now):
        out = []
        label = (pair or {}).get("label") or st.board_id or st.port
        if not st.connected and st.duplicate:
            out.append({"kind": "duplicate", "board": st.port,
                        "text": "board on %s not followed: %s" % (st.port, st.error)})
        elif not st.connected and st.error:
            out.append({"kind": "disconnected", "board": label,
                        "text": "board %s disconnected (%s)" % (label, st.error)})
        if st.correction_since is not None and now - st.correction_since > self.correction_s:
            out.append({"kind": "correction", "board": label,
                        "text": "board %s in correction for %d s" % (label, now - st.correction_since)})
        if self.pairings is not None and st.board_id:
            if pair is None:
                if st.game is not None:
                    out.append({"kind": "contradiction", "board": label,
                                "text": "board %s (id %s) is not a board of %s" % (
                                    label, st.board_id, self.event_name)})
            elif "error" not in pair:
                if pair.get("game") and st.game and st.game != pair["game"]:
                    out.append({"kind": "contradiction", "board": label, "text": "board %s plays %s, the event %s"
                                % (label, st.game, pair["game"])})
                if pair.get("none") and st.result:
                    out.append({"kind": "contradiction", "board": label,
                                "text": "board %s finished a game (%s) with no pairing on it" % (
                                    label, _result_words(st, st.result))})
                if st.result and _own(st, pair) and pair.get("result") and pair.get("source") != "board" and \
                        pair["result"] not in ("+/-", "-/+", "-/-") and st.result != pair["result"]:
                    out.append({"kind": "contradiction", "board": label,
                                "text": "board %s ended: %s (%s), but round %s table %s has %s (%s) by hand" % (
                                    label, result_words(st.result, pair["white"], pair["black"]), st.result,
                                    pair["round"], pair["table"],
                                    result_words(pair["result"], pair["white"], pair["black"], state="pairing"), pair["result"])})
                if pair.get("flag"):
                    out.append({"kind": "contradiction", "board": label, "text": "board %s: %s" % (label, pair["flag"])})
        return out

    def state(self):
        """The whole hall as a JSON-ready dict: ``boards`` (list, by label) and ``alerts``."""
        now = self.clock()
        boards = []
        alerts = []
        with self.lock:
            for st in self.boards.values():
                pair = self.pairing_of.get(st.board_id) if st.board_id else None
                own = _own(st, pair)
                pos = None
                if st.g is not None and own:
                    pos = view(st.g)
                b = {"port": st.port, "id": st.board_id, "label": (pair or {}).get("label") or st.board_id or st.port,
                     "connected": st.connected, "game": st.game if own else None, "position": pos,
                     "moves": len(st.moves) if own else 0, "last_move": st.last_move if own else None,
                     "result": st.result if own else None, "termination": st.termination if own else None,
                     "in_correction": st.correction_since is not None, "updated": st.updated,
                     "round": (pair or {}).get("round"), "table": (pair or {}).get("table"),
                     "white": (pair or {}).get("white"), "black": (pair or {}).get("black"),
                     "carries": {k: st.tags[k] for k in ("Event", "Round", "White", "Black") if k in st.tags}
                     if "Round" in st.tags else None, "drops": st.drops}
                b["sides"] = _sides(st, pair)
                b["waiting"] = _waiting(st, pair)
                b["result_words"] = _result_words(st, st.result) if st.result and own else None
                # the board's game when it is not the pairing's (the last round's, a friendly one)
                b["other_game"] = None if own or st.game is None else _game_line(st)
                a = self._alerts(st, pair, now)
                b["alerts"] = [x["kind"] for x in a]
                alerts.extend(a)
                boards.append(b)
        boards.sort(key=lambda b: (_natural(b["label"]), b["port"]))
        with self.lock:
            notices = list(self.notices)
        return {"event": self.event_name, "boards": boards, "alerts": alerts, "notices": notices}

    def publish(self):
        s = self.state()
        with self.lock:
            self.publishes += 1
            self.version += 1
            self.seen_version.notify_all()
        if self.hub is not None:
            self.hub.publish(s)
        return s

    # ---- live PGN-style files ---------------------------------------------------------

    def write_live(self, st):
        """Rewrite the live file of ``st``'s round (every board of that round, moves so far)."""
        with self.lock:
            pair = self.pairing_of.get(st.board_id) if st.board_id else None
            rnd = (pair or {}).get("round")
            members = [(s, self.pairing_of.get(s.board_id)) for s in self.boards.values()
                       if (s.game is not None or rnd) and ((self.pairing_of.get(s.board_id) or {}).get("round") == rnd)]
            texts = []
            for s, p in sorted(members, key=lambda x: _natural((x[1] or {}).get("label") or x[0].port)):
                own = _own(s, p)  # a table's moves and result only from the game carrying its pairing
                moves, result = (list(s.moves), s.result or "*") if own else ([], "*")
                p = p or {}
                tags = {"Event": self.event_name or "Playboard hall",
                        "Round": (p.get("tags") or {}).get("Round") or str(p.get("round") or "?"),
                        "White": p.get("white") or "?", "Black": p.get("black") or "?",
                        "Game": (s.game if own else None) or p.get("game") or "?",
                        "Board": p.get("label") or s.board_id or s.port, "Result": result}
                if result != "*" and s.termination:  # how it ended, as the board's record says
                    tags["Termination"] = s.termination
                texts.append(pgn.format_game(tags, moves, result))
        name = "round-%s.pgn" % rnd if rnd else "live.pgn"
        path = os.path.join(self.live_dir, name)
        tmp = path + ".tmp"
        try:
            with self.file_lock:  # boards' threads write the same round's file in turn
                with open(tmp, "w", encoding="utf-8", newline="\n") as f:
                    f.write("".join(texts))
                os.replace(tmp, path)  # a viewer polling the file never reads half of it
        except OSError as e:
            self.notice("can't write the live file %s: %s" % (path, e.strerror or e))


def _carries(st, p):
    """True if the board's game (``st``: in play, or finished with a result) carries pairing
    ``p`` (a ``G`` request's ``pairing``: event, round, white, black) in its header: a
    board back after a power cut, a cable or the hall's own restart is not told it again
    for its next game. A game left unfinished (no result, over) does not count."""
    from playboard_host.tournament.results import carries
    if st.game is None or not carries(st.tags or {}, p):
        return False
    return st.result not in (None, "*") or st.in_play


def _own(st, pair):
    """True if the board's game in ``st`` is the one to show for ``pair`` (the event's
    pairing on the board, :func:`event_pairings`): the game whose header carries that
    pairing's Event and Round, as ``collect`` takes it (tournament.results); any game
    on a board without a pairing of the event."""
    t = (pair or {}).get("tags")
    if not t:
        return True
    return st.tags.get("Event") == t["Event"] and st.tags.get("Round") == t["Round"]


def _sides(st, pair):
    """Whose side is where on the board (tournament.results.sides_text): the players of
    the event's pairing on it (the one it was sent), else those its game carries in its
    header; None without either."""
    from playboard_host.tournament.results import sides_text
    if pair and pair.get("white"):
        w, b = pair["white"], pair["black"]
    elif st.tags.get("Round") and st.tags.get("White") and st.tags.get("Black"):
        w, b = st.tags["White"], st.tags["Black"]
    else:
        return None
    return sides_text((pair or {}).get("game") or st.game or "toguz", w, b)


def _waiting(st, pair):
    """Who the board waits for before the game of the pairing it keeps begins
    (tournament.results.waiting_text: "waiting for Bek (Black)"), or None when it
    keeps none or a game is in play on it (the pairing waits for its end). The names:
    the pairing's it keeps, else the event's on it."""
    from playboard_host.tournament.results import waiting_text
    if st.kept is None or not st.connected or (st.game is not None and st.result is None):
        return None
    w, b = st.kept.get("White"), st.kept.get("Black")
    if not (w and b) and pair:
        w, b = pair.get("white"), pair.get("black")
    return waiting_text(w or "White", b or "Black", st.ready)


def _result_words(st, result):
    """``result`` of the board's game in words ("Aru won", "Draw"; "in play" for None or
    ``*``, the game going on): with the players its header names (a pairing's), else
    its sides (South / North, Tobit's White / Black)."""
    from playboard_host.words import sides
    w, b = st.tags.get("White"), st.tags.get("Black")
    if not w or not b or w == b:  # (a friendly game's header: "Player" - "Player")
        w, b = sides(st.game or "toguz")
    return result_words(result, w, b, state="live")


def _natural(label):
    s = str(label)
    return (0, int(s), "") if s.isdigit() else (1, 0, s)


def event_pairings(library_path, event_name):
    """A ``pairings`` function for :class:`Hall` reading event ``event_name`` of the library
    at ``library_path`` (opened on each call, from the hall's thread)."""
    from playboard_host.library import Library
    from playboard_host.tournament.event import Event
    from playboard_host.tournament.results import pairing_request, pairing_tags

    def pairings(board_id):
        lib = Library(library_path, create=False)
        try:
            e = Event(lib, event_name)
            label = e.board_of_id(board_id)
            if label is None:
                return None
            ps = [p for p in e.pairings() if p.board == label and p.black is not None]
            if not ps:
                return {"label": label, "none": True, "game": e.game}
            open_ = [p for p in ps if p.result is None]
            p = (open_ or ps)[0 if open_ else -1]
            names = e.names_by_id()
            send = pairing_request(e, p) if p.result is None else None
            return {"send": send, "tags": pairing_tags(e, p, names), "label": label, "round": p.round, "table": p.match + ("" if p.game_no == 1 else ".%d" % p.game_no),
                    "white": names[p.white], "black": names[p.black], "result": p.result, "source": p.source,
                    "flag": p.flag, "game": e.game}
        finally:
            lib.close()
    return pairings
