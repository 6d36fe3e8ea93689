"""record.py with the real rules cores: every game resumes to its committed position.

A seeded random game of each rules core is recorded move by move (the texts from
``g.move_text``) on a fake flash that loses power at every 7th write tick; the
restarted store's move texts, parsed back by the same core, must give the
position after the last committed move (or the one being written). A module of
its own: the cores' code needs the MicroPython heap that test_record's fakes use.
"""
import gc

from fakeflash import FakeFs, PowerCut
from tlib import SkipTest, is_micropython

from playboard.record import Store


def _store(fs):
    n = [0]

    def uid():
        n[0] += 1
        return "u%d" % n[0]

    return Store("/games", fs=fs, uid=uid)


def _play_random(g, plies, seed):
    """(move texts, fen after each ply) of a seeded random game played on ``g``."""
    texts, fens = [], [g.fen()]
    s = seed
    for _ in range(plies):
        ms = g.legal_moves()
        if not ms:
            break
        s = (s * 1103515245 + 12345) & 0x7FFFFFFF
        m = ms[(s >> 8) % len(ms)]
        texts.append(g.move_text(m))
        g.push(m)
        fens.append(g.fen())
    return texts, fens


def test_every_game_resumes_to_the_committed_position_after_cuts():
    try:
        from playboard.games.registry import new_game
    except ImportError:
        raise SkipTest("rules cores not there yet")
    mp = is_micropython()
    for k, name in enumerate(("toguz", "tobit", "tobit4", "tihbat")):
        g = None
        if mp:
            gc.collect()
        g = new_game(name)
        texts, fens = _play_random(g, 30, 17 + k)
        assert len(texts) >= 10
        cut = 5
        while True:
            if mp:  # (a collection is slow under CPython and not needed there)
                gc.collect()
            fs = FakeFs()
            fs.cut(cut, 3)
            committed = 0
            try:
                st = _store(fs)
                st.new_game(name, {"Mode": "two"})
                for t in texts:
                    assert st.add_move(t)
                    committed += 1
                st.finish("*")
                break  # the cut came after the end: done
            except PowerCut:
                pass
            fs.power_on()
            r = _store(fs).resume()
            if r is None:  # cut before the header was whole
                assert committed == 0
            else:
                assert len(r.moves) in (committed, committed + 1), (name, cut)
                assert r.name == name and r.fen is None
                g.set_fen(fens[0])
                for t in r.moves:
                    g.push_text(t)  # the same text, parsed by the rules core
                assert g.fen() == fens[len(r.moves)]
            cut += 7
