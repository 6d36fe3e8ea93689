"""Playboard host tools: the `playboard` command, sync, library, export, simulator.

Importing the package puts the CPython twins of the rules cores' viper functions in
place (:mod:`playboard_host.twins`): the host runs the same cores at CPython speed.
"""
from playboard_host import twins as _twins

__version__ = "0.1.0"

_twins.install()
