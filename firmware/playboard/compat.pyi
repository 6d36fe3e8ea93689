# Types of playboard.compat for the type checker (mypy) only: the viper
# annotation names are compiler keywords on MicroPython, so any type will do.
from typing import Any, Callable, TypeVar

_T = TypeVar("_T")
MICROPYTHON: bool
micropython: Any
def const(x: _T) -> _T: ...
ptr8 = Any
ptr16 = Any
ptr32 = Any
uint = Any
def unload(name: str) -> None: ...
TWINS: dict[str, dict[str, Callable[..., Any]]]
def exists(path: str) -> bool: ...
def frozen_file(path: str) -> bytes | None: ...
