"""``playboard match --micropython``: a match's games played under MicroPython, game for
game those of the CPython path (``match.run_match``), at the speed of the native code.

The openings and the players' seeds are drawn here (CPython's ``random``); each of
``processes`` workers (``match_worker.py`` under MicroPython: by default the simulator's
model, ``build/micropython-board``, the firmware frozen in, in the chip's heap
``MODEL_HEAP``) is fed one game at a time on its standard input and answers one JSON
line per game, which becomes the row ``match._task`` gives. The old engines (``base8``,
``prev8``, ``was9``) are written from git to a temporary folder as modules of their own
(``match.baseline_sources``) that the workers import; the model has room for them and
today's engine (a worker with ``was9`` plays its games in a 100 KB heap too). ``random``,
``greedy`` and ``noisy`` draw from CPython's ``random``: MicroPython's gives other games,
so they are refused. A worker that dies or answers garbage: ``WorkerFailed``, after the games
already played were handed on.
"""
import json
import os
import queue
import subprocess
import tempfile
import threading

from playboard.engine.search import MAX_PLY, levels_of

from playboard_host import match
from playboard_host import simboard
from playboard_host.simboard import FIRMWARE, MODEL_HEAP

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "match_worker.py")


class WorkerFailed(RuntimeError):
    """A worker died, or printed something that is not a game's answer: ``str`` is one
    line naming the game and the worker's last standard error lines."""


def check_players(specs):
    """ValueError (one line) unless every spec is an engine (``L``, or an old engine):
    the others draw from CPython's ``random``, which MicroPython has not."""
    for spec in specs:
        if match.parse_spec(spec)[0] in ("random", "greedy", "noisy"):
            raise ValueError("player %r: random, greedy and noisy draw from CPython's random; under "
                             "--micropython only engines play (L1.., base8, prev8, was9)" % spec)


def worker_player(game, spec, nodes, seed, native):
    """The worker's ``[kind, level, nodes, tt, seed, native]`` for ``match.Player(spec,
    nodes, seed, native)`` in ``game``: the same search at the same nodes (a native
    level searches natively: ``Engine.native``, whose level table gives its share)."""
    kind, level, own = match.parse_spec(spec)
    budget = own or nodes
    on_chip = False
    if native and kind == "engine":
        if levels_of(game, True)[level][0] < MAX_PLY - 1:  # the engine's own search
            budget = own or match.DEFAULT_NODES[game]
        else:
            on_chip = True
    return [kind, level, budget, match.table_of(spec), seed & 0x3FFFFFFF or 1, on_chip]


def task_line(task):
    """The worker's JSON line for ``match._task``'s ``task``."""
    game, a, b, nodes, opening, seed, i, native = task
    white, black = (a, b) if i % 2 == 0 else (b, a)
    moves = [m if isinstance(m, int) else list(m) for m in opening]
    return json.dumps([i, game, moves, match.MAX_PLIES[game],
                       worker_player(game, white, nodes, seed * 2 + 1, native),
                       worker_player(game, black, nodes, seed * 2 + 2, native)]) + "\n"


def row_of(task, answer):
    """``match._task``'s row for ``task`` from the worker's ``answer`` line: (i, score
    of A, result, plies, termination, seconds, A's Tihbat margin). ValueError if it is
    not the answer for that game."""
    game, a, b, nodes, opening, seed, i, native = task
    j, result, plies, term, judged_w, judged_b = json.loads(answer)
    if j != i or result not in ("1-0", "0-1", "1/2-1/2") or not isinstance(plies, int):
        raise ValueError("not game %d's answer" % i)
    a_white = i % 2 == 0
    if result == "1/2-1/2":
        score_a = 0.5
    else:
        score_a = 1.0 if (result == "1-0") == a_white else 0.0
    return i, score_a, result, plies, term, 0.0, judged_w if a_white else judged_b


def _tail(path, n=3):
    with open(path, errors="replace") as f:
        lines = [ln.strip() for ln in f if ln.strip()]
    return " | ".join(lines[-n:]) or "nothing on its standard error"


def heap_for(micropython):
    """The ``-X heapsize`` for the workers of binary ``micropython``: the chip's
    (``MODEL_HEAP``) for the simulator's model, whose firmware is frozen in; 4 MB for
    another MicroPython (a plain unix port: the firmware's .py files from ``firmware/``,
    the same code, compiled into its heap)."""
    model = simboard.model_binary(build=False)
    same = model is not None and os.path.realpath(model) == os.path.realpath(micropython)
    return MODEL_HEAP if same else "4m"


