"""`playboard sync`: pull the board's finished games into the library, then acknowledge them."""
import sys
import time

from playboard_host.cli import CommandError, add_library_argument
from playboard_host.library import Library, LibraryError
from playboard_host.serial_link import BoardError, BoardGone, LinkError, add_port_arguments, connect

HELP = "pull new games from the board into the library (each acknowledged only after it is stored)"


def add_arguments(p):
    add_port_arguments(p)
    add_library_argument(p)
    p.add_argument("--keep", action="store_true", help="store the games but leave them on the board")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def sync(link, board, lib, keep=False, progress=True, out=sys.stdout):
    """Pull every finished game from ``link`` into ``lib``; acknowledge each after its
    commit. Returns (new, already stored). A sync cut off anywhere can be run again:
    a game stored but not acknowledged is found by its uid and only acknowledged.
    A game with no move made and no result (``*``: a board switched on and a game
    chosen and left; firmware from before issue 34 kept them) is not a game: it is
    acknowledged and not stored, nor counted."""
    from tqdm import tqdm

    games = [g for g in link.list_games() if g["finished"]]
    new = old = 0
    bar = tqdm(total=sum(g["size"] for g in games), unit="B", unit_scale=True, desc="sync",
               disable=None if progress else True, file=sys.stderr, leave=False)
    try:
        for g in games:
            rec, raw = link.fetch_game(g["id"], bar.update)
            if rec.result == "*" and not rec.moves:
                pass
            elif lib.add(board, rec, raw):
                new += 1
            else:
                old += 1
            if not keep:
                link.ack(g["id"])
    finally:
        bar.close()
    return new, old


def sync_health(link, board, lib, fw=None, now=None):
    """Take the board's health counters into ``lib`` and note the sync of ``board``.
    The counters are stored and the board asked to take them back (``C`` with
    ``take``) in one library transaction: committed only once the board answered,
    so a sync cut off counts them at the next one instead. Returns the counters
    (None for a firmware without them)."""
    from playboard_host.serial_link import BoardError

    try:
        h = link.health()
    except BoardError as e:
        if e.code != "unknown":
            raise
        lib.board_synced(board, fw, now)  # a firmware from before the counters
        return None
    try:
        lib.add_health(board, h, now, commit=False)
        lib.board_synced(board, fw, now, commit=False)
        take = dict(h)
        take.pop("definition", None)  # (the board definition it runs: no counter)
        if "tracebacks" in take:  # (named, not sent back: the payload is small)
            take["tracebacks"] = [t[:2] for t in take["tracebacks"]]
        link.health(take=take)
    except BaseException:
        lib.db.rollback()
        raise
    lib.db.commit()
    return h


def health_line(board, h):
    """One line on what the board's counters say is wrong, or None when nothing is. The
    sensors named are the faulty entries the board keeps (its last 8): when the
    counters count more, the line says the list is cut."""
    if not h or not any(h.get(k) for k in ("stuck", "chatter", "wdt_resets", "memory_errors", "selftest", "faults")):
        return None
    parts = []
    for k, one, many in (("stuck", "stuck sensor", "stuck sensors"),
                         ("chatter", "chattering sensor", "chattering sensors"),
                         ("wdt_resets", "watchdog reset", "watchdog resets"),
                         ("memory_errors", "memory error", "memory errors"),
                         ("selftest", "sensor failing a self-test", "sensors failing a self-test"),
                         ("faults", "contained fault", "contained faults")):
        if h.get(k):
            parts.append("%d %s" % (h[k], one if h[k] == 1 else many))
    faulty = h.get("faulty", [])
    sensors = sorted({s for s, k in faulty})
    named = ""
    if sensors:
        named = " (sensor%s %s)" % ("" if len(sensors) == 1 else "s", ", ".join(str(s) for s in sensors))
        counted = sum(h.get(k) or 0 for k in ("stuck", "chatter", "selftest"))
        if counted > len(faulty):  # the board keeps only its last faulty entries
            named = " (the last %d kept: sensor%s %s)" % (
                len(faulty), "" if len(sensors) == 1 else "s", ", ".join(str(s) for s in sensors))
    return "board %s: %s since the last sync%s (playboard boards)" % (board, ", ".join(parts), named)


AGAIN_S = 1.0  # the pause before a sync refused for memory is run again (s)


def session(args, lib):
    """One link session of :func:`run`: (status, new, old, health, problems, hello)."""
    link, hello = connect(args)
    try:
        st = link.status()
        new, old = sync(link, hello["board"], lib, args.keep, not args.quiet)
        h = sync_health(link, hello["board"], lib, hello.get("fw"))
        problems = link.problems()  # (after the counters: reading them may add one)
        if st.get("dropped"):
            print("warning: the board dropped games %s before they were synced (flash was short)"
                  % ", ".join(str(i) for i in st["dropped"]), file=sys.stderr)
    finally:
        link.close()
    return st, new, old, h, problems, hello


def run(args):
    try:
        lib = Library(args.library)
    except LibraryError as e:
        raise CommandError(str(e))
    try:
        for attempt in (1, 2):
            try:
                st, new, old, h, problems, hello = session(args, lib)
                break
            except BoardError as e:
                # a board short of heap refuses a request ("memory"); nothing is lost
                # (a game is acknowledged only once stored) and a new session (its
                # hello makes room on the board) usually fits: asked again once
                if e.code != "memory" or attempt == 2:
                    raise
                print("the board was short of memory (%s): syncing again" % e, file=sys.stderr)
                time.sleep(AGAIN_S)
    except BoardGone as e:
        raise CommandError("%s; every game stored before stays in %s and the board keeps the rest: plug it "
                           "in again and run playboard sync" % (e, lib.path))
    except LinkError as e:
        raise CommandError(str(e))
    finally:
        lib.close()
    print("synced %d new game%s%s; library %s" % (
        new, "" if new == 1 else "s", " (%d already stored)" % old if old else "", lib.path))
    for p in problems:  # what the board's store found wrong on flash (request P)
        print("board %s: %s" % (hello["board"], p))
    line = health_line(hello["board"], h)
    if line:
        print(line)
    if st.get("current") is not None:
        print("game %d is still being played: it is synced once it ends" % st["current"])
    return 0
