"""The product on the emulated Pico (issue 30): the frozen image (``make uf2``:
build/playboard-pico.uf2) in use as a board is used (docs/pico.md, "Tests").

Every game against the engine at its top level with a ``playboard sync`` during it;
the link's requests at any moment (during a search, during a game's start); games
back to back, all kept on the flash; a museum day with power cuts. Each test boots
its own chip. Skips with a clear message where Node, rp2040js or the images are
absent (as tests/rp2/test_pico.py). The emulator runs several host seconds per busy
emulated second: the engine is given 0.6 s a move (``think_ms``, its level the top
one) and the scenarios are short.
"""
import json
import os
import subprocess
import sys
import time

import pytest

from playboard import link as proto
from playboard.app.state import top_level
from playboard.board.layout import load_layout
from playboard.games.registry import new_game

from playboard_host import pico
from playboard_host.serial_link import BoardLink, open_port

from test_pico import CFG, PITS, _boot, _toguz_move, frozen  # noqa: F401 (fixture)
from tobithands import tobit_move, tobit_stand

THINK_MS = 600      # the engine's time a move (emulated ms; the level stays the top one)
N_BACK_TO_BACK = int(os.environ.get("PLAYBOARD_PICO_GAMES", "50"))


def _cli(*words, lib=None, timeout=600):
    """``playboard WORDS`` as a user runs it; the CompletedProcess."""
    env = dict(os.environ)
    if lib:
        env["PLAYBOARD_LIBRARY"] = lib
    return subprocess.run([sys.executable, "-m", "playboard_host.cli"] + list(words),
                          capture_output=True, text=True, env=env, timeout=timeout)


def _link(p, timeout=30):
    return BoardLink(open_port(p.port, timeout=0.05), timeout=timeout)


def _reachable(name, fen0, fen1, plies):
    """Whether position ``fen1`` of game ``name`` follows ``fen0`` by ``plies`` legal
    plies (the rules core's moves, RULES.md)."""
    front = {fen0}
    for _ in range(plies):
        nxt = set()
        for f in front:
            g = new_game(name, f)
            for m in g.legal_moves():
                h = new_game(name, f)
                h.push(m)
                nxt.add(h.fen())
        front = nxt
    return fen1 in front


def _mancala_closed(name, fen):
    """The sensors of the pits holding balls in position ``fen`` of mancala game ``name``."""
    g = new_game(name, fen)
    lay = load_layout(name)
    return [lay.sensor_of(c) for c in range(2 * g.n_pits) if g.pos[c]]


def _until(p, link, pred, timeout, what, step=0.3):
    """Poll the board's status every ``step`` emulated seconds until ``pred(status)``;
    returns that status. TimeoutError naming ``what`` past ``timeout`` host seconds."""
    end = time.monotonic() + timeout
    while True:
        st = link.status()
        if pred(st):
            return st
        if time.monotonic() > end:
            raise TimeoutError("virtual Pico: %s did not happen in %.0f s (last status %r)" % (what, timeout, st))
        p.wait_emulated(step, 300)


def _sync(p, link, lib):
    """`playboard sync` on the board's port (``link``'s port closed meanwhile, as a
    user's other program would be, then opened again); fails the test unless it ends well."""
    link.s.close()
    try:
        out = _cli("sync", "--port", p.port, "-q", lib=lib, timeout=300)
    finally:
        link.s = open_port(p.port, timeout=0.05)
    assert out.returncode == 0, out.stdout + out.stderr


def _sane(st):
    assert not st.get("memory_errors") and st.get("error") is None, st


def _play_mancala_demo(p, link, name, plies, lib):
    """Engine against engine in mancala game ``name`` (begun already): the position
    followed to ``plies`` plies, each step checked against the rules core, the balls
    carried out on the matrix as the board sows them; a `playboard sync` run after the
    first ply. Returns the last status."""
    st = link.status()
    fen, ply, synced = st["fen"], st["ply"], False
    end = time.monotonic() + 240
    while ply < plies and "result" not in st:
        assert time.monotonic() < end, ("%s: stuck at ply %d" % (name, ply), st)
        p.wait_emulated(0.4, 300)
        st = link.status()
        _sane(st)
        assert st["game"] == name and st["state"] == "play", st
        if st["ply"] != ply:
            assert st["ply"] > ply and _reachable(name, fen, st["fen"], st["ply"] - ply), (fen, st)
            fen, ply = st["fen"], st["ply"]
            p.set_closed(_mancala_closed(name, fen))
        if ply >= 1 and not synced:
            _sync(p, link, lib)
            synced = True
            st = link.status()
            assert st["game"] == name and st["state"] == "play" and st["ply"] >= ply, st
    assert synced and ply >= plies, st
    return st


