"""Copy and compare runs of bytes without allocating (viper on MicroPython).

``copy(dst, doff, src, soff, n)`` sets dst[doff:doff+n] = src[soff:soff+n] and
``same(a, aoff, b, boff, n)`` compares two runs. On MicroPython a slice of a
``bytearray`` read on the right-hand side allocates a new object, so these loop in
viper code; on CPython they are plain slices.
"""
from playboard.compat import micropython, ptr8, MICROPYTHON

if MICROPYTHON:

    @micropython.viper
    def copy(dst: ptr8, doff: int, src: ptr8, soff: int, n: int):
        i = 0
        while i < n:
            dst[doff + i] = src[soff + i]
            i += 1

    @micropython.viper
    def same(a: ptr8, aoff: int, b: ptr8, boff: int, n: int) -> bool:
        i = 0
        while i < n:
            if a[aoff + i] != b[boff + i]:
                return False
            i += 1
        return True

else:

    def copy(dst, doff, src, soff, n):
        dst[doff:doff + n] = src[soff:soff + n]

    def same(a, aoff, b, boff, n):
        return a[aoff:aoff + n] == b[boff:boff + n]
