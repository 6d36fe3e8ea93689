"""The PC's game library: an SQLite file of the games synced from boards.

One row per game, keyed by (board, uid): the board's id and the game's unique id
written in its header, so a game synced twice (an acknowledgement lost when a
sync was cut off) is stored once. The raw record bytes are kept beside the
decoded fields, so that nothing the board wrote is lost.

The file carries a schema version (SQLite's ``user_version``): 0 is a library
from before tournaments (the games table only); each step of ``MIGRATIONS``
upgrades it by one, inside one transaction, when the file is opened. A library
written by a newer ``playboard`` (a version above ``SCHEMA_VERSION``) is a
LibraryError and is left untouched.
"""
import datetime
import json
import os
import sqlite3
import zlib

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    uid TEXT NOT NULL,
    board_game INTEGER NOT NULL,
    game TEXT NOT NULL,
    result TEXT NOT NULL,
    termination TEXT,
    date TEXT NOT NULL,
    fen TEXT,
    tags TEXT NOT NULL,
    moves TEXT NOT NULL,
    plies INTEGER NOT NULL,
    record BLOB NOT NULL,
    synced_at TEXT NOT NULL,
    UNIQUE (board, uid)
);
"""

# Version 1: tournaments (docs/tournament.md): events, their players or teams, their
# pairings (one row per game to play, with its board, result and where the result
# came from) and the hand corrections with their reasons.
MIGRATIONS = (
    (1, """
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    settings TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE entrants (
    id INTEGER PRIMARY KEY,
    event INTEGER NOT NULL REFERENCES events(id),
    name TEXT NOT NULL,
    seed INTEGER NOT NULL,
    team TEXT,
    rating INTEGER,
    withdrawn_round INTEGER,
    UNIQUE (event, name)
);
CREATE TABLE pairings (
    id INTEGER PRIMARY KEY,
    event INTEGER NOT NULL REFERENCES events(id),
    round INTEGER NOT NULL,
    stage TEXT NOT NULL,
    match TEXT NOT NULL,
    game_no INTEGER NOT NULL,
    white INTEGER REFERENCES entrants(id),
    black INTEGER REFERENCES entrants(id),
    board TEXT,
    result TEXT,
    source TEXT,
    library_game INTEGER REFERENCES games(id),
    kazans TEXT,
    flag TEXT,
    assigned_at TEXT,
    UNIQUE (event, round, match, game_no)
);
CREATE TABLE corrections (
    id INTEGER PRIMARY KEY,
    pairing INTEGER NOT NULL REFERENCES pairings(id),
    old TEXT,
    new TEXT NOT NULL,
    reason TEXT NOT NULL,
    at TEXT NOT NULL
);
"""),
    # Version 2: the boards seen (docs/museum.md): each board's first and last sync and
    # firmware, and the health counters taken from it at each sync (playboard.health:
    # counts since the sync before, so a board's totals are their sums).
    (2, """
CREATE TABLE boards (
    board TEXT PRIMARY KEY,
    first_sync TEXT NOT NULL,
    last_sync TEXT NOT NULL,
    fw TEXT,
    syncs INTEGER NOT NULL
);
CREATE TABLE health (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    at TEXT NOT NULL,
    power_ups INTEGER NOT NULL,
    wdt_resets INTEGER NOT NULL,
    stuck INTEGER NOT NULL,
    chatter INTEGER NOT NULL,
    faulty TEXT NOT NULL
);
"""),
    # the health counters' memory errors and sensors a self-test judged faulty
    (3, """
ALTER TABLE health ADD COLUMN memory_errors INTEGER NOT NULL DEFAULT 0;
ALTER TABLE health ADD COLUMN selftest INTEGER NOT NULL DEFAULT 0;
"""),
    # a locked board's daily restarts (playboard.app.restart): neither power-ups nor resets
    (4, """
ALTER TABLE health ADD COLUMN restarts INTEGER NOT NULL DEFAULT 0;
"""),
    # faults the app contained (playboard.app.contain) and their kept tracebacks
    (5, """
