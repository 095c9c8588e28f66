"""The LLM path of reflection, through the shared ``llm_step.ask_model``.

``ask_insights(service, chat_id, ctx)`` shows the model the recent events (numbered) and the
contradictions as quoted JSON (prompt ``reflect``), asks for ``{"insights": [{"insight",
"trigger", "suggestion", "importance", "evidence": [numbers]}]}`` and maps the numbers back
to memory ids. It gives no value on any failure or unusable reply (and publishes an
``error`` event on a model failure); the caller falls back to the deterministic rules. It
is only called outside a database write.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..schema import node_text
from .llm_step import Asked, ask_model
from .reflect import Insight, ReflectionContext

if TYPE_CHECKING:
    from ..ports import ModelSteps

SCHEMA = (
    '{"insights": [{"insight": "...", "trigger": "...", "suggestion": "...", "importance": 5, '
    '"evidence": [1, 2]}]}'
)
MAX_INSIGHTS = 5


def parse_insights(reply: Any, ids: list[str]) -> list[Insight] | None:
    if not isinstance(reply, dict) or not isinstance(reply.get("insights"), list):
        return None
    out: list[Insight] = []
    for item in reply["insights"][:MAX_INSIGHTS]:
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("insight"), str)
            or not item["insight"].strip()
        ):
            continue
        evidence = item.get("evidence", [])
        numbers = [
            n
            for n in (evidence if isinstance(evidence, list) else [])
            if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= len(ids)
        ]
        if not numbers:
            continue
        importance = item.get("importance", 6)
        out.append(
            Insight(
                item["insight"].strip(),
                str(item.get("trigger", "")).strip(),
                str(item.get("suggestion", "")).strip(),
                [ids[n - 1] for n in numbers],
                float(importance) if isinstance(importance, int | float) else 6.0,
                "llm:" + item["insight"].strip()[:80],
            )
        )
    return out or None


def request_data(ctx: ReflectionContext) -> tuple[dict[str, Any], list[str]]:
    nodes = list(ctx.events)
    for a, b in ctx.contradictions:
        nodes.extend(n for n in (a, b) if n not in nodes)
    data = {
        "memories": [
            {"n": i, "type": n.type, "text": node_text(n.type, n.fields)} for i, n in enumerate(nodes, 1)
        ],
        "contradictions": [[nodes.index(a) + 1, nodes.index(b) + 1] for a, b in ctx.contradictions],
    }
    return data, [n.id for n in nodes]


def ask_insights(service: ModelSteps, chat_id: str, ctx: ReflectionContext) -> Asked[list[Insight]]:
    data, ids = request_data(ctx)
    if not ids:
        return Asked(None)
    return ask_model(
        service,
        chat_id,
        "reflect",
        "reflect",
        data,
        SCHEMA,
        lambda reply: parse_insights(reply, ids),
        texts=[m["text"] for m in data["memories"]],
    )
