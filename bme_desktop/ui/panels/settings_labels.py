"""Translated names for the settings sections, fields, choices and units."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def _t(text: str) -> str:
    return QCoreApplication.translate("SettingsLabels", text)


def section_label(section: str) -> str:
    labels = {"llm": _t("Language model"), "embedding": _t("Embeddings"), "extraction": _t("Extraction"),
              "recall": _t("Recall"), "lifecycle": _t("Life cycle"), "bridge": _t("Bridge"),
              "appearance": _t("Appearance")}
    return labels.get(section, section)


def field_label(key: str) -> str:
    labels = {
        "llm.enabled": _t("Use a language model"), "llm.base_url": _t("Endpoint URL"), "llm.model": _t("Model"),
        "llm.timeout_s": _t("Timeout"), "llm.temperature": _t("Temperature"), "llm.max_retries": _t("Retries"),
        "embedding.provider": _t("Provider"), "embedding.local_model": _t("Local model"),
        "embedding.base_url": _t("Endpoint URL"), "embedding.model": _t("Model"),
        "embedding.batch_size": _t("Batch size"), "embedding.timeout_s": _t("Timeout"),
        "extraction.every_n_replies": _t("Extract every N replies"),
        "extraction.context_messages": _t("Context messages"),
        "extraction.cleaning_patterns": _t("Cleaning patterns (one per line)"),
        "recall.top_k": _t("Memories per recall"), "recall.budget_tokens": _t("Token budget"),
        "recall.weight_current": _t("Weight of the current input"),
        "recall.weight_last_reply": _t("Weight of the last reply"),
        "recall.weight_previous_input": _t("Weight of the previous input"),
        "recall.rerank_with_llm": _t("Rerank with the language model"), "recall.timeout_s": _t("Timeout"),
        "lifecycle.short_term_hours": _t("Short-term memory lasts"),
        "lifecycle.dormant_below": _t("Dormant below retrievability"),
        "lifecycle.audit_mode": _t("Send to review"),
        "lifecycle.consolidate_threshold": _t("Consolidation similarity"),
        "lifecycle.promote_importance": _t("Promote at importance"),
        "lifecycle.half_life_slow_days": _t("Half-life, slow pool"),
        "lifecycle.half_life_medium_days": _t("Half-life, medium pool"),
        "lifecycle.half_life_fast_days": _t("Half-life, fast pool"),
        "lifecycle.stability_soft_cap_days": _t("Stability soft cap"),
        "lifecycle.repeat_window_minutes": _t("Repeat window"), "lifecycle.echo_window_hours": _t("Echo window"),
        "lifecycle.echo_discount": _t("Echo discount"), "lifecycle.retrievability_step": _t("Retrievability step"),
        "lifecycle.upkeep_interval_minutes": _t("Upkeep every (0: never)"),
        "lifecycle.summary_every": _t("Summary every N events"), "lifecycle.fold_above": _t("Fold above N summaries"),
        "lifecycle.reflect_every": _t("Reflect every N events"), "lifecycle.auto_reflect": _t("Reflect automatically"),
        "bridge.host": _t("Host"), "bridge.port": _t("Port"), "bridge.allowed_origins": _t("Allowed origins (one per line)"),
        "bridge.body_limit_mb": _t("Request size limit"), "bridge.rate_limit_per_s": _t("Requests per second"),
        "bridge.rate_burst": _t("Request burst"),
        "appearance.theme": _t("Theme"), "appearance.language": _t("Language"),
    }
    return labels.get(key, key)


def choice_label(value: str) -> str:
    labels = {"local": _t("On this computer"), "remote": _t("Remote endpoint"), "all": _t("Every new memory"),
              "long_term": _t("Long-term memories"), "none": _t("Nothing"), "auto": _t("Automatic"),
              "en": "English", "zh": "中文", "crimson-synth": "Crimson Synth", "neon-cyan": "Neon Cyan",
              "amber-console": "Amber Console", "violet-haze": "Violet Haze"}
    return labels.get(value, value)


def unit_suffix(name: str) -> str:
    units = {"_s": _t(" s"), "_hours": _t(" h"), "_days": _t(" days"), "_minutes": _t(" min"),
             "_mb": _t(" MB"), "_tokens": _t(" tokens")}
    for ending, unit in units.items():
        if name.endswith(ending):
            return unit
    return ""
