"""Figures of the firmware under CircuitPython 10.2.1 on the emulated Pico (issue 36,
docs/pico.md "CircuitPython"), beside MicroPython's from bench/py_pico.py: the firmware
as .py on the CIRCUITPY drive (compiled into the heap at each start), the pico-matrix
wiring read row by row (``sensor.reader: "scan"``, as the CircuitPython tests read it by
default; the shipped boards' ``keypad`` reader runs in the emulator since the runner
wakes a masked sleep as the chip does, docs/pico.md "CircuitPython": its heap is about
0.5 KB less).

Reported: boot to the menu (emulated s: the link's first answer), free heap at the menu
and in play (``S {"heap": true}``, after a collection) for Tihbat and Toguz Kumalak
between two players and in demo (the engine at its top level, 9, on both sides), and the mean
frame time in play from the core's busy share over 3 idle emulated seconds (busy
time / frames at the scan's 100 Hz; CircuitPython's USB background work counts in
it: an upper bound). A game that does not begin (its state not play within 30
emulated s) reports 0 free heap. In the two-player Tihbat game, a move made on the
sensors (a pit's counters lifted: the move is read once the lift has held ``LIFT_MS``,
then sown) with a power cut every ``CUT_STEP_MS`` from the moment it is read to
``CUT_SPAN_MS`` after (``VirtualPico.power_cut``): how soon the move is kept on flash
(the first cut from which every image read back holds it, in its file on the drive or
the record's journal in ``microcontroller.nvm``, hw/nvm.py; MicroPython's figure beside
it: py_pico's "append one move record") and the flash work of its write (erases, page
programs, the core stalled). Then, on a second boot, bench/cp_probe.py as ``code.py``:
perft leaves/s and the top level's nodes/s per game (a middle game, 300 nodes), the
engine's own search and NativeSearch, both plain Python there. ``playboard_host.bench``
prints these beside MicroPython's (frozen image and ``.mpy``) in one table. No target: the figures say what fits. Where Node,
rp2040js, the CircuitPython image or mtools are absent, one line says so.
"""
import json
import os
import shutil
import sys
import time

import benchlib

GAMES = [("tihbat", "two"), ("toguz", "two"), ("toguz", "demo"), ("tihbat", "demo")]
TOP = 9  # Toguz Kumalak's and Tihbat's top level
CUT_STEP_MS = 10  # the power cuts after a move is read: one every 10 ms ...
CUT_SPAN_MS = 300  # ... up to this long after it


def main():
    from playboard_host import pico
    why = pico.unavailable()
    if not why:
        try:
            pico.circuitpython_uf2()
        except pico.PicoUnavailable as e:
            why = str(e)
    if not why and shutil.which("mformat") is None:
        why = "mtools not installed (apt-get install mtools)"
    if why:
        print("CircuitPython on the emulated Pico unavailable, no figures: %s" % why)
        return 0
    from playboard_host.circuitpython_stage import staged_sources
    from playboard_host.pico.circuitpy import build_drive
    from playboard_host.serial_link import BoardLink, LinkError, open_port
    files = staged_sources()
    with open(os.path.join(pico.ROOT, "firmware", "boards", "pico-matrix-cp.json")) as f:
        board = json.load(f)
    board["name"] = "pico-matrix-cp-scan"
    board["sensor"]["reader"] = "scan"
    files["boards/pico-matrix-cp-scan.json"] = json.dumps(board).encode()
    files["board.txt"] = b"pico-matrix-cp-scan"
    p = pico.circuitpython(build_drive(files), cfg=pico.matrix_config(), speed=0).start()
    try:
        p.set_closed(pico.toguz_pits())
        p.wait_for(lambda q: q.usb_up.is_set() and q.led_frames >= 2, 600, "boot")
        link = BoardLink(open_port(p.link_port, timeout=0.05), timeout=30)  # (usb_cdc.data)
        st = link.request("S", {"heap": True})
        benchlib.report("circuitpython: boot to the menu (link answers)", round(p.time_us / 1e6, 2), "s emulated")
        benchlib.report("circuitpython: free heap at the menu", st["heap_free"], "B")
        for game, mode in GAMES:
            try:
                one_game(p, link, game, mode)
                if (game, mode) == ("tihbat", "two"):
                    move_on_the_drive(p, link)
            except LinkError as e:  # (no answer, or a refusal)
                benchlib.report("circuitpython: %s %s: the link failed in play (%s)" % (game, mode, str(e)[:60]), 0, "B")
                break
        benchlib.report("circuitpython: watchdog resets", len(p.resets), "")
    finally:
        p.close()
    probe_figures(files)
    return 0


