"""Tournaments on a room of boards (docs/tournament.md): pairing, scoring and
tiebreaks, the event store in the library, results from synced games, outputs and
the live hall."""