ALTER TABLE health ADD COLUMN faults INTEGER NOT NULL DEFAULT 0;
ALTER TABLE health ADD COLUMN tracebacks TEXT NOT NULL DEFAULT '[]';
"""),
)
SCHEMA_VERSION = MIGRATIONS[-1][0]


COLUMNS = ("id", "board", "uid", "board_game", "game", "result", "termination", "date", "fen", "tags", "moves",
           "plies", "record", "synced_at")

DEFAULT_PATH = os.path.join(os.path.expanduser("~"), ".playboard", "library.sqlite")


def default_path():
    """$PLAYBOARD_LIBRARY, else ~/.playboard/library.sqlite."""
    return os.environ.get("PLAYBOARD_LIBRARY") or DEFAULT_PATH


def _game_date(tags, synced):
    """YYYY.MM.DD from the Date tag (PGN form, '?' allowed), else the sync date."""
    d = tags.get("Date", "")
    if len(d) >= 4 and d[:4].isdigit():
        return d.replace("-", ".")
    return synced.strftime("%Y.%m.%d")


class Game:
    """A library row: ``id``, ``board``, ``uid``, ``board_game``, ``game``, ``result``,
    ``termination``, ``date`` ("YYYY.MM.DD"), ``fen``, ``tags`` (dict), ``moves``
    (list of move texts), ``record`` (raw bytes), ``synced_at``."""

    def __init__(self, row):
        (self.id, self.board, self.uid, self.board_game, self.game, self.result, self.termination,
         self.date, self.fen, tags, moves, self.plies, self.record, self.synced_at) = row
        self.tags = json.loads(tags)
        self.moves = json.loads(moves)


class LibraryError(Exception):
    """A library file that is missing (when only read), not a library, or unreadable."""


class Library:
    """The library at ``path``. ``create``: make it (and its folder) if missing;
    otherwise a missing file is a LibraryError and nothing is written. A file that
    is not a Playboard library (another program's database, any other file) is a
    LibraryError too and is left as it was."""

    def __init__(self, path=None, create=True):
        self.path = path or default_path()
        if os.path.isdir(self.path):
            raise LibraryError("%s is a folder, not a library file" % self.path)
        exists = os.path.exists(self.path)
        if not exists and not create:
            raise LibraryError("no library at %s (playboard sync makes one)" % self.path)
        if exists and os.path.getsize(self.path) > 0:
            with open(self.path, "rb") as f:
                if f.read(16) != b"SQLite format 3\x00":
                    raise LibraryError("%s is not a Playboard library (not an SQLite file)" % self.path)
        elif exists and not create:
            raise LibraryError("%s is empty, not a Playboard library" % self.path)
        if create:
            os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path)
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            cols = [r[1] for r in self.db.execute("PRAGMA table_info(games)")] if "games" in tables else []
            if (tables and "games" not in tables) or (cols and not set(COLUMNS) <= set(cols)):
                self.db.close()
                raise LibraryError("%s is another program's database, not a Playboard library%s" % (
                    self.path, " (its games table has other columns)" if cols else ""))
            fresh = "games" not in tables
            if fresh:
                self.db.executescript(SCHEMA)
                self.db.commit()
            self.upgraded_from = self._migrate()
            if fresh:
                self.upgraded_from = None  # made now, not upgraded
        except sqlite3.Error as e:
            raise LibraryError("can't open the library %s: %s" % (self.path, e))

    def _migrate(self):
        """Bring the file up to SCHEMA_VERSION; returns the version it had (None if
        it was already current). Each step commits whole or not at all."""
        have = self.db.execute("PRAGMA user_version").fetchone()[0]
        if have > SCHEMA_VERSION:
            self.db.close()
            raise LibraryError("%s was written by a newer playboard (library version %d, this one knows %d):"
                               " update playboard" % (self.path, have, SCHEMA_VERSION))
        if have == SCHEMA_VERSION:
            return None
        for version, sql in MIGRATIONS:
            if version <= have:
                continue
            try:
                self.db.executescript("BEGIN;" + sql + "PRAGMA user_version=%d; COMMIT;" % version)
            except sqlite3.Error:
                self.db.rollback()
                raise
        return have

    def close(self):
        self.db.close()

    def has(self, board, uid):
        return self.db.execute("SELECT 1 FROM games WHERE board=? AND uid=?", (board, uid)).fetchone() is not None

    def add(self, board, rec, raw, now=None):
        """Store game ``rec`` (a record.GameRecord) fetched from ``board`` with its
        ``raw`` bytes, and commit. Returns True if added, False if it was there."""
        now = now or datetime.datetime.now()
        uid = rec.uid or ("g%d-%08x" % (rec.id, zlib.crc32(bytes(raw))))
        cur = self.db.execute(
            "INSERT OR IGNORE INTO games (board, uid, board_game, game, result, termination, date, fen,"
            " tags, moves, plies, record, synced_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (board, uid, rec.id, rec.name, rec.result, rec.termination, _game_date(rec.tags, now), rec.fen,
             json.dumps(rec.tags, ensure_ascii=False), json.dumps(rec.moves, ensure_ascii=False),
             len(rec.moves), bytes(raw), now.isoformat(timespec="seconds")))
        self.db.commit()
        return cur.rowcount == 1

    def games(self, game=None, result=None, since=None, until=None, ids=None):
        """Games in the library, oldest first, filtered by game name, result, date
        range (``since``/``until`` as "YYYY-MM-DD" or "YYYY.MM.DD", inclusive) and ids."""
        q = "SELECT id, board, uid, board_game, game, result, termination, date, fen, tags, moves, plies," \
            " record, synced_at FROM games WHERE 1=1"
        args = []
        if game:
            q += " AND game=?"
            args.append(game)
        if result:
            q += " AND result=?"
            args.append(result)
        if since:
            q += " AND date>=?"
            args.append(since.replace("-", "."))
        if until:
            q += " AND date<=?"
            args.append(until.replace("-", ".") + "~")
        if ids:
            q += " AND id IN (%s)" % ",".join("?" * len(ids))
            args.extend(ids)
        q += " ORDER BY date, id"
        return [Game(r) for r in self.db.execute(q, args)]

    def same_moves(self, game, fen, moves):
        """Library games of ``game`` (a name) from start position ``fen`` (None: the
        usual start) with exactly ``moves`` (list of move texts), oldest first: the
        candidates for a game met again (``playboard import-games``)."""
        q = "SELECT id, board, uid, board_game, game, result, termination, date, fen, tags, moves, plies," \
            " record, synced_at FROM games WHERE game=? AND plies=? AND moves=? AND fen IS ? ORDER BY id"
        return [Game(r) for r in self.db.execute(
            q, (game, len(moves), json.dumps(list(moves), ensure_ascii=False), fen))]

    def games_from(self, board, since=None):
        """Games synced from board id ``board`` (at or after ``since``, an ISO time
        "YYYY-MM-DDTHH:MM:SS"), in the order the board numbered them."""
        q = "SELECT id, board, uid, board_game, game, result, termination, date, fen, tags, moves, plies," \
            " record, synced_at FROM games WHERE board=?"
        args = [board]
        if since:
            q += " AND synced_at>=?"
            args.append(since)
        return [Game(r) for r in self.db.execute(q + " ORDER BY board_game, id", args)]

    def count(self):
        return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    # ---- boards and their health (docs/museum.md) ---------------------------------

    def board_synced(self, board, fw=None, now=None, commit=True):
        """Note a sync of ``board`` (its id) running firmware ``fw`` at ``now``."""
        at = (now or datetime.datetime.now()).isoformat(timespec="seconds")
        self.db.execute(
            "INSERT INTO boards (board, first_sync, last_sync, fw, syncs) VALUES (?,?,?,?,1)"
            " ON CONFLICT(board) DO UPDATE SET last_sync=excluded.last_sync,"
            " fw=COALESCE(excluded.fw, fw), syncs=syncs+1", (board, at, at, fw))
        if commit:
            self.db.commit()

    def add_health(self, board, counters, now=None, commit=True):
        """Store the health ``counters`` (dict: power_ups, wdt_resets, stuck, chatter,
        memory_errors, selftest, restarts, faults: ints, those missing 0; faulty: list of
        [sensor, kind]; tracebacks: list of [count, ms, text], the contained faults' kept)
        taken from ``board`` at ``now``. With ``commit`` False the caller commits (or
        rolls back) with the board's answer."""
        at = (now or datetime.datetime.now()).isoformat(timespec="seconds")
        self.db.execute(
            "INSERT INTO health (board, at, power_ups, wdt_resets, stuck, chatter, faulty,"
            " memory_errors, selftest, restarts, faults, tracebacks) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (board, at, int(counters.get("power_ups", 0)), int(counters.get("wdt_resets", 0)),
             int(counters.get("stuck", 0)), int(counters.get("chatter", 0)),
             json.dumps(counters.get("faulty", [])), int(counters.get("memory_errors", 0)),
             int(counters.get("selftest", 0)), int(counters.get("restarts", 0)),
             int(counters.get("faults", 0)), json.dumps(counters.get("tracebacks", []))))
        if commit:
            self.db.commit()

    def health(self, board):
        """Health totals of ``board``: dict of the counters summed over its syncs,
        ``faulty`` (the sensors reported faulty, [sensor, kind] in the order seen) and
        ``last_fault`` (the sync time of the last fault seen, or None), ``faults``
        (exceptions the app contained) and ``tracebacks`` (the last 4 kept, [count, ms,
        text] each, oldest first)."""
        out = {"power_ups": 0, "wdt_resets": 0, "stuck": 0, "chatter": 0, "memory_errors": 0, "selftest": 0,
               "restarts": 0, "faults": 0, "faulty": [], "tracebacks": [], "last_fault": None}
        for at, p, w, st, ch, faulty, me, se, rs, fa, tb in self.db.execute(
                "SELECT at, power_ups, wdt_resets, stuck, chatter, faulty, memory_errors, selftest, restarts,"
                " faults, tracebacks FROM health WHERE board=? ORDER BY at, id", (board,)):
            out["faults"] += fa
            out["tracebacks"] = (out["tracebacks"] + json.loads(tb))[-4:]
            out["power_ups"] += p
            out["wdt_resets"] += w
            out["stuck"] += st
            out["chatter"] += ch
            out["memory_errors"] += me
            out["selftest"] += se
            out["restarts"] += rs
            out["faulty"].extend(json.loads(faulty))
            if st or ch or se:
                out["last_fault"] = at
        return out

    def boards(self):
        """Every board the library has seen (a sync noted, or games from it), by id:
        dicts with ``board``, ``first_sync``, ``last_sync``, ``fw``, ``syncs``,
        ``games`` and ``health`` (:meth:`health`)."""
        rows = {}
        for b, first, last, fw, n in self.db.execute(
                "SELECT board, first_sync, last_sync, fw, syncs FROM boards"):
            rows[b] = {"board": b, "first_sync": first, "last_sync": last, "fw": fw, "syncs": n, "games": 0}
        for b, n, first, last in self.db.execute(
                "SELECT board, COUNT(*), MIN(synced_at), MAX(synced_at) FROM games GROUP BY board"):
            r = rows.setdefault(b, {"board": b, "first_sync": first, "last_sync": last, "fw": None,
                                    "syncs": None, "games": 0})
            r["games"] = n
            if r["last_sync"] is None or last > r["last_sync"]:
                r["last_sync"] = last
        for b in rows:
            rows[b]["health"] = self.health(b)
        return [rows[b] for b in sorted(rows)]
