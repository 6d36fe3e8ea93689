"""One checked record: its CRC-32 and its bytes (the layout: ``playboard.record``).

Resident in play (every committed move is encoded here); the reading side is
``playboard.record.read``.
"""
try:
    from binascii import crc32 as _crc32
except ImportError:  # a MicroPython build without binascii.crc32
    _crc32 = None

from playboard.compat import const

_MAXPAY = const(255)
_OVERHEAD = const(6)
READ_BUF = const(512)  # bytes read at a time when a game is read (>= 2 records)

GAME_TYPES = b"GTMUE"  # the record types a game file may hold
RESULT_UNFINISHED = "*"
TERM_ABANDONED = "abandoned"

_table = None


def _crc32_table():
    global _table
    if _table is None:
        from array import array

        t = array("I", range(256))
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            t[i] = c
        _table = t
    return _table


def crc32_py(data, crc=0):
    """CRC-32 (zlib, IEEE 802.3) of ``data`` (a bytes-like), continuing from ``crc``.

    Pure-Python table version; gives the same value as ``binascii.crc32``.
    Returns an int in 0..2**32-1.
    """
    t = _crc32_table()
    c = crc ^ 0xFFFFFFFF
    for b in data:
        c = t[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32(data, crc=0):
    """CRC-32 (zlib) of ``data``, continuing from ``crc``; ``binascii.crc32`` where it exists."""
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    return crc32_py(data, crc)


class StoreError(ValueError):
    """Bad input to the store: an unknown game id, a text too long for one record, no open game."""


def encode_record(rtype, payload, buf=None):
    """One record: ``rtype`` (int, a type byte), ``payload`` (bytes/str, <= 255 bytes).

    Writes into ``buf`` (a bytearray of at least 261 bytes) when given and returns
    the record's length; else returns a new ``bytes``. StoreError if too long.
    """
    if isinstance(payload, str):
        payload = payload.encode()
    n = len(payload)
    if n > _MAXPAY:
        raise StoreError("record payload of %d bytes (at most %d)" % (n, _MAXPAY))
    out = buf if buf is not None else bytearray(n + _OVERHEAD)
    out[0] = rtype
    out[1] = n
    out[2:2 + n] = payload
    c = crc32(memoryview(out)[0:2 + n])
    out[2 + n] = c & 0xFF
    out[3 + n] = (c >> 8) & 0xFF
    out[4 + n] = (c >> 16) & 0xFF
    out[5 + n] = (c >> 24) & 0xFF
    if buf is not None:
        return n + _OVERHEAD
    return bytes(out)
