"""Text for a console that may not print every name (docs/tournament.md, "Any console").

Players' names in Kazakh, Russian or Chinese go through every output exactly; a
console whose encoding cannot hold them (``PYTHONIOENCODING=ascii``, an old Windows
code page) gets one clear line instead of a traceback.
"""
import io
import sys


def unprintable(text, stream):
    """The first character of ``text`` that ``stream`` (a text file with ``encoding``)
    cannot print, or None."""
    enc = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(enc)
        return None
    except UnicodeEncodeError as e:
        return text[e.start]
    except LookupError:
        return None


def why(ch, stream, what, to_file=False):
    """The one line saying that ``stream`` can't print ``ch`` (``what``: what was
    done, or not), and how to see it (``to_file``: the command takes -o FILE)."""
    return ("this console (%s) can't print %r (U+%04X): %s; set PYTHONIOENCODING=utf-8 (or use a UTF-8"
            " terminal)%s" % (getattr(stream, "encoding", None) or "?", ch, ord(ch), what,
                              ", or write to a file with -o FILE" if to_file else ""))


class Buffered:
    """``with Buffered() as out:`` collects what is printed to standard output; at the
    end ``out.flush_to_console()`` writes it whole, or returns the one line saying
    the console can't (nothing written then, so no half output)."""

    def __enter__(self):
        self.real = sys.stdout
        self.buf = io.StringIO()
        sys.stdout = self.buf
        return self

    def __exit__(self, *exc):
        sys.stdout = self.real
        return False

    def flush_to_console(self, what="done", to_file=False):
        text = self.buf.getvalue()
        ch = unprintable(text, self.real)
        if ch is not None:
            return why(ch, self.real, what, to_file)
        self.real.write(text)
        self.real.flush()
        return None
