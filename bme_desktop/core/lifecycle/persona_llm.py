"""The LLM path of the ``persona`` task: the model writes the user's profile from the evidence.

``persona_with_change`` reads the memories the deterministic synthesiser would cite (the
user's trait/preference/goal/decision facts and the user's own character memory), asks the
model outside the write (prompt ``persona``; the memories numbered, as quoted JSON) for
``{"traits": [{"kind", "text", "evidence": [numbers]}]}``, and writes the snapshot in one
write through the ``synthesiser=`` seam. The reply is used only when every trait has a known
kind, a text of at most ``TRAIT_CHARS`` and evidence numbers that exist; else the rules run.
The batch description ends with ``(llm)`` or ``(rules …)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cancel import CancelToken
from ..events import ChangeRecord
from ..model import Node
from ..schema import node_text
from ..store.reader import Reader
from ..store.unit_of_work import UnitOfWork
from .llm_step import Asked, ask_model, model_step, numbers, text_of
from .persona import KINDS, Persona, Trait, norm, persona_in, synthesise
from .tiers import is_injectable

if TYPE_CHECKING:
    from ..ports import ModelSteps

SCHEMA = '{"traits": [{"kind": "trait", "text": "...", "evidence": [1]}]}'
TRAIT_CHARS = 200
MAX_TRAITS = 40


def sources(read: Reader, chat_id: str) -> tuple[list[Node], str | None]:
    """The memories the deterministic profile rests on, oldest first, and the user's name."""
    user = (read.chat_row(chat_id, state=False) or {}).get("user_name")
    nodes = [n for n in read.all_nodes(chat_id) if is_injectable(n) and n.tier == "long_term"]
    cited = {i for tr in synthesise(nodes, user) for i in tr.evidence}
    return sorted((n for n in nodes if n.id in cited), key=lambda n: (n.created_at, n.id)), user


def request_data(nodes: list[Node], user: str | None) -> dict[str, Any]:
    return {
        "user": user or "",
        "kinds": list(KINDS),
        "max_chars": TRAIT_CHARS,
        "memories": [
            {"n": i, "type": n.type, "text": node_text(n.type, n.fields)} for i, n in enumerate(nodes, 1)
        ],
    }


def parse_traits(reply: Any, ids: list[str]) -> list[Trait] | None:
    """The proposed traits with evidence mapped to ids; ``None`` when any entry is malformed."""
    if not isinstance(reply, dict) or not isinstance(reply.get("traits"), list):
        return None
    items = reply["traits"]
    if not items or len(items) > MAX_TRAITS:
        return None
    found: dict[tuple[str, str], Trait] = {}
    for item in items:
        if not isinstance(item, dict) or item.get("kind") not in KINDS:
            return None
        text, cited = text_of(item.get("text"), TRAIT_CHARS), numbers(item.get("evidence"), len(ids))
        if not text or cited is None:
            return None
        trait = found.setdefault((str(item["kind"]), norm(text)), Trait(str(item["kind"]), text))
        trait.evidence.extend(ids[n - 1] for n in cited if ids[n - 1] not in trait.evidence)
    return list(found.values())


def persona_with_change(
    service: ModelSteps, chat_id: str, *, cancel: CancelToken | None = None
) -> tuple[Persona | None, ChangeRecord]:
    settings = service.settings
    now = service.now()
    Sources = tuple[list[Node], str | None]

    def ask(found: Sources) -> Asked[list[Trait]] | None:
        nodes, user = found
        if not nodes:
            return None
        ids = [n.id for n in nodes]
        return ask_model(
            service,
            chat_id,
            "persona",
            "persona",
            request_data(nodes, user),
            SCHEMA,
            lambda reply: parse_traits(reply, ids),
            texts=[node_text(n.type, n.fields) for n in nodes],
        )

    def write(uow: UnitOfWork, _found: Sources, asked: Asked[list[Trait]] | None) -> Persona | None:
        proposed, label = (asked.value, asked.label) if asked is not None else (None, "rules")

        def synthesiser(now_nodes: list[Node], now_user: str | None) -> list[Trait]:
            if proposed is None:
                return synthesise(now_nodes, now_user)
            live = {n.id for n in now_nodes}
            kept = [Trait(tr.kind, tr.text, [i for i in tr.evidence if i in live]) for tr in proposed]
            return [tr for tr in kept if tr.evidence]

        return persona_in(uow, chat_id, now, settings.lifecycle, synthesiser=synthesiser, label=label)

    return model_step(service, chat_id, lambda r: sources(r, chat_id), ask, write, cancel)
