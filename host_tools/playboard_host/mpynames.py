"""The names (qstrs) the firmware's ``.mpy`` files intern, written for a locked board to intern at power-up.

MicroPython's ``.mpy`` files (format 6, mpy-cross) begin with a table of the names
their code uses: a count, then each name as ``vuint(len << 1 | static)`` followed, for
a name not among MicroPython's static ones (an index then), by its bytes and a NUL.
Loading a module interns those names for ever. A locked (museum) board interns them
all at power-up instead (``playboard.app.names``, docs/museum.md "Known problems"),
so that the names' pool grows while the heap is whole: :func:`write_names` writes
the file it reads (``data/names``, one name a line) beside a build's ``playboard``
package (``build/simfw`` for the simulated board, ``build/deploy`` for ``playboard deploy``).
"""
import os

FILE = os.path.join("data", "names")


def _vuint(b, i):
    v = 0
    while True:
        c = b[i]
        i += 1
        v = (v << 7) | (c & 0x7F)
        if not c & 0x80:
            return v, i


def mpy_names(data):
    """The names a ``.mpy`` file's code interns when loaded (``data``: its bytes), in its
    table's order, static ones (MicroPython's own, in ROM) left out; the first is the
    module's source name (mpy-cross ``-s``). ValueError if ``data`` is not a format 6 ``.mpy``."""
    if len(data) < 4 or data[0:1] != b"M" or data[1] != 6:
        raise ValueError("not a format 6 .mpy file")
    i = 4
    if data[2] & 0x40:  # the architecture's flags follow the header
        _, i = _vuint(data, i)
    n, i = _vuint(data, i)
    _, i = _vuint(data, i)  # the objects' count
    out = []
    for _ in range(n):
        v, i = _vuint(data, i)
        if v & 1:
            continue  # a static name: an index
        ln = v >> 1
        out.append(data[i:i + ln].decode("utf-8"))
        i += ln + 1  # the bytes and their NUL
    return out


def mpy_files(build, skip=()):
    """The ``.mpy`` files of ``build``'s ``playboard`` package, ``build``-relative with
    ``/``, sorted; those starting with an entry of ``skip`` left out."""
    out = []
    for d, _, files in os.walk(os.path.join(build, "playboard")):
        for f in files:
            if f.endswith(".mpy"):
                rel = os.path.relpath(os.path.join(d, f), build).replace(os.sep, "/")
                if not any(rel.startswith(x) for x in skip):
                    out.append(rel)
    return sorted(out)


def build_names(build, files):
    """The names of the ``.mpy`` files ``files`` (``build``-relative), each once, in
    order; names holding a line break left out (the file's separator)."""
    seen = set()
    out = []
    for rel in files:
        with open(os.path.join(build, rel), "rb") as fh:
            names = mpy_names(fh.read())
        for q in names:
            if q not in seen and "\n" not in q and "\r" not in q:
                seen.add(q)
                out.append(q)
    return out


def write_names(build, files):
    """Write ``build/data/names`` (:func:`build_names` of ``files``, one a line, UTF-8),
    only when it changed (a deploy copies only what changed). Returns its path."""
    path = os.path.join(build, FILE)
    text = "".join(q + "\n" for q in build_names(build, files)).encode("utf-8")
    try:
        with open(path, "rb") as f:
            if f.read() == text:
                return path
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".%d.tmp" % os.getpid()
    with open(tmp, "wb") as f:
        f.write(text)
    os.replace(tmp, path)
    return path
