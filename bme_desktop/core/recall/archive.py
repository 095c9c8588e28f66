"""Recall of raw messages from the chat archive, for "remember when" questions and questions
that name a day. Each hit becomes a memory of type ``message`` in the ``archive`` bucket, with
its message index as its only source."""

from __future__ import annotations

import numpy as np

from ..model import Message, Node
from .api import RecalledNode
from .chat_state import ChatState, message_doc_id
from .cues import Cues
from .scoring import day_weight

ARCHIVE_WEIGHT = 0.6  # a verbatim message ranks below a memory that matches as well
DAY_FLOOR = 0.15  # a message from the named day is a candidate even with few shared words


def message_node(chat_id: str, m: Message) -> Node:
    fields = {"speaker": m.name or m.role, "text": m.text[:600]}
    if m.time:
        fields["time"] = m.time
    return Node(
        id=message_doc_id(m.index),
        chat_id=chat_id,
        type="message",
        title=f"{m.name or m.role}, message {m.index}",
        fields=fields,
        source_indices=[m.index],
    )


def archive_hits(
    state: ChatState,
    text: str,
    cues: Cues,
    k: int,
    covered: set[int],
    before: int | None = None,
    after: int | None = None,
) -> list[RecalledNode]:
    """Up to ``k`` archived messages for ``text``; none unless the cues ask for the archive.
    ``before``: the index of the message being answered — it and later ones are not memories.
    ``after``: only messages after this index, whatever the cues (those not extracted yet)."""
    if not (cues.remember or cues.days or after is not None) or not state.messages or k <= 0:
        return []
    scores = state.archive.score_all(text)
    slots = state.archive.ids_by_slot()
    best: list[tuple[float, int, float, float]] = []
    precise = any(not d.is_month for d in cues.days)  # a whole month names too many messages to take all
    for slot in np.flatnonzero(scores > 0.0) if not precise else range(len(slots)):
        doc = slots[slot]
        if doc is None:
            continue
        index = int(doc.split(":", 1)[1])
        if (
            index in covered
            or (before is not None and index >= before)
            or (after is not None and index <= after)
        ):
            continue
        lex = float(scores[slot])
        w_day = day_weight([index], cues, state.message_days)
        if precise and w_day > 1.0:
            lex = max(lex, DAY_FLOOR)
        if lex <= 0.0:
            continue
        best.append((ARCHIVE_WEIGHT * lex * w_day, index, lex, w_day))
    best.sort(key=lambda row: (-row[0], row[1]))
    out: list[RecalledNode] = []
    for score, index, lex, w_day in best[:k]:
        m = state.messages.get(index)
        if m is not None:
            out.append(
                RecalledNode(
                    message_node(state.chat_id, m),
                    score,
                    "archive",
                    {"lexical": round(lex, 4), "w_time": w_day, "archive": 1.0},
                )
            )
    return out
