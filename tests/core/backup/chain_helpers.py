"""Shared by the incremental-backup tests: a store's state as a comparable document."""

from __future__ import annotations

import copy
from typing import Any

from bme_desktop.core.backup.export import export_document
from bme_desktop.core.service import MemoryService


def normalized(document: dict[str, Any]) -> dict[str, Any]:
    """An export document without what an import renumbers or drops on purpose: batches are
    numbered by position, manual batches are ``discarded`` (undo history does not travel),
    and the export time is left out."""
    doc = copy.deepcopy(document)
    doc.pop("exported_at", None)
    doc.pop("app_version", None)
    for chat in doc["chats"]:
        numbers = {b["id"]: pos for pos, b in enumerate(chat["batches"])}
        for b in chat["batches"]:
            b["id"] = numbers[b["id"]]
            if b["kind"] == "manual" and b["status"] in ("applied", "undone"):
                b["status"] = "discarded"
        for key in ("nodes", "edges", "summaries"):
            for item in chat[key]:
                item["batch_id"] = None if item["batch_id"] is None else numbers[item["batch_id"]]
    return doc


def state(service: MemoryService) -> dict[str, Any]:
    return normalized(service.read(lambda r: export_document(r, now=0.0)))
