"""The CIRCUITPY drive: the firmware as CircuitPython runs it, in a FAT12 image (docs/pico.md).

CircuitPython 10 keeps its files on a FAT12 "super floppy" (no partition table) of
2,048 sectors of 512 B = 1 MiB at flash offset 0x100000 (:data:`DRIVE_OFFSET`, up to
the end of the Pico's 2 MB flash). :func:`build_drive` makes one with Debian's
``mtools`` (``mformat``/``mmd``/``mcopy``, the formatting CircuitPython's own FatFs
mounts); :func:`read_drive` reads a file back from a drive image (``mtype``).

The firmware's files for it: ``playboard_host.circuitpython_stage``.
"""
import os
import shutil
import subprocess
import tempfile

DRIVE_OFFSET = 0x100000   # CircuitPython's CIRCUITPY drive in the Pico's flash
NVM_OFFSET = 0xFF000      # microcontroller.nvm, just before it: the record's journal (hw/nvm.py)
NVM_BYTES = 4096
DRIVE_SECTORS = 2048      # 512-byte sectors: 1 MiB
SECTOR = 512

# mformat as CircuitPython's first boot formats the drive (FAT12, one sector a cluster,
# one FAT copy, 32 root sectors, no partition table)
MFORMAT = ["-C", "-T", str(DRIVE_SECTORS), "-h", "255", "-s", "63", "-H", "0", "-d", "1",
           "-r", "32", "-c", "1", "-v", "CIRCUITPY"]


class DriveError(Exception):
    """mtools is missing or failed; the message says which command and why."""


def _mtool(name):
    path = shutil.which(name)
    if path is None:
        raise DriveError("%s not found: install Debian's mtools (apt-get install mtools)" % name)
    return path


def _run(args):
    proc = subprocess.run(args, capture_output=True, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    if proc.returncode != 0:
        raise DriveError("%s failed: %s" % (" ".join(args[:2]), (proc.stderr or proc.stdout).decode(errors="replace").strip()))
    return proc.stdout


def build_drive(files):
    """A FAT12 CIRCUITPY image (bytes, DRIVE_SECTORS * SECTOR) holding ``files``
    {board path: bytes}. DriveError if mtools is missing or fails."""
    mformat, mmd, mcopy = _mtool("mformat"), _mtool("mmd"), _mtool("mcopy")
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "drive.img")
        with open(img, "wb") as f:
            f.truncate(DRIVE_SECTORS * SECTOR)
        _run([mformat, "-i", img] + MFORMAT + ["::"])
        dirs = sorted({d for p in files for d in _parents(p)}, key=len)
        for d in dirs:
            _run([mmd, "-i", img, "::" + d])
        for n, (dest, data) in enumerate(sorted(files.items())):
            src = os.path.join(tmp, "f%d" % n)
            with open(src, "wb") as f:
                f.write(data)
            _run([mcopy, "-i", img, src, "::" + dest])
        with open(img, "rb") as f:
            return f.read()


def _parents(path):
    parts = path.split("/")[:-1]
    return ["/".join(parts[:k]) for k in range(1, len(parts) + 1)]


def read_drive(image, path):
    """The bytes of file ``path`` on a drive image (bytes); None if it is not there.
    DriveError if mtools is missing."""
    return _with_image(image, lambda img: _read(img, path))


def list_drive(image, folder):
    """Names of the files and folders in ``folder`` of a drive image (bytes), sorted;
    [] if there is no such folder."""
    def ls(img):
        proc = subprocess.run([_mtool("mdir"), "-b", "-i", img, "::" + folder], capture_output=True,
                              env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        if proc.returncode != 0:
            return []
        return sorted(line.rstrip("/").rsplit("/", 1)[-1] for line in proc.stdout.decode().splitlines() if line.strip())
    return _with_image(image, ls)


def _read(img, path):
    proc = subprocess.run([_mtool("mtype"), "-i", img, "::" + path], capture_output=True,
                          env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    return proc.stdout if proc.returncode == 0 else None


def _with_image(image, fn):
    with tempfile.TemporaryDirectory() as tmp:
        img = os.path.join(tmp, "drive.img")
        with open(img, "wb") as f:
            f.write(image)
        return fn(img)
