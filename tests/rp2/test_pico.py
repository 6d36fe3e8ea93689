"""The firmware on an emulated Raspberry Pi Pico (playboard_host.pico, docs/pico.md).

The product, the RPI_PICO image with the firmware frozen in (``make uf2``:
build/playboard-pico.uf2; ``make test`` builds it), runs in rp2040js on an empty flash
(flashing it is the whole install), the ``pico-matrix`` board's diode matrix played from
outside and its WS2812 stream decoded. The developer's path, the stock MicroPython
image with the firmware compiled by ``mpy-cross -march=armv6m`` on its littlefs flash
(``playboard deploy``), is tested too (``stock_image``). Skips with a clear message
where Node, rp2040js (``npm ci``, done by ``make setup``) or the images
(``../shared/rp2/``, the frozen image) are absent. The emulator is slow (several host
seconds per busy emulated second): the scenarios are short.
"""
import json
import os
import subprocess
import sys

import pytest

from playboard.board.layout import load_layout
from playboard.app.state import PADS_ON_TOBIT
from playboard.games.registry import new_game
from playboard.games.perft import perft

from playboard_host import pico
from playboard_host.serial_link import BoardLink, open_port
from tobithands import tobit_move, tobit_stand

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CFG = pico.matrix_config()
PITS = pico.toguz_pits()   # South 0-8, North 9-17
BOOT_S = 300     # host seconds allowed for a boot (a loaded CI machine)


def _needs_pico():
    why = pico.unavailable()
    if why:
        pytest.skip("virtual Pico unavailable: %s" % why)


@pytest.fixture(scope="module")
def frozen():
    """The frozen image's path (skips where `make uf2` has not built it)."""
    _needs_pico()
    try:
        return pico.frozen_uf2()
    except pico.PicoUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def stock_image():
    """A littlefs image with the .mpy deploy of the firmware, for the stock image."""
    _needs_pico()
    return pico.build_fs_image(pico.staged_firmware())


def _board(name):
    return json.load(open(os.path.join(ROOT, "firmware", "boards", name + ".json")))


def _boot(image, closed=(), cfg=CFG, uf2=None):
    """Boot flash ``image`` (None: blank) with MicroPython ``uf2`` (None: the stock one)."""
    p = pico.VirtualPico(image, cfg, uf2=uf2, speed=0).start()
    if closed:
        p.set_closed(closed)
    p.wait_for(lambda q: q.usb_up.is_set() and q.led_frames >= 2, BOOT_S, "boot (USB up, the menu lit)")
    return p


def _repl(p, port):
    """Ctrl-C the app; returns the pyserial port at the REPL prompt."""
    start = len(p.output)
    port.write(b"\x03")
    p.wait_output(b"watchdog off", 60, start)
    p.wait_output(b">>> ", 60, start)
    return port


def _exec(p, port, code, timeout=300):
    """Run ``code`` (one line) at the REPL; the text it printed up to the next prompt."""
    start = len(p.output)
    port.write(code.encode() + b"\r")
    end = p.wait_output(b"\r\n>>> ", timeout, start)
    return p.output[start:end].decode(errors="replace").split("\r\n", 1)[1].rsplit("\r\n>>> ", 1)[0]


def _with_balls(g):
    """The sensors of the pits of Toguz Kumalak game ``g`` that hold balls (closed)."""
    return [PITS[c] for c in range(18) if g.pos[c]]


def _toguz_move(p, link, g, cell, t_us):
    """Lift the balls of pit ``cell`` (0-17) of game ``g`` for 600 ms from emulated time
    ``t_us`` (past LIFT_MS: a lift put back sooner is no move), then sow them (the pits
    holding balls after the move closed, as on a real board: the first ball back in the
    lifted pit), let the board confirm the move by itself;
    returns the board's status after it (``g`` is not changed)."""
    before = _with_balls(g)
    p.set_closed([s for s in before if s != PITS[cell]], t_us)
    after = new_game("toguz")
    after.set_fen(g.fen())
    after.push(cell - 9 * g.turn)
    p.set_closed(_with_balls(after), t_us + 600000)
    ply = link.status()["ply"]
    p.wait_for(lambda q: q.time_us > t_us + 3500000, 300, "the move confirmed")
    st = link.status()
    assert st["ply"] == ply + 1, st
    return st


