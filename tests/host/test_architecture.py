"""The layout of docs/architecture.md holds: no import circles among the files of
``firmware/`` and ``host_tools/`` (every import counts, a function's lazy import
too, and a package's ``__init__.py`` is a file like any other), nothing imports
upward across the layers, the board's firmware never imports a simulator or host
module, and the freeze manifest holds exactly what a board runs."""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FW = os.path.join(ROOT, "firmware")
HOST = os.path.join(ROOT, "host_tools")

# The layers, lowest first: a module may import its own room (without a circle) and
# the rooms of lower layers, never a room of its own layer or a higher one.
LAYERS = (
    ("playboard.compat",),
    ("playboard.games", "playboard.hw", "playboard.faultring"),
    ("playboard.board", "playboard.engine", "playboard.pgn", "playboard.record",
     "playboard.settings", "playboard.health"),
    ("playboard.config", "playboard.link"),
    ("playboard.app",),
    ("playboard.sim",),
    ("main",),
    ("playboard_host", "pico_board"),
)
# playboard/__init__.py (the version) is below everything
BASE = ("playboard",)


def module_files():
    """{dotted module name: file path} of every .py file under firmware/ and host_tools/."""
    out = {}
    for top in (FW, HOST):
        for d, dirs, files in os.walk(top):
            dirs[:] = [x for x in dirs if x not in ("__pycache__", "static", "data", "boards")]
            for f in files:
                if not f.endswith(".py") or f == "manifest.py" and d == FW:
                    continue
                p = os.path.join(d, f)
                name = os.path.relpath(p, top)[:-3].replace(os.sep, ".")
                if name.endswith(".__init__"):
                    name = name[: -len(".__init__")]
                out[name] = p
    return out


def _resolve(name, mods):
    while name:
        if name in mods:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(mods):
    """{module: set of modules it imports} (in-project only). ``from a.b import c``
    depends on ``a.b`` and, where ``a.b.c`` is a module, on it too; so does
    ``__import__("a.b")`` and ``app.cold("a.b")`` with the name written out; every enclosing function and
    branch counts."""
    graph = {}
    for m, p in mods.items():
        with open(p, encoding="utf-8") as f:
            tree = ast.parse(f.read(), p)
        pkg = m if p.endswith("__init__.py") else m.rpartition(".")[0]
        deps = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.Import):
                names = [a.name for a in n.names]
            elif isinstance(n, ast.ImportFrom):
                base = n.module or ""
                if n.level:
                    parts = pkg.split(".")[: len(pkg.split(".")) - (n.level - 1)]
                    base = ".".join(parts + ([base] if base else []))
                names = [base] + [base + "." + a.name for a in n.names]
            elif (isinstance(n, ast.Call) and n.args and isinstance(n.args[0], ast.Constant)
                  and isinstance(n.args[0].value, str)
                  and ((isinstance(n.func, ast.Name) and n.func.id == "__import__")
                       or (isinstance(n.func, ast.Attribute) and n.func.attr == "cold"))):
                names = [n.args[0].value]  # (a module imported by its name's string: App.cold too)
            else:
                continue
            for nm in names:
                r = _resolve(nm, mods)
                if r is not None and r != m:
                    deps.add(r)
        graph[m] = deps
    return graph


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def room(m):
    """(layer number, room) of module ``m``."""
    best = None
    for k, rooms in enumerate(LAYERS):
        for r in rooms:
            if (m == r or m.startswith(r + ".")) and (best is None or len(r) > len(best[1])):
                best = (k, r)
    if best is None:
        assert m in BASE, "module %s is in no layer of docs/architecture.md" % m
        return (-1, m)
    return best


def test_no_import_circles():
    graph = imports(module_files())
    assert len(graph) >= 75  # every file was read
    assert cycles(graph) == []


