"""Plain words for players, shared by the web page, `live`, the demo and `replay`:
who won and by what score, what each game is and how it is won, the board's events
in players' terms (1-based pit and point names, no internals).

Side names: White/Black in Tobit, South/North in the mancala games (RULES.md).
"""
from playboard.app.state import ARM_MS, DRAW_MS
from playboard.games.common import RESULT_BLACK, RESULT_DRAW, RESULT_WHITE

from playboard_host.result_words import result_words as _result_words

# "What is this game and how do you win", one short paragraph each (RULES.md 1, 2, 3)
ABOUT = {
    "toguz": ("Toguz Kumalak (nine balls), a mancala for two: each player owns the near row of nine pits "
              "(9 balls in each) and a kazan (store). A move takes every ball of one of your pits and sows "
              "them one by one counter-clockwise, the first ball back into that pit. If the last ball makes "
              "an opponent's pit even, you take that pit into your kazan; if it makes it exactly 3, it may "
              "become your tuzdyk (one per game; not pit 9): every ball sown into it later is yours. "
              "You win with 82 balls in your kazan (more than half of 162); 81 each is a draw."),
    "tobit": ("Tobit (Khakas draughts) on 5 x 4 lines: 12 men each, White near, Black far. A man steps "
              "along a line to the next free point, forward, left or right (never back). Capture is "
              "compulsory: jump over an opponent's piece next to yours onto the free point behind it (any "
              "direction) and go on jumping while you can. A man ending on the far end of a line becomes a "
              "tobit (king: drawn with a ring, W or B in text), which moves and captures any distance along "
              "a line. You win when your opponent has no piece left or no legal move; the same position a "
              "third time is a draw."),
    "tobit4": ("Tobit 4 x 4: Tobit (Khakas draughts) on the smaller board, 10 men each, same rules: step "
               "forward, left or right; jumping over an opponent's piece is compulsory and goes on while it "
               "can; a man ending on the far end becomes a tobit (king: a ring, W or B in text). You win when "
               "your opponent has no piece left or no legal move; the same position a third time is a draw."),
    "tihbat": ("Tihbat, the smallest mancala: two pits each (7 counters in each), South near, North far. A "
               "move sows every counter of one of your pits counter-clockwise, the first back into that pit. "
               "If the last counter makes one of your own pits 2, 4, 6 or 8, you capture it. With both pits "
               "empty you pass. The game ends when the board is empty or a position comes back; the counters "
               "left are split equally. Most counters captured wins; equal is a draw."),
}


def about(game):
    """The short "what is this game and how do you win" text of ``game`` (a GAME_NAMES
    name). KeyError for an unknown name."""
    return ABOUT[game]


def sides(game):
    """("White", "Black") for Tobit, ("South", "North") for the mancala games."""
    return ("White", "Black") if game.startswith("tobit") else ("South", "North")