def _assert_legal_pits_lit(p, lay, g):
    """The mover's legal pits of Toguz Kumalak game ``g`` are lit green (any colour
    where g > r and g > b, as decoded from the WS2812 stream), and no other pit."""
    lit = sorted(c for c in range(18) if lay.led_of(c) >= 0
                 and p.leds[lay.led_of(c)][1] > max(p.leds[lay.led_of(c)][0], p.leds[lay.led_of(c)][2]))
    assert lit == sorted(9 * g.turn + mv for mv in g.legal_moves()), (lit, p.leds)


def test_boot_game_through_the_matrix_leds_and_sync(frozen, tmp_path):
    """The frozen image alone on a blank flash (MicroPython formats it at the first boot;
    main.py, the board definitions and the tables come from the image) boots with the
    pico-matrix board, the default (first frame: all 58 LEDs (0, 0, 24), lit before
    the app is imported); a Toguz Kumalak game played by lifting the balls of pits on
    the emulated matrix, the LEDs read back from the WS2812 stream (the mover's legal
    pits lit green, as the rules core says), resigned with the play pad, then synced
    over the emulated USB by `playboard sync` and exported move for move."""
    p = _boot(None, PITS, uf2=frozen)
    try:
        assert p.led_log[0][1] == [(0, 0, 24)] * 58
        assert p.resets == []
        link = BoardLink(open_port(p.port, timeout=0.05), timeout=10)
        assert link.hello()["proto"] == 1
        link.set_game(game="toguz", mode="two")
        assert link.status()["state"] == "play"
        g = new_game("toguz")
        lay = load_layout("toguz")
        t = p.time_us + 100000
        played = []
        for pit in (2, 9 + 6, 8):              # South 3, North 7, South 9 (0-based pits)
            m = pit - 9 * g.turn
            st = _toguz_move(p, link, g, pit, t)
            played.append(g.move_text(m))
            g.push(m)
            assert st["fen"] == g.fen()
            t = p.time_us + 100000
            _assert_legal_pits_lit(p, lay, g)
        # White (to move: 3 plies played) resigns: its pad pressed deliberately (held
        # 1 s, past HOLD_MS) twice within 4 s (docs/app.md)
        pad = load_layout("tobit").sensor_of(PADS_ON_TOBIT[1])
        t = p.time_us + 100000
        for k in range(2):
            p.set_closed(_with_balls(g) + [pad], t + k * 1500000)
            p.set_closed(_with_balls(g), t + k * 1500000 + 1000000)
        p.wait_for(lambda q: q.time_us > t + 3300000, 300, "the resignation")
        st = link.status()
        assert st["finished"] == 1 and st["state"] != "play", st
        link.close()
        lib = str(tmp_path / "lib.sqlite")
        env = dict(os.environ, PLAYBOARD_LIBRARY=lib)
        out = subprocess.run([sys.executable, "-m", "playboard_host.cli", "sync", "--port", p.port, "-q"],
                             capture_output=True, text=True, env=env, timeout=600)
        assert out.returncode == 0, out.stderr
        exp = subprocess.run([sys.executable, "-m", "playboard_host.cli", "export", "--format", "json"],
                             capture_output=True, text=True, env=env, timeout=120)
        assert exp.returncode == 0, exp.stderr
        games = json.loads(exp.stdout)
        assert len(games) == 1
        assert games[0]["result"] == "0-1"
        assert games[0]["moves"] == played
        assert p.resets == []
    finally:
        p.close()


# perft counts, exact (RULES.md 1.9, 2.14, 3.6): the same function on CPython gives them
PERFT = (("toguz", 3), ("tobit", 3), ("tobit4", 3), ("tihbat", 4))


