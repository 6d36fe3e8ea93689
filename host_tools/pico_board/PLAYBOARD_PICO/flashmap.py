# The product board's flash storage region (frozen; mpconfigboard.h): the record's
# journal in its first JOURNAL_BYTES, then littlefs, FS_BYTES, at the stock image's
# offset 0xA0000 (firmware/playboard/record/journal.py finds the journal through this).
JOURNAL_BYTES = 16 * 1024
FS_BYTES = 1408 * 1024
# What the image's USB configuration descriptor declares (bMaxPower, mA: mpconfigboard.h
# USBD_MAX_POWER_MA; firmware/playboard/hw/pads.py usb_ma() reads it here)
USB_MA = 500
