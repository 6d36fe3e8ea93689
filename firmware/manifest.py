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

# The firmware package, compiled at the highest optimisation level (no asserts, no
# line numbers: about 5% less flash). The simulator bridge is not needed on a board.
package("playboard", opt=3)
