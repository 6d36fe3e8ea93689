"""The builder's checks run by the app in place of play: the self-test and the
guided calibration of a hall board (docs/build.md, docs/protocol.md ``G {"check"}``).

:func:`start` is what a board gesture, the link's ``G {"check": ...}`` (:func:`link`) and
:func:`first_boot` call; while a check runs,
``App.frame`` calls :func:`frame` instead of scanning and playing: the check reads
the sensors and drives the LEDs itself (at a low level, one LED at a time in the
chase: far under any current cap), the link is still served and the watchdog fed.
When the check is done its verdict stays on the LEDs for ``RESULT_MS``, then the
menu opens; ``app.check_result`` (set then) keeps the summary for the link.

Loaded only when a check runs (``unload`` after): no heap in play.
"""
from playboard.app.state import S_SETUP, S_PLAY, MASK
from playboard.compat import const

KINDS = ("selftest", "calibrate", "guided")
RESULT_MS = const(5000)
_DONE = const(2)  # playboard.hw.selftest.DONE == playboard.hw.calibrate.DONE
_GUIDED_DONE = const(3)  # playboard.hw.guided.DONE
SECONDS = (5, 600)  # the range of a check's length the link accepts
DEFAULT_S = {"selftest": 30, "calibrate": 60, "guided": 30}


def sensor_leds(app):
    """bytearray(n_sensors): the LED above each sensor over the app's layouts (255 none)."""
    n = app.hw.n_sensors
    out = bytearray(b"\xff" * n)
    for lay in app.layouts.values():
        for c in lay.cells:
            s = lay.sensor_of(c)
            led = lay.led_of(c)
            if 0 <= s < n and 0 <= led < 255:
                out[s] = led
    return out


def first_boot(app):
    """At power-up (playboard.app.startup.start, with the menu open: no game resumed):
    a hall board without a calibration file (``hw.calibrated`` False; the simulated
    hall board ``sim-hall`` too) begins with the guided calibration. True if it was
    started. Until the calibration is saved each sensor's power-up reading is its zero
    (playboard.hw.hallzero.HallZero).
    """
    if getattr(app.hw, "calibrated", True) is not False:
        return False
    start(app, "calibrate", app.now)
    return True


def check_request(app, kind, seconds):
    """Why ``kind`` cannot start now (a str), or None. Changes nothing: the last
    check's verdict on show is ended by :func:`start` only once it is accepted."""
    if kind not in KINDS:
        return "no check %r (one of %s)" % (kind, ", ".join(KINDS))
    if seconds is not None and (not isinstance(seconds, int) or isinstance(seconds, bool)
                                or not SECONDS[0] <= seconds <= SECONDS[1]):
        return "seconds must be an integer %d..%d" % SECONDS
    if app.check is not None and app.check[2] < 0:  # (a verdict on show: cut short)
        return "a %s is running" % app.check[0]
    if app.state in (S_SETUP, S_PLAY) and app.game is not None and app.game.ply > 0:
        return "a game is being played: resign or go to the menu first"
    if kind == "calibrate" and not hasattr(app.hw, "set_zero"):
        return "this board's sensors need no calibration (only hall sensors do)"
    return None


