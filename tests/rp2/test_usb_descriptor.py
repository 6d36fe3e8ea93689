"""The USB current the product image declares (docs/hardware.md, "USB's budget"): the
configuration descriptor's bMaxPower in the built image (``make uf2``:
build/playboard-pico.uf2) is what the firmware's USB-only LED cap assumes
(playboard.hw.pads.USB_MA, the image's frozen flashmap.USB_MA), and the board's
mpconfigboard.h says the same; the build's patch of v1.28.0's tusb_config.h lets it."""
import os
import re
import struct

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARD = os.path.join(ROOT, "host_tools", "pico_board", "PLAYBOARD_PICO")
UF2 = os.path.join(ROOT, "build", "playboard-pico.uf2")


def _flash(path):
    """{address: byte string} of a UF2 file's 256-byte payloads, joined into one image
    from its lowest address (bytes)."""
    data = open(path, "rb").read()
    chunks = {}
    for off in range(0, len(data) - 511, 512):
        m0, m1, flags, addr, size = struct.unpack_from("<5I", data, off)
        assert (m0, m1) == (0x0A324655, 0x9E5D5157), off
        assert struct.unpack_from("<I", data, off + 508)[0] == 0x0AB16F30
        chunks[addr] = data[off + 32:off + 32 + size]
    base = min(chunks)
    out = bytearray(max(a + len(c) for a, c in chunks.items()) - base)
    for a, c in chunks.items():
        out[a - base:a - base + len(c)] = c
    return bytes(out)


def _flashmap_usb_ma():
    ns = {}
    exec(open(os.path.join(BOARD, "flashmap.py")).read(), ns)
    return ns["USB_MA"]


def test_the_board_the_firmware_and_the_flash_map_declare_the_same_current():
    from playboard.hw import pads
    text = open(os.path.join(BOARD, "mpconfigboard.h")).read()
    ma = int(re.search(r"#define\s+USBD_MAX_POWER_MA\s+\((\d+)\)", text).group(1))
    assert ma == _flashmap_usb_ma() == pads.USB_MA == 500
    assert pads.usb_ma() == 500                      # (the host: the product image's)
    # the matrix board over USB alone: 500 less the Pico (60) and a reserve (50)
    from playboard.config import load_board
    assert pads.usb_led_budget(load_board("pico-matrix")) == 390
    assert pads.usb_led_budget(load_board("pico-hall")) == 0


def test_the_built_image_declares_bmaxpower_500_ma():
    if not os.path.exists(UF2):
        pytest.skip("no %s: `make uf2` builds it" % os.path.relpath(UF2, ROOT))
    flash = _flash(UF2)
    # TUD_CONFIG_DESCRIPTOR: bLength 9, CONFIGURATION (2), wTotalLength, bNumInterfaces,
    # bConfigurationValue 1, iConfiguration 0, bmAttributes 0x80 (bus powered), bMaxPower
    # in 2 mA units; the CDC interface association follows (8 bytes, type 0x0B)
    found = re.findall(rb"\x09\x02(..)(.)\x01\x00\x80(.)\x08\x0b", flash, re.S)
    assert len(found) == 1, found
    total, n_itf, power = found[0]
    assert n_itf[0] >= 2 and struct.unpack("<H", total)[0] > 9
    assert 2 * power[0] == _flashmap_usb_ma() == 500
    # the build patched the kit's tusb_config.h so that the board's definition counts
    cfg = os.path.join(ROOT, "build", "micropython", "shared", "tinyusb", "tusb_config.h")
    if os.path.exists(cfg):
        text = open(cfg).read()
        assert "#ifndef USBD_MAX_POWER_MA  // (playboard" in text
        assert re.search(r"#ifndef USBD_MAX_POWER_MA.*\n#define USBD_MAX_POWER_MA \(250\)\n#endif",
                         text)
