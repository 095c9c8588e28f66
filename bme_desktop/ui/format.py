"""Small display helpers: times in the user's locale, counts."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QLocale


def format_time(seconds: float) -> str:
    if not seconds:
        return "—"
    return QDateTime.fromMSecsSinceEpoch(int(seconds * 1000)).toString("yyyy-MM-dd HH:mm")


def format_count(value: int) -> str:
    return QLocale().toString(value)
