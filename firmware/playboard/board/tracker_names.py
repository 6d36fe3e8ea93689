"""The names of the tracker's events, roles and modes (``playboard.board.tracker``'s
EV_*, R_* and M_* numbers), for the tests and the host tools. Apart from tracker.py
so that a board never holds them (on the unix port their strings were 1-2 KB of heap).
"""

EVENT_NAMES = ("", "lifted", "placed", "committed", "takeback", "correction", "resolved",
               "ambiguous", "setup-done", "selected", "error", "confirmed")
ROLE_NAMES = ("", "target", "selected", "path", "remove", "candidate", "missing", "extra",
              "wrong-colour", "engine-from", "engine-to", "sow", "last", "capture", "tuzdyk",
              "kazan", "error", "last-from", "last-to", "missing-black")
MODE_NAMES = ("idle", "move", "correction", "setup", "engine", "hint", "ambiguous", "choose",
              "sowing", "over")
