"""Statistics of the games in the library and the boards' health, for a curator
(docs/museum.md): counts per day, by game and level, mean lengths; a report folder
with plots (matplotlib) and an index.html.

Everything about games comes from the synced game records (their Date, Mode, Level
tags, result and termination); the boards keep on flash only what records cannot
tell (``playboard.health``: power-ups, watchdog resets, faulty sensors), stored in
the library at each sync.

A game with no move made (the board switched on or restarted, a new game chosen at
once) is not a game: it is left out of every count (``Stats.empty`` says how many).
A game is *started* when it is in the library with a move made,
*finished* when it has a result (1-0, 0-1, 1/2-1/2) and *abandoned* when it ended
without one (``*``: left alone for ``idle_s``, closed at power-up with ``resume
never``, or a new game started over it).
"""
import html
import os

FINISHED = ("1-0", "0-1", "1/2-1/2")
PLOTS = ("per_day", "per_game", "faults")


def level_of(g):
    """The engine level of library game ``g`` as text ("-" for two players)."""
    if g.tags.get("Mode", "two") == "two":
        return "-"
    return g.tags.get("Level", "?")


class Stats:
    """Counts over a list of library games (``playboard_host.library.Game``).

    ``per_day``: {date "YYYY.MM.DD": [started, finished, abandoned]} (dates in
    order); ``by_game``: {(game, level): [started, finished, abandoned,
    plies of the finished, plies of the abandoned]}; ``total``: the same five over
    all games; :meth:`mean` gives a mean length in plies."""

    def __init__(self, games):
        self.per_day = {}
        self.by_game = {}
        self.total = [0, 0, 0, 0, 0]
        self.empty = 0  # games with no move made (a restart, a new game at once): not counted
        for g in games:
            if not g.plies:
                self.empty += 1
                continue
            fin = g.result in FINISHED
            row = (1, int(fin), int(not fin), g.plies if fin else 0, 0 if fin else g.plies)
            for acc in (self.per_day.setdefault(g.date, [0, 0, 0]),):
                for i in range(3):
                    acc[i] += row[i]
            for acc in (self.by_game.setdefault((g.game, level_of(g)), [0, 0, 0, 0, 0]), self.total):
                for i in range(5):
                    acc[i] += row[i]
        self.per_day = dict(sorted(self.per_day.items()))
        self.by_game = dict(sorted(self.by_game.items()))

    @staticmethod
    def mean(row, finished=True):
        """Mean length in plies of the finished (or the abandoned) games of ``row``
        (a ``by_game`` value or ``total``); None when there are none."""
        n, plies = (row[1], row[3]) if finished else (row[2], row[4])
        return plies / n if n else None

    def games_by_name(self):
        """{game: started} over every level."""
        out = {}
        for (game, _), row in self.by_game.items():
            out[game] = out.get(game, 0) + row[0]
        return out


def _mean_text(v):
    return "-" if v is None else "%.1f" % v


def text(stats, boards):
    """The report as text lines (``playboard stats``)."""
    t = stats.total
    out = ["games: %d started, %d finished, %d abandoned; mean length %s plies finished, %s abandoned"
           % (t[0], t[1], t[2], _mean_text(Stats.mean(t)), _mean_text(Stats.mean(t, False)))]
    if stats.empty:
        out.append("(%d game%s with no move made left out: a board switched on or restarted, a new game "
                   "chosen at once)" % (stats.empty, "" if stats.empty == 1 else "s"))
    out.append("")
    out.append("per day     started  finished  abandoned")
    for d, (s, f, a) in stats.per_day.items():
        out.append("%-10s  %7d  %8d  %9d" % (d, s, f, a))
    out.append("")
    out.append("game     level  started  finished  abandoned  mean plies  abandoned at")
    for (game, level), row in stats.by_game.items():
        out.append("%-7s  %5s  %7d  %8d  %9d  %10s  %12s" % (
            game, level, row[0], row[1], row[2], _mean_text(Stats.mean(row)), _mean_text(Stats.mean(row, False))))
    out.append("")
    out.extend(boards_text(boards))
    return out


