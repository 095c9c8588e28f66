"""Two real ``bme-desktop serve`` processes on one PostgreSQL database (issue 15, item 3).

The scenario lives in ``bench/two_instances.py`` (which prints the same counts): both
instances start at once on a fresh database, create the same new chat at the same moment,
append to the same chat in lock step and extend chats of their own, with recalls alongside.
Every assertion runs after every request has answered and the database has stopped
changing, so the outcome does not depend on timing; the one wait on the other instance (a
write reaching its recall state, through LISTEN/NOTIFY) polls with a deadline. The two tests
share the two processes (they use chats of their own).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bench.two_instances import Counts, Driver, Instance, fresh_database, instances, run_scenario, visibility

POSTGRES_URL = os.environ.get("BME_TEST_POSTGRES_URL")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        POSTGRES_URL is None, reason="BME_TEST_POSTGRES_URL is not set (CI sets it and starts PostgreSQL)"
    ),
]


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    assert POSTGRES_URL is not None
    with fresh_database(POSTGRES_URL) as url:
        yield url


@pytest.fixture(scope="module")
def two(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Instance]]:
    with instances(database, tmp_path_factory.mktemp("two")) as started:  # at once: both create the schema
        yield started


def test_two_instances_on_one_database_lose_and_duplicate_nothing(two: list[Instance], database: str) -> None:
    counts = run_scenario(two, database, rounds=6, own_chats=2, check_visibility=False)
    summary = counts.summary()
    assert counts.server_errors == [], summary
    assert counts.settled, summary  # the database stopped changing (not: ran out of time)
    assert (counts.lost_messages, counts.extra_messages) == (0, 0), summary
    assert counts.memories > 0, summary
    assert counts.duplicates == [] and counts.duplicated_memories == 0, summary
    assert counts.double_applied_batches == 0, summary
    assert counts.cross_recall_found == counts.cross_recall_asked > 0, summary


def test_each_instance_recall_sees_what_the_other_writes_to_a_chat_it_has_loaded(two: list[Instance]) -> None:
    counts = Counts()
    drive = Driver(two, counts)
    a, b = two
    # The asker loads the chat's recall state first; the writer then adds to it. Without
    # notification the asker's state would stay as it was loaded.
    seen = [visibility(drive, writer, asker, deadline=10.0) for writer, asker in ((a, b), (b, a))]
    assert counts.server_errors == []
    assert None not in seen, seen
