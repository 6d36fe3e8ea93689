"""Playboard host tools: the `playboard` command, sync, library, export, simulator."""
__version__ = "0.1.0"
