"""Retry-After parsing, backoff bounds, retryable statuses, base URL normalisation, SSE lines."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from bme_desktop.core.providers.http_policy import HttpPolicy, is_retryable_status, parse_retry_after
from bme_desktop.core.providers.http_session import normalize_base_url
from bme_desktop.core.providers.sse import iter_sse_data


def test_retry_after_seconds_and_http_date() -> None:
    assert parse_retry_after("2", cap=60) == 2.0
    assert parse_retry_after("0.25", cap=60) == 0.25
    future = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 20 <= (parse_retry_after(future, cap=60) or 0) <= 30


def test_retry_after_is_capped_and_garbage_is_ignored() -> None:
    assert parse_retry_after("3600", cap=60) == 60
    assert parse_retry_after("soon", cap=60) is None
    assert parse_retry_after(None, cap=60) is None
    assert parse_retry_after("-5", cap=60) == 0


def test_backoff_grows_exponentially_within_jitter_bounds_and_cap() -> None:
    policy = HttpPolicy(backoff_base=1.0, backoff_max=5.0)
    rng = random.Random(7)
    for attempt, ceiling in [(0, 1.0), (1, 2.0), (2, 4.0), (3, 5.0), (10, 5.0)]:
        delay = policy.backoff_delay(attempt, rng)
        assert ceiling / 2 <= delay <= ceiling


@pytest.mark.parametrize(
    ("status", "retry"),
    [(429, True), (500, True), (503, True), (400, False), (401, False), (404, False), (422, False)],
)
def test_retryable_statuses(status: int, retry: bool) -> None:
    assert is_retryable_status(status) is retry


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://127.0.0.1:11434", "http://127.0.0.1:11434/v1"),
        ("http://127.0.0.1:11434/v1/", "http://127.0.0.1:11434/v1"),
        ("https://api.deepseek.com/v1/chat/completions", "https://api.deepseek.com/v1"),
        ("https://api.siliconflow.cn/v1/embeddings", "https://api.siliconflow.cn/v1"),
        ("http://host:8000/openai/v1", "http://host:8000/openai/v1"),
    ],
)
def test_base_url_normalisation(given: str, expected: str) -> None:
    assert normalize_base_url(given) == expected


def test_sse_parser_yields_data_payloads_and_skips_comments() -> None:
    lines = [
        ": ping",
        "event: message",
        'data: {"a": 1}',
        "",
        "data: line1",
        "data: line2",
        "",
        "data: [DONE]",
    ]
    assert list(iter_sse_data(lines)) == ['{"a": 1}', "line1\nline2", "[DONE]"]
