"""A CircuitPython USB CDC channel as the link's byte channel (``CdcTransport``).

CircuitPython has no ``select.poll`` on ``sys.stdin``; its ``usb_cdc.Serial`` objects
(``usb_cdc.console``, the REPL's port, or ``usb_cdc.data``, the second channel that
``boot.py`` may enable) say how many bytes wait (``in_waiting``) and read them
without blocking. Same interface as ``playboard.hw.stdio.StdioTransport``.
"""


class CdcTransport:
    """``read_into(buf)``: the bytes waiting, at most ``len(buf)`` (0 if none; no
    allocation); ``write(data)``; ``ready()``: a byte is waiting. ``serial``: a
    ``usb_cdc.Serial`` (None: ``usb_cdc.data`` if enabled, else ``usb_cdc.console``)."""

    def __init__(self, serial=None):
        if serial is None:
            import usb_cdc
            serial = usb_cdc.data or usb_cdc.console
        self.serial = serial
        self.closed = False

    def read_into(self, buf):
        n = self.serial.in_waiting
        if n <= 0:
            return 0
        if n >= len(buf):
            return self.serial.readinto(buf) or 0
        return self.serial.readinto(memoryview(buf)[:n]) or 0

    def ready(self):
        return self.serial.in_waiting > 0

    def write(self, data):
        self.serial.write(data)