def test_the_cycle_finder_finds_circles():
    # a package whose __init__ holds a factory that imports a submodule, which takes
    # a name from the __init__: the shape the layout removed
    g = {"p": {"p.a"}, "p.a": {"p", "q"}, "q": set(), "r": {"s"}, "s": {"t"}, "t": {"r"}}
    assert sorted(cycles(g)) == [["p", "p.a"], ["r", "s", "t"]]


def test_nothing_imports_upward():
    graph = imports(module_files())
    bad = []
    for m, deps in graph.items():
        lm, rm = room(m)
        for d in deps:
            ld, rd = room(d)
            if rd != rm and ld >= lm:
                bad.append("%s -> %s" % (m, d))
    assert bad == []


def test_firmware_never_imports_the_simulator_or_the_host():
    graph = imports(module_files())
    for m, deps in graph.items():
        if m.startswith("playboard") and not m.startswith(("playboard.sim", "playboard_host")):
            assert not [d for d in deps if d.startswith(("playboard.sim", "playboard_host"))], m


def board_closure(graph):
    """Every firmware module a board can import, starting from main.py's board path
    (main.py's simulator branch, ``playboard.sim``, is not the board's)."""
    seen = set()
    todo = [d for d in graph["main"] if not d.startswith("playboard.sim")]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        todo.extend(graph[m])
        parent = m.rpartition(".")[0]
        while parent:  # importing a.b.c runs a/__init__.py and a/b/__init__.py
            todo.append(parent)
            parent = parent.rpartition(".")[0]
    return seen


def manifest_calls(**options):
    """The calls firmware/manifest.py makes, run with ``options`` (as include(..., **options))."""
    calls = []

    class Options:
        def __getattr__(self, name):
            return options.get(name)

    def include(path, **kw):
        calls.append(("include", path, kw))

    def package(path, files=None, base_path=".", opt=None):
        calls.append(("package", path, {"files": files, "base_path": base_path, "opt": opt}))

    def module(path, base_path=".", opt=None):
        calls.append(("module", path, {"base_path": base_path, "opt": opt}))

    with open(os.path.join(FW, "manifest.py")) as f:
        exec(compile(f.read(), "manifest.py", "exec"),
             {"include": include, "package": package, "module": module, "require": include,
              "options": Options()})
    return calls


def test_manifest_freezes_exactly_what_a_board_runs():
    calls = manifest_calls()
    assert ("include", "$(PORT_DIR)/boards/manifest.py", {}) in calls
    pkgs = [c for c in calls if c[0] == "package"]
    # main.py and the data files' module (host_tools/frozen_files.py writes it at build time)
    assert [c[1] for c in calls if c[0] == "module"] == ["main.py", "playboard/frozen_files.py"]
    assert len(pkgs) == 1 and pkgs[0][1] == "playboard" and pkgs[0][2]["opt"] == 3
    base = os.path.join(FW, pkgs[0][2]["base_path"], "playboard")
    frozen = set()
    for f in pkgs[0][2]["files"]:
        assert os.path.isfile(os.path.join(base, f)), f
        name = "playboard." + f[:-3].replace("/", ".")
        frozen.add(name[: -len(".__init__")] if name.endswith(".__init__") else name)
    graph = imports(module_files())
    want = board_closure(graph)
    assert "playboard.app.loop" in want and "playboard.hw.rp2" in want and "playboard.engine.search" in want
    assert not [m for m in frozen if m.startswith(("playboard.sim", "playboard_host"))]
    assert frozen == want


def test_manifest_for_the_simulators_model_freezes_the_whole_package():
    """With ``model=True`` (host_tools/build_image.sh model): every module of the package,
    the simulated board's too, and not the rp2 board's own manifest."""
    calls = manifest_calls(model=True, data="/x")
    assert ("include", "$(PORT_DIR)/boards/manifest.py", {}) not in calls
    assert [(c[1], c[2]["files"]) for c in calls if c[0] == "package"] == [("playboard", None)]
    assert ("module", "playboard/frozen_files.py", {"base_path": "/x", "opt": 3}) in calls
