"""The engine: game-agnostic search over the rules cores' interface
(:mod:`playboard.engine.search`), one static evaluation per game
(:mod:`playboard.engine.evaluation`) and the solved Tihbat table
(:mod:`playboard.engine.tihbat_table`). This package file holds no code.
"""
