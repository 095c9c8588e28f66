"""Translated display names for the schema's ids (node types, tiers, review statuses, relations)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def node_type_label(type_id: str) -> str:
    labels = {
        "event": QCoreApplication.translate("Labels", "Event"),
        "character": QCoreApplication.translate("Labels", "Character"),
        "location": QCoreApplication.translate("Labels", "Location"),
        "rule": QCoreApplication.translate("Labels", "Rule"),
        "thread": QCoreApplication.translate("Labels", "Plot thread"),
        "fact": QCoreApplication.translate("Labels", "Fact"),
        "synopsis": QCoreApplication.translate("Labels", "Summary"),
        "reflection": QCoreApplication.translate("Labels", "Reflection"),
        "pov_memory": QCoreApplication.translate("Labels", "Point of view"),
    }
    return labels.get(type_id, type_id)


def tier_label(tier: str) -> str:
    labels = {
        "short_term": QCoreApplication.translate("Labels", "Short-term"),
        "long_term": QCoreApplication.translate("Labels", "Long-term"),
        "dormant": QCoreApplication.translate("Labels", "Dormant"),
        "archived": QCoreApplication.translate("Labels", "Archived"),
    }
    return labels.get(tier, tier)


def review_label(status: str) -> str:
    labels = {
        "pending": QCoreApplication.translate("Labels", "Pending"),
        "approved": QCoreApplication.translate("Labels", "Approved"),
        "rejected": QCoreApplication.translate("Labels", "Rejected"),
    }
    return labels.get(status, status)


def field_label(name: str) -> str:
    labels = {
        "summary": QCoreApplication.translate("Labels", "Summary"),
        "title": QCoreApplication.translate("Labels", "Title"),
        "participants": QCoreApplication.translate("Labels", "Participants"),
        "status": QCoreApplication.translate("Labels", "Status"),
        "name": QCoreApplication.translate("Labels", "Name"),
        "traits": QCoreApplication.translate("Labels", "Traits"),
        "state": QCoreApplication.translate("Labels", "State"),
        "goal": QCoreApplication.translate("Labels", "Goal"),
        "inventory": QCoreApplication.translate("Labels", "Inventory"),
        "core_note": QCoreApplication.translate("Labels", "Core note"),
        "features": QCoreApplication.translate("Labels", "Features"),
        "danger": QCoreApplication.translate("Labels", "Danger"),
        "constraint": QCoreApplication.translate("Labels", "Constraint"),
        "scope": QCoreApplication.translate("Labels", "Scope"),
        "statement": QCoreApplication.translate("Labels", "Statement"),
        "subject": QCoreApplication.translate("Labels", "Subject"),
        "category": QCoreApplication.translate("Labels", "Category"),
        "insight": QCoreApplication.translate("Labels", "Insight"),
        "trigger": QCoreApplication.translate("Labels", "Trigger"),
        "suggestion": QCoreApplication.translate("Labels", "Suggestion"),
        "belief": QCoreApplication.translate("Labels", "Belief"),
        "emotion": QCoreApplication.translate("Labels", "Emotion"),
        "attitude": QCoreApplication.translate("Labels", "Attitude"),
        "certainty": QCoreApplication.translate("Labels", "Certainty"),
        "about": QCoreApplication.translate("Labels", "About"),
        "aliases": QCoreApplication.translate("Labels", "Aliases"),
    }
    return labels.get(name, name)


def relation_label(relation: str) -> str:
    labels = {
        "related": QCoreApplication.translate("Labels", "related to"),
        "involved_in": QCoreApplication.translate("Labels", "involved in"),
        "occurred_at": QCoreApplication.translate("Labels", "occurred at"),
        "advances": QCoreApplication.translate("Labels", "advances"),
        "updates": QCoreApplication.translate("Labels", "updates"),
        "contradicts": QCoreApplication.translate("Labels", "contradicts"),
        "evolves": QCoreApplication.translate("Labels", "evolves into"),
        "temporal_update": QCoreApplication.translate("Labels", "is a later state of"),
    }
    return labels.get(relation, relation)


def scope_label(kind: str) -> str:
    """Who else remembers a memory (core/scopes.py): this chat, its character, the user's persona, its
    world."""
    labels = {
        "chat": QCoreApplication.translate("Labels", "This chat"),
        "character": QCoreApplication.translate("Labels", "Character"),
        "persona": QCoreApplication.translate("Labels", "Persona"),
        "world": QCoreApplication.translate("Labels", "World"),
    }
    return labels.get(kind, kind)


def lorebook_badge() -> str:
    """Beside the scope of a memory a SillyTavern lorebook gave (core/lorebook.py)."""
    return QCoreApplication.translate("Labels", "Lorebook")


def step_label(action: str) -> str | None:
    """The Edit menu's name for an undoable edit (``HistorySteps``); None for any other step (a
    maintenance task or a story operation is named by its Actions row)."""
    name, _, count = action.partition(" (")
    labels = {
        "create_node": QCoreApplication.translate("Labels", "New memory"),
        "update_node": QCoreApplication.translate("Labels", "Edit"),
        "move_scope": QCoreApplication.translate("Labels", "Scope change"),
        "import_worldinfo": QCoreApplication.translate("Labels", "World Info import"),
        "delete_node": QCoreApplication.translate("Labels", "Delete"),
        "restore_node": QCoreApplication.translate("Labels", "Restore"),
        "link": QCoreApplication.translate("Labels", "Link"),
        "unlink": QCoreApplication.translate("Labels", "Unlink"),
        "merge_nodes": QCoreApplication.translate("Labels", "Merge"),
        "wake": QCoreApplication.translate("Labels", "Wake"),
        "persona.reject_trait": QCoreApplication.translate("Labels", "Trait rejected"),
        "persona.unreject_trait": QCoreApplication.translate("Labels", "Trait restored"),
        "review.approve": QCoreApplication.translate("Labels", "Approve"),
        "review.reject": QCoreApplication.translate("Labels", "Reject"),
        "review.reopen": QCoreApplication.translate("Labels", "Back to review"),
    }
    label = labels.get(name)
    if label is None:
        return None
    return f"{label} ({count}" if count and count.rstrip(")").isdigit() else label