def play(tasks, processes, micropython, note=None):
    """Play ``match._task``'s ``tasks`` on ``processes`` workers run by the MicroPython
    binary ``micropython`` (in ``heap_for``'s heap); return the rows
    (``match._task``'s), calling ``note(row)`` as each comes. WorkerFailed (one line)
    when a worker fails; KeyboardInterrupt stops the workers and propagates."""
    specs = sorted({t[1] for t in tasks} | {t[2] for t in tasks})
    check_players(specs)
    heap = heap_for(micropython)
    if os.path.exists(micropython):  # (the workers run in a folder of their own)
        micropython = os.path.abspath(micropython)
    todo = queue.Queue()
    for t in tasks:
        todo.put(t)
    done = queue.Queue()
    procs = []
    with tempfile.TemporaryDirectory(prefix="playboard-match-") as tmp:
        old = {}
        for kind, rev in match.OLD_REVS.items():
            if any(match.parse_spec(s)[0] == kind for s in specs):
                for name, code in match.baseline_sources(rev):
                    with open(os.path.join(tmp, name + ".py"), "w") as f:
                        f.write(code)
                old[kind] = name  # (the last: the search)
        env = dict(os.environ, MICROPYPATH=".frozen:%s:%s" % (FIRMWARE, tmp))

        def work(k):
            err_path = os.path.join(tmp, "worker%d.err" % k)
            try:
                with open(err_path, "w") as err:
                    p = subprocess.Popen([micropython, "-X", "heapsize=" + heap, WORKER], cwd=tmp, env=env,
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)
            except OSError as e:
                done.put(WorkerFailed("%s: worker %d did not start: %s" % (tasks[0][0], k + 1, e)))
                done.put(None)
                return
            procs.append(p)
            t = None
            try:
                p.stdin.write(json.dumps({"old": old}) + "\n")
                while True:
                    try:
                        t = todo.get_nowait()
                    except queue.Empty:
                        break
                    p.stdin.write(task_line(t))
                    p.stdin.flush()
                    line = p.stdout.readline()
                    try:
                        done.put(row_of(t, line))
                    except (ValueError, TypeError):
                        p.kill()
                        p.wait()
                        raise WorkerFailed("%s: worker %d (%s) %s in game %d (%s as White): %s" % (
                            t[0], k + 1, os.path.basename(micropython),
                            "printed %r" % line.strip()[:80] if line.strip() else "died (status %s)" % p.returncode,
                            t[6] + 1, t[1] if t[6] % 2 == 0 else t[2], _tail(err_path)))
            except WorkerFailed as e:
                done.put(e)
            except OSError as e:  # (a pipe closed: the worker is gone)
                p.wait()
                done.put(WorkerFailed("%s: worker %d (%s) died (status %s) in game %s: %s" % (
                    tasks[0][0], k + 1, os.path.basename(micropython), p.returncode,
                    "?" if t is None else t[6] + 1, _tail(err_path) if os.path.exists(err_path) else e)))
            finally:
                if p.stdin and not p.stdin.closed:
                    try:
                        p.stdin.close()
                    except OSError:
                        pass
            done.put(None)

        n = max(1, min(processes, len(tasks)))
        threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(n)]
        for th in threads:
            th.start()
        rows = []
        running = len(threads)
        failed = None
        try:
            while running:
                r = done.get()
                if r is None:
                    running -= 1
                elif isinstance(r, WorkerFailed):
                    failed = failed or r
                    while True:  # no more games for the others: they finish the one in hand
                        try:
                            todo.get_nowait()
                        except queue.Empty:
                            break
                else:
                    rows.append(r)
                    if note is not None:
                        note(r)
        finally:
            while True:  # (a Ctrl-C: no more games handed out)
                try:
                    todo.get_nowait()
                except queue.Empty:
                    break
            for p in procs:
                if running and p.poll() is None:
                    p.kill()
                p.wait()
        if failed is not None:
            raise failed
    return rows


def runner(micropython):
    """``match.run_match``'s ``play`` for the MicroPython binary ``micropython``: refuses
    (ValueError, before any game) the players it cannot play alike (``check_players``),
    then plays (``play``)."""
    def run(tasks, processes, note):
        check_players({t[1] for t in tasks} | {t[2] for t in tasks})
        return play(tasks, processes, micropython, note)
    return run
