// Playboard's product board: a Raspberry Pi Pico (RPI_PICO) whose flash storage region
// reaches 16 KB further down, into flash the firmware image leaves unused: those 16 KB
// (0x9C000-0x9FFFF) are the record's journal (firmware/playboard/record/journal.py,
// docs/app.md "The journal"); littlefs stays where the stock image has it (0xA0000,
// 1408 KB), mounted by this board's _boot.py at rp2.Flash(start=JOURNAL_BYTES), so a
// board flashed with this image keeps its files. Keep in step with flashmap.py.
#define MICROPY_HW_BOARD_NAME                   "Raspberry Pi Pico"
#define MICROPY_HW_FLASH_STORAGE_BYTES          (1408 * 1024 + 16 * 1024)

// The USB configuration descriptor's bMaxPower: 500 mA, USB 2.0's most for a configured
// device (stock MicroPython declares 250; host_tools/build_image.sh lets a board set it).
// The firmware's USB-only LED cap follows it (firmware/playboard/hw/pads.py USB_MA).
#define USBD_MAX_POWER_MA                       (500)