def test_ctrl_c_perft_and_deploy_without_a_watchdog_reset(stock_image, tmp_path):
    """The developer's path, the stock image with the .mpy deploy: Ctrl-C stops the app
    and its watchdog: 12 emulated seconds at the REPL without a reset; perft exact for
    all four games on the Cortex-M0+; then `playboard deploy --all` of the whole
    firmware and a plain deploy that finds nothing to copy, each ending with a reset
    (machine.reset(): the app runs again, counted as a power-up, not as a watchdog
    reset); no watchdog timeout through it all."""
    import serial
    p = _boot(stock_image)
    try:
        port = serial.Serial(p.port, 115200, timeout=0.05)
        _repl(p, port)
        p.wait_emulated(12, 300)
        assert p.resets == []
        assert _exec(p, port, "print(6 * 7)") == "42"
        # WATCHDOG CTRL: ENABLE (bit 30) cleared by main.py on the Ctrl-C
        assert int(_exec(p, port, "import machine; print(machine.mem32[0x40058000])")) & (1 << 30) == 0
        _exec(p, port, "from playboard.games.perft import perft; from playboard.games.registry import new_game")
        for name, depth in PERFT:
            want = perft(new_game(name), depth)
            got = _exec(p, port, "print(perft(new_game(%r), %d))" % (name, depth))
            assert got == str(want), (name, depth, got)
        port.close()
        deploy = [sys.executable, "-m", "playboard_host.cli", "deploy", "--port", p.port,
                  "--build", str(tmp_path / "build")]
        for extra in (["--all"], []):
            n = len(p.led_log)
            out = subprocess.run(deploy + extra, capture_output=True, text=True, timeout=900)
            assert out.returncode == 0, out.stdout + out.stderr
            assert "stock MicroPython" in out.stdout and "was reset" in out.stdout, out.stdout
            p.menu_after(n, BOOT_S)  # the app runs after the deploy's reset
        assert "0 to copy" in out.stdout, out.stdout
        assert [r[1] for r in p.resets] == ["force", "force"], p.resets
        link = BoardLink(open_port(p.port, timeout=0.05), timeout=30)
        h = link.health()
        # the deploys' two resets: power-ups (the first boot's may not be counted: the
        # Ctrl-C came in its first frames)
        assert h["wdt_resets"] == 0 and h["power_ups"] >= 2, h
        link.close()
        fs = p.files()
        assert "deploy.incomplete" not in fs.listdir("/")
        staged = dict((d, s) for s, d in pico.staged_firmware())
        with fs.open("playboard/app/loop.mpy", "rb") as f:
            assert f.read() == open(staged["playboard/app/loop.mpy"], "rb").read()
        # a deploy cut off (its marker left on flash), then a reset: the board comes
        # back (the emulator reboots it from its flash) with the app kept stopped
        port = serial.Serial(p.port, 115200, timeout=0.05)
        _repl(p, port)
        _exec(p, port, "open('/deploy.incomplete', 'w').close()")
        start = len(p.output)
        port.write(b"import machine; machine.reset()\r")
        p.wait_for(lambda q: len(q.resets) == 3, 120, "the reset")
        assert p.resets[2][1] == "force"
        port.close()
        p.wait_output(b"a deploy was cut off", BOOT_S, start)
        assert len(p.resets) == 3
    finally:
        p.close()


def test_tobit_set_up_and_moves_through_the_matrix(frozen):
    """A Tobit game on the emulated matrix: the pieces put on their points (the board
    leaves its set-up view by itself), then moves made by hand (lift, put down, take
    off what is captured), each position checked against the rules core, the last
    move's points lit on the LEDs read back from the WS2812 stream."""
    p = _boot(pico.build_fs_image([]), uf2=frozen)
    try:
        link = BoardLink(open_port(p.port, timeout=0.05), timeout=10)
        link.set_game(game="tobit", mode="two")
        g = new_game("tobit")
        lay = load_layout("tobit")
        stand = tobit_stand("tobit", g)
        p.set_closed(stand, p.time_us + 100000)
        t = p.time_us + 1500000
        p.wait_for(lambda q: q.time_us > t, 300, "the set-up seen")
        assert link.status()["state"] == "play"
        for k in range(3):
            m = g.legal_moves()[k % len(g.legal_moves())]
            tobit_move(p, "tobit", stand, g, m)
            st = link.status()
            assert st["ply"] == k + 1 and st["fen"] == g.fen(), (st, g.fen())
            for pt in (m[1], m[-1]):
                assert any(p.leds[lay.led_of(pt)]), (pt, p.leds)
        assert p.resets == []
        link.close()
    finally:
        p.close()


