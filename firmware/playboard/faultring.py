"""The tracebacks of the faults the app contained (``playboard.app.contain``), kept on
flash: a ring of the last ``KEEP`` in the file ``faults`` of the store's folder
(docs/app.md "Containment"). Cold: loaded when a fault is kept and by the link's ``C``
(``playboard.health.link``) when the file is there."""
from playboard.compat import const

KEEP = const(4)  # tracebacks kept (a ring: the oldest goes)
TB_LINK = const(160)  # characters of the newest the link's C gives (its payload: 480 bytes)


def read_ring(store):
    """The tracebacks kept on ``store``'s flash, oldest first: a list of
    ``(count, ms, text)``; [] when there is none (a damaged file: what reads)."""
    try:
        f = store.fs.open(store.root + "/faults", "rb")
    except OSError:
        return []
    try:
        data = f.read()
    finally:
        f.close()
    out = []
    for part in data.decode("utf-8", "replace").split("\n@ "):
        if part.startswith("@ "):
            part = part[2:]
        head, _, body = part.partition("\n")
        w = head.split(" ")
        if len(w) == 2 and w[0].isdigit() and w[1].isdigit():
            out.append((int(w[0]), int(w[1]), body))
    return out


def write_ring(store, ring):
    """Write ``ring`` (as :func:`read_ring` gives, its last KEEP): the file ``faults``,
    each entry a line ``@ <count> <ms>`` (the fault's count, the board's clock) and the
    traceback's text, the whole file through ``faults.tmp`` and a rename (a power cut
    leaves the old ring or the new one), as ``health`` itself; False
    (``store.error`` set) if the flash failed."""
    out = []
    for n, ms, t in ring[-KEEP:]:
        out.append("@ %d %d\n%s" % (n, ms, t))
    path = store.root + "/faults"
    try:
        f = store.fs.open(path + ".tmp", "wb")
        try:
            f.write("\n".join(out).encode())
        finally:
            f.close()
        try:
            store.fs.rename(path + ".tmp", path)
        except OSError:  # (a file system whose rename will not replace)
            store.fs.remove(path)
            store.fs.rename(path + ".tmp", path)
        return True
    except OSError as e:
        store.error = "faults: %r" % (e,)
        return False


def newest(ring):
    """The link's view of ``ring``: the newest traceback's end (where it was raised),
    cut to fit the link's payload beside the counters, ``[[count, ms, text]]`` ([] when
    none); the whole ring stays on flash until the host takes it."""
    return [[n, ms, t[-TB_LINK:]] for n, ms, t in ring[-1:]]


def take(store, ring, taken):
    """The host stored the tracebacks ``taken`` (``[[count, ms], ...]``): that one and the
    older go from the ring on flash, one kept since stays. Returns :func:`newest` of
    what is left."""
    keys = [(e[0], e[1]) for e in taken if isinstance(e, list) and len(e) >= 2]
    left = ring
    for i in range(len(ring)):
        if (ring[i][0], ring[i][1]) in keys:
            left = ring[i + 1:]
    if len(left) < len(ring):
        if not left:
            try:
                store.fs.remove(store.root + "/faults")
            except OSError:
                pass
        else:
            write_ring(store, left)
    return newest(left)
