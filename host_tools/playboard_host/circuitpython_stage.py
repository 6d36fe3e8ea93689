"""The firmware staged for CircuitPython: the files of a CIRCUITPY drive, and their copy.

The firmware goes on the drive as ``.py`` sources (:func:`staged_sources`), not ``.mpy``:
CircuitPython's ``.mpy`` header differs from MicroPython's and no CircuitPython
``mpy-cross`` is at hand, so the chip compiles each module into its heap at import.
CircuitPython has no native emitter (``@micropython.viper``/``native`` are a
compile-time SyntaxError there): the staged copy of a module has those decorator
lines blanked (line numbers kept), which leaves the function as the plain Python
that CPython already runs and the tests check against the viper originals
(``playboard.compat``: on CircuitPython the viper casts ``ptr8()`` are the identity);
docstrings are blanked too (less for the chip's compiler to hold). ``boot.py``
remounts the drive writable for Python (the games' records): while USB is connected
it is otherwise read-only to Python. :func:`copy_to_drive` is ``playboard deploy
--circuitpython``: the files that differ written to a mounted drive.
"""
import os
import re

from playboard_host.firmware_files import sources

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = "deploy.incomplete"   # firmware/main.py's DEPLOY_MARK

BOOT_PY = b'''"""Playboard: the drive writable to Python (the games' records), read-only to USB."""
import storage
storage.remount("/", readonly=False)
'''

_DECORATOR = re.compile(rb"^[ \t]*@micropython\.(viper|native)[ \t]*(#.*)?$", re.M)

_DECORATOR = re.compile(rb"^[ \t]*@micropython\.(viper|native)[ \t]*(#.*)?$", re.M)


def strip_native(source):
    """``source`` (bytes of a .py) with its ``@micropython.viper``/``native`` decorator
    lines blanked, so that CircuitPython compiles the functions as plain Python."""
    return _DECORATOR.sub(b"", source)


def blank_docstrings(source):
    """``source`` (bytes of a .py) with each docstring standing on lines of its own
    (module, class, function) replaced by ``0`` and blank lines: the same code, the
    same line numbers, less for the chip's compiler to read into its heap (a docstring
    becomes a string object while the module compiles, then is thrown away)."""
    import ast
    text = source.decode()
    lines = text.split("\n")
    spans = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            d = node.body[0]
            if isinstance(d, ast.Expr) and isinstance(d.value, ast.Constant) and isinstance(d.value.value, str):
                first, last = d.lineno - 1, d.end_lineno - 1
                head = lines[first][:d.col_offset]
                if head.strip() == "" and lines[last][d.end_col_offset:].strip() == "":
                    spans.append((first, last, head))
    for first, last, head in spans:
        lines[first] = head + "0"
        for k in range(first + 1, last + 1):
            lines[k] = ""
    return "\n".join(lines).encode()


def staged_sources(firmware=None):
    """{board path: bytes} of the firmware for a CircuitPython drive: ``main.py``, the
    ``playboard`` package as ``.py`` (viper/native decorators and docstrings blanked, the simulated
    board's ``playboard/sim`` left out, as ``playboard deploy`` leaves it), ``boards/``,
    ``data/``, and ``boot.py`` (the drive writable to Python)."""
    firmware = firmware or os.path.join(ROOT, "firmware")
    out = {}
    for src, dest in sources(firmware):
        with open(src, "rb") as f:
            data = f.read()
        if dest.endswith(".py"):
            data = blank_docstrings(strip_native(data))
        out[dest] = data
    out["boot.py"] = BOOT_PY
    return out


def copy_to_drive(files, drive, out=print):
    """Write ``files`` {board path: bytes} under folder ``drive`` (a mounted CIRCUITPY),
    only those whose bytes differ, the marker ``deploy.incomplete`` there meanwhile
    (``main.py`` keeps the app stopped while it is: a copy cut off never runs old and new
    modules mixed). Returns (copied, unchanged) counts. OSError (one line) if the
    drive cannot be written (not mounted, or read-only: the board's boot.py gives the
    drive to Python; boot the board without it, e.g. in safe mode, to write from the PC)."""
    if not os.path.isdir(drive):
        raise OSError("no drive at %s (mount the board's CIRCUITPY drive)" % drive)
    mark = os.path.join(drive, MARK)
    with open(mark, "w") as f:
        f.write("playboard deploy\n")
    copied = same = 0
    for dest, data in sorted(files.items()):
        path = os.path.join(drive, *dest.split("/"))
        try:
            with open(path, "rb") as f:
                if f.read() == data:
                    same += 1
                    continue
        except OSError:
            pass
        os.makedirs(os.path.dirname(path) or drive, exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        out("copy  %s" % dest)
        copied += 1
    os.remove(mark)
    return copied, same
