"""What MicroPython has and CPython lacks, in one place.

Import as ``from playboard.compat import micropython, const, ptr8``.

On MicroPython this is the real ``micropython`` module and ``const``: the
compiler recognises ``@micropython.viper`` / ``@micropython.native`` and
``_X = const(1)`` by name, whatever module the names came from.

On CPython ``const`` is the identity and the decorators return the function
unchanged, so a function written in the viper subset (plain indexing of
``bytearray``s and small ints) runs there as ordinary Python and gives the same
answers. ``ptr8``/``ptr16``/``ptr32``/``uint`` exist only so that CPython can
evaluate viper annotations; the viper compiler reads them as names.
"""
import sys

# Decide by the interpreter, not by whether ``import micropython`` works: on
# CPython, Adafruit Blinka installs a ``micropython`` module whose viper
# decorator raises.
MICROPYTHON = sys.implementation.name == "micropython"
# CircuitPython: no native emitter (its modules are staged as .mpy with the viper
# decorators blanked: playboard_host.circuitpython_stage), no ``time.ticks_ms``
# (``ticks_ms`` below)
CIRCUITPYTHON = sys.implementation.name == "circuitpython"

if MICROPYTHON:
    import micropython
    from micropython import const
else:

    class micropython:  # noqa: N801 - stands in for the module of that name
        """CPython stand-in for the ``micropython`` module's decorators."""

        @staticmethod
        def viper(f):
            return f

        native = viper

        @staticmethod
        def heap_lock():
            return 0

        @staticmethod
        def heap_unlock():
            return 0

    def const(x):
        """Identity stand-in for ``micropython.const``."""
        return x


ptr8 = ptr16 = ptr32 = uint = None

if CIRCUITPYTHON:
    import supervisor

    def _cast(x):
        """A viper cast (``ptr8(buf)``) as plain Python: the object itself."""
        return x

    ptr8 = ptr16 = ptr32 = uint = _cast  # noqa: F811
    _ticks = supervisor.ticks_ms
    _last = 0
    _high = 0

    def ticks_ms():
        """CircuitPython's stand-in for MicroPython's ``time.ticks_ms()``: ms, wrapping at
        2**30 as MicroPython's (``supervisor.ticks_ms`` wraps at 2**29: each of its wraps
        seen flips bit 29; called every frame, so none is missed). Small ints: no allocation."""
        global _last, _high
        t = _ticks()
        if t < _last:
            _high ^= 0x20000000
        _last = t
        return t | _high

    def ticks_diff(a, b):
        """``time.ticks_diff`` for :func:`ticks_ms`'s values: a - b, signed, modulo 2**30."""
        d = (a - b) & 0x3FFFFFFF
        return d - 0x40000000 if d & 0x20000000 else d

# CPython twins of the rules cores' viper functions: {core module name: {name: function}}.
# Empty on MicroPython; the host tools fill it (playboard_host.twins.install) and a
# core takes its twins from here when it is imported (again), never importing them.
TWINS = {}


def unload(name):
    """Forget module ``name`` (dotted): its code and data go back to the heap at the next
    collection, once nothing runs or holds them. Used for start-up-only modules.
    (``hasattr``, never ``dir``: MicroPython's ``dir(obj)`` probes every interned
    name, 20-30 ms on the RP2040, a frame's budget for each module dropped.)"""
    if name in sys.modules:
        del sys.modules[name]
        i = name.rfind(".")
        parent = sys.modules.get(name[:i])
        attr = name[i + 1:]
        if parent is not None and hasattr(parent, attr):
            delattr(parent, attr)


def exists(path):
    """True if ``path`` (a file or folder) exists; False where it does not or the
    port has no ``os``."""
    try:
        import os

        os.stat(path)
        return True
    except (OSError, ImportError):
        return False


def frozen_file(path):
    """The bytes of a data file the frozen image carries (``boards/NAME.json``,
    ``data/NAME.tbl``: the last two parts of ``path``), or None where the image has no
    such file or the firmware is not frozen (host_tools/playboard_host/frozen_data.py writes them).
    Read only where the filesystem has no file at ``path``: a file on flash wins."""
    try:
        from playboard.frozen_files import get  # type: ignore[import-not-found]  # (generated)
    except ImportError:
        return None
    return get(path)
