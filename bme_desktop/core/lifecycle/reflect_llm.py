"""The LLM seam for reflection (and any life-cycle step that asks a chat model for JSON).

``llm_insights(ctx, settings)`` shows the model the recent events (numbered) and the
contradictions, asks for ``{"insights": [{"insight", "trigger", "suggestion",
"importance", "evidence": [numbers]}]}`` and maps the numbers back to memory ids. It
returns ``None`` on any failure or unusable reply, and the caller falls back to the
deterministic rules. It is only called outside a database write.
"""

from __future__ import annotations

from typing import Any

from ..providers.errors import LLMError
from ..providers.http_policy import HttpPolicy
from ..providers.llm_client import LLMClient, LLMConfig
from ..schema import node_text
from ..settings import LLMSettings
from .reflect import Insight, ReflectionContext

SYSTEM = ("You study a long role-play or conversation and write a few insights about long-running patterns: "
          "recurring people, places and themes, broken rules, contradictions. Each insight cites the numbered "
          "memories it rests on. Reply in the language of the memories.")
SCHEMA = ('{"insights": [{"insight": "...", "trigger": "...", "suggestion": "...", "importance": 5, '
          '"evidence": [1, 2]}]}')
MAX_INSIGHTS = 5


def ask_json(settings: LLMSettings, system: str, prompt: str, schema: str) -> Any:
    """One JSON chat with the configured model; ``None`` on any failure."""
    config = LLMConfig(base_url=settings.base_url, model=settings.model, temperature=settings.temperature,
                       policy=HttpPolicy(total_timeout=settings.timeout_s, max_retries=settings.max_retries))
    try:
        with LLMClient(config) as client:
            return client.chat_json([{"role": "system", "content": system}, {"role": "user", "content": prompt}],
                                    schema_hint=schema)
    except (LLMError, ValueError):
        return None


def parse_insights(reply: Any, ids: list[str]) -> list[Insight] | None:
    if not isinstance(reply, dict) or not isinstance(reply.get("insights"), list):
        return None
    out: list[Insight] = []
    for item in reply["insights"][:MAX_INSIGHTS]:
        if not isinstance(item, dict) or not isinstance(item.get("insight"), str) or not item["insight"].strip():
            continue
        numbers = [n for n in item.get("evidence", []) if isinstance(n, int) and 1 <= n <= len(ids)]
        if not numbers:
            continue
        importance = item.get("importance", 6)
        out.append(Insight(item["insight"].strip(), str(item.get("trigger", "")).strip(),
                           str(item.get("suggestion", "")).strip(), [ids[n - 1] for n in numbers],
                           float(importance) if isinstance(importance, int | float) else 6.0,
                           "llm:" + item["insight"].strip()[:80]))
    return out or None


def llm_insights(ctx: ReflectionContext, settings: LLMSettings) -> list[Insight] | None:
    nodes = list(ctx.events)
    for a, b in ctx.contradictions:
        nodes.extend(n for n in (a, b) if n not in nodes)
    if not nodes:
        return None
    lines = [f"{i}. [{n.type}] {node_text(n.type, n.fields)}" for i, n in enumerate(nodes, 1)]
    lines += [f"contradiction: {nodes.index(a) + 1} vs {nodes.index(b) + 1}" for a, b in ctx.contradictions]
    return parse_insights(ask_json(settings, SYSTEM, "\n".join(lines), SCHEMA), [n.id for n in nodes])
