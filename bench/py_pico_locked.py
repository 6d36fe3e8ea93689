"""A locked (museum) board's power-up on the emulated Pico (playboard_host.pico,
docs/pico.md), against the same image unlocked: the time a locked power-up adds
(nothing since issue 30: it did intern every name of the code), measured on the chip's
own clock (125 MHz; the emulator does not model the flash cache, so a real Pico is
slower where code runs from flash).

The same ``.mpy`` deploy as bench/py_pico.py (``playboard deploy``'s staging) is powered up twice: as deployed, and with the settings file of a
board locked by ``playboard settings --profile museum`` (``games/settings`` holding
``locked``, written by the firmware's own record code on the MicroPython unix port).
Targets: locked minus unlocked power-up to the menu <= 500 ms; no watchdog reset in
either power-up. Then the daily restart (docs/museum-reference.md, "The
daily restart") on the same chip: :func:`daily_restart`. Where Node, rp2040js, the images or the unix port
are absent, one line says so and no figure is reported.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from benchlib import report

HERE = os.path.dirname(os.path.abspath(__file__))


def board_folder(settings, moves=None):
    """{board path: bytes} of the folder ``games`` of a board with ``settings`` (dict)
    and, with ``moves`` (their texts), one finished Toguz Kumalak game of them, written
    by the firmware's own record code on the MicroPython unix port; None where it is
    absent."""
    from playboard_host.simboard import micropython_binary
    mp = micropython_binary()
    if mp is None:
        return None
    d = tempfile.mkdtemp(prefix="pb-locked-")
    try:
        games = os.path.join(d, "games")
        os.mkdir(games)
        code = ("from playboard.record import Store\n"
                "st = Store(%r)\n"
                "assert st.save_settings(%r)\n" % (games, settings))
        if moves is not None:
            code += ("assert st.new_game('toguz', {'Mode': 'two'}) is not None\n"
                     "for m in %r:\n"
                     "    assert st.add_move(m)\n"
                     "st.finish('0-1', 'resigned')\n"
                     "st.close()\n" % (list(moves),))
        subprocess.run([mp, "-c", code], check=True, cwd=os.path.join(HERE, "..", "firmware"))
        out = {}
        for n in os.listdir(games):
            with open(os.path.join(games, n), "rb") as f:
                out["games/" + n] = f.read()
        return out
    finally:
        shutil.rmtree(d, ignore_errors=True)


def power_up(pico, image):
    """(ms to the board lit, ms to the menu shown, [watchdog resets]) of one power-up."""
    with pico.VirtualPico(image, pico.matrix_config(), speed=0) as p:
        lit, menu = p.power_up(pico.toguz_pits(), 900)
        p.wait_emulated(1.0, 300)  # a second of the menu: a watchdog fed late shows here
        return lit / 1000, menu / 1000, list(p.resets)


def daily_restart(pico, staged):
    """A locked board with opening hours "12:02-12:01" (closed one minute a day), one
    finished game on its flash (:func:`board_folder`), and
    its clock set over the link (``T``) so that the app's look at the hours at about
    90 s of uptime (every 30 s; a restart at closing needs 60 s up) falls at 12:01:25:
    it restarts there (``playboard.app.restart``: ``D`` in ``boots``, then
    ``machine.soft_reset()`` with the watchdog running), starts again dark (closed), and
    shows its menu at the look after 12:02. Returns a dict: ``restart_s`` (emulated
    uptime at the soft reboot, None if none), ``menu_s`` (soft reboot to the app's menu
    frame), ``state``, ``health`` (the link's ``C``), ``boots`` (the file), ``settings``
    (as read back), ``kept`` (the game listed and read back byte for byte as before
    the restart), ``resets`` (watchdog), ``wdt_min_ms`` (the least time the watchdog
    had left at a feed)."""
    import datetime
    from playboard_host.serial_link import BoardLink
    from playboard.games.registry import new_game
    g = new_game("toguz")
    moves = []
    for k in range(3):
        m = g.legal_moves()[k]
        moves.append(g.move_text(m))
        g.push(m)
    hours = {"locked": True, "hours": "12:02-12:01"}
    image = pico.build_fs_image(staged, board_folder(hours, moves))
    out = {"restart_s": None, "menu_s": None, "state": None, "health": {}, "boots": b"",
           "settings": {}, "kept": False}
    with pico.VirtualPico(image, pico.matrix_config(), speed=0) as p:
        p.power_up(pico.toguz_pits(), 900)
        link = BoardLink(pico_port(p), timeout=10)
        before = link.list_games()
        record = [link.fetch(r["id"]) for r in before]
        tick = p.time_us / 1e6
        wall = datetime.datetime(2026, 3, 2, 12, 1, 25) - datetime.timedelta(seconds=90 - tick)
        link.set_time(wall)
        link.close()
        start = len(p.output)
        try:
            p.wait_output(b"soft reboot", 900, start)
        except TimeoutError:
            out["resets"] = list(p.resets)
            return out
        t_r = p.time_us
        out["restart_s"] = t_r / 1e6
        out["menu_s"] = (p.menu_after(len(p.led_log), 300) - t_r) / 1e6
        t_open = (tick + (datetime.datetime(2026, 3, 2, 12, 2, 32) - wall).total_seconds()) * 1e6
        p.wait_for(lambda q: q.time_us > t_open, 900, "the opening")
        link = BoardLink(pico_port(p), timeout=10)
        out["state"] = link.status()["state"]
        out["lit"] = any(any(c) for c in p.leds)
        out["health"] = link.health()
        out["settings"] = link.settings()
        after = link.list_games()
        out["kept"] = (len(before) == 1 and before[0]["finished"] and after == before
                       and [link.fetch(r["id"]) for r in after] == record)
        link.close()
        with p.files().open("games/boots", "rb") as f:
            out["boots"] = f.read()
        out["resets"] = list(p.resets)
        out["wdt_min_ms"] = p.wdt_min_us / 1000
    return out


def pico_port(p):
    from playboard_host.serial_link import open_port
    return open_port(p.port, timeout=0.05)


def main():
    from playboard_host import pico
    why = pico.unavailable()
    if why:
        print("virtual Pico unavailable, no emulated figures: %s" % why)
        return 0
    folder = board_folder({"locked": True})
    if folder is None:
        print("no MicroPython unix port: the locked board's settings cannot be written here")
        return 0
    staged = pico.staged_firmware()
    plain = power_up(pico, pico.build_fs_image(staged))
    locked = power_up(pico, pico.build_fs_image(staged, folder))
    report("pico: power-up to the menu shown, unlocked (emulated)", plain[1], "ms")
    report("pico: power-up to the menu shown, locked", locked[1], "ms")
    extra = locked[1] - plain[1]
    report("pico: what a locked power-up adds (locked - unlocked)", extra, "ms",
           "<= 500 ms", extra <= 500)
    report("pico: watchdog resets, both power-ups", len(plain[2]) + len(locked[2]), "", "0",
           not plain[2] and not locked[2])
    d = daily_restart(pico, staged)
    h = d["health"]
    back = (d["restart_s"] is not None and d["state"] == "menu" and d.get("lit")
            and h.get("restarts") == 1 and h.get("power_ups") == 1 and d["boots"] == b"PDP"
            and d["settings"].get("hours") == "12:02-12:01" and d["settings"].get("locked") is True
            and d["kept"])
    print("pico: daily restart: soft reboot at %s s up; after it: state %s, lit %s, boots %r, "
          "health %s, settings %s, the game kept %s" % (d["restart_s"], d["state"], d.get("lit"), d["boots"],
                                      {k: h.get(k) for k in ("power_ups", "restarts", "wdt_resets")},
                                      {k: d["settings"].get(k) for k in ("locked", "hours")}, d["kept"]))
    report("daily restart on the emulated Pico: back at the menu (soft reboot to the app's menu)",
           d["menu_s"] if d["menu_s"] is not None else -1, "s",
           "back, restart counted (D), nothing lost", bool(back))
    report("daily restart on the emulated Pico: watchdog resets", len(d["resets"]), "", "0",
           not d["resets"] and h.get("wdt_resets") == 0)
    report("daily restart on the emulated Pico: least time the watchdog had left at a feed",
           d.get("wdt_min_ms", -1), "ms", "> 2000 ms (of 8000)", d.get("wdt_min_ms", -1) > 2000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
