"""Typed, versioned settings kept in ``settings.json`` in the data folder.

Each section is a dataclass; a field's ``metadata`` may bound it (``min``, ``max``,
``choices``). Loading validates every value and names the file and key of the first
problem; nothing is overwritten on error. Saving is atomic (write, fsync, rename).
"""

from __future__ import annotations

import dataclasses
import json
import os
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .ingest.text import loads_json
from .schema import NODE_TYPES, is_core_type

SETTINGS_VERSION = 1
SETTINGS_FILENAME = "settings.json"
DEFAULT_BRIDGE_PORT = 7317


class SettingsError(ValueError):
    """A settings value is invalid; the message names the file (if any) and the key."""


def _bounded(default: Any, **meta: Any) -> Any:
    if isinstance(default, list | dict):
        return field(default_factory=lambda: type(default)(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass
class LLMSettings:
    enabled: bool = False
    base_url: str = ""
    model: str = ""
    timeout_s: float = _bounded(60.0, min=1.0, max=600.0)
    temperature: float = _bounded(0.2, min=0.0, max=2.0)
    max_retries: int = _bounded(2, min=0, max=10)
    # Models lent to the memory when no endpoint is set above (docs/bridge.md, "Model jobs"):
    # SillyTavern's current connection, offered by its companion extension over /v1/events,
    # and the proxy's upstream with the proxy's key and the model its last chat request named.
    use_sillytavern: bool = True  # the extension has its own switch and budget too
    use_proxy_upstream: bool = False  # spends the proxy key on memory jobs: only when allowed
    lent_timeout_s: float = _bounded(120.0, min=5.0, max=600.0)  # per job on a lent model
    lent_max_tokens: int = _bounded(2048, min=64, max=32000)  # reply tokens asked per job
    lent_jobs_per_minute: int = _bounded(6, min=1, max=120)


@dataclass
class EmbeddingSettings:
    provider: str = _bounded("local", choices=("local", "remote"))
    local_model: str = "default"
    base_url: str = ""
    model: str = ""
    batch_size: int = _bounded(64, min=1, max=2048)
    timeout_s: float = _bounded(30.0, min=1.0, max=600.0)


@dataclass
class ExtractionSettings:
    every_n_replies: int = _bounded(1, min=1, max=100)
    context_messages: int = _bounded(4, min=0, max=50)
    cleaning_patterns: list[str] | None = None  # None: the built-in presets; [] stays empty


@dataclass
class RecallSettings:
    top_k: int = _bounded(8, min=1, max=100)
    budget_tokens: int = _bounded(1500, min=50, max=32000)
    weight_current: float = _bounded(0.7, min=0.0, max=1.0)
    weight_last_reply: float = _bounded(0.2, min=0.0, max=1.0)
    weight_previous_input: float = _bounded(0.1, min=0.0, max=1.0)
    rerank_with_llm: bool = False
    timeout_s: float = _bounded(3.0, min=0.1, max=60.0)
    # region weights (ST-BME's): a memory of the story's current region, of a region next to it,
    # of any other region (a memory without a region is not weighed)
    region_current: float = _bounded(1.15, min=0.1, max=3.0)
    region_adjacent: float = _bounded(0.9, min=0.1, max=3.0)
    region_global: float = _bounded(0.75, min=0.1, max=3.0)
    # memories other chats share with this one (core/scopes.py), weighed by kind; 0: not drawn in
    weight_scope_character: float = _bounded(0.9, min=0.0, max=1.0)
    weight_scope_persona: float = _bounded(0.9, min=0.0, max=1.0)
    weight_scope_world: float = _bounded(0.8, min=0.0, max=1.0)


@dataclass
class LifecycleSettings:
    short_term_hours: float = _bounded(48.0, min=1.0, max=24 * 365)
    dormant_below: float = _bounded(0.1, min=0.0, max=1.0)
    audit_mode: str = _bounded(
        "long_term", choices=("all", "long_term", "none")
    )  # what the review centre lists
    review_gate: bool = False  # strict: pending memories are not injected until approved
    consolidate_threshold: float = _bounded(0.85, min=0.5, max=1.0)
    # life cycle (core/lifecycle): promotion, decay pools, reinforcement, schedule
    promote_importance: float = _bounded(8.0, min=0.0, max=10.0)
    half_life_slow_days: float = _bounded(365.0, min=1.0, max=36500.0)
    half_life_medium_days: float = _bounded(120.0, min=1.0, max=36500.0)
    half_life_fast_days: float = _bounded(20.0, min=0.5, max=36500.0)
    stability_soft_cap_days: float = _bounded(365.0, min=1.0, max=36500.0)
    repeat_window_minutes: float = _bounded(30.0, min=0.0, max=24 * 60.0)
    echo_window_hours: float = _bounded(6.0, min=0.0, max=24 * 30.0)
    echo_discount: float = _bounded(0.5, min=0.0, max=1.0)
    retrievability_step: float = _bounded(0.01, min=0.0001, max=0.2)
    upkeep_interval_minutes: float = _bounded(30.0, min=0.0, max=24 * 60.0)  # 0: no scheduled upkeep
    summary_every: int = _bounded(3, min=1, max=100)
    fold_above: int = _bounded(3, min=2, max=100)
    reflect_every: int = _bounded(10, min=1, max=1000)
    auto_reflect: bool = False  # reflection adds memories: off unless asked for, like every side effect
    # the rest of the life cycle (compress, reflect, persona, working memory, patrol)
    auto_compress: bool = False  # compression after each extraction (by hand: task "compress")
    reflect_window: int = _bounded(30, min=3, max=1000)  # how many recent events reflection looks at
    auto_persona: bool = (
        False  # persona synthesis on the after-extraction path, at most every persona_every_hours
    )
    persona_every_hours: float = _bounded(24.0, min=0.0, max=24 * 365.0)
    working_max: int = _bounded(3, min=1, max=20)
    working_expiry_days: float = _bounded(3.0, min=0.1, max=365.0)
    patrol_unused_days: float = _bounded(30.0, min=1.0, max=3650.0)
    patrol_forget_margin: float = _bounded(
        0.1, min=0.0, max=1.0
    )  # "about to be forgotten": R < dormant_below + margin
    # retention and capacity (docs/lifecycle.md "Retention"): upkeep moves what they retire to the
    # recycle bin, the patrol says beforehand how many. Per memory type, per chat; a type left out
    # has no limit, and core types (characters, rules, summaries) take none.
    retention_max_age_days: dict[str, float] = field(  # never-recalled memories only
        default_factory=dict, metadata={"item_min": 1.0, "item_max": 36500.0}
    )
    retention_max_count: dict[str, int] = field(
        default_factory=dict, metadata={"item_min": 1, "item_max": 10_000_000}
    )
    max_memories_per_chat: int = _bounded(20000, min=0, max=10_000_000)  # 0: no cap
    recycle_bin_days: float = _bounded(30.0, min=0.0, max=36500.0)  # the bin deletes for good after; 0: never

    def __post_init__(self) -> None:
        for name in ("retention_max_age_days", "retention_max_count"):
            for type_id in getattr(self, name):
                key = f"lifecycle.{name}.{type_id}"
                if type_id not in NODE_TYPES:
                    raise SettingsError(f"{key} is not a memory type (known: {', '.join(NODE_TYPES)})")
                if is_core_type(type_id):
                    raise SettingsError(
                        f"{key} cannot be set: {type_id} memories are core memories, never retired (no limit)"
                    )


@dataclass
class BridgeSettings:
    host: str = "127.0.0.1"
    port: int = _bounded(DEFAULT_BRIDGE_PORT, min=0, max=65535)
    allowed_origins: list[str] = field(default_factory=list)
    body_limit_mb: float = _bounded(4.0, min=0.1, max=512.0)
    rate_limit_per_s: float = _bounded(200.0, min=1.0, max=100000.0)
    rate_burst: int = _bounded(400, min=1, max=1000000)


PROXY_KEYRING_KEY = "proxy-upstream-key"  # keyring service "bme-desktop"; never in settings.json
PROXY_KEY_ENV = "BME_PROXY_UPSTREAM_KEY"


@dataclass
class ProxySettings:
    """The OpenAI-compatible memory proxy on the bridge (``/v1/chat/completions``,
    ``/v1/models``; docs/proxy.md). The upstream's API key is not a setting: it is
    ``$BME_PROXY_UPSTREAM_KEY`` when set, else the secret ``proxy-upstream-key`` (OS keyring,
    service ``bme-desktop``, or the user-only file of that name in the data folder where no
    keyring works); none is sent when there is none (local servers)."""

    enabled: bool = True
    # The base URL one would give an OpenAI client, e.g. "https://api.openai.com/v1" or
    # "http://127.0.0.1:11434/v1". "" = not set up: the proxy answers 503 saying so.
    upstream_base_url: str = ""
    # "alias=upstream-model" entries: a request for `alias` is sent upstream as `upstream-model`.
    model_map: list[str] = field(default_factory=list)
    # Where the memory goes, counted back from the last user message: 0 = just before it,
    # 1 = one message earlier (usually before the last reply), ... never above the leading
    # system prompt. Used by injection_mode "system" only.
    injection_depth: int = _bounded(0, min=0, max=1000)
    # "system": its own system message at injection_depth; "first_system": appended to the
    # first system message (servers that accept only a leading system message); "user":
    # put in front of the last user message (templates with no system role).
    injection_mode: str = _bounded("system", choices=("system", "first_system", "user"))
    # Seconds to wait for the upstream to connect, to start answering, and between two chunks.
    timeout_s: float = _bounded(300.0, min=1.0, max=3600.0)

    def __post_init__(self) -> None:
        url = self.upstream_base_url.strip()
        if url and not (url.startswith(("http://", "https://")) and len(url) > len("https://")):
            raise SettingsError("proxy.upstream_base_url must start with http:// or https:// (or be empty)")
        for pos, entry in enumerate(self.model_map):
            alias, sep, target = entry.partition("=")
            if not sep or not alias.strip() or not target.strip():
                raise SettingsError(
                    f"proxy.model_map[{pos}] must read 'alias=upstream-model' (got {entry!r})"
                )

    def models(self) -> dict[str, str]:
        """The model map as ``{alias: upstream model}``; a later entry for an alias wins."""
        out: dict[str, str] = {}
        for entry in self.model_map:
            alias, _, target = entry.partition("=")
            out[alias.strip()] = target.strip()
        return out


BACKUP_PASSPHRASE_KEY = "backup-passphrase"  # keyring service "bme-desktop"; never in settings.json


@dataclass
class BackupSettings:
    """Scheduled backups (docs/backup.md): off by default. The passphrase is never a setting:
    it is the environment variable named here, else the secret ``backup-passphrase`` in the
    OS keyring. With ``encrypt`` on and no passphrase, a due backup is skipped (and says so),
    never written as plain text."""

    scheduled: bool = False
    interval_hours: float = _bounded(24.0, min=0.25, max=24 * 365.0)
    keep: int = _bounded(7, min=1, max=1000)  # scheduled backups kept; older ones of ours are deleted
    encrypt: bool = True
    passphrase_env: str = "BME_BACKUP_PASSPHRASE"
    folder: str = "backups"  # inside the data folder

    def __post_init__(self) -> None:
        folder = self.folder.strip().replace("\\", "/")
        parts = [p for p in folder.split("/") if p not in ("", ".")]
        if not parts or folder.startswith("/") or (len(folder) > 1 and folder[1] == ":") or ".." in parts:
            raise SettingsError(
                "backup.folder must be a folder inside the data folder (a relative path "
                f"without '..'; got {self.folder!r})"
            )


@dataclass
class AppearanceSettings:
    theme: str = _bounded(
        "crimson-synth", choices=("crimson-synth", "neon-cyan", "amber-console", "violet-haze")
    )
    language: str = _bounded("auto", choices=("auto", "en", "zh"))


@dataclass
class Settings:
    version: int = SETTINGS_VERSION
    database_url: str | None = None
    llm: LLMSettings = field(default_factory=LLMSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    extraction: ExtractionSettings = field(default_factory=ExtractionSettings)
    recall: RecallSettings = field(default_factory=RecallSettings)
    lifecycle: LifecycleSettings = field(default_factory=LifecycleSettings)
    bridge: BridgeSettings = field(default_factory=BridgeSettings)
    proxy: ProxySettings = field(default_factory=ProxySettings)
    backup: BackupSettings = field(default_factory=BackupSettings)
    appearance: AppearanceSettings = field(default_factory=AppearanceSettings)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def _check_scalar(key: str, value: Any, kind: Any, meta: typing.Mapping[str, Any]) -> Any:
    origin = typing.get_origin(kind)
    if origin in (types.UnionType, typing.Union):
        args = typing.get_args(kind)
        if value is None and type(None) in args:
            return None
        kind = next(a for a in args if a is not type(None))
        origin = typing.get_origin(kind)
    if origin is dict:
        _, item = typing.get_args(kind)
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise SettingsError(f"{key} must be an object")
        bounds = {k[len("item_") :]: v for k, v in meta.items() if k.startswith("item_")}
        return {k: _check_scalar(f"{key}.{k}", v, item, bounds) for k, v in value.items()}
    if origin is list:
        (item,) = typing.get_args(kind)
        if not isinstance(value, list) or not all(isinstance(v, item) for v in value):
            raise SettingsError(f"{key} must be a list of {item.__name__}")
        return list(value)
    if kind is bool:
        if not isinstance(value, bool):
            raise SettingsError(f"{key} must be true or false")
    elif kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(f"{key} must be a whole number")
    elif kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            raise SettingsError(f"{key} must be a number")
        value = float(value)
    elif kind is str and not isinstance(value, str):
        raise SettingsError(f"{key} must be text")
    if "min" in meta and value < meta["min"]:
        raise SettingsError(f"{key} must be at least {meta['min']} (got {value})")
    if "max" in meta and value > meta["max"]:
        raise SettingsError(f"{key} must be at most {meta['max']} (got {value})")
    if "choices" in meta and value not in meta["choices"]:
        raise SettingsError(f"{key} must be one of {', '.join(meta['choices'])} (got {value!r})")
    return value


def _build(cls: type[Any], data: Any, prefix: str) -> Any:
    if not isinstance(data, dict):
        raise SettingsError(f"{prefix or 'settings'} must be an object")
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in dataclasses.fields(cls)}
    unknown = set(data) - set(known)
    if unknown:
        raise SettingsError(f"unknown setting {prefix}{sorted(unknown)[0]}")
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        kind = hints[name]
        key = prefix + name
        if dataclasses.is_dataclass(kind):
            kwargs[name] = _build(typing.cast(type[Any], kind), value, key + ".")
        else:
            kwargs[name] = _check_scalar(key, value, kind, known[name].metadata)
    return cls(**kwargs)


def settings_from_json(data: Any) -> Settings:
    """Validate and build settings; missing keys take their defaults."""
    if isinstance(data, dict) and data.get("version", SETTINGS_VERSION) > SETTINGS_VERSION:
        raise SettingsError(f"settings version {data['version']} is newer than this app understands")
    return typing.cast(Settings, _build(Settings, data, ""))


def validate_settings(settings: Settings) -> Settings:
    """Re-check a settings object built or edited in code."""
    return settings_from_json(settings.to_json())


def load_settings(data_dir: Path) -> Settings:
    path = data_dir / SETTINGS_FILENAME
    if not path.exists():
        return Settings()
    try:
        data = loads_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise SettingsError(f"{path}: cannot be read as JSON ({exc}); it was left untouched") from exc
    except RecursionError:
        raise SettingsError(
            f"{path}: cannot be read as JSON (it is nested too deeply); it was left untouched"
        ) from None
    try:
        return settings_from_json(data)
    except SettingsError as exc:
        raise SettingsError(f"{path}: {exc}; the file was left untouched") from exc


def save_settings(data_dir: Path, settings: Settings) -> None:
    validate_settings(settings)
    path = data_dir / SETTINGS_FILENAME
    tmp = path.with_suffix(".json.tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        json.dump(settings.to_json(), fh, indent=2, ensure_ascii=False)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
