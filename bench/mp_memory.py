"""The heap under pressure: every game x mode at its top level (9; Tobit's 11) with 200 games on flash, and
200 games back to back in one power-on session (the simulator's model: the chip's heap).

Run by ``make bench`` on the simulator's model (``build/micropython-board``: the firmware
frozen in, its code in ROM as on the RP2040). The firmware runs in its own
``build/micropython-board -X heapsize=242k -m main`` on a flash folder holding 200 finished
games (100 synced, 100 not), driven by a command file on its control channel
(docs/simulator.md), with ``watch`` on (a collection after every frame):

- for each game x mode at its top level (Tobit: a spectator makes the engine's moves):
  the game must start; the least free heap seen (the heap less its peak: all data, the
  code is in ROM) against 96 KB, and the smallest "largest free block" seen against 48 KB;
- 200 games started one after the other (each abandoned by the next after a few
  moves), every game and mode in turn: the heap after each (collected) must stay
  within 2 KB of the first game's.
"""
import os

from benchlib import report  # noqa: E402

MP = "build/micropython-board"  # (make setup; bench.py checked it is fresh)
HEAP = "242k"  # playboard_host.simboard.MODEL_HEAP

TMP = "/tmp/pb-bench-memory" + os.getcwd().replace("/", "-")  # one per checkout
GAMES = ("toguz", "tobit", "tobit4", "tihbat")
TOP = (9, 11, 11, 9)  # each game's top level (playboard.app.ui.offered)
MODES = ("two", "white", "black", "demo")
ON_FLASH = 200
SESSION = 200


FILL = """
from playboard.record import Store
st = Store("%s", date=None)
for i in range(%d):
    st.new_game("toguz", {"Event": "bench", "Round": str(i)})
    for k in range(40):
        st.add_move("%%d%%d" %% (k %% 9 + 1, (k * 7 + i) %% 9 + 1))
    st.finish("1-0", "kazan")
    if i < %d:
        st.ack(i + 1)
st.close()
print(st.count, st.synced)
"""