def faulty_text(faulty, counted=0):
    """"12 chatter, 40 stuck" for a list of [sensor, kind] (each sensor-kind once);
    ``counted``: how many faulty sensors the counters count (stuck, chatter and
    self-test): when the list holds fewer (a board keeps its last 8 each sync), it
    says so: "(the last 8 of 56 kept)"."""
    seen = []
    for s, k in faulty:
        w = "%d %s" % (s, {1: "chatter", 2: "stuck", 4: "self-test"}.get(k, "kind %d" % k))
        if w not in seen:
            seen.append(w)
    text = ", ".join(seen) or "-"
    if seen and counted > len(faulty):
        text += " (the last %d of %d kept)" % (len(faulty), counted)
    return text


def boards_text(boards):
    """The boards table as text lines (``playboard boards``, the end of ``stats``)."""
    out = ["board             last sync             games  power-ups  wdt resets  restarts  stuck"
           "  chatter  mem errors  self-test  faulty sensors"]
    for b in boards:
        h = b["health"]
        out.append("%-16s  %-19s  %6d  %9d  %10d  %8d  %5d  %7d  %10d  %9d  %s" % (
            b["board"], b["last_sync"] or "-", b["games"], h["power_ups"], h["wdt_resets"],
            h.get("restarts", 0), h["stuck"], h["chatter"], h.get("memory_errors", 0),
            h.get("selftest", 0), faulty_text(h["faulty"], h["stuck"] + h["chatter"] + h.get("selftest", 0))))
        if h.get("faults"):  # exceptions the app contained: the last traceback kept
            out.append("  %d fault%s contained (a frame raised; the board went on)" % (
                h["faults"], "" if h["faults"] == 1 else "s"))
            tb = h.get("tracebacks") or []
            if tb:
                n, ms, text = tb[-1]
                out.append("  the last (fault %d, at %d ms of the board's clock):" % (n, ms))
                out.extend("    " + line for line in text.rstrip().splitlines())
    out.append("%d board%s" % (len(boards), "" if len(boards) == 1 else "s"))
    return out


def summary_sentence(t):
    """The report's first sentence from ``Stats.total`` ``t`` (started, finished,
    abandoned, ...): the mean lengths only of the kinds there are."""
    out = "%d game%s started, %d finished, %d abandoned" % (t[0], "" if t[0] == 1 else "s", t[1], t[2])
    means = []
    if t[1]:
        means.append("a finished game was %s plies long on average" % _mean_text(Stats.mean(t)))
    if t[2]:
        means.append("an abandoned one was left after %s plies on average" % _mean_text(Stats.mean(t, False)))
    return out + ("; " + ", ".join(means) if means else "") + "."


