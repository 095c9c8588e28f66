"""Persona (task ``persona``): a profile of the user synthesised from approved long-term memories.

Sources: approved, visible long-term facts of category ``trait``, ``preference``, ``goal``
or ``decision`` (decision style) about the user (no subject, the chat's user name, or
"user"/"me"/"I"/"我"/"用户"), and the user's own character memory (title = the chat's user
name: ``traits`` split on commas, ``core_note`` as traits, ``goal`` as a goal).

Storage: versioned snapshots, a JSON list under ``chat state["persona"]`` (at most
``KEEP`` 50), each ``{version, at, batch_id, traits: [{kind, text, evidence}]}`` written
in a ``persona`` batch. Chat state rather than nodes because a profile is a view over
memories, not a memory (recall must not inject it as one); the batch keeps the state from
before, so a history rollback over it drops the snapshot together with its evidence, and
``current_persona`` also drops traits whose evidence is no longer visible and approved.
A snapshot is only written when the profile changed. Rejections are user decisions: an
audit entry ``persona.reject`` (append-only, survives rollbacks and undo), and a rejected
trait is left out of every later snapshot. ``synthesise`` is the deterministic synthesiser;
the hand-run task asks the LLM first (``persona_llm``, outside the write, through the
``synthesiser=`` seam) and the batch description ends with the path used.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..model import PERSONA_KINDS, Node
from ..model import Persona as Persona
from ..model import Trait as Trait
from ..settings import LifecycleSettings
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork
from .chat_state import get_key, read_key, set_key
from .tiers import is_injectable

if TYPE_CHECKING:
    from ..ports import Editing

ACTOR = "lifecycle"
KEEP = 50
KINDS = PERSONA_KINDS
SELF = {"", "user", "me", "i", "我", "用户", "自己"}
_SPLIT = re.compile(r"\s*[,，、;；]\s*")


Synthesiser = Callable[[list[Node], str | None], list[Trait]]


def norm(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".。!！")


def synthesise(nodes: list[Node], user: str | None) -> list[Trait]:
    """The deterministic profile: one trait per distinct statement, evidence merged."""
    found: dict[tuple[str, str], Trait] = {}

    def add(kind: str, text: str, node_id: str) -> None:
        text = text.strip()
        if text:
            trait = found.setdefault((kind, norm(text)), Trait(kind, text))
            if node_id not in trait.evidence:
                trait.evidence.append(node_id)

    me = {*SELF, norm(user or "")}
    for n in sorted(nodes, key=lambda n: (n.created_at, n.id)):
        if (
            n.type == "fact"
            and n.fields.get("category") in KINDS
            and (user is None or norm(n.fields.get("subject", "")) in me)
        ):
            add(n.fields["category"], n.fields.get("statement", ""), n.id)
        elif n.type == "character" and user and norm(n.title) == norm(user):
            for part in _SPLIT.split(n.fields.get("traits", "")):
                add("trait", part, n.id)
            add("trait", n.fields.get("core_note", ""), n.id)
            add("goal", n.fields.get("goal", ""), n.id)
    return list(found.values())


def rejected(read: Reader, chat_id: str) -> set[str]:
    pk = read.require_chat_pk(chat_id)
    rows = read.audit_actions(pk, ("persona.reject", "persona.unreject"))
    out: set[str] = set()
    for action, detail in rows:
        key = norm(str((detail or {}).get("trait", "")))
        (out.add if action == "persona.reject" else out.discard)(key)
    return out


def _snapshots(raw: Any) -> list[dict[str, Any]]:
    return list(raw.get("snapshots", [])) if isinstance(raw, dict) else []


def _load(raw: dict[str, Any]) -> Persona:
    return Persona(
        int(raw["version"]),
        float(raw["at"]),
        raw.get("batch_id"),
        [Trait(tr["kind"], tr["text"], list(tr["evidence"])) for tr in raw["traits"]],
    )


def persona_in(
    uow: UnitOfWork,
    chat_id: str,
    now: float,
    settings: LifecycleSettings,
    *,
    synthesiser: Synthesiser = synthesise,
    label: str = "rules",
) -> Persona | None:
    """Write a new snapshot when the profile changed; the new snapshot, or ``None``."""
    chat = uow.read.chat_row(chat_id, state=False) or {}
    nodes = [n for n in uow.read.all_nodes(chat_id) if is_injectable(n) and n.tier == "long_term"]
    no = rejected(uow.read, chat_id)
    traits = [tr for tr in synthesiser(nodes, chat.get("user_name")) if norm(tr.text) not in no]
    snaps = _snapshots(get_key(uow, chat_id, "persona"))
    if not traits and not snaps:
        return None
    if snaps and [tr.to_json() for tr in traits] == snaps[-1]["traits"]:
        return None
    batch_id = uow.begin_batch(
        chat_id, "persona", actor=ACTOR, description=f"persona snapshot ({len(traits)} traits) ({label})"
    )
    version = (snaps[-1]["version"] + 1) if snaps else 1
    snap = {"version": version, "at": now, "batch_id": batch_id, "traits": [tr.to_json() for tr in traits]}
    set_key(uow, chat_id, "persona", {"snapshots": [*snaps, snap][-KEEP:]})
    uow.end_batch()
    return _load(snap)


def auto_persona_in(uow: UnitOfWork, chat_id: str, now: float, settings: LifecycleSettings) -> Persona | None:
    """After an extraction: a snapshot at most every ``persona_every_hours``, when ``auto_persona``."""
    if not settings.auto_persona:
        return None
    snaps = _snapshots(get_key(uow, chat_id, "persona"))
    if snaps and now - float(snaps[-1]["at"]) < settings.persona_every_hours * 3600:
        return None
    return persona_in(uow, chat_id, now, settings)


def _live(read: Reader, chat_id: str, persona: Persona, no: set[str]) -> Persona:
    ids = {i for tr in persona.traits for i in tr.evidence}
    ok = {n.id for n in read.nodes_by_ids(chat_id, ids) if is_injectable(n)}
    traits = [
        Trait(tr.kind, tr.text, [i for i in tr.evidence if i in ok])
        for tr in persona.traits
        if norm(tr.text) not in no
    ]
    return Persona(persona.version, persona.at, persona.batch_id, [tr for tr in traits if tr.evidence])


def persona_history(service: Editing, chat_id: str) -> list[Persona]:
    """Every stored snapshot, oldest first, as written (evidence unchecked)."""

    def op(read: Reader) -> list[Persona]:
        return [_load(s) for s in _snapshots(read_key(read, chat_id, "persona"))]

    return service.read(op)


def current_persona(service: Editing, chat_id: str) -> Persona | None:
    """The newest snapshot without rejected traits or traits whose evidence is gone."""

    def op(read: Reader) -> Persona | None:
        snaps = _snapshots(read_key(read, chat_id, "persona"))
        return _live(read, chat_id, _load(snaps[-1]), rejected(read, chat_id)) if snaps else None

    return service.read(op)


def reject_trait(service: Editing, chat_id: str, trait: str, *, actor: str = "user") -> None:
    """The user says "that is not me": the trait leaves the profile and never comes back."""

    def fn(uow: UnitOfWork) -> None:
        uow.audit(chat_id, actor, "persona.reject", trait[:64], trait=trait)

    service.manual_write(chat_id, actor, "persona.reject_trait", fn)


def unreject_trait(service: Editing, chat_id: str, trait: str, *, actor: str = "user") -> None:
    def fn(uow: UnitOfWork) -> None:
        uow.audit(chat_id, actor, "persona.unreject", trait[:64], trait=trait)

    service.manual_write(chat_id, actor, "persona.unreject_trait", fn)
