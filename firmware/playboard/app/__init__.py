"""The board's application: the loop (:mod:`playboard.app.loop`, ``App``), the shared
names (:mod:`playboard.app.state`), the menu, results and start-up
(:mod:`playboard.app.ui`) and the start of a game (:mod:`playboard.app.gamestart`).
This package file holds no code (docs/architecture.md).
"""
