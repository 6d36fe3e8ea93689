"""The firmware's files as a board gets them: ``sources(firmware)`` (both deploys, the
``.mpy`` one of ``playboard deploy`` and CircuitPython's drive, list them from here)."""
import os

BOARD_ONLY_SKIP = ("playboard/sim",)  # what only the simulated board runs: never on a board


def sources(firmware):
    """(source path, board path) of every firmware file to deploy, sorted (the
    simulated board's package ``playboard/sim`` is left out)."""
    out = []
    for top in ("main.py", "boot.py"):
        p = os.path.join(firmware, top)
        if os.path.exists(p):
            out.append((p, top))
    for sub in ("playboard", "boards", "data"):
        base = os.path.join(firmware, sub)
        for d, dirs, files in os.walk(base):
            rel = os.path.relpath(d, firmware).replace(os.sep, "/")
            dirs[:] = sorted(x for x in dirs if x != "__pycache__" and rel + "/" + x not in BOARD_ONLY_SKIP)
            for f in sorted(files):
                if f.endswith((".pyc", "~")) or f.startswith("."):
                    continue
                src = os.path.join(d, f)
                out.append((src, os.path.relpath(src, firmware).replace(os.sep, "/")))
    return out
