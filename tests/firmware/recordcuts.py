"""The record tests' power cut at every tick, shared by ``test_record_journal`` (the
journal on NOR flash, ``fakeflash.RamNor``) and ``test_record_nvm`` (on
CircuitPython's ``nvm``): a store's game ids, a scripted session of two games and what
it committed, the check of a store after a cut against that, and the loop that cuts a
session at every tick. ``uids`` serves the other store tests (test_record, test_link)."""
import gc

from coldkept import ColdKept
from fakeflash import PowerCut


def uids():
    """A ``Store``'s ``uid``: "u1", "u2", ... (the same on every run)."""
    n = [0]

    def uid():
        n[0] += 1
        return "u%d" % n[0]

    return uid


def move_list(n, seed=0):
    """``n`` move texts (Toguz Kumalak-like: "15", "21", ...), from ``seed`` on."""
    return ["%d%d" % ((i + seed) % 9 + 1, ((i + seed) * 5) % 9 + 1) for i in range(n)]


def session(st, log, n=24):
    """The scripted session on store ``st``: a Toguz Kumalak game of ``n`` moves with a
    takeback after the 11th, ended 1-0, then a Tihbat game of 6 moves left in play.
    ``log`` gets (game id, moves, finished) after each step that returned True (what
    is committed)."""
    gid = st.new_game("toguz", {"White": "Ann"})
    if gid is None:
        return
    moves = []
    log.append((gid, list(moves), False))
    for i, m in enumerate(move_list(n)):
        if st.add_move(m):
            moves.append(m)
            log.append((gid, list(moves), False))
        if i == 10 and st.undo():
            moves.pop()
            log.append((gid, list(moves), False))
    if st.finish("1-0", ""):
        log.append((gid, list(moves), True))
    gid = st.new_game("tihbat")
    moves = []
    log.append((gid, [], False))
    for m in move_list(6, 4):
        if st.add_move(m):
            moves.append(m)
            log.append((gid, list(moves), False))


def check_log(st, log, what, unbegun=False):
    """Every game on record in ``st`` is as ``log`` had it at the cut (the last step, or
    the one being made: on record or not); AssertionError naming ``what`` if not.
    ``unbegun``: a game begun with no move yet may be missing (nothing lost). Returns
    the resumed game (``st.resume()``)."""
    from playboard.record.read import read_game_file  # (cold: imported by its users only)
    done = {}
    for gid, moves, fin in log:
        done[gid] = (moves, fin)
    r = st.resume()
    for gid in done:
        moves, fin = done[gid]
        rec = read_game_file(st, gid, True)
        if unbegun and not moves and not fin and rec.name is None:
            continue
        assert rec.name is not None, (what, gid)
        if fin:
            assert rec.finished and rec.moves == moves, (what, gid, rec.moves, moves)
        else:
            assert rec.moves == moves or rec.moves == moves[:-1] or (
                rec.moves[:len(moves)] == moves and len(rec.moves) == len(moves) + 1), (
                what, gid, rec.moves, moves)
    return r


def every_cut(flash, run, check, step, garbage=0):
    """``run(fs, dev, log)`` on a fresh flash (``flash()``: a fakeflash file system and a
    journal device on its power supply) cut at every ``step``-th tick of the run's
    length (a cut leaving up to ``garbage`` stray bytes: ``FakeFs.cut``), the board
    switched on again and ``check(fs, dev, log, k)`` called (``log``: what the run
    committed before the cut at tick ``k``). Returns (the run's length in ticks, the
    cuts that happened, the checks that returned true)."""
    fs, dev = flash()
    run(fs, dev, [])  # its length in ticks, cut nowhere
    total = fs.power.ticks
    cuts = checked = 0
    with ColdKept():  # (hundreds of stores: not compiled again each time)
        for k in range(0, total, step):
            fs, dev = flash()
            fs.cut(k, garbage=garbage)
            log = []
            try:
                run(fs, dev, log)
            except PowerCut:
                cuts += 1
            fs.power_on()
            if check(fs, dev, log, k):
                checked += 1
            gc.collect()
    return total, cuts, checked
