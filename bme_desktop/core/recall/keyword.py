"""A small keyword recaller: the fallback used until a full pipeline is attached.

It ranks live, approved memories by how many query terms their text holds, then by
importance, and renders them as a data block under the token budget.
"""

from __future__ import annotations

import itertools
import re
import time
from typing import TYPE_CHECKING

from ..model import Node, NodeQuery
from ..providers.tokens import estimate_tokens
from .api import RecalledNode, RecallRequest, RecallResult
from .injection import render_injection

if TYPE_CHECKING:
    from ..ports import ChatQueries

_WORD = re.compile(r"[a-z0-9]{3,}|[\u4e00-\u9fff]")


def query_terms(text: str) -> set[str]:
    terms: set[str] = set()
    words = _WORD.findall(text.lower())
    for a, b in itertools.pairwise(words):
        if len(a) == 1 and len(b) == 1:
            terms.add(a + b)
    terms.update(w for w in words if len(w) > 1)
    return terms


class KeywordRecaller:
    def __init__(self, service: ChatQueries) -> None:
        self.service = service

    def recall(self, request: RecallRequest) -> RecallResult:
        started = time.perf_counter()
        terms = query_terms(request.user_input[:4000])
        nodes, _ = self.service.search_nodes(request.chat_id, NodeQuery(limit=100_000))
        scored: list[tuple[float, Node]] = []
        for node in nodes:
            if node.tier in ("dormant", "archived") or node.review_status == "rejected":
                continue
            text = node.title.lower() + " " + " ".join(node.fields.values()).lower()
            hits = sum(1 for term in terms if term in text)
            if hits:
                scored.append((hits / max(1, len(terms)) + node.importance / 100.0, node))
        scored.sort(key=lambda pair: (-pair[0], pair[1].id))
        chosen = [
            RecalledNode(node, score, "recalled", {"lexical": score})
            for score, node in scored[: request.top_k]
        ]
        injection, shown, more = render_injection(chosen, request.budget_tokens)
        return RecallResult(
            injection=injection,
            token_estimate=estimate_tokens(injection),
            elapsed_ms=(time.perf_counter() - started) * 1000,
            nodes=shown,
            skipped_stages=["vector", "diffusion", "rerank"],
            more_not_shown=more,
        )
