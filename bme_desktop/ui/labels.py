"""Translated display names for the schema's ids (node types, tiers, review statuses, relations)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def _t(text: str) -> str:
    return QCoreApplication.translate("Labels", text)


def node_type_label(type_id: str) -> str:
    labels = {
        "event": _t("Event"), "character": _t("Character"), "location": _t("Location"), "rule": _t("Rule"),
        "thread": _t("Plot thread"), "fact": _t("Fact"), "synopsis": _t("Summary"),
        "reflection": _t("Reflection"), "pov_memory": _t("Point of view"),
    }
    return labels.get(type_id, type_id)


def tier_label(tier: str) -> str:
    labels = {"short_term": _t("Short-term"), "long_term": _t("Long-term"), "dormant": _t("Dormant"),
              "archived": _t("Archived")}
    return labels.get(tier, tier)


def review_label(status: str) -> str:
    labels = {"pending": _t("Pending"), "approved": _t("Approved"), "rejected": _t("Rejected")}
    return labels.get(status, status)


def field_label(name: str) -> str:
    labels = {
        "summary": _t("Summary"), "title": _t("Title"), "participants": _t("Participants"),
        "status": _t("Status"), "name": _t("Name"), "traits": _t("Traits"), "state": _t("State"),
        "goal": _t("Goal"), "inventory": _t("Inventory"), "core_note": _t("Core note"),
        "features": _t("Features"), "danger": _t("Danger"), "constraint": _t("Constraint"),
        "scope": _t("Scope"), "statement": _t("Statement"), "subject": _t("Subject"),
        "category": _t("Category"), "insight": _t("Insight"), "trigger": _t("Trigger"),
        "suggestion": _t("Suggestion"), "belief": _t("Belief"), "emotion": _t("Emotion"),
        "attitude": _t("Attitude"), "certainty": _t("Certainty"), "about": _t("About"),
    }
    return labels.get(name, name)


def relation_label(relation: str) -> str:
    labels = {
        "related": _t("related to"), "involved_in": _t("involved in"), "occurred_at": _t("occurred at"),
        "advances": _t("advances"), "updates": _t("updates"), "contradicts": _t("contradicts"),
        "evolves": _t("evolves into"), "temporal_update": _t("is a later state of"),
    }
    return labels.get(relation, relation)
