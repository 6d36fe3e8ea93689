"""Containment (docs/app.md "Containment", issue 31): a fault injected into each module's
entry point - the tracker, the rules core, the engine, the lights, the link, the record
- is caught at the loop, counted on flash (health ``faults``) with its traceback kept
in the ring, and the board goes on from its record at once: the same position, every
move kept, the next move read. On the in-process rig, under CPython and under the
simulator's model of the chip (tests/test_micropython.py)."""


class Injected(Exception):
    pass


def once(obj, name, what):
    """Make ``obj.name`` raise Injected(what) at its next call, then work again."""
    real = getattr(obj, name)
    box = [0]

    def boom(*a, **k):
        if not box[0]:
            box[0] = 1
            raise Injected(what)
        return real(*a, **k)

    setattr(obj, name, boom)
    return box


def _lift(r, cell, ms=600):
    """South's / North's pit ``cell`` played by lifting its balls (held past LIFT_MS)."""
    s = r.sensor("toguz", cell)
    r.hw.set_sensor(s, 1)
    r.adv(200)
    r.hw.set_sensor(s, 0)  # (the sim's pits rest at 0: the lift is this edge, held)
    r.adv(ms)
    r.adv(3000)


def _moves(r):
    return [f["move"] for k, f in r.events if k == "move"]


def _ring(r):
    from playboard import health
    from playboard import faultring
    return health.read(r.store)["faults"], faultring.read_ring(r.store)


def _check_went_on(r, played, what):
    from playboard import health
    app = r.app
    assert app.faults == 1, (what, app.faults)
    n, ring = _ring(r)
    assert n == 1 and len(ring) == 1 and what in ring[0][2] and "Injected" in ring[0][2], (what, ring)
    assert [k for k, f in r.events].count("crash") == 1
    assert health.link(r.store, {})["tracebacks"][0][2] == ring[0][2][-160:]
    # the record is whole and the game goes on from it
    rec = r.store.read(r.store.current)
    assert rec.moves == played, (what, rec.moves, played)
    assert app.state == 2 and app.game is not None and app.game.ply == len(played), (what, app.state)


def _toguz(mode="two"):
    from apprig import Rig
    r = Rig()
    r.app.link_set_game({"game": "toguz", "mode": mode})
    r.begun()
    return r


def test_a_fault_in_the_tracker_is_contained_and_the_game_goes_on_from_its_record():
    r = _toguz()
    _lift(r, 0)
    played = _moves(r)
    assert len(played) == 1
    once(r.app.tracker, "update", "tracker-boom")
    r.adv(200)
    r.begun()
    _check_went_on(r, played, "tracker-boom")
    _lift(r, 9)  # North's reply is read
    assert len(_moves(r)) == 2 and r.store.read(r.store.current).moves == _moves(r)


def test_a_fault_in_the_rules_core_is_contained():
    r = _toguz()
    _lift(r, 0)
    played = _moves(r)
    once(r.app.game, "push", "rules-boom")  # the next selection pushes: it raises
    _lift(r, 9)
    r.begun()
    _check_went_on(r, played, "rules-boom")
    _lift(r, 9)  # made again: read
    assert len(_moves(r)) == 2 and r.store.read(r.store.current).moves == _moves(r)


def test_a_fault_in_the_engine_is_contained_and_it_thinks_again():
    r = _toguz("black")  # the engine plays South
    eng = r.app.engine
    once(eng, "step", "engine-boom")
    r.adv(300)
    r.begun()
    assert r.app.faults == 1
    r.adv(3000)  # it thinks again and plays South's move (the sowing view shown)
    played = _moves(r)
    assert len(played) == 1, r.events
    _check_went_on(r, played, "engine-boom")


def test_a_fault_in_the_lights_and_in_the_link_is_contained_with_a_sign():
    r = _toguz()
    _lift(r, 0)
    played = _moves(r)
    once(r.app.lights, "frame", "lights-boom")
    r.t += 10  # one frame: it raises; the sign, every LED red, is shown at once
    r.hw.tick(r.t)
    r.app.frame(r.t)
    sh = r.hw.shown
    assert len(r.lit()) == r.hw.n_leds  # every LED lit, red: the sign
    assert all(sh[3 * i] > 0 and sh[3 * i + 1] == 0 and sh[3 * i + 2] == 0 for i in range(r.hw.n_leds))
    red = bytes(sh)
    for _ in range(98):  # it stays 1 s (contain.SIGN_MS) while the game begins again
        r.adv(10)
        assert bytes(r.hw.shown) == red, r.t
    r.begun()
    r.adv(100)
    assert bytes(r.hw.shown) != red and len(r.lit()) < r.hw.n_leds  # the game's own lights
    _check_went_on(r, played, "lights-boom")
    once(r.app, "poll_link", "link-boom")
    r.adv(100)
    r.begun()
    assert r.app.faults == 2 and _ring(r)[0] == 2 and "link-boom" in _ring(r)[1][-1][2]
    assert r.store.read(r.store.current).moves == played


def test_a_fault_in_the_record_is_kept_in_its_queue_and_nothing_is_lost():
    r = _toguz()
    once(r.store, "add_move", "record-boom")  # the flash write of the move raises once
    _lift(r, 0)
    _lift(r, 9)
    assert len(_moves(r)) == 2 and r.store.read(r.store.current).moves == _moves(r)
    assert not r.app.pending and r.app.state == 2


def test_the_same_fault_over_and_over_ends_the_game_on_record_and_opens_the_menu():
    r = _toguz()
    _lift(r, 0)
    gid = r.store.current
    # the tracker's events raise at every frame (as a record whose replay makes them raise)

    def boom(n, now):
        raise Injected("again")

    r.app._events = boom
    try:
        r.adv(3000)
    finally:
        del r.app._events
    assert r.app.state == 0, r.app.state  # the menu
    rec = r.store.read(gid)
    assert rec.finished and len(rec.moves) == 1
    assert 3 <= r.app.faults <= 4 and _ring(r)[0] == r.app.faults
