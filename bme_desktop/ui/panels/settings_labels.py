"""Translated names for the settings sections, fields, choices and units."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication


def section_label(section: str) -> str:
    labels = {
        "llm": QCoreApplication.translate("SettingsLabels", "Language model"),
        "embedding": QCoreApplication.translate("SettingsLabels", "Embeddings"),
        "extraction": QCoreApplication.translate("SettingsLabels", "Extraction"),
        "recall": QCoreApplication.translate("SettingsLabels", "Recall"),
        "lifecycle": QCoreApplication.translate("SettingsLabels", "Life cycle"),
        "bridge": QCoreApplication.translate("SettingsLabels", "Bridge"),
        "proxy": QCoreApplication.translate("SettingsLabels", "Proxy"),
        "backup": QCoreApplication.translate("SettingsLabels", "Backup"),
        "appearance": QCoreApplication.translate("SettingsLabels", "Appearance"),
    }
    return labels.get(section, section)


def field_label(key: str) -> str:
    labels = {
        "llm.enabled": QCoreApplication.translate(
            "SettingsLabels", "Use this endpoint (wins over borrowed models)"
        ),
        "llm.base_url": QCoreApplication.translate("SettingsLabels", "Endpoint URL"),
        "llm.model": QCoreApplication.translate("SettingsLabels", "Model"),
        "llm.timeout_s": QCoreApplication.translate("SettingsLabels", "Timeout"),
        "llm.temperature": QCoreApplication.translate("SettingsLabels", "Temperature"),
        "llm.max_retries": QCoreApplication.translate("SettingsLabels", "Retries"),
        "llm.use_sillytavern": QCoreApplication.translate(
            "SettingsLabels", "Borrow SillyTavern's model when its extension offers it"
        ),
        "llm.use_proxy_upstream": QCoreApplication.translate(
            "SettingsLabels", "Borrow the proxy's upstream model (spends the proxy key)"
        ),
        "llm.lent_timeout_s": QCoreApplication.translate("SettingsLabels", "Borrowed model: timeout per job"),
        "llm.lent_max_tokens": QCoreApplication.translate(
            "SettingsLabels", "Borrowed model: reply tokens per job"
        ),
        "llm.lent_jobs_per_minute": QCoreApplication.translate(
            "SettingsLabels", "Borrowed model: jobs per minute"
        ),
        "embedding.provider": QCoreApplication.translate("SettingsLabels", "Provider"),
        "embedding.local_model": QCoreApplication.translate("SettingsLabels", "Local model"),
        "embedding.base_url": QCoreApplication.translate("SettingsLabels", "Endpoint URL"),
        "embedding.model": QCoreApplication.translate("SettingsLabels", "Model"),
        "embedding.batch_size": QCoreApplication.translate("SettingsLabels", "Batch size"),
        "embedding.timeout_s": QCoreApplication.translate("SettingsLabels", "Timeout"),
        "extraction.every_n_replies": QCoreApplication.translate("SettingsLabels", "Extract every N replies"),
        "extraction.context_messages": QCoreApplication.translate("SettingsLabels", "Context messages"),
        "extraction.cleaning_patterns": QCoreApplication.translate(
            "SettingsLabels", "Cleaning patterns (one per line)"
        ),
        "recall.top_k": QCoreApplication.translate("SettingsLabels", "Memories per recall"),
        "recall.budget_tokens": QCoreApplication.translate("SettingsLabels", "Token budget"),
        "recall.weight_current": QCoreApplication.translate("SettingsLabels", "Weight of the current input"),
        "recall.weight_last_reply": QCoreApplication.translate("SettingsLabels", "Weight of the last reply"),
        "recall.weight_previous_input": QCoreApplication.translate(
            "SettingsLabels", "Weight of the previous input"
        ),
        "recall.rerank_with_llm": QCoreApplication.translate(
            "SettingsLabels", "Rerank with the language model"
        ),
        "recall.timeout_s": QCoreApplication.translate("SettingsLabels", "Timeout"),
        "recall.region_current": QCoreApplication.translate(
            "SettingsLabels", "Weight of memories in the current region"
        ),
        "recall.region_adjacent": QCoreApplication.translate(
            "SettingsLabels", "Weight of memories in an adjacent region"
        ),
        "recall.region_global": QCoreApplication.translate(
            "SettingsLabels", "Weight of memories in other regions"
        ),
        "recall.weight_scope_character": QCoreApplication.translate(
            "SettingsLabels", "Weight of the character's shared memories"
        ),
        "recall.weight_scope_persona": QCoreApplication.translate(
            "SettingsLabels", "Weight of your persona's shared memories"
        ),
        "recall.weight_scope_world": QCoreApplication.translate("SettingsLabels", "Weight of world memories"),
        "lifecycle.short_term_hours": QCoreApplication.translate("SettingsLabels", "Short-term memory lasts"),
        "lifecycle.dormant_below": QCoreApplication.translate(
            "SettingsLabels", "Dormant below retrievability"
        ),
        "lifecycle.audit_mode": QCoreApplication.translate("SettingsLabels", "Send to review"),
        "lifecycle.review_gate": QCoreApplication.translate(
            "SettingsLabels", "Recall only approved memories (strict review)"
        ),
        "lifecycle.consolidate_threshold": QCoreApplication.translate(
            "SettingsLabels", "Consolidation similarity"
        ),
        "lifecycle.promote_importance": QCoreApplication.translate("SettingsLabels", "Promote at importance"),
        "lifecycle.half_life_slow_days": QCoreApplication.translate("SettingsLabels", "Half-life, slow pool"),
        "lifecycle.half_life_medium_days": QCoreApplication.translate(
            "SettingsLabels", "Half-life, medium pool"
        ),
        "lifecycle.half_life_fast_days": QCoreApplication.translate("SettingsLabels", "Half-life, fast pool"),
        "lifecycle.stability_soft_cap_days": QCoreApplication.translate(
            "SettingsLabels", "Stability soft cap"
        ),
        "lifecycle.repeat_window_minutes": QCoreApplication.translate("SettingsLabels", "Repeat window"),
        "lifecycle.echo_window_hours": QCoreApplication.translate("SettingsLabels", "Echo window"),
        "lifecycle.echo_discount": QCoreApplication.translate("SettingsLabels", "Echo discount"),
        "lifecycle.retrievability_step": QCoreApplication.translate("SettingsLabels", "Retrievability step"),
        "lifecycle.upkeep_interval_minutes": QCoreApplication.translate(
            "SettingsLabels", "Upkeep every (0: never)"
        ),
        "lifecycle.summary_every": QCoreApplication.translate("SettingsLabels", "Summary every N events"),
        "lifecycle.fold_above": QCoreApplication.translate("SettingsLabels", "Fold above N summaries"),
        "lifecycle.reflect_every": QCoreApplication.translate("SettingsLabels", "Reflect every N events"),
        "lifecycle.auto_reflect": QCoreApplication.translate("SettingsLabels", "Reflect automatically"),
        "lifecycle.auto_compress": QCoreApplication.translate("SettingsLabels", "Compress automatically"),
        "lifecycle.reflect_window": QCoreApplication.translate(
            "SettingsLabels", "Events a reflection looks at"
        ),
        "lifecycle.auto_persona": QCoreApplication.translate(
            "SettingsLabels", "Update the persona automatically"
        ),
        "lifecycle.persona_every_hours": QCoreApplication.translate(
            "SettingsLabels", "Persona update at most every"
        ),
        "lifecycle.working_max": QCoreApplication.translate("SettingsLabels", "Working memory size"),
        "lifecycle.working_expiry_days": QCoreApplication.translate(
            "SettingsLabels", "Working memory expires after"
        ),
        "lifecycle.patrol_unused_days": QCoreApplication.translate("SettingsLabels", "Patrol: unused for"),
        "lifecycle.patrol_forget_margin": QCoreApplication.translate(
            "SettingsLabels", "Patrol: forgetting margin"
        ),
        "lifecycle.max_memories_per_chat": QCoreApplication.translate(
            "SettingsLabels", "Capacity: memories kept per chat (0: no cap)"
        ),
        "lifecycle.recycle_bin_days": QCoreApplication.translate(
            "SettingsLabels", "Recycle bin deletes for good after (0: never)"
        ),
        "bridge.host": QCoreApplication.translate("SettingsLabels", "Host"),
        "bridge.port": QCoreApplication.translate("SettingsLabels", "Port"),
        "bridge.allowed_origins": QCoreApplication.translate(
            "SettingsLabels", "Allowed origins (one per line)"
        ),
        "bridge.body_limit_mb": QCoreApplication.translate("SettingsLabels", "Request size limit"),
        "bridge.rate_limit_per_s": QCoreApplication.translate("SettingsLabels", "Requests per second"),
        "bridge.rate_burst": QCoreApplication.translate("SettingsLabels", "Request burst"),
        "proxy.enabled": QCoreApplication.translate("SettingsLabels", "Memory proxy on /v1"),
        "proxy.upstream_base_url": QCoreApplication.translate("SettingsLabels", "Upstream URL"),
        "proxy.model_map": QCoreApplication.translate(
            "SettingsLabels", "Model map (alias=model, one per line)"
        ),
        "proxy.injection_depth": QCoreApplication.translate("SettingsLabels", "Memory depth (messages back)"),
        "proxy.injection_mode": QCoreApplication.translate("SettingsLabels", "Memory goes into"),
        "proxy.timeout_s": QCoreApplication.translate("SettingsLabels", "Upstream timeout"),
        "backup.scheduled": QCoreApplication.translate("SettingsLabels", "Back up on a schedule"),
        "backup.interval_hours": QCoreApplication.translate("SettingsLabels", "Back up every"),
        "backup.keep": QCoreApplication.translate("SettingsLabels", "Scheduled backups kept"),
        "backup.encrypt": QCoreApplication.translate(
            "SettingsLabels", "Encrypt (skipped when no passphrase is set)"
        ),
        "backup.passphrase_env": QCoreApplication.translate(
            "SettingsLabels", "Passphrase environment variable (else the keyring)"
        ),
        "backup.folder": QCoreApplication.translate("SettingsLabels", "Folder inside the data folder"),
        "appearance.theme": QCoreApplication.translate("SettingsLabels", "Theme"),
        "appearance.language": QCoreApplication.translate("SettingsLabels", "Language"),
    }
    return labels.get(key, key)


def choice_label(value: str) -> str:
    labels = {
        "local": QCoreApplication.translate("SettingsLabels", "On this computer"),
        "remote": QCoreApplication.translate("SettingsLabels", "Remote endpoint"),
        "all": QCoreApplication.translate("SettingsLabels", "Every new memory"),
        "long_term": QCoreApplication.translate("SettingsLabels", "Long-term memories"),
        "none": QCoreApplication.translate("SettingsLabels", "Nothing"),
        "auto": QCoreApplication.translate("SettingsLabels", "Automatic"),
        "system": QCoreApplication.translate("SettingsLabels", "Its own system message"),
        "first_system": QCoreApplication.translate("SettingsLabels", "The first system message"),
        "user": QCoreApplication.translate("SettingsLabels", "The last user message"),
        "en": "English",
        "zh": "中文",
        "crimson-synth": "Crimson Synth",
        "neon-cyan": "Neon Cyan",
        "amber-console": "Amber Console",
        "violet-haze": "Violet Haze",
    }
    return labels.get(value, value)


def unit_suffix(name: str) -> str:
    units = {
        "_per_s": QCoreApplication.translate("SettingsLabels", " /s"),
        "_s": QCoreApplication.translate("SettingsLabels", " s"),
        "_hours": QCoreApplication.translate("SettingsLabels", " h"),
        "_days": QCoreApplication.translate("SettingsLabels", " days"),
        "_minutes": QCoreApplication.translate("SettingsLabels", " min"),
        "_mb": QCoreApplication.translate("SettingsLabels", " MB"),
        "_tokens": QCoreApplication.translate("SettingsLabels", " tokens"),
    }
    for ending, unit in units.items():
        if name.endswith(ending):
            return unit
    return ""
