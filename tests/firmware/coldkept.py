"""``with ColdKept():`` the record store's cold modules (``playboard.record.folder``
and ``read``) stay loaded instead of being dropped after each use.

For the power-cut loops, which open hundreds of stores: under MicroPython the tests
run the firmware from source, so each import of a dropped module compiles it again,
and hundreds of compilations break a 192 KB heap into holes (on the board the
modules are frozen; the simulator loads them compiled). A module of its own, so that
the other tests do not carry its names in the heap.
"""


class ColdKept:
    def __enter__(self):
        from playboard import record

        self.unload = record.unload
        record.unload = _keep
        return self

    def __exit__(self, *exc):
        from playboard import record

        record.unload = self.unload
        self.unload("playboard.record.folder")
        self.unload("playboard.record.read")
        return False


def _keep(name):
    pass