def test_a_74hc165_board_plays_through_its_pio_program_and_hall_voltages_reach_the_adc(frozen, tmp_path):
    """The pico-165 board (8 x 74HC165 read by the PIO program): the emulated chain is
    latched and shifted out by the firmware's own state machine; two Toguz Kumalak
    moves made by lifting balls, each position checked against the rules core and
    the mover's legal pits lit. Then the pico-hall board (hall sensors behind
    CD74HC4067 multiplexers into the ADC) at the REPL: its backend reads White and
    Black pieces where the emulator put their magnets, empty elsewhere. The frozen
    image; only ``board.txt`` on the flash chooses the board definition."""
    p = _boot(pico.build_fs_image([], {"board.txt": b"pico-165"}), PITS, _board("pico-165"), frozen)
    try:
        link = BoardLink(open_port(p.port, timeout=0.05), timeout=10)
        assert link.hello()["proto"] == 1
        link.set_game(game="toguz", mode="two")
        assert link.status()["state"] == "play"
        g = new_game("toguz")
        lay = load_layout("toguz")
        for pit in (4, 9 + 2):                 # South 5, North 3 (0-based pits)
            m = pit - 9 * g.turn
            st = _toguz_move(p, link, g, pit, p.time_us + 100000)
            g.push(m)
            assert st["fen"] == g.fen()
            _assert_legal_pits_lit(p, lay, g)
        assert p.resets == []
        link.close()
    finally:
        p.close()
    white, black = [0, 5, 17, 63], [1, 20, 33]
    p = _boot(pico.build_fs_image([], {"board.txt": b"pico-hall"}), cfg=_board("pico-hall"), uf2=frozen)
    try:
        import serial
        port = serial.Serial(p.port, 115200, timeout=0.05)
        _repl(p, port)
        p.set_closed(white, black=black)
        _exec(p, port, "from playboard.config import load_board; from playboard.hw.open import open_board")
        got = _exec(p, port, "hw = open_board(load_board('pico-hall', with_layout=False)); "
                    "b = bytearray(64); hw.read(b); print(list(b))")
        want = [1 if s in white else 2 if s in black else 0 for s in range(64)]
        assert json.loads(got) == want, got
        port.close()
    finally:
        p.close()


def test_engine_games_begin_after_a_sync_while_the_names_pool_grows(stock_image, tmp_path):
    """The link used (a `playboard sync`), then a game against the engine of each kind
    (Toguz Kumalak, Tobit, Tihbat, Toguz Kumalak again), each begun over the link: the
    names (qstrs) of the link's and the games' code pass the edge of MicroPython's names
    pools in play (the next pool, 1280 names, ~7.7 KB in one piece, made on a heap
    broken up by code) and every game begins, no memory error, no reset. On the 64-bit
    unix port model the same pool is 14 KB and may find no room (docs/museum.md). The
    .mpy deploy on the stock image (the frozen image interns no names in play)."""
    import serial
    p = _boot(stock_image, PITS)
    try:
        env = dict(os.environ, PLAYBOARD_LIBRARY=str(tmp_path / "lib.sqlite"))
        out = subprocess.run([sys.executable, "-m", "playboard_host.cli", "sync", "--port", p.port, "-q"],
                             capture_output=True, text=True, env=env, timeout=600)
        assert out.returncode == 0, out.stderr
        link = BoardLink(open_port(p.port, timeout=0.05), timeout=60)
        for name in ("toguz", "tobit", "tihbat", "toguz"):
            link.set_game(game=name, mode="white", level=2, force=True)
            t = p.time_us
            p.wait_for(lambda q: q.time_us > t + 4000000, 600, "4 s of " + name)
            st = link.status()
            assert st["game"] == name and st["state"] in ("play", "setup"), st
            assert not st.get("memory_errors"), st
        link.close()
        assert p.resets == []
    finally:
        p.close()


