"""A game's result as a person says it ("White won", "Black won on time", "Bek won by
forfeit", "Draw"), shared by every output a person reads: the player's page, `playboard
live`, `playboard games` (issue 34), the tournament's printed tables and the hall's page
(issue 32). Files for programs keep the notation (PGN's 1-0, 0-1, 1/2-1/2, *; a
tournament's forfeits +/-, -/+, -/-; CSV, JSON, the live files).

One small function, :func:`result_words`: ``playboard_host.words`` builds its longer
sentences on it (``game_over_words``: the score, why the game ended).
"""

# the notation -> who won (0 White / South, 1 Black / North), and whether by forfeit
_WON = {"1-0": (0, False), "0-1": (1, False), "+/-": (0, True), "-/+": (1, True)}

# a record's Termination tag -> how, in words after "won" ("" where it adds nothing)
HOW = {"resignation": "by resignation", "time forfeit": "on time", "time": "on time",
       "agreed draw": "by agreement", "abandoned": "",
       # the ends by the rules: the result says it all
       "normal": "", "kazan": "", "board empty": "", "no piece or no legal move": "", "repetition": ""}

# a result that is not one yet (None, ``*``, anything else), by where it is read: a
# tournament's pairing, a game's record (a list of games), a game being followed live
NOT_YET = {"pairing": "No result yet", "record": "Unfinished", "live": "in play"}


def result_words(result, white=None, black=None, how=None, state="record"):
    """``result`` in words: "White won", "Black won on time", "Bek won by resignation",
    "Draw", "Draw by agreement", "Nurlan won by forfeit", "Both lost by forfeit" (a
    double forfeit: nobody won), "Dina had a bye"; a result that is not one yet (None,
    ``*`` or anything else) by ``state``, where it is read (``NOT_YET``): "pairing" a
    tournament's pairing ("No result yet"), "record" a game's record ("Unfinished"),
    "live" a game being followed ("in play"). KeyError for another ``state``.

    ``white``/``black``: the players' names when known (a str; None or "" gives "White" /
    "Black"; pass "South" / "North" for the mancala games' sides). ``how``: words after
    the result ("on time", "by resignation"; a record's Termination tag may be given as
    it is: see ``HOW``; other text is kept as given, None or "" adds nothing; a forfeit,
    a bye and an unfinished game take none)."""
    not_yet = NOT_YET[state]
    how = HOW.get(how, how) if how else ""
    tail = " " + how if how else ""
    if result == "1/2-1/2":
        return "Draw" + tail
    if result == "-/-":
        return "Both lost by forfeit"
    if result == "bye":
        return "%s had a bye" % (white or "White")
    won = _WON.get(result)
    if won is None:
        return not_yet
    side, forfeit = won
    name = (white or "White") if side == 0 else (black or "Black")
    return "%s won%s" % (name, " by forfeit" if forfeit else tail)
