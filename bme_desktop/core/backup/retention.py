"""Which scheduled backup files to keep: the newest of each of the last N days that have a
backup and the newest of each of the last M ISO weeks. A pure decision on file names; files
whose names are not ours are never touched."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

PREFIX = "bme-backup-"
INCREMENTAL_PREFIX = "bme-incr-"
_NAME = re.compile(r"^bme-backup-(\d{8}-\d{6})\.(bmebak|json\.gz)$")
_INCR = re.compile(r"^bme-incr-(\d{8}-\d{6})-\d{4,}\.(bmebak|json\.gz)$")


@dataclass(frozen=True)
class RetentionPolicy:
    keep_daily: int = 7
    keep_weekly: int = 4
    keep_last: int | None = None  # set: keep only the newest N full backups (scheduled backups)


def backup_name(when: datetime, *, encrypted: bool) -> str:
    stamp = when.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{PREFIX}{stamp}.{'bmebak' if encrypted else 'json.gz'}"


def incremental_name(when: datetime, seq: int, *, encrypted: bool) -> str:
    stamp = when.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{INCREMENTAL_PREFIX}{stamp}-{seq:04d}.{'bmebak' if encrypted else 'json.gz'}"


def backup_time(name: str, *, incremental: bool = False) -> datetime | None:
    match = (_INCR if incremental else _NAME).match(name)
    if match is None:
        return None
    try:
        return datetime.strptime(match.group(1), "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def files_to_delete(names: Sequence[str], policy: RetentionPolicy) -> list[str]:
    """The backup files ``policy`` lets go, sorted by name. The newest backup is always kept.
    Increments older than the oldest full backup kept have lost their chain and go too."""
    dated = sorted(((when, name) for name in names if (when := backup_time(name)) is not None), reverse=True)
    if policy.keep_last is not None:
        keep = {name for _, name in dated[: max(1, policy.keep_last)]}
    else:
        keep = _kept_by_calendar(dated, policy)
    if dated:
        keep.add(dated[0][1])
    oldest = min((when for when, name in dated if name in keep), default=None)
    orphans = [
        name
        for name in names
        if (when := backup_time(name, incremental=True)) is not None and oldest is not None and when < oldest
    ]
    return sorted([name for _, name in dated if name not in keep] + orphans)


def _kept_by_calendar(dated: list[tuple[datetime, str]], policy: RetentionPolicy) -> set[str]:
    keep: set[str] = set()
    days: set[object] = set()
    weeks: set[object] = set()
    for when, name in dated:
        day, week = when.date(), when.isocalendar()[:2]
        if day not in days and len(days) < policy.keep_daily:
            days.add(day)
            keep.add(name)
        if week not in weeks and len(weeks) < policy.keep_weekly:
            weeks.add(week)
            keep.add(name)
    return keep
