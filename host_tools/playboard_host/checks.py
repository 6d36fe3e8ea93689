"""`playboard selftest` and `playboard calibrate`: run a builder's check on the board
over the link (docs/protocol.md ``G {"check": ...}``) and print a pass/fail summary per sensor."""
import time

from playboard_host.cli import CommandError
from playboard_host.serial_link import BoardError, LinkError, add_port_arguments, connect

POLL_S = 0.5
GUIDE = {
    "selftest": ("Self-test: every LED lights in turn (red, green, blue, white), then the LED "
                 "above each sensor lights while it sees a piece. Start with an empty board and "
                 "put a piece (a ball on a pit) on every point and pit once within %d s."),
    "calibrate": ("Calibration of the hall sensors: take every piece off the board and keep "
                  "hands and magnets away. Red LEDs show sensors that still see a field; "
                  "the board measures once all are clear (waits at most %d s)."),
}
PHASES = {"selftest": ("LED chase", "sensors"), "calibrate": ("waiting for a clear board", "measuring")}


def sleep(seconds):
    """How the command waits between polls (tests replace it to move a simulated clock)."""
    time.sleep(seconds)


def sensor_names():
    """{sensor index: "tobit point 7, toguz pit S3"} from the default layout."""
    from playboard.board.layout import GAMES, load_layout
    names = {}
    for g in GAMES:
        try:
            lay = load_layout(g)
        except (OSError, ValueError):
            continue
        for c in lay.cells:
            s = lay.sensor_of(c)
            if s < 0:
                continue
            if lay.kind(c) == "point":
                what = "point %d" % c
            else:
                half = (lay.n_cells - 2) // 2      # pits a side (the last two cells: kazans)
                what = "pit %s%d" % ("S" if c < half else "N", c % half + 1)
            names.setdefault(s, []).append("%s %s" % (g, what))
    return {s: ", ".join(v) for s, v in names.items()}


def summary_lines(res):
    """The result dict of a check as lines of text (the last says PASS or FAIL)."""
    names = sensor_names()
    lines = []
    kind = res.get("check")
    if kind == "selftest":
        lines.append("%d sensors checked, %d ok, %d LEDs chased, %d frames read"
                     % (res.get("checked", 0), res.get("ok", 0), res.get("leds", 0), res.get("frames", 0)))
        why = {"stuck": "stuck: active all the time (a piece left there, a short, a sensor at a rail)",
               "dead": "dead: never active (no piece put there, an open wire, no supply)",
               "noisy": "noisy: changed too often (a chattering contact, a sensor near its threshold)"}
        for key in ("stuck", "dead", "noisy"):
            for s in res.get(key, []):
                lines.append("  sensor %d (%s) %s" % (s, names.get(s, "spare"), why[key]))
    else:
        lines.append("%d sensors calibrated, %d refused, saved: %s"
                     % (res.get("checked", 0) - len(res.get("bad", [])), len(res.get("bad", [])),
                        "yes" if res.get("saved") else "no"))
        for s in res.get("bad", []):
            lines.append("  sensor %d (%s) outside the zero-field window 0.90-1.15 V: a piece or "
                         "magnet near, or a dead sensor" % (s, names.get(s, "spare")))
        if res.get("error"):
            lines.append("  the calibration file could not be written: %s" % res["error"])
    lines.append("PASS" if res.get("pass") else "FAIL")
    return lines


def run_check(link, kind, seconds=None, out=print):
    """Start check ``kind`` on the board behind ``link``, follow it, print the result;
    return it (dict). CommandError if the board refuses."""
    try:
        st = link.check(kind, seconds)
    except BoardError as e:
        raise CommandError("the board refused the %s: %s" % ({"selftest": "self-test"}.get(kind, "calibration"),
                                                            e.msg or e.code))
    out(GUIDE[kind] % st.get("s", seconds or (30 if kind == "selftest" else 60)))
    shown = None
    while True:
        st = link.check()
        if "running" not in st:
            break
        ph = st.get("phase", 0)
        if ph != shown and ph < 2:
            out("... %s" % PHASES[kind][ph])
            shown = ph
        sleep(POLL_S)
    if st.get("check") != kind:
        raise CommandError("the board reports no result of the %s: %r" % (kind, st))
    for line in summary_lines(st):
        out(line)
    return st


def add_arguments(p, default_s):
    add_port_arguments(p)
    p.add_argument("--seconds", type=int, default=default_s,
                   help="length of the check (5..600, default %(default)s)")


def run(args, kind):
    try:
        link, hello = connect(args)
        try:
            res = run_check(link, kind, args.seconds)
        finally:
            link.close()
    except LinkError as e:
        raise CommandError(str(e))
    return 0 if res.get("pass") else 1
