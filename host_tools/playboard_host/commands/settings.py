"""`playboard settings`: read and change the board's settings over its link.

::

    playboard settings get [KEY]              every setting (or one), one per line
    playboard settings set KEY VALUE [KEY VALUE ...]
    playboard settings --from FILE            a JSON object of settings
    playboard settings --profile museum       the kiosk profile (docs/museum.md)

Values are checked here with the board's own rules (``playboard.settings``) before
anything is sent, and again by the board; a bad value or a locked board is refused
with one line and nothing is changed (the board saves the whole change at once,
power-safe, or none of it).
"""
import json

from playboard import settings as S

from playboard_host.cli import CommandError
from playboard_host.serial_link import LinkError, add_port_arguments, connect

HELP = "read or change the board's settings (brightness, times, allowed games, locked mode...)"


def add_arguments(p):
    add_port_arguments(p)
    p.add_argument("action", nargs="?", choices=("get", "set"), default="get",
                   help="get (default) or set")
    p.add_argument("words", nargs="*", metavar="KEY [VALUE]",
                   help="get: an optional setting; set: setting and value pairs")
    p.add_argument("--from", dest="from_file", metavar="FILE",
                   help="set the settings of a JSON file (an object: setting -> value)")
    p.add_argument("--profile", choices=sorted(S.PROFILES),
                   help="set a documented profile (museum: locked kiosk, docs/museum.md)")


def parse_value(key, text):
    """The value of setting ``key`` written as ``text`` on the command line: an integer,
    true/false (also on/off, yes/no), a name, or names separated by commas (lists).
    ValueError (one line) for an unknown setting or a bad value."""
    sp = S.SPEC.get(key)
    if sp is None:
        raise ValueError("unknown setting %r (one of %s)" % (key, ", ".join(sorted(S.SPEC))))
    kind = sp[0]
    t = text.strip()
    if kind == "int":
        try:
            v = int(t)
        except ValueError:
            raise ValueError("setting %s takes an integer %d..%d, not %r" % (key, sp[1], sp[2], text))
    elif kind == "bool":
        low = t.lower()
        if low in ("true", "on", "yes", "1"):
            v = True
        elif low in ("false", "off", "no", "0"):
            v = False
        else:
            raise ValueError("setting %s takes true or false, not %r" % (key, text))
    elif kind == "set":
        v = [w.strip() for w in t.split(",") if w.strip()]
    else:
        v = t
    return S.check(key, v)


def changes_of(args):
    """The settings to change (dict) that ``args`` ask for, each checked. CommandError."""
    asked = [x for x in (args.from_file, args.profile, args.action == "set" or None) if x]
    if len(asked) > 1:
        raise CommandError("give one of: set KEY VALUE, --from FILE, --profile NAME")
    try:
        if args.profile:
            return dict(S.PROFILES[args.profile])
        if args.from_file:
            try:
                with open(args.from_file, encoding="utf-8") as f:
                    data = json.load(f)
            except OSError as e:
                raise CommandError("%s: %s" % (args.from_file, e.strerror or e))
            except ValueError as e:
                raise CommandError("%s: not JSON (%s)" % (args.from_file, e))
            if not isinstance(data, dict) or not data:
                raise CommandError("%s: expected a JSON object of settings" % args.from_file)
            return dict((k, S.check(k, v)) for k, v in data.items())
        w = args.words
        if not w or len(w) % 2:
            raise CommandError("set takes KEY VALUE pairs (e.g. set brightness 80)")
        return dict((w[i], parse_value(w[i], w[i + 1])) for i in range(0, len(w), 2))
    except ValueError as e:
        raise CommandError(str(e))


def run(args):
    changing = args.action == "set" or args.from_file or args.profile
    changes = changes_of(args) if changing else None
    if not changing and len(args.words) > 1:
        raise CommandError("get takes at most one setting")
    try:
        link, hello = connect(args)
        try:
            now = dict(S.DEFAULTS)
            now.update(link.settings())
            if changes is not None:
                try:
                    S.check_all(changes, now)  # the whole change, as the board will check it
                except ValueError as e:
                    raise CommandError(str(e))
                now = link.set_settings(**changes)
                print("set: %s" % ", ".join("%s=%s" % (k, _show(now.get(k))) for k in changes))
                return 0
        finally:
            link.close()
    except LinkError as e:
        raise CommandError(str(e))
    keys = args.words or sorted(now)
    for k in keys:
        if k not in now:
            raise CommandError("the board has no setting %r" % k)
        print("%s %s" % (k, _show(now[k])))
    return 0


def _show(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return ",".join(str(x) for x in v)
    return str(v)
