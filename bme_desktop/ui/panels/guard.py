"""Callbacks that outlive their widget: a window rebuilt for another language leaves the
context (its signals and running tasks) behind, so a lambda connected to it must not touch
a deleted widget."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from shiboken6 import isValid


def while_alive(widget: QObject, fn: Callable[..., Any]) -> Callable[..., None]:
    """``fn`` wrapped to do nothing once ``widget``'s C++ object is gone."""
    def call(*args: Any) -> None:
        if isValid(widget):
            fn(*args)
    return call
