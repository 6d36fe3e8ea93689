# Freeze the Playboard firmware into MicroPython v1.28.0, so that its code, names and data
# live in flash and the whole heap is left for the game's data (docs/pico.md, "The frozen
# image"). Built by `make uf2` (the RPI_PICO image, build/playboard-pico.uf2) and
# `make setup` (the simulator's model, build/micropython-board: the unix port, 32-bit),
# both through host_tools/build_image.sh, which also
# - writes playboard/frozen_files.py (host_tools/playboard_host/frozen_data.py: boards/*.json and
#   data/tihbat.tbl as bytes constants; the firmware reads them where the filesystem has
#   no such file, so flashing the image is the whole install) and passes its folder as
#   the option `data`;
# - patches the kit's tools/mpy-tool.py to align frozen armv6m native code to 4 bytes
#   (v1.28.0 aligns it to 2; the Thumb emitter's literal words need 4: without the fix
#   Tobit's frozen native search reads its constants two bytes off, and hangs or faults);
# - builds mpy-cross on its own first, and the rp2 port with CMAKE_ARGS=-DPICO_NO_PICOTOOL=1
#   (uf2 made by tools/uf2conv.py).
# Options (include(..., model=True, data=DIR)): `model` freezes the whole package (the
# simulated board's playboard/sim too) for the unix port, without the rp2 board's modules.
# A board running this image runs the frozen main.py (pyexec runs a frozen main.py before
# the filesystem's); the filesystem comes first on sys.path, so a board running it must
# not also hold a copied playboard/ package (it would be imported instead).

# The port's own frozen modules (rp2: neopixel, asyncio, the _boot that mounts littlefs);
# the product board (host_tools/pico_board/PLAYBOARD_PICO/manifest.py) freezes them
# itself with its own _boot.py (the record's journal below littlefs); the model (the
# unix port) has none of them.
if not options.model and not options.own_boot:
    include("$(PORT_DIR)/boards/manifest.py")

# Exactly what a board runs: every module main.py can reach on a board
# (tests/host/test_architecture.py checks this list against the imports). Left out:
# the simulated board's package (playboard/sim), the perft driver, the tracker
# factory and the record text format (pgn), which only tests and the host tools use.
BOARD_FILES = [
    "__init__.py", "compat.py", "config.py", "link.py", "settings.py", "health.py",
    "record/__init__.py", "record/codec.py", "record/read.py", "record/folder.py", "record/journal.py",
    "hw/__init__.py", "hw/base.py", "hw/open.py", "hw/bits.py", "hw/rp2.py", "hw/hall.py", "hw/hallzero.py", "hw/circuitpython.py", "hw/cdc.py", "hw/nvm.py",
    "hw/selftest.py", "hw/calibrate.py", "hw/guided.py", "hw/ledcap.py", "hw/pads.py", "hw/stdio.py",
    "board/__init__.py", "board/layout.py", "board/debounce.py", "board/scan.py", "board/lights.py",
    "board/tracker.py", "board/tobit_tracker.py", "board/tobit_position.py", "board/tobit_tracker_native.py", "board/tobit_chain.py", "board/tobit_why.py",
    "board/mancala_tracker.py", "board/isolate.py",
    "games/__init__.py", "games/common.py", "games/registry.py", "games/base.py", "games/bufops.py",
    "games/snapshot.py", "games/mancala_text.py", "games/toguz.py", "games/toguz_native.py",
    "games/tobit.py", "games/tobit_board.py", "games/tobit_tables.py", "games/tobit_fen.py",
    "games/tobit_native.py", "games/tihbat.py", "games/tihbat_native.py",
    "engine/__init__.py", "engine/search.py", "engine/evaluation.py", "engine/evaluation_native.py", "engine/tobit_native.py",
    "engine/toguz_native.py",
    "engine/tihbat_table.py",
    "app/__init__.py", "app/state.py", "app/loop.py", "app/ui.py", "app/gamestart.py", "app/startup.py",
    "app/staff.py", "app/request.py", "app/check.py", "app/pairing.py", "app/onboard.py", "app/museum.py",
    "app/restart.py", "app/contain.py", "faultring.py",
]

# Compiled at the highest optimisation level (no asserts, no line numbers: about 5%
# less flash).
if options.model:
    package("playboard", opt=3)  # every module, the simulated board's too
else:
    package("playboard", files=BOARD_FILES, opt=3)
module("main.py", opt=3)
module("playboard/frozen_files.py", base_path=options.data or "../build/frozen-data", opt=3)
