"""The board's USB serial port as the link's byte channel (``StdioTransport``).

A module of its own, apart from ``playboard.link``: the app holds the channel from
start-up and loads the link's code (10 KB of heap on the unix port) only when the
host first sends something (docs/app.md, "Memory").
"""


class StdioTransport:
    """The REPL's USB serial port: non-blocking reads of ``sys.stdin`` with select.poll.

    ``read_into(buf)`` returns how many bytes it put in ``buf`` (0 if none is
    waiting; at most ``len(buf)``); ``write(data)`` writes to ``sys.stdout``;
    ``ready()`` tells whether a byte is waiting, reading nothing (the app loads the
    link's code only once the host has spoken).
    """

    def __init__(self, inp=None, out=None):
        import select
        import sys

        self.inp = inp if inp is not None else sys.stdin
        self.rd = getattr(self.inp, "buffer", self.inp)
        o = out if out is not None else sys.stdout
        self.out = getattr(o, "buffer", o)
        self.poller = select.poll()
        self.poller.register(self.inp, select.POLLIN)
        # ipoll (MicroPython) allocates nothing; CPython has only poll
        self._poll = getattr(self.poller, "ipoll", self.poller.poll)
        self.one = bytearray(1)
        self.closed = False

    def read_into(self, buf):
        n = 0
        one = self.one
        while n < len(buf) and not self.closed:
            ready = False
            for _ in self._poll(0):
                ready = True
            if not ready:
                break
            k = self.rd.readinto(one)
            if not k:
                self.closed = True  # end of input (a host-side test closed the pipe)
                break
            buf[n] = one[0]
            n += 1
        return n

    def ready(self):
        """True if a byte is waiting to be read (or the input has ended)."""
        if self.closed:
            return False
        for _ in self._poll(0):
            return True
        return False

    def write(self, data):
        self.out.write(data)
        f = getattr(self.out, "flush", None)
        if f:
            f()