def fill_flash(root):
    """Write ``ON_FLASH`` finished games of 40 moves into folder ``root`` (in a process of
    its own), the oldest half acknowledged (synced); (unsynced, synced) counts."""
    with open(TMP + "/fill.py", "w") as f:
        f.write(FILL % (root, ON_FLASH, ON_FLASH // 2))
    os.system("MICROPYPATH=.frozen %s -X heapsize=%s %s/fill.py > %s/fill.out" % (MP, HEAP, TMP, TMP))
    with open(TMP + "/fill.out") as f:
        a, b = f.read().split()
    return int(a), int(b)


def run(script, flash, keep=None):
    """Run the firmware on the command ``script`` (lines, any iterable); its JSON replies,
    each passed through ``keep`` (None: left out) when given."""
    import json
    with open(TMP + "/ctl", "w") as f:
        for line in script:
            f.write(line + "\n")
        f.write("quit\n")
    code = os.system("MICROPYPATH=.frozen %s -X heapsize=%s -m main --ctl 3,4 --clock virtual --flash %s "
                     "--no-link 3<%s/ctl 4>%s/out 2>%s/err" % (MP, HEAP, flash, TMP, TMP, TMP))
    out = []
    with open(TMP + "/out") as f:
        for line in f:
            d = json.loads(line)
            d = keep(d) if keep else d
            if d is not None:
                out.append(d)
    return code, out


def session_lines():
    """The 200-game session's commands: every game and mode in turn, levels 1-3."""
    yield "events off"
    yield "auto"
    for i in range(SESSION):
        for line in game_lines(GAMES[i % len(GAMES)], MODES[(i // len(GAMES)) % len(MODES)],
                               1 + (i % 16) % 3, 1):  # a game and mode: always one level
            yield line
        yield "status"
        yield "mem"


def game_lines(game, mode, level, advs):
    lines = ["game %s %s %d" % (game, mode, level)]
    if game in ("tobit", "tobit4"):
        lines.append("setup")
    lines += ["adv 5000"] * advs
    return lines


def main():
    os.system("rm -rf %s && mkdir -p %s/flash" % (TMP, TMP))
    unsynced, synced = fill_flash(TMP + "/flash/games")
    os.system("cp -r %s/flash %s/flash2" % (TMP, TMP))
    # every game x mode at its top level, each from a fresh start (switched on with 200 games on flash)
    stats = []
    mems = []
    for game in GAMES:
        for mode in MODES:
            os.system("rm -rf %s/flash1 && cp -r %s/flash %s/flash1" % (TMP, TMP, TMP))
            script = ["events off", "auto", "watch"] + game_lines(game, mode, TOP[GAMES.index(game)], 4 if mode == "demo" else 2)
            code, out = run(script + ["status", "mem"], TMP + "/flash1")
            st = [(d.get("game"), d.get("state"), d.get("ply", 0)) for d in out if "state" in d]
            mm = [(d["peak"], d["peak_modules"], d["min_block"]) for d in out if "peak" in d]
            stats.append(st[-1] if st else (None, "failed (%r)" % code, 0))
            mems.append(mm[-1] if mm else (0, [], 0))
            out = script = None
    # 200 games back to back in one session
    code2, out = run(session_lines(), TMP + "/flash2",
                     lambda d: d["alloc"] if "alloc" in d else (-1 if d.get("state") in (
                         "setup", "play", "over") else None))
    allocs = [a for a in out if a >= 0]
    begun = sum(1 for a in out if a < 0)
    out = None
    total = _heap_total()
    started = 0
    for i in range(len(mems)):
        game = GAMES[i // len(MODES)]
        mode = MODES[i % len(MODES)]
        name, state, ply = stats[i]
        started += name == game and state in ("setup", "play", "over")
        peak, modules, block = mems[i]
        free = total - peak
        label = "%s %s L%d, %d games on flash (ply %d)" % (game, mode, TOP[GAMES.index(game)],
                                                          unsynced + synced, ply)
        report("least free heap (model): " + label, round(free / 1024, 1), "KB", ">= 96 KB",
               peak > 0 and free >= 96 * 1024, None)
        report("smallest largest-free-block (model): " + label, round(block / 1024, 1), "KB",
               ">= 48 KB", block >= 48 * 1024, None)
    report("games x modes started at the top level with %d games on flash (%d synced)" % (
        unsynced + synced, synced), started, "of %d" % len(mems), "all", started == len(mems), None)
    report("games started of %d back to back in one session (all games and modes)" % SESSION, begun,
           "games", "all", begun == SESSION, None)
    if code2 or len(allocs) != SESSION:
        print("the 200-game run failed (%r, %d games); see %s/err" % (code2, len(allocs), TMP))
        return
    # the same game and mode come round every 16 games: compare like with like
    spread = 0
    for j in range(16):
        xs = allocs[16 + j::16]
        spread = max(spread, max(xs) - min(xs))
    # (from the second round: the first loads each game's code for the first time and
    # interns its names, kept for ever by MicroPython, in flash on the board)
    growth = sum(allocs[-16:]) // 16 - sum(allocs[16:32]) // 16
    report("heap after each of %d games back to back, spread per game x mode" % SESSION, spread,
           "bytes", "<= 2048", spread <= 2048, None)
    report("heap after the last 16 games minus after games 17-32 (growth)", growth, "bytes",
           "<= 2048", growth <= 2048, None)
    os.system("rm -rf %s" % TMP)


def _heap_total():
    """The model's GC heap in bytes (free + used at a fresh start)."""
    os.system("%s -X heapsize=%s -c 'import gc; print(gc.mem_free() + gc.mem_alloc())' > %s/total.out"
              % (MP, HEAP, TMP))
    with open(TMP + "/total.out") as f:
        return int(f.read())


if __name__ == "__main__":
    main()
