# Playboard's product board: RPI_PICO with the record's journal below the filesystem
# (mpconfigboard.h). Built with FROZEN_MANIFEST=<this folder>/manifest.py.
set(PICO_BOARD "pico")
set(PICO_PLATFORM "rp2040")
set(MICROPY_FROZEN_MANIFEST ${MICROPY_BOARD_DIR}/manifest.py)
