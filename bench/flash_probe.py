"""A 300-move game written to the record on the emulated Pico's flash (run there by
bench/py_pico_flash.py at the REPL, in three steps so the emulator's erase counters
can be read between them): ``begin()`` opens the store as the app does and starts a
game, ``moves()`` appends 300 moves timing each (us, on the chip's clock: a flash
erase or program stalls it), ``end()`` finishes the game. Each prints one line
``FLASHP {json}``.
"""
import json
import time

from playboard import record

_st = None


def _say(d):
    print("FLASHP " + json.dumps(d))


def begin():
    """Open the store (``/games``, as main.py does) and start a game; its times (us)."""
    global _st
    t0 = time.ticks_us()
    from playboard.record.journal import find
    _st = record.Store("/games", journal=find())  # (as main.py opens it)
    t1 = time.ticks_us()
    _st.new_game("toguz", {"White": "Ann", "Black": "Playboard L3"})
    t2 = time.ticks_us()
    _say({"open": time.ticks_diff(t1, t0), "new_game": time.ticks_diff(t2, t1),
          "journal": getattr(_st, "journal", None) is not None})


def moves(n=300):
    """Append ``n`` moves; each one's write time (us), in order."""
    ts = []
    for i in range(n):
        t0 = time.ticks_us()
        ok = _st.add_move("%d%d" % (i % 9 + 1, (i * 5) % 9 + 1))
        ts.append(time.ticks_diff(time.ticks_us(), t0) if ok else -1)
    _say({"moves": ts})


def end():
    """Finish the game (the result written, the game put away): its time (us)."""
    t0 = time.ticks_us()
    ok = _st.finish("1-0", "")
    t1 = time.ticks_us()
    _st.close()
    _say({"finish": time.ticks_diff(t1, t0), "ok": ok, "count": _st.count})
