"""The firmware's start on a board (rp2): what ``firmware/main.py`` runs off the unix port.

:func:`run`: the board definition named in ``/board.txt`` (default ``pico-matrix``) is
loaded from ``/boards``, the hardware backend built, the games kept in ``/games``
(the game in play in the record's journal: the product image's flash region, or on
CircuitPython ``microcontroller.nvm``, ``playboard.hw.nvm``),
the link on the USB serial port (beside the REPL), and a watchdog (``machine.WDT``,
8 s) fed by every frame. A hall board without a calibration file begins with the
guided calibration (:func:`playboard.app.check.first_boot`, from the app's start-up; docs/build.md). Ctrl-C
stops the app *and* the watchdog (the REPL is safe); any other way out leaves the
watchdog to restart the board. (A deploy cut off is caught by main.py before this
module is imported: it may be the one missing.)

A module of its own so that the simulated board (main.py on the unix port) never
holds this code in its heap; on the RP2040 it is frozen flash.
"""


def _board_name():
    try:
        with open("/board.txt") as f:
            name = f.read().strip()
        return name or "pico-matrix"
    except OSError:
        return "pico-matrix"


_WATCHDOG_CTRL_CLEAR = 0x40058000 | 0x3000  # RP2040 WATCHDOG CTRL, atomic-clear alias
_WATCHDOG_ENABLE = 1 << 30


def stop_watchdog():
    """Stop the RP2040's hardware watchdog (``machine.WDT`` has no way to): clear the
    ENABLE bit of WATCHDOG CTRL through its atomic-clear alias (RP2040 datasheet 4.7)."""
    import machine
    machine.mem32[_WATCHDOG_CTRL_CLEAR] = _WATCHDOG_ENABLE


def native_wanted(cfg, path):
    """Whether the board loads Tobit's search in native code (docs/engine.md, "Tobit's
    search in native code"): the board definition's ``"engine": {"native": true|false}``,
    else True where the firmware is frozen into flash and False where it was deployed as
    files (its code would take the heap's room: issue 12's targets on the ``.mpy``
    deploy). ``path``: this module's ``__file__``, a file on the board's filesystem when
    deployed (``playboard/app/onboard.mpy``); a frozen module's is the path it was frozen
    from (``playboard/app/onboard.py``), which is no file there (docs/pico.md)."""
    native = cfg.get("engine", {}).get("native")
    if native is None:
        import os
        try:
            os.stat(path)
            return False
        except (OSError, TypeError):
            return True
    return bool(native)


def load_native(cfg):
    """Before ``App`` is made: import Tobit's and Toguz Kumalak's native searches where :func:`native_wanted`
    says (with the native kernels App imports first, kept for ever) and set the board
    definition's ``engine.native`` to True then, which the app's engine takes at each
    game's start (``gamestart``). True if loaded."""
    if not native_wanted(cfg, globals().get("__file__")):
        return False
    import playboard.engine.tobit_native  # noqa: F401
    import playboard.engine.toguz_native  # noqa: F401 (Toguz Kumalak's, as Tobit's)
    cfg.setdefault("engine", {})["native"] = True
    return True


def _transport(circuitpython):
    """The link's byte channel: the USB serial through ``sys.stdin``/``select.poll``
    (MicroPython), or CircuitPython's ``usb_cdc`` object (no poll on stdin there)."""
    if circuitpython:
        from playboard.hw.cdc import CdcTransport
        return CdcTransport()
    from playboard.hw.stdio import StdioTransport
    return StdioTransport()


def run():
    """Build the board's app from ``/board.txt``'s board definition and run it forever."""
    from playboard.config import load_board
    from playboard.hw.open import open_board

    cfg = load_board(_board_name(), with_layout=False)  # the app reads and checks the layout
    hw = open_board(cfg)
    from playboard.compat import CIRCUITPYTHON, unload
    if CIRCUITPYTHON:  # (compiled into the heap there: start-up-only code goes back)
        del load_board, open_board
        unload("playboard.config")
        unload("playboard.hw.open")
    hw.fill(0, 0, 24)  # lit at once, before the rest is imported
    hw.show()
    from playboard.app.startup import read_layouts
    layouts = read_layouts(cfg, hw)  # first, while the heap is nearly empty
    from playboard.app.loop import App
    unload("playboard.app.startup")
    from playboard.health import watchdog_reset
    by_wdt = watchdog_reset()  # read before machine.WDT marks SCRATCH4 again
    unload("playboard.health")
    wdt = None
    try:
        if CIRCUITPYTHON:
            from playboard.hw.circuitpython import watchdog
            wdt = watchdog(8.0)
        else:
            from machine import WDT
            wdt = WDT(timeout=8000)
    except (ImportError, AttributeError, ValueError, RuntimeError):
        pass
    try:
        from playboard.record import Store
        if not CIRCUITPYTHON:
            load_native(cfg)  # (no native code on CircuitPython)
        if CIRCUITPYTHON:  # the moves in microcontroller.nvm, never on the FAT drive
            from playboard.hw.nvm import nvm_flash
            from playboard.record.journal import Journal

            dev = nvm_flash()
            journal = Journal(dev) if dev is not None else None
            if journal is not None:
                journal.fat = True  # (the drive is FAT: a game's file made in place)
            del dev, nvm_flash, Journal
        else:
            from playboard.record.journal import find

            journal = find()  # (the product image's; None on the stock image: files only)
        if journal is None:
            unload("playboard.record.journal")
            unload("playboard.hw.nvm")
        app = App(hw, cfg, Store("/games", journal=journal), transport=_transport(CIRCUITPYTHON), wdt=wdt,
                  layouts=layouts)
        del journal
        app.wdt_reset = by_wdt  # counted at the first frame (startup.start)
        del layouts
        try:
            app.run()
        finally:
            app.store.close()
            hw.fill(0, 0, 0)
            hw.show()
    except KeyboardInterrupt:
        # Ctrl-C at the USB port: a person (or mpremote, playboard deploy) takes the
        # REPL; the watchdog must not reset the board under them. Any other exception
        # keeps it running: the board restarts by itself 8 s later (docs/app.md).
        if wdt is not None:
            if CIRCUITPYTHON:
                from playboard.hw.circuitpython import stop_watchdog as stop_cp
                stop_cp()
            else:
                stop_watchdog()
            print("playboard: stopped (Ctrl-C); watchdog off; Ctrl-D or a reset starts the app")
        raise
