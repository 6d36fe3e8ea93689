"""Tobit frames cut short by a MemoryError at a commit: the move is recorded and sent
once, the tracker reads the position again, play goes on (docs/app.md "Memory").

Found by the demo (a king's many moves grew the tracker's records on a broken-up
heap): the tracker had pushed the move and raised while re-reading the position, so
the app never saw the commit; the game held a ply the flash record did not.
A module apart: under MicroPython the Tobit rig does not fit beside the harness.
"""
from apprig import _moves


def _rig():
    from tobitrig import tobit_rig
    return tobit_rig()[0]


def _play(r, m, hold=150):
    from tobitrig import play
    play(r, r.app.lay, m, hold)


def _once(obj, name, after=0):
    """Make ``obj.name`` raise MemoryError at its call number ``after`` + 1 (once)."""
    real = getattr(obj, name)
    calls = [0]

    def cut(*a):
        calls[0] += 1
        if calls[0] == after + 1:
            raise MemoryError("memory allocation failed")
        return real(*a)

    setattr(obj, name, cut)
    return calls


def test_a_memory_error_while_the_tracker_reads_the_position_after_a_commit_loses_nothing():
    r = _rig()
    app, g = r.app, r.app.game
    m = g.legal_moves()[0]
    text = g.move_text(m)
    calls = _once(app.tracker, "new_position")
    _play(r, m)
    r.adv(1200)
    assert calls[0] >= 2 and app.memory_errors == 1
    assert g.ply == 1 and _moves(r) == [text] and r.store.read(1).moves == [text]
    # the tracker read the position after the move: Black's reply is committed
    reply = g.legal_moves()[0]
    rtext = g.move_text(reply)
    _play(r, reply)
    r.adv(1200)
    assert _moves(r) == [text, rtext] and r.store.read(1).moves == [text, rtext]


def test_a_memory_error_while_the_tracker_reads_a_change_loses_nothing():
    # cut short while reading the board after the piece was put down (its occupancy
    # taken, the board not yet classified): the next update reads the board again
    r = _rig()
    app, g = r.app, r.app.game
    m = g.legal_moves()[0]
    text = g.move_text(m)
    tr = app.tracker
    lay = app.lay
    r.hw.set_sensor(lay.sensor_of(m[1]), 0)
    r.adv(150)
    calls = _once(tr, "_classify")
    r.hw.set_sensor(lay.sensor_of(m[-1]), 1)
    r.adv(1200)
    assert calls[0] >= 2 and app.memory_errors == 1, (calls, app.memory_errors)
    assert g.ply == 1 and _moves(r) == [text] and r.store.read(1).moves == [text]


def test_the_tracker_records_grown_halfway_keep_their_old_capacity():
    r = _rig()
    from playboard.board import tobit_position  # (the rig loads the game's code afresh)
    app, g = r.app, r.app.game
    tr = app.tracker
    tr._cap = 2  # the next position grows the records
    made = [0]

    import builtins  # (CPython: the rig skips under MicroPython)

    def bytearray_(n):
        made[0] += 1
        if made[0] == 2:  # the records made, the flags not: as on a broken-up heap
            raise MemoryError("memory allocation failed")
        return builtins.bytearray(n)

    tobit_position.bytearray = bytearray_
    try:
        m = g.legal_moves()[0]
        text = g.move_text(m)
        _play(r, m)
        r.adv(1200)
    finally:
        del tobit_position.bytearray
    assert made[0] >= 2 and app.memory_errors == 1
    assert tr._cap >= len(g.legal_moves()) + 1
    assert g.ply == 1 and _moves(r) == [text] and r.store.read(1).moves == [text]


def test_a_memory_error_sending_the_move_sends_it_at_the_next_frame_once():
    r = _rig()
    app, g = r.app, r.app.game
    real = app.sink
    cut = [0]

    def sink(kind, fields):
        if kind == "move" and not cut[0]:
            cut[0] = 1
            raise MemoryError("memory allocation failed")
        real(kind, fields)

    app.sink = sink
    m = g.legal_moves()[0]
    text = g.move_text(m)
    _play(r, m)
    r.adv(1200)
    assert cut[0] == 1 and app.memory_errors == 1
    assert _moves(r) == [text] and r.store.read(1).moves == [text]


def test_a_memory_error_in_the_trial_of_plies_together_puts_the_game_back():
    # White's move and Black's reply within 100 ms: the tracker tries the move at
    # Black's first lift and reads the board against the position after it
    # (docs/tracker.md "Timing"). Cut short there, the game goes back to the ply before
    # the trial (no ply the record lacks); the boards kept meanwhile stay, so the trial
    # made again once the board has stood commits both plies, each on record.
    r = _rig()
    app, g = r.app, r.app.game
    m = g.legal_moves()[0]
    text = g.move_text(m)
    g.push(m)
    reply = g.legal_moves()[0]
    rtext = g.move_text(reply)
    g.pop()
    tr = app.tracker
    _once(tr, "new_position")  # its first call raises: the trial's, after the push
    cut = tr.new_position
    plies = []  # the game's ply at each call
    tr.new_position = lambda: (plies.append(g.ply), cut())[1]
    _play(r, m, hold=40)
    r.adv(60)
    _play(r, reply, hold=40)
    r.adv(2500)
    assert plies[:2] == [1, 0] and app.memory_errors == 1, (plies, app.memory_errors)
    assert g.ply == 2 and _moves(r) == [text, rtext] and r.store.read(1).moves == [text, rtext]
    assert "correction" not in r.kinds() and not tr.correcting