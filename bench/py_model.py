"""The simulator's model against the product: the firmware's heap in play against the
engine at each game's top level (bench/heap_probe.py, the same script on both), on the
model every simulated board and test runs (build/micropython-board: the unix port
built 32-bit with the firmware frozen in, ``-X heapsize=MODEL_HEAP``) and on the frozen
RPI_PICO image (build/playboard-pico.uf2, ``make uf2``) on the emulated Pico, side by
side (docs/simulator.md, "The model").

Both boards hold 200 games on flash (``GAMES_ON_FLASH`` finished Toguz Kumalak games of
60 plies, not yet synced: every one listed) and the record's journal, and the link is
used in each game (a status, a page of the list, a fetch).

Targets (issue 30): at the worst moment of each game (begun, the link used, the engine's
search done with its buffers kept) >= 96 KB free and a largest block >= 48 KB, on both;
the model's free heap within 10% of the image's. Where the model, Node/rp2040js or the
image is absent, one line says so and the figures of what is there are reported.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import benchlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
GAMES = ("toguz", "tobit", "tobit4", "tihbat")
GAMES_ON_FLASH = 200
PLIES = 60


def games_on_flash(n=GAMES_ON_FLASH, plies=PLIES):
    """{"heapprobe/g<id>.rec": bytes} of ``n`` finished Toguz Kumalak games of up to
    ``plies`` seeded random plies each, written as the board's store writes them
    (``playboard.record``: header, tags, moves, end)."""
    import random
    from playboard.games.registry import new_game
    from playboard.record.codec import encode_record
    rng = random.Random(30)
    out = {}
    for gid in range(1, n + 1):
        g = new_game("toguz")
        recs = [encode_record(0x47, "toguz\x00u%06d\x00" % gid)]  # G
        for k, v in (("White", "Player"), ("Black", "Playboard L9"), ("Mode", "white"), ("Level", "9")):
            recs.append(encode_record(0x54, k + "\x00" + v))  # T
        while g.ply < plies and not g.is_game_over():
            m = rng.choice(g.legal_moves())
            recs.append(encode_record(0x4D, g.move_text(m)))  # M
            g.push(m)
        recs.append(encode_record(0x45, "%s\x00" % ("1-0" if gid % 2 else "0-1")))  # E
        out["heapprobe/g%d.rec" % gid] = b"".join(bytes(r) for r in recs)
    return out


def run_model():
    """The probe's figures on the model (dict), or None (a line printed)."""
    sys.path.insert(0, os.path.join(ROOT, "host_tools"))
    from playboard_host.simboard import MODEL_HEAP, SimError, model_binary
    try:
        exe = model_binary()
    except SimError as e:
        exe = None
        print(str(e))
    if exe is None:
        print("no simulator's model (make setup builds build/micropython-board): no model figures")
        return None
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "heapprobe"))
        for path, data in games_on_flash().items():
            with open(os.path.join(tmp, path), "wb") as f:
                f.write(data)
        r = subprocess.run([exe, "-X", "heapsize=" + MODEL_HEAP, os.path.join(HERE, "heap_probe.py")],
                           cwd=tmp, capture_output=True, text=True, timeout=600,
                           env=dict(os.environ, MICROPYPATH=".frozen"))
    line = [ln[5:] for ln in r.stdout.splitlines() if ln.startswith("HEAP ")]
    if not line:
        print("the probe failed on the model:\n" + (r.stdout + r.stderr)[-2000:])
        return None
    return json.loads(line[0])


def run_pico():
    """The probe's figures on the frozen image on the emulated Pico (dict), or None."""
    from playboard_host import pico
    why = pico.unavailable()
    if why:
        print("virtual Pico unavailable, no image figures: %s" % why)
        return None
    try:
        uf2 = pico.frozen_uf2()
    except pico.PicoUnavailable as e:
        print(str(e))
        return None
    files = {"board.txt": b"pico-matrix"}
    files.update(games_on_flash())
    for name in ("heap_probe.py", "benchlib.py"):
        with open(os.path.join(HERE, name), "rb") as f:
            files[name] = f.read()
    t0 = time.time()
    with pico.VirtualPico(pico.build_fs_image([], files), pico.matrix_config(), uf2=uf2, speed=0) as p:
        p.power_up(pico.toguz_pits())
        for _ in range(2):  # the app stops (Ctrl-C), then a fresh prompt
            start = len(p.output)
            p.write(b"\x03")
            p.wait_output(b">>> ", 120, start)
        start = len(p.output)
        p.write(b"import heap_probe\r")
        end = p.wait_output(b"\r\n>>> ", 3600, start)
        text = p.output[start:end].decode(errors="replace")
    print("emulated Pico heap probe: %.0f host s" % (time.time() - t0), file=sys.stderr)
    line = [ln[5:] for ln in text.splitlines() if ln.startswith("HEAP ")]
    if not line:
        print("the probe failed on the emulated Pico:\n" + text[-2000:])
        return None
    return json.loads(line[0])


def worst(d, name):
    """(free, largest block) at the worst moment of game ``name``: the least of each."""
    steps = [d[name][k] for k in ("begun", "status", "searched")]
    return min(s[0] for s in steps), min(s[1] for s in steps)


def main():
    sys.path.insert(0, os.path.join(ROOT, "host_tools"))
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    model = run_model()
    chip = run_pico()
    for label, d in (("model", model), ("image", chip)):
        if d is None:
            continue
        benchlib.report("heap %s: the heap (free + used, after the probe's import)" % label,
                        d["total"] // 1024, "KB")
        benchlib.report("heap %s: Tobit's native search loaded (as a frozen board does)" % label,
                        "yes" if d["native"] else "no", "", "yes", bool(d["native"]))
        benchlib.report("heap %s: games on flash during the probe (the record's journal: %s)"
                        % (label, "yes" if d.get("journal") else "no"), d.get("games", 0), "games",
                        ">= %d" % GAMES_ON_FLASH, d.get("games", 0) >= GAMES_ON_FLASH)
    for name in GAMES:
        for label, d in (("model", model), ("image", chip)):
            if d is None:
                continue
            free, block = worst(d, name)
            g = d[name]
            ok = g["nodes"] > 0 and g["memory_errors"] == 0 and g.get("replies") == "slf"
            benchlib.report("heap %s: %s v engine level %d: free at the worst moment" % (label, name, g["level"]),
                            free // 1024, "KB", ">= 96 KB", ok and free >= 96 * 1024)
            benchlib.report("heap %s: %s v engine level %d: largest block at the worst moment"
                            % (label, name, g["level"]), block // 1024, "KB", ">= 48 KB",
                            ok and block >= 48 * 1024)
        if model is not None and chip is not None:
            fm, bm = worst(model, name)
            fc, bc = worst(chip, name)
            diff = (fm - fc) * 100.0 / fc
            benchlib.report("heap model v image: %s: free %d / %d KB, block %d / %d KB: free differs by"
                            % (name, fm // 1024, fc // 1024, bm // 1024, bc // 1024),
                            round(diff, 1), "%", "within 10%", abs(diff) <= 10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
