"""A tournament event kept in the game library (tables ``events``, ``entrants``,
``pairings``, ``corrections``; library.MIGRATIONS): create it, add players or teams,
pair rounds, put pairings on boards, enter results by hand, and compute standings.
Results from the boards' synced games are taken by ``tournament.results``.

Every change is one SQLite transaction: an error (:class:`TournamentError`, one
clear line) leaves the library as it was. docs/tournament.md describes the
systems, the byes, withdrawals and forfeits.
"""
import contextlib
import datetime
import json
import sqlite3

from playboard.games.common import GAME_NAMES

from playboard_host.result_words import result_words
from playboard_host.tournament import pairing, scoring

SYSTEMS = ("roundrobin", "knockout", "groups")
RESULTS = ("1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-")
FORFEITS = ("+/-", "-/+", "-/-")
DECISIONS = ("lot", "armageddon", "rating", "arbiter")  # how a tied match is decided by hand


def _n(v):
    return ("%.2f" % v).rstrip("0").rstrip(".") if isinstance(v, float) else str(v)



def hand_differs(hand, board, white, black, game_id=None):
    """A pairing's flag when its result by hand differs from its board game's, in words
    with the notation (``result_words``): "the result by hand, Bek won (0-1), differs
    from the board's, Aru won (1-0)"; ``game_id`` names the board's game ("the board's
    game 3"). ``hand``, ``board``: results as RESULTS; ``white``, ``black``: the
    pairing's names (None: White / Black)."""
    return "the result by hand, %s (%s), differs from the board's%s, %s (%s)" % (
        result_words(hand, white, black, state="pairing"), hand,
        "" if game_id is None else " game %d" % game_id,
        result_words(board, white, black, state="pairing"), board)

class TournamentError(Exception):
    """A tournament request that can't be done (unknown event or player, a board not
    in the event, ...): the message is one line for the user; nothing was changed."""


def _now():
    return datetime.datetime.now().isoformat(timespec="seconds")


def points(result, scoring_):
    """(White's points, Black's points) of ``result`` under ``scoring_`` (a dict with
    win, draw, loss and optional forfeit_loss). None for no result yet."""
    w, d, l_ = scoring_["win"], scoring_["draw"], scoring_["loss"]
    fl = scoring_.get("forfeit_loss", l_)
    return {"1-0": (w, l_), "0-1": (l_, w), "1/2-1/2": (d, d), "+/-": (w, fl), "-/+": (fl, w),
            "-/-": (fl, fl)}.get(result)