def _tobit_search(p, link, name, lib):
    """Tobit game ``name`` begun (engine against engine, in its set-up): the pieces
    set, the engine's search at the top level runs with a `playboard sync` during it
    and ends (its move shown for a spectator to make; the position unchanged, as the
    rules core's start). Returns the last status."""
    g = new_game(name)
    p.set_closed(tobit_stand(name, g), p.time_us + 100000)
    _until(p, link, lambda st: st.get("thinking"), 120, "%s's search" % name, 0.2)
    _sync(p, link, lib)
    st = _until(p, link, lambda st: not st.get("thinking"), 120, "%s's search ended" % name, 0.2)
    _sane(st)
    assert st["game"] == name and st["state"] == "play" and st["ply"] == 0 and st["fen"] == g.fen(), st
    return st


def test_every_game_against_the_engine_at_its_top_level_with_a_sync_during_each(frozen, tmp_path):
    """Toguz Kumalak and Tihbat, each begun over the link's `G` as
    engine against engine at the game's top level (9, 11 or 13: ``state.top_level``):
    a few plies each, every position the board reports reachable by
    the rules core's moves; `playboard
    sync` during each game answers and the game goes on; no reset, no memory error."""
    p = _boot(None, PITS, uf2=frozen)
    lib = str(tmp_path / "lib.sqlite")
    try:
        link = _link(p)
        link.set_settings(think_ms=THINK_MS)
        for name, plies in (("toguz", 3), ("tihbat", 3)):
            top = top_level(name, CFG)
            assert top >= 9
            st = link.set_game(game=name, mode="demo", level=top, force=True)
            assert st["game"] == name and st["level"] == top, st
            if name in ("toguz", "tihbat"):
                p.set_closed(_mancala_closed(name, new_game(name).fen()))
                _play_mancala_demo(p, link, name, plies, lib)
            else:
                _tobit_search(p, link, name, lib)
        h = link.health()
        assert h["wdt_resets"] == 0 and h.get("faults", 0) == 0, h
        link.close()
        assert p.resets == []
    finally:
        p.close()


def _burst(link, requests, seconds=60):
    """``requests`` [(type, dict)] written at once, back to back (the board busy with
    the first while the others wait); {type: reply payload}, every one answered."""
    frames, want = b"", {}
    for ftype, req in requests:
        link.seq = link.seq % 255 + 1
        frames += proto.encode_frame(link.seq, ftype, json.dumps(req).encode() if req else b"")
        want[link.seq] = ftype
    link.s.write(frames)
    got = {}
    for seq, t, pl in link._read_frames(time.monotonic() + seconds):
        if seq in want and t != "e":
            got[want[seq]] = (t, pl)
            if len(got) == len(want):
                break
    assert sorted(got) == sorted(want.values()), got
    for ftype, (t, pl) in got.items():
        assert t == ftype.lower(), (ftype, t, pl)
    return dict((f, json.loads(pl)) for f, (t, pl) in got.items())


def test_the_links_requests_are_answered_during_a_games_start_and_a_search(frozen):
    """A game's start requested with status, health, list and settings requests
    written right behind it: each answered (none refused for memory); then during
    the engine's search at the top level (Toguz Kumalak, the engine White) the same
    requests, each answered while it thinks, and the search goes on to its move."""
    p = _boot(None, PITS, uf2=frozen)
    try:
        link = _link(p)
        link.set_settings(think_ms=3000)
        top = top_level("toguz", CFG)
        r = _burst(link, [("G", {"game": "toguz", "mode": "black", "level": top, "force": True}),
                          ("S", None), ("C", None), ("L", {"from": 0}), ("R", None)])
        assert r["G"]["game"] == "toguz" and r["S"]["game"] == "toguz", r
        assert r["R"]["think_ms"] == 3000 and "power_ups" in r["C"], r
        _until(p, link, lambda st: st.get("thinking"), 300, "the engine thinking", 0.1)
        r = _burst(link, [("S", None), ("C", None), ("L", {"from": 0}), ("R", None), ("H", None)])
        assert r["S"]["thinking"] and r["H"]["proto"] == 1, r
        _sane(r["S"])
        _until(p, link, lambda st: st["ply"] == 1, 600, "the engine's move")
        st = link.status()
        assert _reachable("toguz", new_game("toguz").fen(), st["fen"], 1), st
        _sane(st)
        link.close()
        assert p.resets == []
    finally:
        p.close()


