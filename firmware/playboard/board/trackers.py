"""The tracker for a game: ``tracker_for(game, **settings)``, importing only the module
of the tracker it builds (the trackers' shared base is :mod:`playboard.board.tracker`)."""


def tracker_for(game, **settings):
    """The tracker for ``game``: a TobitTracker for Tobit / Tobit 4x4, a MancalaTracker
    for Toguz Kumalak and Tihbat (``settings`` go to its constructor)."""
    if hasattr(game, "n_points"):
        from playboard.board.tobit_tracker import TobitTracker

        return TobitTracker(game, **settings)
    from playboard.board.mancala_tracker import MancalaTracker

    return MancalaTracker(game, **settings)
