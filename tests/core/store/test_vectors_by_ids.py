"""The stored vectors of chosen memories: of one model (a chat's index) or of whatever model
each has (consolidation compares what two memories have)."""

from __future__ import annotations

import numpy as np

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn
from bme_desktop.core.service import MemoryService
from bme_desktop.core.store.unit_of_work import UnitOfWork
from bme_desktop.core.store.vectors import load_vectors_by_ids, save_vectors


def test_vectors_by_ids_of_one_model_or_of_any(service: MemoryService) -> None:
    service.sync("c", [MessageIn(0, "user", "Hello")], complete=True)
    a, b = (service.create_node("c", NodeDraft("fact", {"statement": s})).value.id for s in ("x", "y"))

    def save(uow: UnitOfWork) -> None:
        save_vectors(uow, "c", "m1", [a], ["ha"], np.array([[1.0, 0.0]], dtype=np.float32))
        save_vectors(uow, "c", "m2", [b], ["hb"], np.array([[0.0, 1.0, 0.0]], dtype=np.float32))

    service.write(save)
    one = service.read(lambda r: load_vectors_by_ids(r, [a, b, "gone"], "m1"))
    assert [(v.node_id, v.model, v.dim, v.text_hash, v.vector.tolist()) for v in one] == [
        (a, "m1", 2, "ha", [1.0, 0.0])
    ]
    every = service.read(lambda r: load_vectors_by_ids(r, [a, b], None))
    assert sorted((v.node_id, v.model, v.vector.tolist()) for v in every) == sorted(
        [(a, "m1", [1.0, 0.0]), (b, "m2", [0.0, 1.0, 0.0])]
    )