def test_games_back_to_back_all_kept_on_the_flash(frozen, tmp_path):
    """``PLAYBOARD_PICO_GAMES`` (50) short games one after the other, each begun over
    the link (Toguz Kumalak, engine against engine at level 1), two plies or more
    played, then resigned: the board lists them all, the flash read back holds a
    record of each (its moves replayed by the rules core), `playboard sync` takes them
    all; no reset, no memory error."""
    p = _boot(None, PITS, uf2=frozen)
    try:
        link = _link(p)
        link.set_settings(think_ms=100)
        plies = []
        for k in range(N_BACK_TO_BACK):
            p.set_closed(PITS)
            link.set_game(game="toguz", mode="demo", level=1, force=True)
            _until(p, link, lambda st: st.get("ply", 0) >= 2, 300, "game %d's plies" % (k + 1), 0.2)
            st = link.set_game(resign=k % 2)
            st = link.status()
            _sane(st)
            assert st["finished"] == k + 1 and st["state"] != "play", st
            plies.append(st["ply"])
        listed = link.list_games()
        assert len(listed) == N_BACK_TO_BACK and all(x["finished"] for x in listed), listed
        assert [x["result"] for x in listed] == ["0-1", "1-0"] * (N_BACK_TO_BACK // 2) + ["0-1"] * (N_BACK_TO_BACK % 2)
        link.close()
        fs = p.files()
        recs = sorted(f for f in fs.listdir("/games") if f.endswith(".rec")) if "games" in fs.listdir("/") else []
        assert len(recs) >= N_BACK_TO_BACK, fs.listdir("/")
        # (each answer waited for 5 s: the emulated chip runs slower than the real one on a
        # loaded host, and a CI run timed out its list of 50 games after 4 tries of 1 s)
        out = _cli("sync", "--port", p.port, "-q", "--timeout", "5", lib=str(tmp_path / "lib.sqlite"))
        assert out.returncode == 0, out.stdout + out.stderr
        exp = _cli("export", "--format", "json", lib=str(tmp_path / "lib.sqlite"))
        games = json.loads(exp.stdout)
        assert len(games) == N_BACK_TO_BACK, len(games)
        for gm in games:
            g = new_game("toguz")
            for mv in gm["moves"]:
                g.push(g.parse_move(mv))
        assert sorted(len(gm["moves"]) for gm in games) == sorted(plies)
        assert p.resets == []
    finally:
        p.close()


def _power_cut(p, closed):
    """The power cut: the chip stopped where it was, its flash kept (the product board's
    journal and its filesystem); booted again from that flash with sensors ``closed``.
    Returns the new VirtualPico."""
    start = pico.JOURNAL_OFFSET  # the record's journal and the filesystem after it: the game in play is in the first
    image = p.flash(offset=start, length=pico.FS_OFFSET - start + pico.FS_BLOCKS * pico.FS_BLOCK)
    p.close()
    q = pico.VirtualPico(image, CFG, uf2=p.uf2, speed=0, fs_offset=start).start()
    if closed:
        q.set_closed(closed)
    q.wait_for(lambda r: r.usb_up.is_set() and r.led_frames >= 2, 300, "boot (USB up, the menu lit)")
    return q


def test_a_museum_day_with_power_cuts(frozen, tmp_path):
    """A board at home first (resume "always"): a Toguz Kumalak game played on the
    matrix, the power cut after its third move, the board back with the game resumed
    at its position, no move lost, and played on. Then the museum profile (`playboard
    settings --profile museum`: locked, resume "never"), a visitor's Tobit game begun
    by setting its pieces, two moves, the power cut: the board comes back to its menu
    with the visitor's game closed (abandoned), both moves kept on flash; `playboard
    sync` takes every game of the day, move for move; no watchdog reset."""
    lib = str(tmp_path / "lib.sqlite")
    p = _boot(None, PITS, uf2=frozen)
    try:
        link = _link(p)
        link.set_game(game="toguz", mode="two")
        _until(p, link, lambda st: st["state"] == "play", 120, "the game begun")
        p.wait_emulated(1, 120)
        g = new_game("toguz")
        for pit in (2, 9 + 6, 8):
            _toguz_move(p, link, g, pit, p.time_us + 100000)
            g.push(pit - 9 * g.turn)
        st = link.status()
        assert st["fen"] == g.fen() and st["queue"] == 0, st
        link.close()
        p = _power_cut(p, [PITS[c] for c in range(18) if g.pos[c]])
        link = _link(p)
        _until(p, link, lambda st: st["state"] == "play", 300, "the game resumed")
        st = link.status()
        assert st["game"] == "toguz" and st["ply"] == 3 and st["fen"] == g.fen(), st
        _toguz_move(p, link, g, 9 + 1, p.time_us + 100000)  # North's pit 2
        g.push(1)
        assert link.status()["fen"] == g.fen()
        link.set_game(resign=g.turn)  # (the players leave: a game of 4 moves, resigned)
        link.close()
        out = _cli("settings", "--profile", "museum", "--port", p.port)
        assert out.returncode == 0, out.stdout + out.stderr
        p.set_closed([])
        p.wait_emulated(1, 300)
        link = _link(p)
        assert link.settings()["resume"] == "never"
        t = new_game("tobit")
        stand = tobit_stand("tobit", t)
        p.set_closed(stand, p.time_us + 100000)
        _until(p, link, lambda st: st["state"] == "play", 300, "the visitor's Tobit game begun")
        for k in range(2):
            tobit_move(p, "tobit", stand, t, t.legal_moves()[k])
        st = link.status()
        assert st["game"] == "tobit" and st["ply"] == 2 and st["fen"] == t.fen() and st["queue"] == 0, st
        link.close()
        p = _power_cut(p, [])
        link = _link(p)
        st = link.status()
        assert st["state"] in ("menu", "attract") and st["current"] is None, st
        assert link.health()["wdt_resets"] == 0
        link.close()
        out = _cli("sync", "--port", p.port, "-q", lib=lib)
        assert out.returncode == 0, out.stdout + out.stderr
        games = json.loads(_cli("export", "--format", "json", lib=lib).stdout)
        assert len(games) == 2, games
        assert sorted(len(gm["moves"]) for gm in games) == [2, 4], games
        assert p.resets == []
    finally:
        p.close()


def _console_to_the_menu(monkeypatch, **kw):
    """`playboard sim --pico`'s console (``pico.console.run(**kw)``) typed at until the
    board's menu is lit (its second LED frame), then ``time`` and ``quit``: (its output,
    [(the files staged on the flash, the extra file names)])."""
    import io
    import re
    from playboard_host.pico import console

    staged = []
    real = pico.build_fs_image
    monkeypatch.setattr(pico, "build_fs_image", lambda files, extra=None: staged.append(
        ([b for a, b in files], sorted(extra or {}))) or real(files, extra))
    out = io.StringIO()

    def typed():
        end = time.monotonic() + 240
        while time.monotonic() < end:
            yield "leds\n"
            frames = [int(n) for n in re.findall(r"frame (\d+): ", out.getvalue())]
            if frames and frames[-1] >= 2:  # the first frame (the boot's), then the menu's
                break
            time.sleep(1)
        yield "time\n"
        yield "quit\n"

    assert console.run(inp=typed(), out=out, **kw) == 0
    text = out.getvalue()
    last = re.findall(r"frame (\d+): (.*)", text)[-1]
    assert int(last[0]) >= 2 and last[1] != "all dark", text
    assert "watchdog resets: none" in text, text
    return text, staged


def test_sim_pico_runs_the_product_image(frozen, monkeypatch):
    """`playboard sim --pico` on the product image where it is built: only ``board.txt``
    on the flash (no ``.mpy`` deployed), the board lit to its menu by the frozen
    firmware, its LEDs read back at the console, no reset."""
    monkeypatch.setenv("PLAYBOARD_FROZEN_UF2", frozen)
    text, staged = _console_to_the_menu(monkeypatch)
    assert staged == [([], ["board.txt"])], staged
    assert "image: %s (the product: the firmware frozen in)" % frozen in text, text


def test_sim_pico_stock_runs_the_mpy_deploy_on_the_stock_image(monkeypatch):
    """`playboard sim --pico --stock`: the stock MicroPython image with the firmware's
    ``.mpy`` files on its flash (as ``playboard deploy`` stages them), lit to its menu."""
    from test_pico import _needs_pico
    _needs_pico()
    text, staged = _console_to_the_menu(monkeypatch, stock=True)
    (files, extra), = staged
    assert "main.py" in files and "playboard/app/loop.mpy" in files and extra == ["board.txt"], staged
    assert "(stock MicroPython, the firmware as .mpy files on its flash)" in text, text


def _engine_move(p, link, timeout=180):
    """The engine's move as the board asks for it to be made (its live ``engine`` event;
    live events on): (move text, the event, the live ``thinking`` event before it: its
    search's start, or None), every status polled meanwhile sane. TimeoutError past
    ``timeout`` host seconds."""
    thinking = None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        st = link.status()
        _sane(st)
        evs, link.events = link.events, []
        for ev in evs:
            if ev.get("ev") == "thinking":
                thinking = ev
            elif ev.get("ev") == "engine":
                return ev["move"], ev, thinking
        p.wait_emulated(0.2, 300)
    raise TimeoutError("virtual Pico: no engine move in %.0f s (last status %r)" % (timeout, st))


def _leaving_a_choice(name, g):
    """A legal move of Tobit game ``g`` after which the side to move has more than one
    (a single move, a forced capture, is made without a search)."""
    for m in g.legal_moves():
        h = new_game(name, g.fen())
        h.push(m)
        if len(h.legal_moves()) > 1:
            return m
    raise AssertionError("every move of %s leaves one reply" % g.fen())


@pytest.mark.parametrize("name", ["tobit", "tobit4"])
def test_tobit_against_the_engine_at_its_top_level_its_move_made_on_the_board(frozen, name):
    """Tobit (and Tobit 4x4) against the engine at the game's top level on the product
    image, the engine White (mode ``black``): the pieces set on the matrix, the
    engine's search starts (its ``thinking`` event), ends with a move the board asks
    for (live ``engine`` event) that the rules core holds legal; that move made on the
    matrix (lift, put down, captures taken off) is committed and recorded: the board's
    position is the rules core's after it, and its record, fetched over the link, holds
    it; then a move of Black's by hand, and the engine's second search gives a legal move,
    made and recorded too. No reset, no memory error."""
    p = _boot(None, [], uf2=frozen)
    try:
        link = _link(p)
        link.set_settings(think_ms=THINK_MS)
        top = top_level(name, CFG)
        assert top >= 11
        st = link.set_game(game=name, mode="black", level=top, force=True)
        assert st["game"] == name and st["level"] == top, st
        link.live(True)
        g = new_game(name)
        stand = tobit_stand(name, g)
        p.set_closed(stand, p.time_us + 100000)
        text, ev, thinking = _engine_move(p, link)
        assert thinking == {"ev": "thinking", "side": 0, "level": top}, thinking  # its search started,
        assert ev["nodes"] > 0 and ev["depth"] >= 1, ev  # ran and ended
        m = g.parse_move(text)
        assert m in g.legal_moves(), (text, g.fen())
        tobit_move(p, name, stand, g, m)
        st = _until(p, link, lambda s: s["ply"] == 1, 120, "the engine's move committed")
        assert st["fen"] == g.fen() and st["state"] == "play" and st["queue"] == 0, (st, g.fen())
        rec, raw = link.fetch_game(st["current"])  # (the game in play: its file and the journal)
        assert rec.name == name and rec.moves == [text], (rec.moves, text)
        black = _leaving_a_choice(name, g)
        moves = [text, g.move_text(black)]
        tobit_move(p, name, stand, g, black)  # Black's, by hand
        text2, ev2, thinking = _engine_move(p, link)
        assert thinking is not None and ev2["nodes"] > 0, (thinking, ev2)
        m2 = g.parse_move(text2)
        assert m2 in g.legal_moves(), (text2, g.fen())
        tobit_move(p, name, stand, g, m2)
        st = _until(p, link, lambda s: s["ply"] == 3, 120, "the engine's second move committed")
        assert st["fen"] == g.fen(), (st, g.fen())
        assert link.fetch_game(st["current"])[0].moves == moves + [text2]
        h = link.health()
        assert h["wdt_resets"] == 0 and h.get("faults", 0) == 0, h
        link.close()
        assert p.resets == []
    finally:
        p.close()