@contextlib.contextmanager
def write_transaction(db):
    """One write transaction on ``db`` (a sqlite3 connection with no transaction open)
    begun with ``BEGIN IMMEDIATE``: the library's write lock is taken at once (another
    process or connection holding it is waited for, up to the connection's timeout, 5 s
    by default), so what is read inside it (the pairings, the games) cannot change
    before it is written over, by another process either. Committed at the end, rolled
    back whole by any error (raised again). sqlite3.OperationalError "database is
    locked" if the lock did not come in time."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    db.commit()


def check_board_ids(boards):
    """TournamentError (one line) unless every board of ``boards`` ({label: id}) answers
    its own id: two boards with one id (simulated boards left at "sim", a board given
    twice) would have their games, and so their results, mixed up."""
    seen = {}
    for label, hw in boards.items():
        if hw in seen:
            raise TournamentError("boards %s and %s both answer id %s: each board needs its own id (a board's is"
                                  " its chip's, `playboard sync` shows it; a simulated board's: playboard sim"
                                  " --board-id ID)" % (seen[hw], label, hw))
        seen[hw] = label


class Pairing:
    """One game to play: ``id``, ``round``, ``stage`` ("rr", "ko", "group A", "final"),
    ``match`` (table or match id), ``game_no`` (1.. within the match), ``white``,
    ``black`` (entrant ids, None for a bye), ``board`` (label), ``result`` (None,
    one of RESULTS or "bye"), ``source`` ("board", "hand", "forfeit", "bye"),
    ``library_game``, ``kazans`` ((white, black) or None), ``flag`` (text of a
    contradiction), ``assigned_at``."""

    COLS = ("id", "round", "stage", "match", "game_no", "white", "black", "board", "result", "source",
            "library_game", "kazans", "flag", "assigned_at")

    def __init__(self, row):
        for k, v in zip(self.COLS, row):
            setattr(self, k, v)
        self.kazans = tuple(json.loads(self.kazans)) if self.kazans else None


class Entrant:
    """A player, or a team (``members``: its players in board order) in a team event."""

    def __init__(self, row):
        self.id, self.name, self.seed, self.team, self.rating, self.withdrawn_round = row
        self.members = []


class Event:
    """The event ``name`` in library ``lib`` (a library.Library). TournamentError
    if there is none."""

    def __init__(self, lib, name):
        self.lib = lib
        self.db = lib.db
        row = self.db.execute("SELECT id, name, game, settings FROM events WHERE name=?", (name,)).fetchone()
        if row is None:
            known = [r[0] for r in self.db.execute("SELECT name FROM events ORDER BY id")]
            raise TournamentError("no event named %r in %s%s" % (
                name, lib.path, " (events: %s)" % ", ".join(known) if known else " (no events yet)"))
        self.id, self.name, self.game, s = row
        self.settings = json.loads(s)

    # ---- creation -------------------------------------------------------------------

    @staticmethod
    def create(lib, name, game, system="roundrobin", cycles=1, games_per_match=2, tiebreak_games=2,
               groups=2, advance=2, final="knockout", scoring_=None, tiebreaks=None, team=False,
               boards_per_match=None, bye_points=0, boards=(), site=None):
        """Make a new event and return it. ``scoring_``: dict overriding the game's
        default win/draw/loss (and forfeit_loss); ``tiebreaks``: names in order;
        ``boards``: board labels (each "LABEL" or "LABEL=BOARD_ID", the id the board
        answers in its hello; the label is the id when none is given); ``site``: where
        it is played ("Almaty, KZ": the PGN's Site tag; None: not said).
        TournamentError for an existing name or a bad setting."""
        if game not in GAME_NAMES:
            raise TournamentError("unknown game %r (games: %s)" % (game, ", ".join(GAME_NAMES)))
        if system not in SYSTEMS:
            raise TournamentError("unknown system %r (systems: %s)" % (system, ", ".join(SYSTEMS)))
        sc = dict(scoring.DEFAULT_SCORING[game])
        sc.update(scoring_ or {})
        if not sc["win"] > sc["draw"] >= sc["loss"]:
            raise TournamentError("scoring must give a win more than a draw and a draw at least a loss: %r" % sc)
        tb = list(tiebreaks) if tiebreaks is not None else scoring.default_tiebreaks(game, team)
        unknown = [t for t in tb if t not in scoring.TIEBREAKS]
        if unknown:
            raise TournamentError("unknown tiebreak %s (known: %s)" % (", ".join(unknown), ", ".join(scoring.TIEBREAKS)))
        if team and system != "roundrobin":
            raise TournamentError("team events are played as a round robin of team matches")
        for v, what in ((cycles, "cycles"), (games_per_match, "games per match"), (groups, "groups"),
                        (advance, "players advancing")):
            if v < 1:
                raise TournamentError("%s must be at least 1, not %d" % (what, v))
        if final not in ("knockout", "roundrobin"):
            raise TournamentError("the final is a knockout or a roundrobin, not %r" % final)
        settings = {"system": system, "cycles": cycles, "games_per_match": games_per_match,
                    "tiebreak_games": tiebreak_games, "groups": groups, "advance": advance, "final": final,
                    "scoring": sc, "tiebreaks": tb, "team": bool(team),
                    "boards_per_match": boards_per_match, "bye_points": bye_points, "boards": {}}
        if site and site.strip():
            settings["site"] = site.strip()
        for b in boards:
            label, _, hw = b.partition("=")
            label, hw = label.strip(), (hw or label).strip()
            if not label:
                raise TournamentError("a board needs a label: --board LABEL[=ID], not %r" % b)
            if label in settings["boards"]:
                raise TournamentError("board %s is given twice" % label)
            settings["boards"][label] = hw
        check_board_ids(settings["boards"])
        try:
            with lib.db:
                lib.db.execute("INSERT INTO events (name, game, settings, created_at) VALUES (?,?,?,?)",
                               (name, game, json.dumps(settings), _now()))
        except Exception as e:
            if "UNIQUE" in str(e):
                raise TournamentError("an event named %r already exists" % name)
            raise
        return Event(lib, name)

    @staticmethod
    def names(lib):
        return [r[0] for r in lib.db.execute("SELECT name FROM events ORDER BY id")]

    @contextlib.contextmanager
    def _changing(self):
        """A change of the event as one :func:`write_transaction`, its settings read afresh
        inside it (another process's change to them is kept), and again after an error
        (the transaction rolled back: no half-made change stays in memory either)."""
        try:
            with write_transaction(self.db):
                self.reload()
                yield
        except BaseException:
            self.reload()
            raise

    def reload(self):
        """Read the event's settings again (another process may have changed its boards or
        decisions since this Event was made)."""
        row = self.db.execute("SELECT settings FROM events WHERE id=?", (self.id,)).fetchone()
        if row is None:
            raise TournamentError("the event %r was removed from %s" % (self.name, self.lib.path))
        self.settings = json.loads(row[0])

    def _save_settings(self):
        self.db.execute("UPDATE events SET settings=? WHERE id=?", (json.dumps(self.settings), self.id))

    @property
    def scoring(self):
        return self.settings["scoring"]

    @property
    def team(self):
        return self.settings["team"]

    # ---- boards ---------------------------------------------------------------------

    def add_board(self, label, board_id=None):
        """Add board ``label`` (answering ``board_id`` in its hello; default the label).
        TournamentError (nothing changed) for a label the event has, or an id another
        of its boards answers."""
        with self._changing():  # (the settings read afresh: another process's change kept)
            if label in self.settings["boards"]:
                raise TournamentError("%s has a board %s already (id %s)" % (
                    self.name, label, self.settings["boards"][label]))
            boards = dict(self.settings["boards"])
            boards[label] = board_id or label
            check_board_ids(boards)
            self.settings["boards"] = boards
            self._save_settings()

    def board_of_id(self, board_id):
        """The label of the board whose hello id is ``board_id``, or None."""
        for label, hw in self.settings["boards"].items():
            if hw == board_id:
                return label
        return None

    # ---- entrants -------------------------------------------------------------------

    def entrants(self, teams_only=True):
        """Entrants in seed order: the players (individual event) or the teams, each
        with ``members`` (team event). ``teams_only=False``: every row."""
        rows = [Entrant(r) for r in self.db.execute(
            "SELECT id, name, seed, team, rating, withdrawn_round FROM entrants WHERE event=? ORDER BY seed, id",
            (self.id,))]
        if not teams_only or not self.team:
            return rows
        teams = [e for e in rows if e.team is None]
        by_name = {t.name: t for t in teams}
        for e in rows:
            if e.team is not None and e.team in by_name:
                by_name[e.team].members.append(e)
        return teams

    def entrant(self, name):
        """The entrant (player or team) called ``name``; TournamentError if none."""
        row = self.db.execute("SELECT id, name, seed, team, rating, withdrawn_round FROM entrants"
                              " WHERE event=? AND name=?", (self.id, name)).fetchone()
        if row is None:
            names = [e.name for e in self.entrants(teams_only=False)]
            raise TournamentError("no player or team named %r in %s (entered: %s)" % (
                name, self.name, ", ".join(names) or "nobody yet"))
        return Entrant(row)

    def names_by_id(self):
        return {e.id: e.name for e in self.entrants(teams_only=False)}

    def add_entrant(self, name, rating=None, team=None):
        """Enter player ``name`` (in a team event, ``team`` names its team, which must be
        entered first) or, in a team event without ``team``, the team ``name``.
        Seeds follow the order of entry (or the rating, highest first, when every
        entrant has one: see :meth:`reseed`). TournamentError once round 1 is paired."""
        if not name.strip():
            raise TournamentError("a player's name can't be empty")
        try:
            with self._changing():  # (round 1 not paired and the next seed: read under the lock)
                if self.rounds():
                    raise TournamentError("round 1 is paired: no one can enter %s any more" % self.name)
                if team is not None:
                    if not self.team:
                        raise TournamentError("%s is not a team event: enter players without --team" % self.name)
                    t = self.entrant(team)
                    if t.team is not None:
                        raise TournamentError("%r is a player, not a team" % team)
                seed = self.db.execute("SELECT COALESCE(MAX(seed), 0) + 1 FROM entrants WHERE event=?",
                                       (self.id,)).fetchone()[0]
                self.db.execute("INSERT INTO entrants (event, name, seed, team, rating) VALUES (?,?,?,?,?)",
                                (self.id, name, seed, team, rating))
        except sqlite3.IntegrityError as e:
            if "UNIQUE" in str(e):
                raise TournamentError("%r is already entered in %s" % (name, self.name))
            raise
        return self.entrant(name)

    def reseed(self):
        """Seeds by rating (highest first; unrated last, in order of entry)."""
        rows = self.entrants(teams_only=False)
        rows.sort(key=lambda e: (e.rating is None, -(e.rating or 0), e.seed))
        with self.db:
            for i, e in enumerate(rows):
                self.db.execute("UPDATE entrants SET seed=? WHERE id=?", (i + 1, e.id))

    # ---- pairings -------------------------------------------------------------------

    def pairings(self, round_=None):
        """Pairings (all rounds, or round ``round_``), by round, stage, match, game."""
        q = "SELECT %s FROM pairings WHERE event=?" % ", ".join(Pairing.COLS)
        args = [self.id]
        if round_ is not None:
            q += " AND round=?"
            args.append(round_)
        q += " ORDER BY round, stage, CAST(match AS INTEGER), match, game_no"
        return [Pairing(r) for r in self.db.execute(q, args)]

    def rounds(self):
        return [r[0] for r in self.db.execute("SELECT DISTINCT round FROM pairings WHERE event=? ORDER BY round",
                                              (self.id,))]

    def _insert(self, round_, stage, match, game_no, white, black, result=None, source=None):
        self.db.execute("INSERT INTO pairings (event, round, stage, match, game_no, white, black, result, source)"
                        " VALUES (?,?,?,?,?,?,?,?,?)",
                        (self.id, round_, stage, str(match), game_no, white, black, result, source))

    def round_complete(self, round_, adjourned_ok=False):
        """True when every pairing of ``round_`` has a result (``adjourned_ok``: or is adjourned)."""
        return all(p.result is not None or adjourned_ok and p.source == "adjourned" for p in self.pairings(round_))

    def pair_next(self):
        """Pair the next round (or add tiebreak games to an unfinished knockout round);
        boards are given in table order when the event has boards. Returns
        (round number, list of Pairing). TournamentError if the current round
        still lacks results, or the event is over. One transaction, what it pairs from
        read inside it: two ``pair`` at once pair the round once."""
        with self._changing():
            r = self._pair_next()
        return r, self.pairings(r)

    def _pair_next(self):
        """pair_next's work, in the caller's transaction: the round paired."""
        system = self.settings["system"]
        ents = self.entrants()
        if len(ents) < 2:
            raise TournamentError("%s has %d entrant%s: at least 2 are needed to pair"
                                  % (self.name, len(ents), "" if len(ents) == 1 else "s"))
        done = self.rounds()
        last = done[-1] if done else 0
        if system == "roundrobin":
            r = self._pair_rr(ents, last)
        elif system == "knockout":
            r = self._pair_ko(ents, last, "ko")
        else:
            r = self._pair_groups(ents, last)
        self._assign_boards(r)
        return r

    def _schedule(self, n, cycles):
        return pairing.round_robin(n, cycles)

    def _pair_rr(self, ents, last, stage="rr", members=None, first_round=1):
        sched = self._schedule(len(members or ents), self.settings["cycles"])
        k = last - first_round + 1
        if k >= len(sched):
            raise TournamentError("all %d rounds of %s are paired" % (len(sched), self.name))
        if last and not self.round_complete(last, adjourned_ok=True):
            raise TournamentError("round %d still lacks results; pair the next one when it is complete" % last)
        self._pair_rr_round(members or ents, sched[k], last + 1, stage)
        return last + 1

    def _pair_rr_round(self, ents, table, round_, stage, match_offset=0):
        by_seed = {i + 1: e for i, e in enumerate(ents)}
        for t, (w, b) in enumerate(table, 1):
            mw, mb = by_seed.get(w), by_seed.get(b)
            match = t + match_offset
            if mw is None or mb is None:
                real = mw or mb
                self._insert(round_, stage, match, 1, real.id, None, "bye", "bye")
                continue
            if self.team:
                self._pair_team_match(round_, stage, match, mw, mb)
                continue
            self._insert(round_, stage, match, 1, mw.id, mb.id)
            self._forfeit_withdrawn(round_, match)

    def _pair_team_match(self, round_, stage, match, ta, tb):
        n = self.settings["boards_per_match"] or min(len(ta.members), len(tb.members))
        if len(ta.members) < n or len(tb.members) < n:
            raise TournamentError("team match %s - %s needs %d players a side: %s has %d, %s has %d" % (
                ta.name, tb.name, n, ta.name, len(ta.members), tb.name, len(tb.members)))
        for k in range(n):
            a, b = ta.members[k], tb.members[k]
            w, bl = (a, b) if k % 2 == 0 else (b, a)  # the first-named team has White on odd boards
            self._insert(round_, stage, match, k + 1, w.id, bl.id)

    def _forfeit_withdrawn(self, round_, match):
        for p in [p for p in self.pairings(round_) if p.match == str(match)]:
            self._apply_withdrawals(p)

    def _apply_withdrawals(self, p):
        rows = self.entrants(teams_only=False)
        gone = {e.name for e in rows if e.withdrawn_round is not None and e.withdrawn_round <= p.round}
        wd = {e.id for e in rows if e.name in gone or e.team in gone}  # a team's withdrawal: its players'
        if p.result is not None or p.black is None:
            return
        w, b = p.white in wd, p.black in wd
        if w or b:
            res = "-/-" if w and b else ("-/+" if w else "+/-")
            self.db.execute("UPDATE pairings SET result=?, source='forfeit' WHERE id=?", (res, p.id))

    # -- knockout ------------------------------------------------------------------

    def match_score(self, games):
        """(points of the match's first-named side A, of B, all games have results)
        over ``games`` (Pairing list of one match; A is White in game 1)."""
        a_id = games[0].white
        pa = pb = 0
        for g in games:
            pts = points(g.result, self.scoring)
            if pts is None:
                continue
            pw, pbk = pts
            if g.white == a_id:
                pa, pb = pa + pw, pb + pbk
            else:
                pa, pb = pa + pbk, pb + pw
        return pa, pb, all(g.result is not None for g in games)

    def match_winner(self, games):
        """The entrant id who won the match, or None (not finished, tied, or decided
        for nobody). A tied match is won by the arbiter's decision (:meth:`decide`)."""
        g0 = games[0]
        if g0.result == "bye":
            return g0.white
        pa, pb, complete = self.match_score(games)
        if not complete:
            return None
        if pa == pb:
            d = self.decision(games)
            return d["winner"] if d else None
        return g0.white if pa > pb else g0.black

    def match_over(self, games):
        """True once the match has a winner, or was decided for nobody (a double forfeit)."""
        return self.match_winner(games) is not None or bool(self.decision(games))

    @staticmethod
    def _match_key(g0):
        return "%d/%s/%s" % (g0.round, g0.stage, g0.match)

    def decision(self, games):
        """The arbiter's decision of the match ``games`` (dict winner (entrant id, or None:
        nobody), by, reason), or None."""
        return self.settings.get("decisions", {}).get(self._match_key(games[0]))

    def decide(self, round_, match, winner, by, reason):
        """Record the arbiter's decision of tied match ``match`` (its number) of round
        ``round_``: ``winner`` a name of one side, or "nobody" (both forfeited); ``by``
        one of DECISIONS (lot, armageddon, rating, arbiter). TournamentError (nothing
        changed) for a match that is not finished and tied."""
        if by not in DECISIONS:
            raise TournamentError("a decision is by %s, not %r" % (", ".join(DECISIONS), by))
        if not reason or not reason.strip():
            raise TournamentError("a decision needs a reason (--reason)")
        with self._changing():
            ms = [m for m in self._matches(round_) if m[0].match == str(match) and m[0].black is not None]
            if not ms:
                raise TournamentError("round %s has no match %s" % (round_, match))
            games = ms[0]
            # a block of tiebreak games paired and not begun goes: the decision replaces it
            unplayed = [g for g in games if g.result is None and g.library_game is None and g.source is None]
            played = [g for g in games if g not in unplayed]
            if unplayed and played and all(g.result is not None for g in played):
                games = played
            else:
                unplayed = []
            pa, pb, complete = self.match_score(games)
            if not complete:
                raise TournamentError("match %s of round %s is still being played" % (match, round_))
            if pa != pb:
                raise TournamentError("match %s of round %s is not tied (%s-%s): it needs no decision" % (
                    match, round_, _n(pa), _n(pb)))
            names = self.names_by_id()
            sides = {names[games[0].white]: games[0].white, names[games[0].black]: games[0].black}
            if winner == "nobody":
                wid = None
            elif winner in sides:
                wid = sides[winner]
            else:
                raise TournamentError("the winner is %s or nobody, not %r" % (" or ".join(sides), winner))
            for g in unplayed:
                self.db.execute("DELETE FROM pairings WHERE id=?", (g.id,))
            self.settings.setdefault("decisions", {})[self._match_key(games[0])] = {
                "winner": wid, "by": by, "reason": reason.strip(), "at": _now()}
            self._save_settings()
            return wid

    def _matches(self, round_, stage=None):
        out = {}
        for p in self.pairings(round_):
            if stage is None or p.stage == stage:
                out.setdefault(p.match, []).append(p)
        return [out[k] for k in sorted(out, key=lambda m: int(m) if m.isdigit() else m)]

    def _pair_ko(self, ents, last, stage, seeds=None, first_round=1):
        """Knockout: the first round from ``seeds`` (entrants in seed order; default
        ``ents``), later rounds from the winners in bracket order."""
        gpm = self.settings["games_per_match"]
        if last < first_round:
            order = seeds or ents
            by_seed = {i + 1: e for i, e in enumerate(order)}
            for m, (a, b) in enumerate(pairing.knockout_first_round(len(order)), 1):
                if b is None:
                    self._insert(first_round, stage, m, 1, by_seed[a].id, None, "bye", "bye")
                    continue
                self._pair_match(first_round, stage, m, by_seed[a].id, by_seed[b].id, gpm)
            return first_round
        matches = self._matches(last, stage)
        if any(not all(g.result is not None for g in m) for m in matches):
            raise TournamentError("round %d still lacks results; pair the next one when it is complete" % last)
        tb = self.settings["tiebreak_games"]
        tied = [m for m in matches if not self.match_over(m)]
        for m in tied:
            if any(g.result == "-/-" for g in m):
                raise TournamentError("match %s of round %d is tied with a double forfeit: record who goes on"
                                      " (tournament decide EVENT %d %s NAME|nobody --by arbiter --reason TEXT)"
                                      % (m[0].match, last, last, m[0].match))
        if tied:
            if not tb:
                raise TournamentError("match %s of round %d is tied and the event has no tiebreak games:"
                                      " record the decision (tournament decide EVENT %d %s NAME --by lot|armageddon|"
                                      "rating --reason TEXT)" % (tied[0][0].match, last, last, tied[0][0].match))
            for m in tied:  # a block of tiebreak games, colours continuing to alternate
                a, b = m[0].white, m[0].black
                n = len(m)
                for k in range(tb):
                    w, bl = (a, b) if (n + k) % 2 == 0 else (b, a)
                    self._insert(last, stage, m[0].match, n + k + 1, w, bl)
                    self._apply_withdrawals(self.pairings(last)[-1])
            return last
        # the bracket's slots in match order: a winner, or None (a match decided for nobody, or a
        # slot left empty when both its matches were: kept in the settings' "void")
        slot = {int(m[0].match): self.match_winner(m) for m in matches}
        for k in self.settings.get("void", {}).get("%d/%s" % (last, stage), []):
            slot[k] = None
        winners = [slot.get(k) for k in range(1, max(slot) + 1)]
        if len(winners) % 2 and len(winners) > 1:
            winners.append(None)
        if len(winners) == 1:
            raise TournamentError("the knockout of %s is over: the winner is %s"
                                  % (self.name, self.names_by_id().get(winners[0], "nobody")))
        seed_of = {e.id: i for i, e in enumerate(seeds or ents)}
        r = last + 1
        for m in range(0, len(winners), 2):
            a, b = winners[m], winners[m + 1]
            if a is None or b is None:  # a match decided for nobody: the other goes on by a bye
                if (a or b) is not None:
                    self._insert(r, stage, m // 2 + 1, 1, a or b, None, "bye", "bye")
                else:
                    self.settings.setdefault("void", {}).setdefault("%d/%s" % (r, stage), []).append(m // 2 + 1)
                    self._save_settings()
                continue
            if seed_of.get(b, 0) < seed_of.get(a, 0):
                a, b = b, a
            self._pair_match(r, stage, m // 2 + 1, a, b, gpm)
        if not any(True for p in self.pairings(r)):
            raise TournamentError("every match of round %d was decided for nobody: the knockout of %s is over"
                                  % (last, self.name))
        return r

    def _pair_match(self, round_, stage, match, a, b, games):
        for k, a_white in enumerate(pairing.match_colours(True, games)):
            self._insert(round_, stage, match, k + 1, a if a_white else b, b if a_white else a)
        for p in self.pairings(round_):
            if p.match == str(match) and p.stage == stage:
                self._apply_withdrawals(p)

    # -- groups + final -------------------------------------------------------------

    def groups(self):
        """{group letter: [entrants in group seed order]} by the snake system."""
        ents = self.entrants()
        out = {}
        for k, seeds in enumerate(pairing.snake_groups(len(ents), self.settings["groups"])):
            out[chr(ord("A") + k)] = [ents[s - 1] for s in seeds]
        return out

    def _pair_groups(self, ents, last):
        groups = self.groups()
        cycles = self.settings["cycles"]
        scheds = {g: pairing.round_robin(len(m), cycles) for g, m in groups.items()}
        n_group_rounds = max(len(s) for s in scheds.values())
        if last and not self.round_complete(last, adjourned_ok=last < n_group_rounds):
            raise TournamentError("round %d still lacks results; pair the next one when it is complete" % last)
        if last < n_group_rounds:
            r = last + 1
            offset = 0  # tables numbered on through the groups
            for g, members in groups.items():
                if last < len(scheds[g]):
                    self._pair_rr_round(members, scheds[g][last], r, "group " + g, offset)
                offset += (len(members) + 1) // 2
            return r
        # the final: the first `advance` of each group, seeded by place, then group
        adj = [p for p in self.pairings() if p.result is None and p.stage.startswith("group ")]
        if adj:
            raise TournamentError("round %d table %s of the groups has no result yet (adjourned): the final is"
                                  " paired once every group game has one" % (adj[0].round, adj[0].match))
        finalists = self.finalists()
        if self.settings["final"] == "roundrobin":
            sched = pairing.round_robin(len(finalists), cycles)
            k = last - n_group_rounds
            if k >= len(sched):
                raise TournamentError("all rounds of %s are paired" % self.name)
            self._pair_rr_round(finalists, sched[k], last + 1, "final")
            return last + 1
        return self._pair_ko(finalists, last, "final", seeds=finalists, first_round=n_group_rounds + 1)

    def finalists(self):
        """The entrants who reach the final: place 1 of every group (A, B, ...), then
        place 2 of every group, ... up to ``advance`` places (seeds of the final)."""
        table = {}
        for g, members in self.groups().items():
            st = self.standings(stage="group " + g, entrants=members)
            table[g] = [row["id"] for row in st]
        by_id = {e.id: e for e in self.entrants()}
        out = []
        for place in range(self.settings["advance"]):
            for g in sorted(table):
                if place < len(table[g]):
                    out.append(by_id[table[g][place]])
        return out

    # ---- boards for pairings --------------------------------------------------------

    def _assign_boards(self, round_):
        labels = list(self.settings["boards"])
        if not labels:
            return
        ps = self.pairings(round_)
        # a match's games (a knockout's, tiebreaks added later) on one board, the board of its first game;
        # the matches without one get the boards no match of the round holds, in table order
        # (a team match's games are its boards: one board each)
        key = (lambda p: (p.stage, p.match, p.id)) if self.team else (lambda p: (p.stage, p.match))
        held = {key(p): p.board for p in ps if p.board is not None}
        free = [b for b in labels if b not in set(held.values())]
        for p in ps:
            if p.black is None or p.board is not None or p.result is not None:
                continue
            k = key(p)
            if k not in held:
                if not free:
                    continue
                held[k] = free.pop(0)
            self.db.execute("UPDATE pairings SET board=?, assigned_at=? WHERE id=?", (held[k], _now(), p.id))

    def find_pairing(self, round_, who):
        """The pairing of round ``round_`` named by ``who``: a table/match number
        ("3", or "3.2" for game 2 of match 3) or a player's name (their first game
        without a result, else their last). TournamentError if none."""
        ps = [p for p in self.pairings(round_) if p.result != "bye"]
        if not ps:
            raise TournamentError("round %s of %s is not paired" % (round_, self.name))
        m, _, g = who.partition(".")
        if m.isdigit() and (not g or g.isdigit()):
            for p in ps:
                if p.match == m and p.game_no == int(g or 1):
                    return p
            raise TournamentError("round %s has no table %s" % (round_, who))
        e = self.entrant(who)
        mine = [p for p in ps if e.id in (p.white, p.black)]
        if not mine:
            raise TournamentError("%s has no game in round %s" % (who, round_))
        open_ = [p for p in mine if p.result is None]
        return (open_ or mine)[0 if open_ else -1]

    def assign(self, round_, who, board):
        """Put the pairing ``who`` of round ``round_`` (see :meth:`find_pairing`) on board
        ``board`` (a label of the event). TournamentError for a board the event does
        not have."""
        with self._changing():
            if board not in self.settings["boards"]:
                raise TournamentError("%s has no board %r (boards: %s; add one with `tournament board`)" % (
                    self.name, board, ", ".join(self.settings["boards"]) or "none"))
            p = self.find_pairing(round_, who)
            self.db.execute("UPDATE pairings SET board=?, assigned_at=? WHERE id=?", (board, _now(), p.id))
        return p

    # ---- results by hand ------------------------------------------------------------

    def set_result(self, round_, who, result, reason, kazans=None):
        """Enter or correct the result of pairing ``who`` of round ``round_`` by hand:
        ``result`` one of RESULTS (+/- a forfeit won by White), ``reason`` kept with the
        old and new result in ``corrections``. ``kazans``: "W-B" balls in the kazans
        (mancala tiebreak). A board game whose result differs is flagged."""
        if result not in RESULTS:
            raise TournamentError("unknown result %r (one of %s)" % (result, ", ".join(RESULTS)))
        if not reason or not reason.strip():
            raise TournamentError("a result entered by hand needs a reason (--reason)")
        kz = None
        if kazans:
            try:
                a, b = kazans.split("-")
                kz = json.dumps([int(a), int(b)])
            except ValueError:
                raise TournamentError("bad kazans %r (expected WHITE-BLACK, e.g. 82-60)" % kazans)
        # the pairing read in the write transaction: a board's result taken meanwhile (the
        # hall, another playboard) is seen, and the correction goes over it, flagged
        with write_transaction(self.db):
            p = self.find_pairing(round_, who)
            flag = None  # a correction clears what an earlier one flagged; corrected back, none is left
            board = self._board_result(p)
            if board is not None and board != result:
                names = self.names_by_id()
                flag = "%s (%s)" % (hand_differs(result, board, names.get(p.white), names.get(p.black)), reason)
            elif board is None and p.flag and p.library_game is None and p.source != "adjourned":
                flag = p.flag  # (collect's flag of a game it did not take: still for the arbiter)
            source = "forfeit" if result in FORFEITS else "board" if board == result else "hand"
            self.db.execute("UPDATE pairings SET result=?, source=?, flag=?, kazans=COALESCE(?, kazans)"
                            " WHERE id=?", (result, source, flag, kz, p.id))
            self.db.execute("INSERT INTO corrections (pairing, old, new, reason, at) VALUES (?,?,?,?,?)",
                            (p.id, p.result, result, reason.strip(), _now()))
        return self.pairings_by_id(p.id)

    def _board_result(self, p):
        """The result of the board's game taken for ``p`` (as seen from p's colours), or None."""
        if p.library_game is None:
            return None
        row = self.db.execute("SELECT result FROM games WHERE id=?", (p.library_game,)).fetchone()
        if row is None:
            return None
        if self._swapped(p):
            return {"1-0": "0-1", "0-1": "1-0"}.get(row[0], row[0])
        return row[0]

    def _swapped(self, p):
        return bool(self.db.execute("SELECT 1 FROM corrections WHERE pairing=? AND reason LIKE '[colours swapped]%'"
                                    " LIMIT 1", (p.id,)).fetchone())

    def take_game(self, round_, who, game_id, reason, swapped=False):
        """The arbiter takes library game ``game_id`` (one ``collect`` listed: played at
        the wrong board, or before the pairing reached the board) for pairing ``who``
        of round ``round_``; ``swapped``: the players had each other's colours (the
        result is turned round). Kept as a correction with ``reason``; the pairing's
        flag clears. TournamentError for an unknown game, one another pairing took, or
        an unfinished one."""
        if not reason or not reason.strip():
            raise TournamentError("taking a game by hand needs a reason (--reason)")
        with write_transaction(self.db):  # read and written at once (another process's take waits)
            p = self.find_pairing(round_, who)
            row = self.db.execute("SELECT result, game FROM games WHERE id=?", (game_id,)).fetchone()
            if row is None:
                raise TournamentError("the library has no game %d" % game_id)
            res, game = row
            if game != self.game:
                raise TournamentError("game %d is %s, %s plays %s" % (game_id, game, self.name, self.game))
            if res not in ("1-0", "0-1", "1/2-1/2"):
                raise TournamentError("game %d has no result (%s)" % (game_id, res))
            other = self.db.execute("SELECT round, match FROM pairings WHERE event=? AND library_game=?"
                                    " AND id!=?", (self.id, game_id, p.id)).fetchone()
            if other:
                raise TournamentError("game %d is round %d table %s's already" % (game_id, other[0], other[1]))
            if swapped:
                res = {"1-0": "0-1", "0-1": "1-0"}.get(res, res)
            self.db.execute("UPDATE pairings SET result=?, source='board', library_game=?, flag=NULL WHERE id=?",
                            (res, game_id, p.id))
            self.db.execute("INSERT INTO corrections (pairing, old, new, reason, at) VALUES (?,?,?,?,?)",
                            (p.id, p.result, res, "%sgame %d taken: %s" % (
                                "[colours swapped] " if swapped else "", game_id, reason.strip()), _now()))
        return self.pairings_by_id(p.id)

    def adjourn(self, round_, who, reason):
        """Adjourn pairing ``who`` of round ``round_``: no result yet, kept open (a round
        robin's next round can be paired meanwhile); its result comes later from the
        board game carrying the pairing (send it again, on any board: ``assign``) or by
        hand. TournamentError for a pairing with a result."""
        if not reason or not reason.strip():
            raise TournamentError("an adjournment needs a reason (--reason)")
        with write_transaction(self.db):
            p = self.find_pairing(round_, who)
            if p.result is not None:
                raise TournamentError("round %d table %s has a result (%s): correct it with tournament result"
                                      % (p.round, p.match, p.result))
            self.db.execute("UPDATE pairings SET source='adjourned', flag=? WHERE id=?",
                            ("adjourned: " + reason.strip(), p.id))
        return self.pairings_by_id(p.id)

    def repair(self):
        """Pair the last round again (a correction changed who goes on, a withdrawal, a
        board added): its pairings go and are made anew, with boards. TournamentError
        (nothing changed) once a game of it has a result from a board or by hand."""
        with self._changing():
            rounds = self.rounds()
            if not rounds:
                raise TournamentError("%s has no round paired yet" % self.name)
            last = rounds[-1]
            done = [p for p in self.pairings(last) if p.source in ("board", "hand") or p.library_game is not None]
            if done:
                raise TournamentError("round %d has results already (table %s): it can't be paired again"
                                      % (last, done[0].match))
            keys = {self._match_key(p) for p in self.pairings(last)}
            self.db.execute("DELETE FROM corrections WHERE pairing IN (SELECT id FROM pairings WHERE event=?"
                            " AND round=?)", (self.id, last))
            self.db.execute("DELETE FROM pairings WHERE event=? AND round=?", (self.id, last))
            d = self.settings.get("decisions", {})
            for k in keys:
                d.pop(k, None)
            for k in [k for k in self.settings.get("void", {}) if k.startswith("%d/" % last)]:
                del self.settings["void"][k]
            self._save_settings()
            r = self._pair_next()
        return r, self.pairings(r)

    def pairings_by_id(self, pid):
        r = self.db.execute("SELECT %s FROM pairings WHERE id=?" % ", ".join(Pairing.COLS), (pid,)).fetchone()
        return Pairing(r)

    def corrections(self):
        """[(pairing id, round, match, old, new, reason, at)] of this event."""
        return list(self.db.execute(
            "SELECT c.pairing, p.round, p.match, c.old, c.new, c.reason, c.at FROM corrections c"
            " JOIN pairings p ON p.id = c.pairing WHERE p.event=? ORDER BY c.id", (self.id,)))

    def withdraw(self, name, from_round=None):
        """Withdraw ``name`` from round ``from_round`` on (default: the first round in
        which they have a game without a result, else the next round): their games
        without a result become forfeits (docs/tournament.md)."""
        with self._changing():
            e = self.entrant(name)
            mine = {e.id} | {m.id for m in self.entrants(teams_only=False) if m.team == e.name and e.team is None}
            if from_round is None:
                open_ = [p.round for p in self.pairings() if p.result is None and (p.white in mine or p.black in mine)]
                from_round = min(open_) if open_ else (self.rounds() or [0])[-1] + 1
            self.db.execute("UPDATE entrants SET withdrawn_round=? WHERE id=?", (from_round, e.id))
            for p in self.pairings():
                if p.round >= from_round:
                    self._apply_withdrawals(p)
        return from_round

    # ---- standings ------------------------------------------------------------------

    def annulled(self):
        """Entrants withdrawn before playing half of their round-robin games: their
        results don't count for anyone (docs/tournament.md)."""
        if self.settings["system"] != "roundrobin" or self.team:
            return set()
        out = set()
        ps = self.pairings()
        for e in self.entrants():
            if e.withdrawn_round is None:
                continue
            played = [p for p in ps if p.black is not None and e.id in (p.white, p.black)
                      and p.result in ("1-0", "0-1", "1/2-1/2")]
            total = (len(self.entrants()) - 1) * self.settings["cycles"]  # their games in the whole event
            if 2 * len(played) < total:
                out.add(e.id)
        return out

    def outcomes(self, stage=None):
        """Finished games as scoring.Outcome (individual), annulled ones left out."""
        annulled = self.annulled()
        out = []
        for p in self.pairings():
            if stage is not None and p.stage != stage:
                continue
            if p.black is None or p.result is None or p.result == "bye":
                continue
            if p.white in annulled or p.black in annulled:
                continue
            pw, pb = points(p.result, self.scoring)
            ka, kb = p.kazans if p.kazans else (None, None)
            out.append(scoring.Outcome(p.white, p.black, pw, pb, played=p.result not in FORFEITS,
                                       wa=p.result in ("1-0", "+/-"), wb=p.result in ("0-1", "-/+"), ka=ka, kb=kb))
        return out

    def _team_outcomes(self):
        """(team match Outcomes with match points, {team: game points}) of a team event."""
        team_of = {}
        for t in self.entrants():
            for m in t.members:
                team_of[m.id] = t.id
        sc = self.scoring
        gp = {}
        out = []
        for round_ in self.rounds():
            for games in self._matches(round_):
                g0 = games[0]
                if g0.black is None:
                    continue
                if any(g.result is None for g in games):
                    continue
                ta, tb = team_of[g0.white], team_of[g0.black]
                pa = pb = 0
                ka = kb = 0
                kz = True
                for g in games:
                    pw, pbk = points(g.result, sc)
                    if team_of[g.white] == ta:
                        pa, pb = pa + pw, pb + pbk
                    else:
                        pa, pb = pa + pbk, pb + pw
                    if g.kazans:
                        x, y = g.kazans if team_of[g.white] == ta else g.kazans[::-1]
                        ka, kb = ka + x, kb + y
                    else:
                        kz = False
                gp[ta] = gp.get(ta, 0) + pa
                gp[tb] = gp.get(tb, 0) + pb
                mpa, mpb = (sc["win"], sc["loss"]) if pa > pb else (sc["loss"], sc["win"]) if pb > pa \
                    else (sc["draw"], sc["draw"])
                out.append(scoring.Outcome(ta, tb, mpa, mpb, ka=ka if kz else None, kb=kb if kz else None))
        return out, gp

    def bye_points(self, stage=None):
        """{entrant: points} of the round-robin byes (of ``stage``, or of every
        round-robin stage); a knockout bye scores nothing, its player advances."""
        out = {}
        for p in self.pairings():
            if p.result == "bye" and (p.stage == stage if stage else p.stage in ("rr", "final") or
                                      p.stage.startswith("group ")) and p.stage != "ko":
                if p.stage == "final" and self.settings["final"] == "knockout":
                    continue
                out[p.white] = out.get(p.white, 0) + self.settings["bye_points"]
        return out

    def standings(self, stage=None, entrants=None):
        """The standings: a list of dicts {place, id, name, score, tiebreaks: {name:
        value}, played, withdrawn}, best first. ``stage``/``entrants``: one group.
        For a knockout: by the round reached, then seed."""
        ents = entrants or self.entrants()
        ids = [e.id for e in ents]
        seeds = {e.id: e.seed for e in ents}
        order = self.settings["tiebreaks"]
        gp = None
        if self.team:
            outs, gp = self._team_outcomes()
        else:
            outs = self.outcomes(stage)
            outs = [o for o in outs if o.a in seeds and o.b in seeds]
        if self.settings["system"] == "knockout" or stage == "final" and self.settings["final"] == "knockout":
            return self._ko_standings(ents, stage or "ko")
        vals = scoring.tiebreak_values(ids, outs, order, self.scoring["win"],
                                       extra=self.bye_points(stage), game_points=gp)
        played = {e: 0 for e in ids}
        for o in outs:
            played[o.a] += 1
            played[o.b] += 1
        names = {e.id: e.name for e in ents}
        wd = {e.id: e.withdrawn_round for e in ents}
        return [{"place": place, "id": e, "name": names[e], "score": vals[e][0],
                 "tiebreaks": dict(zip(order, vals[e][1:])), "played": played[e], "withdrawn": wd[e]}
                for place, e in scoring.rank(vals, seeds)]

    def _ko_standings(self, ents, stage):
        reached = {e.id: 0 for e in ents}
        out_in = {}
        rounds = sorted({p.round for p in self.pairings() if p.stage == stage})
        champion = None
        for i, r in enumerate(rounds):
            for m in self._matches(r, stage):
                for e in (m[0].white, m[0].black):
                    if e is not None:
                        reached[e] = i + 1
                w = self.match_winner(m)
                if w is not None:
                    loser = m[0].black if w == m[0].white else m[0].white
                    if loser is not None:
                        out_in[loser] = i + 1
                    if i == len(rounds) - 1 and len(self._matches(r, stage)) == 1:
                        champion = w
        vals = {e.id: [1 if e.id == champion else 0, reached.get(e.id, 0)] for e in ents if e.id in reached}
        seeds = {e.id: e.seed for e in ents}
        names = {e.id: e.name for e in ents}
        wd = {e.id: e.withdrawn_round for e in ents}
        # score: the last round reached (of this stage); "out in": the round they lost in
        return [{"place": place, "id": e, "name": names[e], "score": vals[e][1], "champion": vals[e][0] == 1,
                 "tiebreaks": {"out in": out_in.get(e)}, "played": None, "withdrawn": wd[e]}
                for place, e in scoring.rank(vals, seeds)]
