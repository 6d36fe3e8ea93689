"""RP2040 facts the board-definition check needs only for some boards: the SPI pads
and the current left for the LEDs over USB (loaded by playboard.config when a board
uses an SPI reader or USB-only power; hardware/generate.py uses the same numbers)."""

# RP2040 SPI pads: GPIO n belongs to SPI block (n >> 3) & 1; its role is n & 3
# (0 RX/MISO, 1 CSn, 2 SCK, 3 TX/MOSI). MicroPython's machine.SPI takes the block's
# default MOSI pin when none is given (SPI0: GP7, SPI1: GP11): the firmware always
# names it (sensor.mosi, default that pin) so that the check can see it.
SPI_DEFAULT_MOSI = (7, 11)
# Power over USB only: what the image's USB configuration descriptor declares, which a
# host may hold the board to (``usb_ma``): the product image 500 mA (bMaxPower:
# host_tools/pico_board/PLAYBOARD_PICO/mpconfigboard.h USBD_MAX_POWER_MA, its frozen
# flashmap.USB_MA; tests/rp2/test_usb_descriptor.py reads it from the built image),
# stock MicroPython v1.28.0 250 mA (the firmware deployed on it); the Pico with its logic takes about 60 mA, each
# 74HC165 with its 8 pull-ups 4 mA, and 50 mA stay in reserve: the rest is the LEDs'
# (hardware/generate.py's power budget checks these against the schematic's parts). A
# hall board's +5V has no path from USB (its sensors alone take 202 mA of it): USB
# feeds only its Pico
USB_MA = 500           # the product image's (and the simulator's, which models it)
USB_STOCK_MA = 250     # stock MicroPython v1.28.0's
USB_PICO_MA = 60
USB_RESERVE_MA = 50
CHIP_MA = 4


def usb_led_budget(d):
    """The LED current cap (mA, a multiple of 10) that keeps a board powered over USB
    only under ``usb_ma()`` (500 mA on the product image): what the Pico, the sensors
    and a reserve leave; 0 for a hall board (USB feeds only its Pico)."""
    other = USB_PICO_MA + USB_RESERVE_MA
    if d["sensor"]["kind"] == "hall_mux":
        return 0
    elif d["sensor"]["kind"] == "shift_register":
        other += CHIP_MA * d["sensor"]["chain"]
    return (usb_ma() - other) // 10 * 10


def usb_ma():
    """The USB current (mA) the running image declares: on a board the product image's
    frozen flashmap.USB_MA, else (stock MicroPython, CircuitPython) 250, what the
    firmware assumed before; on a computer (the simulator, the host's tools) the
    product image's USB_MA."""
    import sys
    if sys.platform in ("linux", "darwin", "win32"):
        return USB_MA
    try:
        import flashmap
        return flashmap.USB_MA
    except (ImportError, AttributeError):
        return USB_STOCK_MA


def check_led_budget(d):
    """The LED current cap (mA) of the builder's checks (self-test, guided test,
    calibration) on board definition ``d``: the USB-only cap whatever ``leds.supply``
    says (a builder runs them with the PC plugged in, often without the adapter: the
    first-boot calibration included), never above the board's own cap; a board whose
    LEDs USB does not feed (a hall board: usb_led_budget <= 0) keeps its own."""
    own = d["leds"]["budget_ma"]
    usb = usb_led_budget(d)
    return own if usb <= 0 else min(own, usb)


def spi_role(gp):
    """(block 0/1, role "rx" | "csn" | "sck" | "tx") of an RP2040 GPIO's SPI function."""
    return (gp >> 3) & 1, ("rx", "csn", "sck", "tx")[gp & 3]


def check_spi(c, s, free):
    """Check a shift_register sensor's SPI pads (``s``: its dict, ``free``: the module's
    pins, ``c``: playboard.config's checker, whose ``fail`` raises ConfigError): clk an
    SCK pad and data an RX pad of block spi_id; the MOSI pin that machine.SPI takes
    (sensor.mosi, default the block's) a TX pad of it, free, and used by nothing else.
    Fills in ``s["mosi"]``."""
    sid = s["spi_id"]
    for key, role in (("clk", "sck"), ("data", "rx")):
        blk, r = spi_role(s[key])
        if (blk, r) != (sid, role):
            c.fail("sensor." + key, "GP%d is not an %s pad of SPI%d (it is SPI%d %s)"
                   % (s[key], role.upper(), sid, blk, r.upper()))
    mosi = s.get("mosi")
    if mosi is None:
        mosi = SPI_DEFAULT_MOSI[sid]
    if not isinstance(mosi, int) or isinstance(mosi, bool):
        c.fail("sensor.mosi", "expected a GPIO number, got %r" % (mosi,))
    if spi_role(mosi) != (sid, "tx"):
        c.fail("sensor.mosi", "GP%d is not a TX (MOSI) pad of SPI%d" % (mosi, sid))
    if mosi in c.used:
        c.fail("sensor.mosi", "GP%d (the MOSI pin machine.SPI drives) already used by %s"
               % (mosi, c.used[mosi]))
    c.pin(mosi, "sensor.mosi", free)
    s["mosi"] = mosi
