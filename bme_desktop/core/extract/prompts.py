"""Prompt templates as files: ``resources/prompts/<name>.<lang>.md``, overridable by the user
in ``<data_dir>/prompts/``. ``{{key}}`` placeholders are filled in one pass, so text that
comes from the chat can never expand into another placeholder."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from ..paths import shipped_root
from ..schema import NODE_TYPES, RELATIONS

RESOURCE_DIR = shipped_root() / "resources" / "prompts"
LANGUAGES = ("en", "zh")
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


class PromptMissing(LookupError):
    pass


def prompt_path(name: str, lang: str, data_dir: Path | None) -> Path:
    """The file in force: the user's override first, then the bundled one (English if the
    language has none)."""
    lang = lang if lang in LANGUAGES else "en"
    for folder in ([data_dir / "prompts"] if data_dir is not None else []) + [RESOURCE_DIR]:
        for candidate in (f"{name}.{lang}.md", f"{name}.en.md"):
            path = folder / candidate
            if path.is_file():
                return path
    raise PromptMissing(f"no prompt file {name}.{lang}.md in {RESOURCE_DIR}")


def load_prompt(name: str, lang: str, data_dir: Path | None) -> str:
    return prompt_path(name, lang, data_dir).read_text(encoding="utf-8")


def render(template: str, values: Mapping[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def schema_text() -> str:
    lines = []
    for node_type in NODE_TYPES.values():
        if node_type.id == "synopsis":
            continue  # summaries are written by the life cycle, not by extraction
        fields = ", ".join(f"{f.name}{'*' if f.required else ''}" for f in node_type.fields)
        extra = " (unique by name: update, never duplicate)" if node_type.latest_only else ""
        lines.append(f"- {node_type.id}: {fields}{extra}")
    return "\n".join(lines)


def relations_text() -> str:
    return "\n".join(f"- {r.id}: {r.label}" for r in RELATIONS.values())


def detect_language(texts: list[str], setting: str) -> str:
    if setting in LANGUAGES:
        return setting
    sample = "".join(texts)[:4000]
    han = sum(1 for ch in sample if "\u3400" <= ch <= "\u9fff")
    letters = sum(1 for ch in sample if ch.isalpha())
    return "zh" if letters and han / letters > 0.3 else "en"
