# Freeze the Playboard firmware into a MicroPython build for the RP2040, so that its
# code lives in flash and the whole heap is left for the game's data (docs/app.md).
#
#   cd micropython/ports/rp2
#   make BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/playboard/firmware/manifest.py
#
# Board definitions (boards/*.json), the Tihbat table (data/tihbat.tbl) and main.py
# stay files on the board's filesystem: copy them with mpremote (README). The
# filesystem comes first on sys.path ('' before '.frozen'), so a board running this
# build must not also hold a copied playboard/ package: it would be imported instead.

# The port's own frozen modules (rp2: neopixel, asyncio, the _boot that mounts littlefs).
include("$(PORT_DIR)/boards/manifest.py")

# Exactly what a board runs: every module main.py can reach on a board
# (tests/host/test_architecture.py checks this list against the imports). Left out:
# the simulated board's package (playboard/sim), the perft driver, the tracker
# factory and the record text format (pgn), which only tests and the host tools use.
BOARD_FILES = [
    "__init__.py", "compat.py", "config.py", "link.py", "settings.py", "health.py",
    "record/__init__.py", "record/codec.py", "record/read.py", "record/folder.py",
    "hw/__init__.py", "hw/base.py", "hw/open.py", "hw/bits.py", "hw/rp2.py", "hw/hall.py", "hw/circuitpython.py",
    "hw/selftest.py", "hw/calibrate.py", "hw/pads.py", "hw/stdio.py",
    "board/__init__.py", "board/layout.py", "board/debounce.py", "board/scan.py", "board/lights.py",
    "board/tracker.py", "board/tobit_tracker.py", "board/tobit_position.py", "board/tobit_tracker_native.py", "board/tobit_chain.py",
    "board/mancala_tracker.py", "board/isolate.py",
    "games/__init__.py", "games/common.py", "games/registry.py", "games/base.py", "games/bufops.py",
    "games/snapshot.py", "games/mancala_text.py", "games/toguz.py", "games/toguz_native.py",
    "games/tobit.py", "games/tobit_board.py", "games/tobit_tables.py", "games/tobit_fen.py",
    "games/tobit_native.py", "games/tihbat.py", "games/tihbat_native.py",
    "engine/__init__.py", "engine/search.py", "engine/evaluation.py", "engine/evaluation_native.py", "engine/tobit_native.py",
    "engine/tihbat_table.py",
    "app/__init__.py", "app/state.py", "app/loop.py", "app/ui.py", "app/gamestart.py",
    "app/begin_game.py",
    "app/staff.py", "app/request.py", "app/check.py", "app/onboard.py", "app/museum.py", "app/names.py",
    "app/restart.py", "app/contain.py", "faultring.py",
]

# Compiled at the highest optimisation level (no asserts, no line numbers: about 5%
# less flash).
package("playboard", files=BOARD_FILES, opt=3)
