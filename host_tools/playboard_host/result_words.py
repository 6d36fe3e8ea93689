"""A game's result in words for people ("Bek won", "draw", "Nurlan won by forfeit",
"double forfeit"), shared by every output a person reads: the tournament's printed
tables and the hall's page (issue 32), the player's page and ``playboard live`` (issue
34). Files for programs (PGN, CSV, JSON) keep the notation (1-0, 1/2-1/2, +/-)."""

WORDS_OF = {"1/2-1/2": "draw", "-/-": "double forfeit", "*": "in play", None: "no result yet"}


def result_words(result, white, black, how=None):
    """``result`` in words, with the players' names ``white`` and ``black`` (texts).

    ``result``: "1-0", "0-1", "1/2-1/2", "+/-" (White won by forfeit), "-/+", "-/-"
    (both forfeited: nobody won), "bye" (``white`` had a bye), "*" (in play) or None
    (no result yet); anything else is returned as it is. ``how``: words added after
    it, e.g. "by resignation". Examples: ("0-1", "Aru", "Bek") -> "Bek won";
    ("+/-", "Nurlan", "Gul") -> "Nurlan won by forfeit"; ("1/2-1/2", ...) -> "draw"."""
    if result in ("1-0", "0-1"):
        text = "%s won" % (white if result == "1-0" else black)
    elif result in ("+/-", "-/+"):
        text = "%s won by forfeit" % (white if result == "+/-" else black)
    elif result == "bye":
        text = "%s had a bye" % white
    else:
        text = WORDS_OF.get(result, result)
    return text + " " + how if how else text