def start(app, kind, now_ms=None, seconds=None):
    """Start check ``kind`` ("selftest" or "calibrate") on ``app`` (the App) for
    ``seconds`` (5..600: the self-test's sensor phase, the calibration's longest wait
    for a clear board; default 30 / 60), at ``now_ms`` (default the app's last frame).
    The function a board gesture calls. ValueError (with the reason) if it cannot start
    now: a game being played (one with a move made: a game nobody has begun is left
    for the menu first, as after a hall board's first-start calibration), a check
    running, calibrate on reed switches; the last check's verdict on show then stays (a
    refused request changes nothing)."""
    if now_ms is None:
        now_ms = app.now
    why = check_request(app, kind, seconds)
    if why:
        raise ValueError(why)  # the last check's verdict (if on show) stays
    if app.check is not None:
        finish(app, now_ms)  # the last check's verdict on show: the next one begins
    if app.state in (S_SETUP, S_PLAY):  # no move made (check_request): to the menu
        app.open_menu(now_ms)
    if seconds is None:
        seconds = DEFAULT_S[kind]
    sl = sensor_leds(app)
    # every check's LEDs under the USB-only cap (playboard.hw.pads.check_led_budget)
    from playboard.hw.pads import check_led_budget
    leds = app.cfg["leds"]
    cap = dict(budget_ma=check_led_budget(app.cfg), ma_per_led=leds["ma_per_led"],
               idle_ma=leds["idle_ma"])
    if kind == "selftest":
        from playboard.hw.selftest import SelfTest
        obj = SelfTest(app.hw, sl, sense_ms=1000 * seconds, **cap)
    elif kind == "guided":
        # the guided placement test (playboard.hw.guided): ``seconds`` the longest
        # wait for one point; a hall board's sensors tell an upside-down one
        from playboard.hw.guided import GuidedTest
        obj = GuidedTest(app.hw, sl, colour=hasattr(app.hw, "set_zero"),
                         place_ms=1000 * seconds, **cap)
    else:
        from playboard.hw.calibrate import GuidedCalibration
        obj = GuidedCalibration(app.hw, sl, timeout_ms=1000 * seconds, **cap)
    app.check = [kind, obj, -1]   # kind, the stepper, when it finished (-1 running)
    app.check_result = None
    app.emit("check", {"check": kind, "s": seconds})  # the builder's event (docs/protocol.md)


def frame(app, now_ms):
    """One frame of the running check (App.frame calls it instead of play): the
    check's step, the link served, the watchdog fed."""
    app.frames += 1
    app.next_due = (now_ms + app.period_ms) & MASK
    _step(app, now_ms)
    app.poll_link()
    if app.wdt is not None:
        app.wdt.feed()


def _step(app, now_ms):
    kind, obj, t_done = app.check
    if t_done < 0:
        if obj.step(now_ms) == (_GUIDED_DONE if kind == "guided" else _DONE):
            app.check[2] = now_ms
            r = obj.summary()
            r["check"] = kind
            app.check_result = r
            if kind == "selftest":  # its faulty sensors counted on flash (playboard.health)
                from playboard import health
                from playboard.compat import unload
                unload("playboard.health")
                health.selftest(app.store, r)
            app.emit("check", r)
    elif ((now_ms - t_done) & MASK) >= RESULT_MS:
        finish(app, now_ms)


def finish(app, now_ms):
    """End the check on ``app`` (its verdict shown, or cut short by the next request:
    a check's or a game's, playboard.app.request): its code dropped, the menu open."""
    app.check = None
    from playboard.compat import unload
    unload("playboard.hw.selftest")
    unload("playboard.hw.calibrate")
    unload("playboard.hw.guided")
    unload("playboard.hw.ledcap")
    unload("playboard.hw.pads")
    unload("playboard.app.check")  # this module: loaded again only for the next check
    # the menu's marks (after open_menu's clear) make the lights show again
    app.open_menu(now_ms)


def link(app, req):
    """The link's ``G`` request with ``check``: ``{"check": kind, "s": seconds}``
    starts a check, ``{"check": "status"}`` asks how it goes. The whole request is
    checked before anything starts (ValueError: another field, ``s`` with status,
    what :func:`start` refuses). Through ``G`` (``playboard.app.request.link_set_game``)
    so that the link and the play loop carry no code of their own for it."""
    for k in req:
        if k not in ("check", "s"):
            raise ValueError("check takes only s, not %r" % k)
    kind = req["check"]
    if not isinstance(kind, str):
        raise ValueError("check takes a check's name or status")
    if kind != "status":
        start(app, kind, app.now, req.get("s"))
    elif "s" in req:
        raise ValueError("s goes with a check to start")
    return status(app)


def status(app):
    """The link's answer about checks: the running one, else the last result, else idle."""
    if app.check is not None and app.check[2] < 0:
        obj = app.check[1]
        if app.check[0] == "guided":     # what the builder is asked: the host names it
            st = obj.status()
            st["running"] = "guided"
            return st
        return {"running": app.check[0], "phase": obj.phase}
    r = getattr(app, "check_result", None)
    if r is not None:
        return r
    return {"idle": True}
