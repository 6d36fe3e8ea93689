"""The host tests' wait for the engine's move on a ``SimBoard`` (one loop, shared by
test_real_play_e2e.py and test_tobit_refusals_e2e.py: duplicates D3)."""


def engine_move(b, ev=(), limit_ms=20000, step_ms=100):
    """The text of the engine's last move (its ``engine`` event: the move it shows)
    in ``ev`` (events already read from ``b``), else in the events of the next frames,
    ``b`` advanced ``step_ms`` at a time. AssertionError (with the board's status) if
    none came within ``limit_ms``."""
    waited = 0
    while True:
        eng = [e for e in ev if e["ev"] == "engine"]
        if eng:
            return eng[-1]["move"]
        if waited >= limit_ms:
            raise AssertionError("no engine move in %d ms: %s" % (limit_ms, b.status()))
        b.advance(step_ms)
        waited += step_ms
        ev = b.events()
