"""The virtual Pico's flash chip (playboard_host.pico, docs/pico.md "The flash's time"):
an erase or a program takes the chip's time, during which the core stands still and
the emulated clock runs on, and a program only clears bits (NOR: new = old AND data).

Run on the stock MicroPython image at its REPL (no firmware on the flash), through
``rp2.Flash``, whose calls end in the bootrom's flash functions that pico.mjs
intercepts. Skips where Node, rp2040js or the images are absent.
"""
import pytest

from playboard_host import pico

BOOT_S = 300  # host seconds allowed for a boot (a loaded CI machine)

# At the REPL: erase the storage's last 4 KB sector (block 351: a fresh littlefs
# leaves it unused), program one page twice over, time each call on the chip's clock.
PROBE = (
    "import rp2, time; f = rp2.Flash(); b = bytearray(256); t = time.ticks_us(); f.ioctl(6, 351); "
    "te = time.ticks_diff(time.ticks_us(), t); f.readblocks(351, b, 0); blank = b == b'\\xff' * 256; "
    "t = time.ticks_us(); f.writeblocks(351, b'\\xf0' * 256, 0); tp = time.ticks_diff(time.ticks_us(), t); "
    "f.writeblocks(351, b'\\x3c' * 256, 512); f.writeblocks(351, b'\\x3c' * 256, 0); f.readblocks(351, b, 0); "
    "print('FLASH', te, tp, blank, b[0], b[255])\r"
)


@pytest.fixture(scope="module")
def empty_fs():
    why = pico.unavailable()
    if why:
        pytest.skip("virtual Pico unavailable: %s" % why)
    return pico.build_fs_image([])


def _probe(image, timing):
    with pico.VirtualPico(image, {}, speed=0, flash_timing=timing) as p:
        p.wait_for(lambda q: q.usb_up.is_set(), BOOT_S, "boot (USB up)")
        start = len(p.output)
        p.write(b"\x03")  # (the banner went before the port was open: a prompt now)
        p.wait_output(b">>> ", 120, start)
        before = (p.erases, p.programs, p.flash_stall_us)
        start = len(p.output)
        p.write(PROBE.encode())
        end = p.wait_output(b"\r\n>>> ", 120, start)
        line = [ln for ln in p.output[start:end].decode().splitlines() if ln.startswith("FLASH ")][0]
        p.wait_emulated(0.3, 120)  # (the counters come with the next time report)
        after = (p.erases, p.programs, p.flash_stall_us)
    te, tp, blank, b0, b255 = line.split()[1:]
    return int(te), int(tp), blank, int(b0), int(b255), before, after


@pytest.mark.parametrize("timing, erase_us, program_us", [("typical", 45000, 400), ("worst", 400000, 3000)])
def test_erase_and_program_take_the_chips_time(empty_fs, timing, erase_us, program_us):
    te, tp, blank, b0, b255, before, after = _probe(empty_fs, timing)
    assert pico.flash_timing(timing) == (erase_us, program_us)
    # the call lasts the chip's time and no more than 2 ms of the core's own work beside it
    assert erase_us <= te <= erase_us + 2000
    assert program_us <= tp <= program_us + 2000
    assert blank == "True"
    # NOR: 0xf0 then 0x3c programmed over it reads 0x30 (bits only cleared)
    assert (b0, b255) == (0x30, 0x30)
    # one sector erased, three pages programmed, their times counted as the stall
    assert after[0] - before[0] == 1
    assert after[1] - before[1] == 3
    assert after[2] - before[2] == erase_us + 3 * program_us


def test_instant_flash_takes_no_time(empty_fs):
    te, tp, blank, b0, b255, before, after = _probe(empty_fs, "instant")
    assert te < 2000 and tp < 2000
    assert (b0, b255) == (0x30, 0x30)
    assert after[2] == 0


def test_unknown_timing_is_refused():
    with pytest.raises(ValueError, match="one of instant, typical, worst"):
        pico.flash_timing("slow")
