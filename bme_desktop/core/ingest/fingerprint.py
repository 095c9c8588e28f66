"""Message fingerprints and the earliest changed index between stored and pushed history."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

from ..model import MessageIn


def fingerprint(message: MessageIn) -> str:
    """A stable hash of what makes a message itself: role, name, text and swipe."""
    payload = json.dumps(
        [message.role, message.name, message.text, message.swipe_id],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return hashlib.blake2b(payload.encode("utf-8"), digest_size=16).hexdigest()


def earliest_change(stored: Mapping[int, str], pushed: Mapping[int, str], *, complete: bool) -> int | None:
    """The earliest index whose fingerprint changed, or (for a complete push) that was deleted."""
    candidates = [i for i, fp in pushed.items() if i in stored and stored[i] != fp]
    if complete:
        candidates.extend(i for i in stored if i not in pushed)
    return min(candidates) if candidates else None
