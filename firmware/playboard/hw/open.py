"""The hardware backend for a board definition: ``open_board(cfg)``, importing only
the backend asked for."""


def open_board(cfg):
    """Build the backend for a validated board definition (dict from playboard.config).

    ``cfg["backend"]`` picks ``rp2`` or ``circuitpython``. ValueError for an unknown
    backend, for ``sim`` (the simulated board builds its own: ``playboard.sim.hw``), or
    for a hardware backend where its modules are missing.
    """
    backend = cfg.get("backend")
    if backend == "sim":
        raise ValueError("backend 'sim' is the simulated board's: playboard.sim.open.open_board builds it")
    if backend == "rp2":
        if cfg["sensor"]["kind"] == "hall_mux":  # its own module: other boards never load it
            from playboard.hw.hall import HallBoard
            return HallBoard(cfg)
        from playboard.hw.rp2 import open_rp2
        return open_rp2(cfg)
    if backend == "circuitpython":
        from playboard.hw.circuitpython import open_circuitpython
        return open_circuitpython(cfg)
    raise ValueError("unknown backend %r (rp2, circuitpython; sim on the simulated board)" % (backend,))
