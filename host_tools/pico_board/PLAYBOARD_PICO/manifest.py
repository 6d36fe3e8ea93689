# Playboard's product image (docs/pico.md, "The flash's time"): the port's frozen
# modules with this board's _boot.py in place of the port's (littlefs past the
# journal) and flashmap.py, then the firmware (firmware/manifest.py, told not to
# include the port's manifest and its _boot.py a second time).
freeze("$(PORT_DIR)/modules", ("rp2.py", "_boot_fat.py"))
freeze("$(BOARD_DIR)", ("_boot.py", "flashmap.py"))
include("$(MPY_DIR)/extmod/asyncio")
require("onewire")
require("ds18x20")
require("dht")
require("neopixel")
include("$(BOARD_DIR)/../../../firmware/manifest.py", own_boot=True, data=options.data)