def plural(n, word):
    """"1 ply", "3 plies", "2 counters": ``n`` and ``word`` in the number it needs."""
    if n == 1:
        return "%d %s" % (n, word)
    return "%d %s" % (n, word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s")


_plural = plural


def player_names(tags):
    """(white, black): the players' names of a record's ``tags`` (dict) when they are
    names, else None each: the board's own "Player" (two players, no names given) and
    "?" are none; the engine's "Playboard L3" is one."""
    out = []
    for k in ("White", "Black"):
        v = (tags or {}).get(k)
        out.append(v if v and v not in ("Player", "?", "-") else None)
    return out[0], out[1]


def result_short(game, result, termination=None, tags=None):
    """A result as a person reads it in a list (``result_words.result_words``): "White
    won", "Black won" (Tobit), "South won", "North won" (the mancala games), "Draw",
    "Unfinished" (``*`` or nothing); a tournament's forfeits "+/-", "-/+", "-/-" as
    "White won by forfeit", "Black won by forfeit", "Both lost by forfeit". With the
    record's ``termination`` how ("by resignation", "on time", "by agreement"); with its
    ``tags`` the players' names where known (``player_names``): "Bek won by
    resignation". The notation itself stays in the files."""
    w, b = sides(game or "")
    nw, nb = player_names(tags)
    return _result_words(result, nw or w, nb or b, termination, state="record")


def game_over_words(game, result, termination=None, g=None, tags=None):
    """One sentence for a finished game: who won and by what score, and why (who won:
    ``result_words.result_words``).

    ``game``: a GAME_NAMES name; ``result``: "1-0", "0-1", "1/2-1/2" or "*";
    ``termination``: the records' Termination text (or None); ``g``: the rules core at the
    end (for the scores: Toguz Kumalak's kazans, Tihbat's captures and the equal split
    of what is left, RULES.md 1.6, 3.5), or None; ``tags``: the record's tags (the
    players' names, where known, name the winner). "*" (a game not over) gives "in play".
    """
    if result not in (RESULT_WHITE, RESULT_BLACK, RESULT_DRAW):
        return _result_words(result, state="live")
    w, b = sides(game)
    nw, nb = player_names(tags)
    head = _result_words(result, "%s (%s)" % (nw, w) if nw else w, "%s (%s)" % (nb, b) if nb else b)
    score = ""
    if g is not None and game == "toguz":
        s, n = g.pos[18], g.pos[19]
        score = " %d to %d in the kazans (South %d, North %d)" % (max(s, n), min(s, n), s, n) \
            if result != RESULT_DRAW else " %d to %d in the kazans" % (s, n)
    elif g is not None and game == "tihbat":
        cs, cn = g.captures()
        fs, fn = g.final_captures()
        left = fs - cs + fn - cn
        score = " %d to %d (South %d, North %d" % (max(fs, fn), min(fs, fn), fs, fn) \
            if result != RESULT_DRAW else " %d to %d (South %d, North %d" % (fs, fn, fs, fn)
        score += ": %d and %d captured, the %s left on the board split equally)" % (
            cs, cn, _plural(left, "counter")) if left else ", all captured)"
    why = {
        "kazan": "a kazan reached 82" if result != RESULT_DRAW else "both kazans reached 81",
        "no piece or no legal move": "%s has no piece or no legal move" % (
            b if result == RESULT_WHITE else w) if result != RESULT_DRAW else "no legal move",
        "repetition": "the position repeated",
        "board empty": "the board is empty",
        "resignation": "%s resigned" % (b if result == RESULT_WHITE else w),
        "agreed draw": "agreed",
        "abandoned": "the game was abandoned",
    }.get(termination or "", termination or "")
    if termination in ("resignation", "agreed draw", "abandoned") and g is not None and game == "toguz":
        return "%s - %s (kazans: South %d, North %d)" % (head, why, g.pos[18], g.pos[19])
    if termination in ("resignation", "agreed draw", "abandoned") and g is not None and game == "tihbat":
        return "%s - %s (captured: South %d, North %d)" % (head, why, g.pos[4], g.pos[5])
    return head + score + (" - " + why if why else "")


# Why the board refused a pit (the tracker's ``why`` of the link's ``error`` event:
# playboard.board.mancala_tracker _WHY_*, docs/tracker.md "Selections that go wrong"):
# what happened, and what to do. {pit} is the pit's name, {mover} the side to move
# ({mover_who}: "South, who is to move"); docs/player.md has the same table.
REFUSALS = {
    1: ("{pit} has no balls to sow (an empty pit, or a tuzdyk)",
        "play a pit of your own row that has balls: those are lit green"),
    2: ("{pit} is not a pit of {mover_who}",
        "{mover} plays one of their own pits, lit green; the other row waits its turn"),
    3: ("two pits were touched at once ({pit} and a neighbour): nothing was played",
        "touch one pit only, then take the hand away"),
    4: ("the move just made is still being shown (the pit being sown is blue): {pit} was not played",
        "finish sowing and wait about 2.5 s until the view ends, or touch the sown pit again to take "
        "the move back"),
    5: ("the engine's move is being shown (its pit purple): {pit} was not played",
        "carry out the engine's move first (sow its purple pit), wait until its lights end (about "
        "2.5 s), then play a pit of your own that has balls"),
    6: ("the game is over: {pit} was not played",
        "start a new game (the board's menu, or New game on the page)"),
}


def refusal_words(why, game, cell=None, turn=None):
    """(what happened, what to do): the words for a refusal with reason ``why`` (an int,
    REFUSALS' keys) on ``cell`` (a mancala cell, or None) in ``game``, ``turn`` the side
    to move (0/1, or None when not known). An unknown reason still gets words (the
    number is kept for a bug report)."""
    pit = pit_name(game, cell) if isinstance(cell, int) and cell >= 0 else "that pit"
    if isinstance(cell, int) and cell >= 2 * (9 if game == "toguz" else 2):
        pit = "a %s" % ("kazan" if game == "toguz" else "store")
    mover = sides(game)[turn] if turn in (0, 1) else "the player to move"
    who = "%s, who is to move" % mover if turn in (0, 1) else mover
    what, do = REFUSALS.get(why, ("{pit} was not played (a reason the page does not know: %r)" % (why,),
                                   "play a pit lit green"))
    return what.format(pit=pit, mover=mover, mover_who=who), do.format(pit=pit, mover=mover, mover_who=who)


def refusal_line(ev, game, turn=None):
    """A refused pit (the link's ``error`` event: ``cell``, ``why``) as one line: what
    happened, then what to do."""
    what, do = refusal_words(ev.get("why"), game, ev.get("cell"), turn)
    return "refused: %s. What to do: %s." % (what, do)


# Why the board refused a Tobit move (the link's ``correction`` event's ``why``:
# playboard.board.tobit_why WHY_*, RULES.md 2.4-2.8): what happened, and what to do.
# {point} the piece's point, {to} where it was put down, {move} the move text the
# event gives, {ends} the points the piece may go to, {over} the points a compulsory
# capture takes, {mover} the side to move, {other} the other side, {back} "take it off
# point T and put it back on point P" (or "put it back on point P" while in the hand).
# docs/player.md has the same table.
TOBIT_REFUSALS = {
    1: ("it is {mover}'s move: {other}'s piece on point {point} may not move now",
        "{back}; {mover} plays first (e.g. {move})"),
    2: ("a capture is compulsory: {move} takes the piece{over_s} on point{over_s} {over} (RULES.md 2.7); "
        "the man on point {point} cannot capture, so it may not move",
        "{back}, then capture: {move}"),
    3: ("a man never moves backwards (RULES.md 2.4): point {point} to point {to} is a step back",
        "{back}; it may go to point{ends_s} {ends} (e.g. {move})"),
    4: ("the man on point {point} cannot go to point {to}: a man steps to the next free point along "
        "a line, forward, left or right (RULES.md 2.4)",
        "{back}; it may go to point{ends_s} {ends} (e.g. {move})"),
    5: ("the tobit on point {point} cannot end on point {to}: a tobit goes along one line over free "
        "points only, or jumps one piece (RULES.md 2.6, 2.7)",
        "{back}; it may go to point{ends_s} {ends} (e.g. {move})"),
    6: ("the piece on point {point} has no legal move now",
        "{back}; play another piece (e.g. {move})"),
    7: ("the engine's move {move} is shown (its points lit): only that move is accepted now",
        "{back}, then make the engine's move {move}"),
}


def _points(ps, joint="or"):
    """[15, 13, 14] as "13, 14 or 15" (in order; ``joint`` "and" for all of them); ""
    for none."""
    ps = [str(p) for p in sorted(ps or ())]
    last = " %s " % joint
    return last.join(ps) if len(ps) < 3 else ", ".join(ps[:-1]) + last + ps[-1]


def tobit_refusal_words(ev, turn=None):
    """(what happened, what to do): the words for a Tobit ``correction`` event ``ev``
    (dict: ``why``, ``point``, ``to``, ``move``, ``ends``, ``over``; see
    playboard.board.tobit_why) with ``turn`` (0/1) the side to move; None for an event
    without a reason (the board's LEDs show what to put right). An unknown reason
    still gets words (the number is kept for a bug report)."""
    why = ev.get("why")
    if not why:
        return None
    mover = ("White", "Black")[turn] if turn in (0, 1) else "the player to move"
    other = ("Black", "White")[turn] if turn in (0, 1) else "the other player"
    point, to = ev.get("point", "?"), ev.get("to") or 0
    back = ("take it off point %d and put it back on point %s" % (to, point) if to
            else "put it back on point %s" % point)
    ends = ev.get("ends") or []
    over = ev.get("over") or []
    what, do = TOBIT_REFUSALS.get(why, ("the move was not accepted (a reason the page does not know: %r)"
                                        % (why,), "{back}"))
    f = dict(point=point, to=to, move=ev.get("move") or "?", mover=mover, other=other, back=back,
             ends=_points(ends), ends_s="" if len(ends) == 1 else "s", over=_points(over, "and"),
             over_s="" if len(over) == 1 else "s")
    return what.format(**f), do.format(**f)


def tobit_refusal_line(ev, turn=None):
    """A Tobit ``correction`` event as one line: why and what to do (as ``refusal_line``),
    else the board's own request (put the pieces where the LEDs show)."""
    said = tobit_refusal_words(ev, turn)
    lights = "the LEDs show it: mint, put a piece there; red, take it off"
    if said is None:
        return ("the board differs from the game: put the pieces where the LEDs show (mint: put a piece "
                "there, red: take it off)")
    return "refused: %s. What to do: %s (%s)." % (said[0], said[1], lights)


def pit_name(game, cell):
    """A mancala cell (0-based, South's pits first) as a player names it: "South 3"."""
    n = 9 if game == "toguz" else 2
    return "%s %d" % ("South" if cell < n else "North", cell % n + 1)


def event_words(ev, game, turn=None):
    """A firmware event (dict with ``ev``) in players' terms, one line, or None for an
    event a player need not see (boot, heartbeat). Sensor cells become pit names (mancala)
    or point numbers (Tobit, as the moves write them); engine node counts are left out;
    a refusal says why and what to do (``turn``: the side to move, when known)."""
    kind = ev.get("ev")
    t = ev.get("t")
    stamp = "%6.1f s  " % (t / 1000.0) if isinstance(t, (int, float)) else ""
    tobit = game.startswith("tobit")

    def where(c):
        return "point %d" % c if tobit else pit_name(game, c)

    cell = ev.get("cell", ev.get("point"))
    if kind in ("boot", "heartbeat"):
        return None
    if kind == "game":
        text = "new game: %s (%s)" % (ev.get("game", game), ev.get("mode", "two"))
    elif kind == "resumed":
        text = "game resumed after a restart: %s" % ev.get("game", game)
    elif kind == "setup":
        text = "pieces set up: play" if ev.get("done") else "set up the pieces where the LEDs show"
    elif kind == "move":
        text = "move %s" % ev.get("move", "?")
    elif kind == "undo":
        text = "move taken back"
    elif kind == "thinking":
        text = "engine thinking (level %s)" % ev.get("level", "?")
    elif kind == "engine":
        text = "engine plays %s: make it on the board" % ev.get("move", "?")
    elif kind == "correction":
        text = tobit_refusal_line(ev, turn)
    elif kind == "error":
        text = refusal_line(ev, game, turn)
    elif kind == "stopped":
        text = "the engine stopped thinking: your move was taken back, play again"
    elif kind == "abandoned":
        text = "the game was left alone too long and abandoned (%s)" % _plural(ev.get("ply") or 0, "ply")
    elif kind == "fault":
        text = "sensor %s is faulty (%s): it is left out until it behaves" % (
            ev.get("sensor", "?"), {1: "chattering", 2: "stuck"}.get(ev.get("fault"), "faulty"))
    elif kind == "check":
        text = check_words(ev)
    elif kind == "staff":
        if "open" in ev:
            text = "the staff menu is open (docs/museum.md)" if ev["open"] else "the staff menu closed"
        else:
            text = "staff menu: " + ", ".join("%s %s" % (k, v) for k, v in ev.items() if k not in ("ev", "t"))
    elif kind == "attract":
        text = "nobody played for a while: the board shows its attract lights (a touch wakes it)"
    elif kind == "restart":
        text = "the board restarts itself (%s restart, after %s s up); the game in play is kept" % (
            ev.get("why", "daily"), ev.get("up_s", "?"))
    elif kind == "resolved":
        text = "the board matches the game again"
    elif kind == "record-error":
        text = "the board's game store: %s" % ev.get("msg", "?")
    elif kind == "over":
        text = "game over: " + game_over_words(game, ev.get("result"), ev.get("termination"))
    elif kind == "menu":
        text = "the board's menu"
    elif kind == "ready":  # a side confirmed a tournament's pairing (firmware app.ui.ready_press)
        text = "%s is ready%s" % (("White", "Black")[ev.get("side") == 1],
                                  ": the game begins" if ev.get("ready") == 3 else "")
    elif kind == "pairing":  # a tournament's pairing sent for the next game (firmware app.pairing)
        text = "a tournament's pairing for the next game" if ev.get("kept") else "the tournament's pairing forgotten"
    elif kind in ("lift", "place") and cell is not None:
        text = "%s %s" % ("piece lifted from" if kind == "lift" else "piece put on", where(cell)) \
            if tobit else "%s %s" % (where(cell), "touched" if kind == "place" else "let go")
    elif kind == "tap" and cell is not None:
        text = "%s tapped" % where(cell)
    elif kind == "arm":
        side = ev.get("side")
        w, b = sides(game)
        who = (w, b)[side] if side in (0, 1) else "?"
        if ev.get("what") == "draw":  # (firmware App._pad_press: the other side accepts)
            other = (w, b)[1 - side] if side in (0, 1) else "the other side"
            text = "%s offers a draw: %s presses their own draw pad within %d s to agree" % (
                who, other, DRAW_MS // 1000)
        else:  # resign: the same pad again
            text = "%s pressed %s: press again within %d s to confirm" % (
                who, ev.get("what", "a pad"), ARM_MS // 1000)
    else:
        rest = ", ".join("%s %s" % (k, v) for k, v in ev.items()
                         if k not in ("ev", "t", "fen", "nodes", "cell", "point"))
        if cell is not None:
            rest = where(cell) + (", " + rest if rest else "")
        text = kind.replace("_", " ") + (": " + rest if rest else "")
    return stamp + text


def staff_words(ev):
    """The staff menu's answer (a ``staff`` event of firmware ``app.staff``, docs/museum.md)
    in a curator's words, one line ("" for its opening)."""
    if "brightness" in ev:
        return "brightness %s" % ev["brightness"]
    if "unlocked" in ev:
        return "the link unlocked (settings may be changed)" if ev["unlocked"] else "the link locked"
    if "games" in ev and "problems" in ev:
        return "flash: %s kept, %s, %s waiting, %s" % (
            plural(ev["games"], "game"), plural(ev["problems"], "problem"),
            plural(ev.get("pending", 0), "write"), plural(ev.get("memory_errors", 0), "memory error"))
    if ev.get("clear") == "armed":
        return "press South pit 5 again within 3 s to clear the synced games"
    if "cleared" in ev:
        return "%s cleared, %s kept" % (plural(ev["cleared"], "synced game"), ev.get("games", "?"))
    if ev.get("open") is False:
        return "the staff menu closed"
    for kind, name in (("selftest", "the self-test"), ("calibrate", "the calibration")):
        if kind in ev:  # (firmware app.staff.start_check: True, or why it is refused)
            if ev[kind] is True:
                return "%s runs: its verdict on the LEDs, then the menu" % name
            return "%s refused: %s" % (name, ev[kind])
    rest = ", ".join("%s %s" % (k, v) for k, v in ev.items() if k not in ("ev", "t"))
    return rest


def check_words(ev):
    """A self-test or calibration event (docs/protocol.md, "The result of a check") as words."""
    kind = {"selftest": "self-test", "calibrate": "calibration"}.get(ev.get("check"), "check")
    if "pass" not in ev:
        return "%s started (%s s)" % (kind, ev.get("s", "?"))
    if ev.get("check") == "selftest":
        bad = []
        for key, said in (("stuck", "stuck"), ("dead", "dead"), ("noisy", "noisy")):
            if ev.get(key):
                bad.append("%s %s" % (said, ", ".join("sensor %s" % s for s in ev[key])))
        return "self-test %s: %d of %d sensors ok, %d LEDs chased%s" % (
            "passed" if ev["pass"] else "FAILED", ev.get("ok", 0), ev.get("checked", 0), ev.get("leds", 0),
            "; " + "; ".join(bad) if bad else "")
    bad = ev.get("bad") or []
    return "calibration %s: %d sensors calibrated%s%s" % (
        "passed" if ev["pass"] else "FAILED", ev.get("checked", 0) - len(bad),
        ", refused: " + ", ".join("sensor %s" % s for s in bad) if bad else "",
        "" if ev.get("saved", True) else ", not saved")


def capture_hint(g, point):
    """Tobit: the words for a man of the side to move lifted from ``point`` while a
    capture is compulsory elsewhere (RULES.md 2.7), or "" (not Tobit, not the mover's
    piece, a capture it can make, or no capture to make)."""
    if not g.name.startswith("tobit") or not isinstance(point, int) or not 1 <= point <= g.n_points:
        return ""
    legal = g.legal_moves()
    if not legal or legal[0][0] != 1:  # tobit.CAPTURE: captures first when there are any
        return ""
    v = g.board[point]
    if not v or (v & 3) != g.turn + 1 or any(m[1] == point for m in legal):
        return ""
    return ("A capture is compulsory (RULES.md 2.7): the man from point %d cannot capture, so it cannot move "
            "now; put it back and capture, e.g. %s" % (point, g.move_text(legal[0])))
