"""Results taken by several processes at once (issue 32): two ``playboard`` processes (or
two hall threads, each with its own connection) taking an event's results from the
library while the arbiter corrects the same pairing. ``take_results`` reads the pairings
inside its ``BEGIN IMMEDIATE`` transaction and ``set_result`` reads the pairing inside
its own, so whichever comes first, the arbiter's correction stands (flagged against the
board's result) and the board's game is taken once."""
import datetime
import multiprocessing
import time

from playboard.games.registry import new_game
from playboard.record.codec import encode_record
from playboard.record.read import parse_game
from playboard_host.library import Library
from playboard_host.tournament.event import Event
from playboard_host.tournament.results import pairing_tags, take_results

RUNS = 60
REASON = "the arbiter saw Black win on time"


def _moves(n=40):
    """The first ``n`` moves of a Toguz Kumalak game (each side's first legal pit in turn):
    a record the take replays for the kazans, as a real game's."""
    g = new_game("toguz")
    out = []
    for _ in range(n):
        m = g.legal_moves()[0]
        out.append(g.move_text(m))
        g.push(m)
    return out


def _library(path):
    """A library with event Race (Aru - Bek on board 1) and the board's game carrying the
    pairing synced: White won (1-0) by the board; returns the game's library id."""
    lib = Library(path)
    e = Event.create(lib, "Race", "toguz", boards=["1=b-one"])
    e.add_entrant("Aru")
    e.add_entrant("Bek")
    e.pair_next()
    data = encode_record(0x47, "toguz\x00b-one-1\x00")
    for k, v in pairing_tags(e, e.find_pairing(1, "1")).items():
        data += encode_record(0x54, k + "\x00" + v)
    for m in _moves():
        data += encode_record(0x4D, m)
    data += encode_record(0x45, "1-0\x00resign")
    lib.add("b-one", parse_game(data, 1), data, datetime.datetime.now() + datetime.timedelta(seconds=1))
    gid = lib.games()[0].id
    lib.close()
    return gid


def _worker(role, paths, barrier, out):
    """Run ``role`` ("take" or "correct") once on each library of ``paths``, every run
    begun with the others at ``barrier``; one side waits a few ms first, in turn, so
    that both orders come up. Puts (role, run, lines or the error) on ``out``."""
    for i, path in enumerate(paths):
        barrier.wait()
        delay = (i % 7) / 1000.0
        if (role == "correct") == (i % 2 == 0):
            time.sleep(delay)
        try:
            lib = Library(path)
            try:
                e = Event(lib, "Race")
                if role == "take":
                    lines = take_results(e, lib)
                else:
                    e.set_result(1, "1", "0-1", REASON)
                    lines = []
            finally:
                lib.close()
            out.put((role, i, lines))
        except Exception as err:  # said to the test, which fails with it
            out.put((role, i, "%s: %s" % (type(err).__name__, err)))


def test_the_arbiters_correction_always_wins_over_takes_in_other_processes(tmp_path):
    paths = [str(tmp_path / ("lib-%d.sqlite" % i)) for i in range(RUNS)]
    gids = [_library(p) for p in paths]
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    barrier = ctx.Barrier(3, timeout=60)
    out = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(role, paths, barrier, out)) for role in ("take", "take", "correct")]
    for p in procs:
        p.start()
    got = [out.get(timeout=120) for _ in range(3 * RUNS)]
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    errors = [g for g in got if isinstance(g[2], str)]
    assert errors == []
    orders = {"taken first": 0, "corrected first": 0}
    for i, path in enumerate(paths):
        lib = Library(path)
        try:
            e = Event(lib, "Race")
            (p,) = e.pairings()
            # the correction stands, flagged against the board's game, which is taken once
            assert (p.result, p.source, p.library_game) == ("0-1", "hand", gids[i]), i
            # (by the correction, with its reason, or by the take, with the game)
            assert p.flag in ("the result by hand, Bek won (0-1), differs from the board's, Aru won (1-0) (%s)" % REASON,
                              "the result by hand, Bek won (0-1), differs from the board's game %d, Aru won (1-0)"
                              % gids[i]), (i, p.flag)
            assert [c[3:6] for c in e.corrections()] in ([("1-0", "0-1", REASON)], [(None, "0-1", REASON)]), i
            assert lib.db.execute("SELECT COUNT(*) FROM pairings WHERE library_game=?", (gids[i],)).fetchone()[0] == 1
            # nothing taken twice: one of the two takes took the game, the other saw it taken
            lines = [ln for role, run, ls in got if run == i and role == "take" for ln in ls]
            assert len(lines) == 1, (i, lines)
            if lines[0] == "round 1 table 1 on board 1: Aru - Bek: Aru won (1-0, game %d)" % gids[i]:
                orders["taken first"] += 1
            else:
                assert lines[0] == ("round 1 table 1 on board 1: FLAG the result by hand, Bek won (0-1), differs from"
                                    " the board's game %d, Aru won (1-0): hand result kept" % gids[i]), (i, lines)
                orders["corrected first"] += 1
            # collected again: nothing changes
            assert take_results(e, lib) == [] and e.pairings()[0].result == "0-1"
        finally:
            lib.close()
    # the runs raced both ways (the waits in turn): each order was met and came out right
    assert orders["taken first"] >= 1 and orders["corrected first"] >= 1, orders


def _pairer(paths, barrier, out):
    """``tournament pair`` on each library of ``paths``, begun with another process at ``barrier``."""
    from playboard_host.tournament.event import TournamentError
    for i, path in enumerate(paths):
        barrier.wait()
        lib = Library(path)
        try:
            r, ps = Event(lib, "Twice").pair_next()
            out.put((i, "round %d: %d tables" % (r, len(ps))))
        except TournamentError as err:
            out.put((i, str(err)))
        except Exception as err:  # said to the test, which fails with it
            out.put((i, "%s: %s" % (type(err).__name__, err)))
        finally:
            lib.close()


def test_two_pair_commands_at_once_pair_the_round_once(tmp_path):
    paths = [str(tmp_path / ("pair-%d.sqlite" % i)) for i in range(RUNS // 3)]
    for path in paths:
        lib = Library(path)
        e = Event.create(lib, "Twice", "toguz", boards=["1=b-one", "2=b-two"])
        for n in ("Aru", "Bek", "Dina", "Erlan"):
            e.add_entrant(n)
        lib.close()
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    barrier = ctx.Barrier(2, timeout=60)
    out = ctx.Queue()
    procs = [ctx.Process(target=_pairer, args=(paths, barrier, out)) for _ in range(2)]
    for p in procs:
        p.start()
    got = [out.get(timeout=120) for _ in range(2 * len(paths))]
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    for i, path in enumerate(paths):
        said = sorted(text for run, text in got if run == i)
        # one paired round 1; the other, after it, found round 1 without results
        assert said == ["round 1 still lacks results; pair the next one when it is complete",
                        "round 1: 2 tables"], (i, said)
        lib = Library(path)
        ps = Event(lib, "Twice").pairings()
        assert [(p.round, p.match, p.board) for p in ps] == [(1, "1", "1"), (1, "2", "2")], i
        lib.close()
