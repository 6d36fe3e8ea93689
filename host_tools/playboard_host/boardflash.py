"""A simulated board's games as the board keeps them, read from the host: a game's
file with what the record's journal holds of it (docs/app.md, "The journal").

With the journal (the simulated board's default, as the product board's), the moves
of the game in play are in the journal (``<flash>/journal``, or ``<image>.journal``
beside a littlefs image) until the game ends or the board powers up again: its file
``g<id>.rec`` alone is the game as it was when the journal began (a game begun in
the journal has no file until then: the journal holds it whole). These functions
put the two together as the board does at power-up (``Journal.settle``): the
journal's records that the file does not hold yet, after the file's bytes. The
journal is read by the firmware's own reader (``playboard.record.journal.Journal``:
``scan``), on a copy taken at one moment; nothing on the board's flash is written.

For tests, the whole-board fuzz (``playboard_host.fuzz``) and tools that look into
a simulated board's flash folder (or, ``join_journal``, a CircuitPython board's drive
and ``microcontroller.nvm`` copied from the emulated Pico); a real board's games come over the link (``sync``).
"""
import os

from playboard.record.codec import READ_BUF
from playboard.record.journal import Journal
from playboard.record.read import parse_game

SECTOR = 4096


class _JournalCopy:
    """The journal's flash as read-only bytes (a snapshot of its file), with the part of
    ``rp2.Flash``'s interface that ``Journal``'s reading uses."""

    def __init__(self, data):
        self.data = data

    def readblocks(self, block, buf, off=0):
        a = block * SECTOR + off
        buf[:] = self.data[a:a + len(buf)]

    def ioctl(self, op, arg):
        return len(self.data) // SECTOR if op == 4 else 0


def journal_of(flash=None, image=None):
    """The path of the record's journal of the simulated board with flash folder
    ``flash`` (``<flash>/journal``) or littlefs image file ``image``
    (``<image>.journal``), as ``playboard.sim.boot`` names it."""
    return image + ".journal" if image else os.path.join(flash, "journal")


def read_journal(journal_path):
    """``(bytes, scan)`` of the journal at ``journal_path``: its bytes and what it holds
    (``Journal.scan``'s ``(gid, base, first, end, new)``, its last section: gid 0 when
    that is closed or the journal blank); None when there is no journal file."""
    try:
        with open(journal_path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data, Journal(_JournalCopy(data)).scan(bytearray(max(READ_BUF, 261)))


def with_journal(raw, gid, journal_path):
    """The record bytes of game ``gid`` as the board keeps them: ``raw`` (bytes: its
    file, ``g<gid>.rec`` or ``s<gid>.rec``; None: the board has no file of it)
    followed by the records the journal at ``journal_path`` holds of that game
    beyond the file (none when the journal is absent, blank or holds another game).
    None when there is neither a file nor a game begun in the journal. Never raises
    on a bad journal (its records are read up to the first that fails its check, as
    the board reads them)."""
    got = read_journal(journal_path)
    if got is None:
        return raw
    return join_journal(raw, gid, got[0])


def join_journal(raw, gid, data, fat=False):
    """``with_journal`` for a journal given as its bytes ``data`` (a snapshot of its
    flash: the simulated board's journal file, or a CircuitPython board's
    ``microcontroller.nvm``, hw/nvm.py). ``fat``: the file is on CircuitPython's FAT
    drive (``Journal.fat``): for a game begun in the journal the file counts only if
    it holds exactly the journal's records of it (a fold cut short may leave it short
    or wrong at any size; the board writes it again at power-up), else the journal's."""
    jgid, base, first, end, new = Journal(_JournalCopy(data)).scan(bytearray(max(READ_BUF, 261)))
    if jgid != gid or (raw is None and (not new or first >= end)):
        return raw
    if fat and new:
        return bytes(data[first:end]) if first < end else raw
    raw = raw or b""
    start = first + max(0, len(raw) - base)  # (what the file holds already: folded)
    return raw + data[start:end] if start < end else raw


def kept_game(flash, gid):
    """Game ``gid`` of the simulated board whose flash folder is ``flash`` (its games in
    ``flash/games``), as the board keeps it: a ``playboard.record.read.GameRecord``
    (moves included), or None when the board has no file of it and the journal
    holds no game begun there under that id."""
    raw = None
    for k in ("g", "s"):
        try:
            with open(os.path.join(flash, "games", "%s%d.rec" % (k, gid)), "rb") as f:
                raw = f.read()
            break
        except OSError:
            continue
    raw = with_journal(raw, gid, journal_of(flash))
    return None if raw is None else parse_game(raw, gid)


def kept_games(flash):
    """Every game on the simulated board's flash folder ``flash``: {file name:
    GameRecord} (``g<id>.rec`` not yet synced, ``s<id>.rec`` synced), each as the
    board keeps it (its file and the journal)."""
    out = {}
    folder = os.path.join(flash, "games")
    for n in sorted(os.listdir(folder)):
        if n.endswith(".rec") and n[:1] in "gs" and n[1:-4].isdigit():
            with open(os.path.join(folder, n), "rb") as f:
                raw = f.read()
            out[n] = parse_game(with_journal(raw, int(n[1:-4]), journal_of(flash)), int(n[1:-4]))
    got = read_journal(journal_of(flash))  # a game begun in the journal: no file yet
    gid = got[1][0] if got is not None else 0
    if gid and "g%d.rec" % gid not in out and "s%d.rec" % gid not in out:
        raw = with_journal(None, gid, journal_of(flash))
        if raw:
            out["g%d.rec" % gid] = parse_game(raw, gid)
    return out