def test_mpremote_reset_restarts_the_app_counted_as_a_power_up_not_a_watchdog_reset(frozen):
    """`mpremote reset` (machine.reset(), which resets the RP2040 through its watchdog)
    on the frozen image after an `mpremote exec` stopped the app: the chip reboots once
    ("force") and the app runs again, back at the menu; the health counters show two
    power-ups and no watchdog reset (they used to count it as the watchdog's)."""
    p = _boot(pico.build_fs_image([]), PITS, uf2=frozen)
    try:
        out = subprocess.run([sys.executable, "-m", "mpremote", "connect", p.port, "exec", "print(6 * 7)"],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0 and "42" in out.stdout, out.stdout + out.stderr
        assert b"watchdog off" in p.output  # mpremote's Ctrl-C stopped the app
        n = len(p.led_log)
        out = subprocess.run([sys.executable, "-m", "mpremote", "connect", p.port, "reset"],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stdout + out.stderr
        p.menu_after(n, BOOT_S)
        assert [r[1] for r in p.resets] == ["force"], p.resets
        link = BoardLink(open_port(p.port, timeout=0.05), timeout=30)
        assert link.status()["state"] == "menu"
        h = link.health()
        assert (h["power_ups"], h["wdt_resets"]) == (2, 0), h
        link.close()
    finally:
        p.close()


def test_a_soft_reset_keeps_the_watchdog_fed_and_a_watchdog_reset_reboots_once(frozen):
    """The RP2040's watchdog runs on across ``machine.soft_reset()`` (as the locked
    board's daily restart does it, docs/museum.md): at the REPL an 8 s ``machine.WDT``
    started, then the soft reset: main.py runs the app again, which starts its watchdog
    again in time (back at the menu, 12 emulated s with no reset; the least time left
    at a feed more than 2 s). Then a 1 s WDT left unfed: exactly one watchdog reset
    ("timer"), the chip reboots from its flash to the menu and goes on, the reset counted
    in health as the watchdog's (the emulator used to fire the watchdog again and again
    at one emulated instant, without end, and never reboot). The frozen image."""
    import serial
    p = _boot(pico.build_fs_image([]), PITS, uf2=frozen)
    try:
        port = serial.Serial(p.port, 115200, timeout=0.05)
        _repl(p, port)
        n, start = len(p.led_log), len(p.output)
        # (one line: an idle REPL's emulated time runs far ahead of the host's typing)
        port.write(b"import machine; w = machine.WDT(timeout=8000); machine.soft_reset()\r")
        p.wait_output(b"soft reboot", 60, start)
        t = p.menu_after(n, BOOT_S)
        p.wait_for(lambda q: q.time_us > t + 12000000, 300, "12 s of the menu")
        assert p.resets == []
        assert 2000000 < p.wdt_min_us < 8000000, p.wdt_min_us
        _repl(p, port)
        _exec(p, port, "import machine; w = machine.WDT(timeout=1000)")
        n = len(p.led_log)
        p.wait_for(lambda q: q.resets, 120, "the watchdog reset")
        assert p.resets[0][1] == "timer"
        port.close()
        t = p.menu_after(n, BOOT_S)
        p.wait_for(lambda q: q.time_us > t + 3000000, 300, "3 s of the menu")
        assert len(p.resets) == 1, p.resets
        link = BoardLink(open_port(p.port, timeout=0.05), timeout=10)
        assert link.status()["state"] == "menu"
        h = link.health()  # (REASON kept across the reset: machine.reset_cause() says WDT)
        assert (h["wdt_resets"], h["restarts"]) == (1, 0), h
        link.close()
    finally:
        p.close()
