"""Hardware backends: raw sensor values in, LED colours out. Nothing here knows a game.

This package file holds no code: the interface every backend shares is
:mod:`playboard.hw.base`, the factory :mod:`playboard.hw.open`.
"""
