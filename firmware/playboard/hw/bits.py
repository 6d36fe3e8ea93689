"""Viper kernels that turn raw hardware reads into sensor bytes (no allocation).

Kept apart from the backends so that the type checker skips index checks on raw
pointers (ptr8) here while the backends keep every check.
"""
from playboard.compat import micropython, ptr8  # noqa: F401


@micropython.viper
def unpack_bank(buf: ptr8, k: int, v: int, pins: ptr8, count: int):
    """buf[k + c] = 1 where GPIO pins[c] reads low in the bank value v (c < count)."""
    for c in range(count):
        buf[k + c] = ((v >> int(pins[c])) & 1) ^ 1


@micropython.viper
def unpack_chain(buf: ptr8, b: ptr8, chain: int, inv: int, n: int):
    """buf[8 * chip + j] = bit j of b[chip] ^ inv, for the first n sensors."""
    i = 0
    for k in range(chain):
        v = int(b[k]) ^ inv
        for j in range(8):
            if i < n:
                buf[i] = (v >> j) & 1
            i += 1
