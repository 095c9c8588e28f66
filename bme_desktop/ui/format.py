"""Small display helpers: times in the user's locale, counts."""

from __future__ import annotations

from PySide6.QtCore import QDateTime, QLocale


def format_time(seconds: float) -> str:
    if not seconds:
        return "—"
    when = QDateTime.fromMSecsSinceEpoch(int(seconds * 1000))
    return QLocale().toString(when, QLocale.FormatType.ShortFormat)


def format_count(value: int) -> str:
    return QLocale().toString(value)
