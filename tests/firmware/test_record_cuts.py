"""Power cuts at random moments of whole games on littlefs: no committed move lost.

A session of real games (seeded random games of each rules core, the texts from
``g.move_text``; a game finished, one synced by the host, one left unfinished)
is recorded by ``record.Store`` on littlefs (``os.VfsLfs2``, the board's file
system) over the record tests' block device that loses power at a given byte
(``fakeflash.RamFlash``). The power goes at a seeded random byte of the
session's writes; the board is switched on again and then every game on flash
must replay through its rules core: each finished game whole, the unfinished one
to its last committed move (or the one being written), a synced one whole; and
recording goes on. ``make test`` cuts at ``CUTS_IN_TESTS`` moments;
``make bench`` (bench/mp_power_cuts.py) at 1,000. MicroPython only (littlefs).
"""
import gc
import os

from coldkept import ColdKept
from fakeflash import PowerCut, RamFlash
from tlib import SkipTest, is_micropython

from playboard.record import Store
from playboard.record.read import read_game_file

MOUNT = "/pbcuts"
ROOT = MOUNT + "/games"
CUTS_IN_TESTS = 40
GAMES = ("toguz", "tobit4", "tihbat", "toguz")


def _random_games(plies=24, seed=5):
    """[(name, move texts)] of seeded random games of each core."""
    from playboard.games.registry import new_game
    out = []
    s = seed
    for name in GAMES:
        gc.collect()
        g = new_game(name)
        texts = []
        for _ in range(plies):
            ms = g.legal_moves()
            if not ms:
                break
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            m = ms[(s >> 8) % len(ms)]
            texts.append(g.move_text(m))
            g.push(m)
        out.append((name, texts))
        g = None
    return out


def _mount(flash, mkfs):
    bd = flash.device()
    if mkfs:
        os.VfsLfs2.mkfs(bd)
    os.mount(os.VfsLfs2(bd), MOUNT)


def _umount():
    try:
        os.umount(MOUNT)
    except OSError:
        pass


def _session(st, games, done):
    """Record the session; ``done``: [moves on flash per game, finished per game, synced]."""
    for k, (name, texts) in enumerate(games):
        gid = st.new_game(name, {"Round": str(k)})
        assert gid == k + 1
        for t in texts:
            assert st.add_move(t)
            done[0][k] += 1
        if k == len(games) - 1:
            break  # the last game is left unfinished (the board switched off in play)
        assert st.finish("1-0")
        done[1][k] = True
        if k == 1:
            assert st.ack(1)  # the host synced the first game
            done[2] = True


def _replay(name, moves):
    from playboard.games.registry import new_game
    g = new_game(name)
    for t in moves:
        g.push_text(t)  # raises if a move does not follow: a gap or a double
    return g.ply


def _check(st, games, done):
    """The flash after a cut against what the board had recorded; the moves lost."""
    lost = 0
    seen = {}
    for gid, name, size, fin, res in st.games():
        rec = st.read(gid)
        seen[gid] = rec
    for k, (name, texts) in enumerate(games):
        gid = k + 1
        rec = seen.get(gid)
        if k == 0 and (done[2] or (rec is None and done[1][1])):
            # synced (or being marked so when the power went): kept whole
            assert rec is None or not done[2]
            rec = read_game_file(st, gid, True, "s") if rec is None else rec
            assert rec.moves == texts and rec.finished
            continue
        if rec is None:  # never begun, or its header was being written
            assert done[0][k] == 0 and not done[1][k], (k, done)
            continue
        assert rec.name == name and rec.moves == texts[:len(rec.moves)]
        _replay(name, rec.moves)
        n = len(rec.moves)
        assert done[0][k] <= n <= done[0][k] + 1, (k, n, done)
        if done[1][k]:
            assert rec.finished and n == len(texts)
        lost += max(0, done[0][k] - n)
    return lost


def run_cuts(count, seed=1):
    """Cut the power at ``count`` random moments of the session; return (cuts, lost
    moves, sessions that finished before the cut, bytes written by the whole session)."""
    with ColdKept():  # (hundreds of stores: not compiled again each time)
        return _run_cuts(count, seed)


def _run_cuts(count, seed):
    games = _random_games()
    gc.collect()
    flash = RamFlash(96, 256)
    _mount(flash, True)
    try:
        st = Store(ROOT, date=None)
        _session(st, games, [[0] * len(games), [False] * len(games), False])
        st.close()
    finally:
        _umount()
    total = flash.written
    s = seed
    lost = 0
    whole = 0
    for i in range(count):
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        cut = (s >> 4) % total
        flash.cut_at = None
        flash.erase_all()
        _mount(flash, True)
        flash.written = 0
        flash.cut_at = cut
        flash.cut_exc = PowerCut("block device cut")  # (a fresh one: no traceback kept)
        done = [[0] * len(games), [False] * len(games), False]
        st = None
        try:
            st = Store(ROOT, date=None)
            _session(st, games, done)
            whole += 1
        except PowerCut:
            pass
        flash.view.kill()  # the dead board's open files close on a private copy
        st = None
        _umount()
        gc.collect()
        flash.cut_at = None
        _mount(flash, False)  # switched on again
        try:
            st = Store(ROOT, date=None)
            lost += _check(st, games, done)
            r = st.resume()
            if r is not None:
                texts = games[r.id - 1][1]
                if len(r.moves) < len(texts):
                    assert st.add_move(texts[len(r.moves)])  # recording goes on
            st.close()
        finally:
            _umount()
    return count, lost, whole, total


def test_power_cuts_at_random_moments_of_games_on_littlefs_lose_no_committed_move():
    if not is_micropython() or not hasattr(os, "VfsLfs2"):
        raise SkipTest("littlefs power cuts need MicroPython with VfsLfs2 (make bench: 1,000 cuts)")
    cuts, lost, whole, total = run_cuts(CUTS_IN_TESTS)
    assert cuts == CUTS_IN_TESTS and lost == 0 and total > 3000
    assert whole < cuts  # (the cuts fall inside the session)
