"""Playboard firmware: rules, move tracking, engine and board logic for an RP2040 game board.

The same package runs on the board (MicroPython) and in the host tools (CPython).
"""
__version__ = "0.1.0"