def write_report(stats, boards, folder, fmt="svg"):
    """Write the curator's report into ``folder`` (made if missing): one plot per
    name in ``PLOTS`` (``<name>.<fmt>``, fmt "svg" or "png") and ``index.html`` with
    the tables and the plots. Returns the paths written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    os.makedirs(folder, exist_ok=True)
    meta = {"Date": None} if fmt == "svg" else {}
    if fmt == "svg":
        plt.rcParams["svg.hashsalt"] = "playboard"  # the same games: the same file
    paths = []

    def save(fig, name):
        p = os.path.join(folder, "%s.%s" % (name, fmt))
        fig.tight_layout()
        fig.savefig(p, format=fmt, metadata=meta)
        plt.close(fig)
        paths.append(p)

    # games per day: finished and abandoned stacked
    fig, ax = plt.subplots(figsize=(8, 3.5))
    days = list(stats.per_day)
    fin = [stats.per_day[d][1] for d in days]
    ab = [stats.per_day[d][2] for d in days]
    x = range(len(days))
    ax.bar(x, fin, label="finished", color="#2b8a3e")
    ax.bar(x, ab, bottom=fin, label="abandoned", color="#e8a33d")
    ax.set_xticks(list(x), days, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel("games")
    ax.set_title("Games per day")
    ax.legend()
    save(fig, "per_day")

    # each game's share of the games started
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    by = stats.games_by_name()
    if by:
        ax.pie(list(by.values()), labels=["%s (%d)" % (k, v) for k, v in by.items()], autopct="%1.0f%%")
    else:
        ax.text(0.5, 0.5, "no games", ha="center", va="center")
        ax.axis("off")
    ax.set_title("Share of games started")
    save(fig, "per_game")

    # faults per board
    fig, ax = plt.subplots(figsize=(8, 3.5))
    names = [b["board"] for b in boards]
    w = 0.16
    for i, (k, label, colour) in enumerate((("stuck", "stuck sensors", "#c92a2a"),
                                            ("chatter", "chattering sensors", "#862e9c"),
                                            ("selftest", "sensors failing a self-test", "#e67700"),
                                            ("wdt_resets", "watchdog resets", "#1864ab"),
                                            ("memory_errors", "memory errors", "#495057"))):
        ax.bar([j + (i - 2) * w for j in range(len(names))], [b["health"].get(k, 0) for b in boards], w,
               label=label, color=colour)
    ax.set_xticks(list(range(len(names))), names, fontsize=8)
    ax.set_ylabel("count")
    ax.set_title("Faults per board (since the library first saw it)")
    ax.legend()
    save(fig, "faults")

    e = html.escape
    t = stats.total
    rows = "".join("<tr><td>%s</td><td>%d</td><td>%d</td><td>%d</td></tr>\n" % (e(d), s, f, a)
                   for d, (s, f, a) in stats.per_day.items())
    grows = "".join("<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%s</td><td>%s</td></tr>\n" % (
        e(g), e(lv), r[0], r[1], r[2], _mean_text(Stats.mean(r)), _mean_text(Stats.mean(r, False)))
        for (g, lv), r in stats.by_game.items())
    brows = "".join("<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td>"
                    "<td>%d</td><td>%d</td><td>%s</td></tr>\n" % (
                        e(b["board"]), e(b["last_sync"] or "-"), b["games"], b["health"]["power_ups"],
                        b["health"]["wdt_resets"], b["health"].get("restarts", 0), b["health"]["stuck"],
                        b["health"]["chatter"],
                        b["health"].get("memory_errors", 0), b["health"].get("selftest", 0),
                        e(faulty_text(b["health"]["faulty"], b["health"]["stuck"] + b["health"]["chatter"]
                                      + b["health"].get("selftest", 0)))) for b in boards)
    imgs = "".join('<figure><img src="%s.%s" alt="%s"></figure>\n' % (n, fmt, n.replace("_", " ")) for n in PLOTS)
    page = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Playboard: games and boards</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}
td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}td:first-child{text-align:left}
.wide{overflow-x:auto;max-width:100%%}img{max-width:100%%;height:auto}figure{margin:1em 0}
@media (max-width:600px){body{margin:.6em}td,th{padding:.15em .3em;font-size:.9em}}</style></head><body>
<h1>Games and boards</h1>
<p>%s</p>
%s
<h2>Per day</h2>
<div class="wide"><table><tr><th>date</th><th>started</th><th>finished</th><th>abandoned</th></tr>
%s</table></div>
<h2>By game and level</h2>
<div class="wide"><table><tr><th>game</th><th>level</th><th>started</th><th>finished</th><th>abandoned</th><th>mean plies</th>
<th>abandoned at (plies)</th></tr>
%s</table></div>
<h2>Boards</h2>
<p>Counted by the boards since the library first synced them: power-ups, resets by the watchdog
(the firmware stopped and the board restarted itself), sensors found stuck or chattering
(docs/museum.md says what to do).</p>
<div class="wide"><table><tr><th>board</th><th>last sync</th><th>games</th><th>power-ups</th><th>watchdog resets</th>
<th>daily restarts</th><th>stuck</th><th>chatter</th><th>memory errors</th><th>self-test</th><th>faulty sensors</th></tr>
%s</table></div>
</body></html>
""" % (e(summary_sentence(t)), imgs, rows, grows, brows)
    p = os.path.join(folder, "index.html")
    with open(p, "w", encoding="utf-8") as f:
        f.write(page)
    paths.append(p)
    return paths
