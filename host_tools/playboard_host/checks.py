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
    "guided": ("Guided test: start with an empty board. Put a White piece (a ball on a pit) on "
               "each point the board asks for (its LED lights white) and lift it again; at "
               "most %d s a point. Then every LED lights red, green, blue in turn: put a piece "
               "on each point whose LED does not show that colour, and lift it."),
}
PHASES = {"selftest": ("LED chase", "sensors"), "calibrate": ("waiting for a clear board", "measuring"),
          "guided": ("keep the board empty", "placing", "colours")}
COLOUR_NAMES = {"r": "RED", "g": "GREEN", "b": "BLUE"}


def guided_prompt(st, names):
    """The line that tells the builder what the guided test asks now (``st``: the link's
    status), or None."""
    if st.get("target", -1) >= 0:
        s = st["target"]
        return "put a White piece on %s (sensor %d), then lift it" % (names.get(s, "sensor %d" % s), s)
    if st.get("colour"):
        c = COLOUR_NAMES[st["colour"]]
        return ("every LED is %s now: put a piece on each point whose LED is not %s (dark or "
                "another colour), then lift it" % (c, c))
    return None


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
    elif kind == "guided":
        lines.append("%d sensors checked, %d ok" % (res.get("checked", 0), res.get("ok", 0)))
        for t, got in res.get("swapped", []):
            lines.append("  sensor %d (%s): a piece there read as sensor %d (%s): wires crossed "
                         "or the board file's mapping wrong" % (t, names.get(t, "spare"), got,
                                                                names.get(got, "spare")))
        for s in res.get("inverted", []):
            lines.append("  sensor %d (%s) read a White piece as Black: the hall sensor is mounted "
                         "upside down (turn it over, or the magnet's pole)" % (s, names.get(s, "spare")))
        for s in res.get("dead", []):
            lines.append("  sensor %d (%s) never answered: an open wire, no supply, or no piece "
                         "put there" % (s, names.get(s, "spare")))
        for s in res.get("stuck", []):
            lines.append("  sensor %d (%s) read a piece on the empty board: a short or a piece "
                         "left there" % (s, names.get(s, "spare")))
        for led, c in res.get("dark", []):
            lines.append("  LED %d: its %s does not light (a dead colour: replace the LED or "
                         "resolder it)" % (led, COLOUR_NAMES[c].lower()))
        if res.get("more"):
            lines.append("  ... and %d more faults: fix these first, then run it again" % res["more"])
    else:
        timed = " (the board was never clear in time: nothing saved)" if res.get("timed_out") else ""
        lines.append("%d sensors calibrated, %d refused, saved: %s%s"
                     % (res.get("checked", 0) - len(res.get("bad", [])), len(res.get("bad", [])),
                        "yes" if res.get("saved") else "no", timed))
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
        raise CommandError("the board refused the %s: %s" % ({"selftest": "self-test", "guided": "guided test"}.get(kind, "calibration"),
                                                            e.msg or e.code))
    out(GUIDE[kind] % st.get("s", seconds or (60 if kind == "calibrate" else 30)))
    shown = None
    asked = None
    names = sensor_names() if kind == "guided" else {}
    while True:
        st = link.check()
        if "running" not in st:
            break
        ph = st.get("phase", 0)
        if ph != shown and ph < len(PHASES[kind]):
            out("... %s" % PHASES[kind][ph])
            shown = ph
        if kind == "guided":
            line = guided_prompt(st, names)
            if line is not None and line != asked:
                out(line)
                asked = line
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
