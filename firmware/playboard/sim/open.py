"""The simulated board's backend from a board definition (as playboard.hw.open is the
chip's): the plain simulated board, the simulated hall board, or the chip's own."""


def open_board(cfg):
    """The backend for a validated board definition on the simulated board's side:
    a :class:`playboard.sim.hw.SimBoard` for ``"backend": "sim"`` (a
    :class:`playboard.sim.hall.SimHallBoard` for sensor kind ``sim_hall``), else what
    :func:`playboard.hw.open.open_board` builds (ValueError as there)."""
    if cfg.get("backend") == "sim":
        if cfg["sensor"]["kind"] == "sim_hall":
            from playboard.sim.hall import SimHallBoard
            return SimHallBoard.from_config(cfg)
        from playboard.sim.hw import SimBoard
        return SimBoard.from_config(cfg)
    from playboard.hw.open import open_board as open_hw
    return open_hw(cfg)
