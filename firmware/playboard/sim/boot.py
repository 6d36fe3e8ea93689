"""Start-up of the firmware on the simulated board (``playboard.sim.bridge.run``): read the
options, build the board, the flash, the store, the app and the bridge. Dropped once
the bridge runs, so that its code leaves the heap.
"""
import sys
import time

from playboard.compat import unload


def _opts(argv):
    o = {"board": "sim", "flash": "sim-flash", "image": None, "blocks": 64, "ctl": None,
         "clock": None, "think": None, "link": True, "id": None, "sensors": None,
         "journal": "4", "seed": None}  # (the journal: the product board's 16 KB)
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--no-link":
            o["link"] = False
            i += 1
            continue
        if not a.startswith("--") or i + 1 >= len(argv) or a[2:] not in o:
            raise SystemExit("main.py: unknown option %r (see playboard/sim/bridge.py)" % a)
        o[a[2:]] = argv[i + 1]
        i += 2
    return o


def start(argv, bridge_class):
    """Build the board, flash, store, app and ``bridge_class`` (the caller's
    :class:`playboard.sim.bridge.Bridge`: this module never imports it) from the
    command-line options ``argv``; light the first frame and return the bridge."""
    if argv is None:
        argv = sys.argv[1:]
    o = _opts(argv)
    t0 = time.ticks_us()
    from playboard.sim.standin import load_stand_in
    from playboard.sim.open import open_board

    # (a hardware board's definition: the simulated board stands in for its hardware)
    cfg = load_stand_in(o["board"])  # the app checks the layout
    del load_stand_in
    unload("playboard.sim.standin")
    unload("playboard.config")  # start-up only: give its heap back
    import os
    bdev = None
    if o["image"]:
        from playboard.sim.flash import mount_image
        bdev = mount_image(o["image"], int(o["blocks"]))
        folder = "/flash"
    else:
        try:
            os.mkdir(o["flash"])
        except OSError:
            pass
        folder = o["flash"]
    root = folder + "/games"
    s = cfg["sensor"]
    if s["kind"] == "sim_hall" and s["calibration"][:1] != "/":
        s["calibration"] = folder + "/" + s["calibration"]  # on the board's flash, as "/" is
    hw = open_board(cfg)
    s = o["sensors"]
    if s:  # (the pieces standing as the board comes up again: a restart; no new name)
        hw.set_all([int(s[i:i + 2], 16) for i in range(0, len(s), 2)])
    hw.fill(0, 0, 24)  # the board lights at once
    hw.show()
    lit_us = time.ticks_diff(time.ticks_us(), t0)
    from playboard.app.startup import read_layouts
    layouts = read_layouts(cfg, hw)  # first, while the heap is nearly empty
    unload("playboard.app.startup")
    from playboard.app.loop import App
    journal = None
    if int(o["journal"]):  # the record's journal (4 KB sectors; 0: none, files only)
        from playboard.sim.flash import NorFile
        from playboard.record.journal import Journal
        path = o["image"] + ".journal" if o["image"] else o["flash"] + "/journal"
        journal = Journal(NorFile(path, int(o["journal"]), bdev))
    from playboard.record import Store
    store = Store(root, journal=journal)
    ctl_in = ctl_out = None
    if o["ctl"]:
        a, b = o["ctl"].split(",")
        ctl_in = open(int(a), "rb")
        ctl_out = open(int(b), "wb")
    virtual = (o["clock"] or ("virtual" if ctl_in is not None else "real")) == "virtual"
    transport = None
    if o["link"]:
        from playboard.hw.stdio import StdioTransport
        transport = StdioTransport()
    think = o["think"] or ("nodes" if virtual else "ms")
    seed = o["seed"]  # the engine's seeds: replayable (the fuzz's seed), or the board's own
    app = App(hw, cfg, store, transport=transport, think=think, layouts=layouts,
              seed=None if seed is None else int(seed))
    if o["id"]:
        app.board_id = o["id"]  # several simulated boards told apart (a hall)
    del layouts
    br = bridge_class(app, ctl_in, ctl_out, virtual, bdev)
    app.clock = br.clock  # nothing of this module may stay referenced: it is dropped
    app.start(br.clock())
    while app._pending is not None:  # a resumed game, all its steps (gamestart.begin)
        app.begin_pending(br.clock())  # before "ready", as the bridge's game command does
    app.frame(br.clock())  # the menu or the resumed game lit
    boot_us = time.ticks_diff(time.ticks_us(), t0)
    br.reply({"ok": True, "ready": True, "t": br.clock(), "n_leds": hw.n_leds,
              "n_sensors": hw.n_sensors, "report": store.report,
              "lit_ms": lit_us // 1000, "boot_ms": boot_us // 1000, "lit_us": lit_us, "boot_us": boot_us})
    return br
