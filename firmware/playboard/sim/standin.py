"""A hardware board's definition for the simulated board, which stands in for its
hardware: backend and sensors ``sim``, its layout, pit selection, buttons, LEDs and
supply as it defines them (docs/simulator.md). Used by the simulator's boot
(playboard.sim.boot), the page's board check (``playboard sim --board``) and the
whole-board fuzz; not by the chip, whose config module (playboard.config) knows
nothing of it.
"""


def load_stand_in(name_or_path):
    """The board definition ``name_or_path`` (as ``playboard.config.load_board`` finds
    it), made the simulated board's where it names hardware, then validated (defaults
    filled; its layout not read: the app checks it). ConfigError (one line) for a
    missing file, bad JSON or a bad field."""
    from playboard.config import read_board, validate_board
    d, base, path = read_board(name_or_path)
    if d.get("backend") != "sim":
        d["backend"] = "sim"
        d["sensor"] = {"kind": "sim"}
        d.pop("module", None)
        leds = d.get("leds")
        if isinstance(leds, dict):  # (not a dict: validate_board says so)
            leds.pop("pin", None)
            leds.pop("adapter_pin", None)
    return validate_board(d, base)
