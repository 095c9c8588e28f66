"""Translated names for recall score components and pipeline stages (raw keys stay in tooltips)."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def component_label(key: str) -> str:
    labels = {
        "vector": QCoreApplication.translate("InjectionLabels", "Meaning"),
        "lexical": QCoreApplication.translate("InjectionLabels", "Words"),
        "diffusion": QCoreApplication.translate("InjectionLabels", "Links"),
        "importance": QCoreApplication.translate("InjectionLabels", "Importance"),
        "anchor": QCoreApplication.translate("InjectionLabels", "Anchor"),
        "relevance": QCoreApplication.translate("InjectionLabels", "Relevance"),
        "retrievability": QCoreApplication.translate("InjectionLabels", "Retrievability"),
        "w_lifecycle": QCoreApplication.translate("InjectionLabels", "× life cycle"),
        "w_pov": QCoreApplication.translate("InjectionLabels", "× point of view"),
        "w_region": QCoreApplication.translate("InjectionLabels", "× time region"),
        "w_time": QCoreApplication.translate("InjectionLabels", "× recency"),
        "w_repeat": QCoreApplication.translate("InjectionLabels", "× repeat"),
        "w_day": QCoreApplication.translate("InjectionLabels", "× day"),
        "archive": QCoreApplication.translate("InjectionLabels", "Archive"),
        "core": QCoreApplication.translate("InjectionLabels", "Core"),
        "rerank_position": QCoreApplication.translate("InjectionLabels", "Rerank position"),
    }
    return labels.get(key, QCoreApplication.translate("InjectionLabels", "Other factor"))


def stage_label(stage: str) -> str:
    """``"vector (no embedder)"`` -> the translated stage name; the reason goes to the tooltip."""
    head = stage.split("(", 1)[0].strip()
    labels = {
        "vector": QCoreApplication.translate("InjectionLabels", "Meaning search"),
        "diffusion": QCoreApplication.translate("InjectionLabels", "Link spreading"),
        "rerank": QCoreApplication.translate("InjectionLabels", "Reranking"),
        "diversity": QCoreApplication.translate("InjectionLabels", "Diversity"),
        "recall": QCoreApplication.translate("InjectionLabels", "Recall"),
    }
    return labels.get(head, QCoreApplication.translate("InjectionLabels", "Other stage"))
