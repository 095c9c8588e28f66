"""Near duplicates by embedding cosine: when the chat's memories have vectors, a proposed
memory is compared with them by cosine (embedded before the commit with the recall's
embedder), and only memories without a vector are compared lexically."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bme_desktop.core.extract.cleaning import PreparedMessage
from bme_desktop.core.extract.operations import NodeOp, Plan
from bme_desktop.core.extract.runner import ModelOutcome
from bme_desktop.core.extract.window import Window
from bme_desktop.core.model import MessageIn
from bme_desktop.core.recall.pipeline import attach as attach_recall
from bme_desktop.core.service import MemoryService
from tests.core.extract.extract_helpers import open_service

TAVERN = "Marcus drinks at the Silver Tavern."
INN = "Marcus sips ale in an old inn."  # few shared words, same meaning to the tiny embedder
SHOUTED = "Marcus drinks at the Silver Tavern!"  # the same words, a different meaning to it


class TinyEmbedder:
    """Three dimensions: taverns and inns, exclamations, everything else."""

    name = "tiny"
    dim = 3

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls.append(list(texts))
        return np.array(
            [
                [0.0, 1.0, 0.0]
                if "!" in t
                else [1.0, 0.0, 0.0]
                if "tavern" in t.lower() or " inn" in t
                else [0.0, 0.0, 1.0]
                for t in texts
            ],
            dtype=np.float32,
        )

    def embed_query(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


class EchoModel:
    """Proposes one event per new assistant reply, its summary the reply's text."""

    name = "echo"

    def extract(
        self, window: Window, prepared: list[PreparedMessage], cancel: threading.Event | None
    ) -> ModelOutcome:
        ops = [
            NodeOp(action="create", type="event", fields={"summary": m.text}, source_indices=[m.index])
            for m in prepared
            if m.role == "assistant" and not m.context_only
        ]
        return ModelOutcome(Plan(extractor="echo", ops=ops), {})


def two_replies(svc: MemoryService, first: str, second: str) -> list[dict[str, str]]:
    turns = [MessageIn(0, "user", "Where is he?"), MessageIn(1, "assistant", first)]
    svc.sync("c", turns, complete=True, wait=True)
    vectors = getattr(svc.recaller, "vectors", None)
    assert vectors is not None and vectors.wait_idle(60.0)
    assert len(vectors.index("c")) == 1  # the first event has its vector
    turns += [MessageIn(2, "user", "And now?"), MessageIn(3, "assistant", second)]
    svc.sync("c", turns, complete=True, wait=True)
    return [n.fields for n in svc.all_nodes("c") if n.type == "event"]


def test_a_close_cosine_makes_a_lexically_different_memory_an_update(tmp_path: Path) -> None:
    embedder = TinyEmbedder()
    with open_service(tmp_path, model=lambda: EchoModel()) as svc:
        attach_recall(svc, lambda: embedder)
        events = two_replies(svc, TAVERN, INN)
    assert events == [{"summary": INN}]
    assert any(INN in text for call in embedder.calls for text in call)


def test_a_far_cosine_keeps_a_lexical_duplicate_apart(tmp_path: Path) -> None:
    with open_service(tmp_path, model=lambda: EchoModel()) as svc:
        attach_recall(svc, TinyEmbedder)
        events = two_replies(svc, TAVERN, SHOUTED)
    assert sorted(e["summary"] for e in events) == sorted([TAVERN, SHOUTED])


def test_without_vectors_the_match_stays_lexical(tmp_path: Path) -> None:
    with open_service(tmp_path, model=lambda: EchoModel()) as svc:
        turns = [MessageIn(0, "user", "Where is he?"), MessageIn(1, "assistant", TAVERN)]
        svc.sync("c", turns, complete=True, wait=True)
        turns += [MessageIn(2, "user", "And now?"), MessageIn(3, "assistant", SHOUTED)]
        svc.sync("c", turns, complete=True, wait=True)
        events = [n.fields for n in svc.all_nodes("c") if n.type == "event"]
    assert events == [{"summary": SHOUTED}]