def probe_figures(files):
    """bench/cp_probe.py on CircuitPython: perft leaves/s and the top level's nodes/s."""
    from playboard_host.pico import run_code
    here = os.path.dirname(os.path.abspath(__file__))
    files = dict((k, v) for k, v in files.items() if k != "board.txt")
    for name in ("cp_probe.py", "benchlib.py"):
        with open(os.path.join(here, name), "rb") as f:
            files[name] = f.read()
    d, _ = run_code(files, b"import cp_probe\ncp_probe.main(300)\n")
    benchlib.report("circuitpython: free heap after the probe's imports (rules, engine)", d["heap"], "B")
    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        n, us = d["perft_%s_start" % name]
        benchlib.report("circuitpython: perft %s (%d leaves), leaves/s" % (name, n), n * 1000000 // max(us, 1), "/s")
    for name in ("toguz", "tobit", "tobit4", "tihbat"):
        rates = ["%d" % (d[k][2] * 1000000 // max(d[k][4], 1)) for k in ("search_%s_0" % name, "search_%s_1" % name)
                 if k in d]
        benchlib.report("circuitpython: engine %s, top level nodes/s (middle game, 300 nodes): its own search"
                        " / NativeSearch as Python" % name, " / ".join(rates), "/s")


def move_on_the_drive(p, link):
    """South's first move of the two-player Tihbat game in play, made on the sensors
    (every pit holding counters closed for 1 s, pit 1's lifted for 600 ms, then sown),
    with power cuts every ``CUT_STEP_MS`` from the move read (its lift held
    ``LIFT_MS``) to ``CUT_SPAN_MS`` after; reports how soon the move is kept (its file
    on the drive joined with the nvm journal, as the board does at power-up) and its
    write's flash work."""
    from playboard.board.layout import load_layout
    from playboard.board.mancala_tracker import LIFT_MS
    from playboard.games.registry import new_game
    from playboard.record.read import parse_game
    from playboard_host.boardflash import join_journal
    from playboard_host.pico.circuitpy import DRIVE_SECTORS, NVM_BYTES, NVM_OFFSET, SECTOR, list_drive, read_drive

    t_host = time.time()
    lay = load_layout("tihbat")
    g = new_game("tihbat")
    p.set_closed([lay.sensor_of(c) for c in range(4) if g.pos[c]], p.time_us + 100000)
    p.wait_emulated(1, 600)
    gid = link.request("S")["current"]
    t = p.time_us + 100000
    p.set_closed([lay.sensor_of(c) for c in range(1, 4) if g.pos[c]], t)  # pit 1 lifted
    g.push(0)
    p.set_closed([lay.sensor_of(c) for c in range(4) if g.pos[c]], t + 600000)  # sown
    read = t + LIFT_MS * 1000
    whole = (NVM_OFFSET, NVM_BYTES + DRIVE_SECTORS * SECTOR)  # the nvm journal, then the drive
    cuts = [(ms, p.power_cut(read + ms * 1000, *whole))
            for ms in range(0, CUT_SPAN_MS + 1, CUT_STEP_MS)]
    p.wait_for(lambda q: len(q.cuts) >= len(cuts), 600, "the power cuts")

    def plies(image):  # the game as the board puts it together at power-up: file + journal
        nvm, drive = image[:NVM_BYTES], image[NVM_BYTES:]
        names = list_drive(drive, "games")
        raw = None
        for k in "gs":
            if "%s%d.rec" % (k, gid) in names:
                raw = read_drive(drive, "games/%s%d.rec" % (k, gid))
        raw = join_journal(raw, gid, nvm, fat=True)
        return -1 if raw is None else parse_game(raw, gid).plies

    kept = [(ms, plies(p.flash(cut=k))) for ms, k in cuts]
    st = link.request("S")
    label = "circuitpython: a Tihbat move made on the sensors"
    if st.get("fen") != g.fen():
        benchlib.report(label + ": not played (the board's position %s)" % st.get("fen"), 0, "")
        return
    since = None  # the first cut from which on every one holds the move
    for ms, n in kept:
        if n >= 1 and since is None:
            since = ms
        elif n < 1:
            since = None
    benchlib.report(label + ": kept on flash (the nvm journal, hw/nvm.py), ms after it is read (its lift held %d ms; a power cut every %d ms)"
                    % (LIFT_MS, CUT_STEP_MS), since if since is not None else "not within %d ms" % CUT_SPAN_MS, "ms")
    first, last = p.cuts[cuts[0][1]], p.cuts[cuts[-1][1]]
    benchlib.report(label + ": its write's flash work in the %d ms after it is read: erases, page programs,"
                    " ms the core stalled" % CUT_SPAN_MS,
                    "%d / %d / %.1f" % (last[1] - first[1], last[2] - first[2], (last[3] - first[3]) / 1000.0), "")
    print("circuitpython: the move's power cuts: %.0f host s" % (time.time() - t_host), file=sys.stderr)


def one_game(p, link, game, mode):
    """Begin ``game`` in ``mode`` over the link and report its figures."""
    link.set_game(game=game, mode=mode, level=TOP, force=True)
    t_end = p.time_us + 30000000
    st = link.request("S", {"heap": True})
    while st["state"] != "play" and p.time_us < t_end:
        p.wait_emulated(0.5, 600)
        st = link.request("S", {"heap": True})
    label = "circuitpython: %s %s" % (game, "two players" if mode == "two" else "demo level %d" % TOP)
    if st["state"] != "play":
        benchlib.report(label + ": free heap in play (not begun: %s)" % st["state"], 0, "B")
        return
    t0, b0 = p.time_us, p.busy_us
    p.wait_emulated(3, 900)
    st = link.request("S", {"heap": True})
    benchlib.report(label + ": free heap in play", st["heap_free"], "B")
    frames = (p.time_us - t0) / 10000.0
    benchlib.report(label + ": mean frame (busy share)", round((p.busy_us - b0) / 1000.0 / frames, 2), "ms")
    benchlib.report(label + ": memory errors survived so far", st.get("memory_errors", 0), "")


if __name__ == "__main__":
    sys.exit(main())
