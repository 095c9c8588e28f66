"""Typed errors raised by the model clients (LLM and embeddings).

Every error derives from :class:`LLMError`, so a caller that only wants "the model step
failed, fall back to the heuristic" catches one class. ``str(error)`` never contains an API
key or the text of a chat message: server bodies are redacted and truncated, and model output
is kept in the separate ``raw_excerpt`` attribute for a UI that chooses to show it.
"""

from __future__ import annotations


class LLMError(Exception):
    """Base class of every error raised by the provider clients."""


class LLMTimeout(LLMError):
    """The server did not answer in time (hard overall limit or stream idle limit)."""


class LLMConnectionError(LLMError):
    """The server could not be reached (refused, DNS, reset) after all retries."""


class LLMCancelled(LLMError):
    """The caller's cancel flag was set; the request was abandoned."""


class LLMHTTPError(LLMError):
    """The server answered with an HTTP error status (after retries, where retryable)."""

    def __init__(self, status: int, body_excerpt: str, *, retry_after: float | None = None) -> None:
        self.status = status
        self.body_excerpt = body_excerpt
        self.retry_after = retry_after
        super().__init__(f"HTTP {status}: {body_excerpt}" if body_excerpt else f"HTTP {status}")


class LLMBadResponse(LLMError):
    """The server answered 200 but the body was not what the OpenAI wire format promises,
    the stream was truncated, or the model's output could not be parsed as JSON."""

    def __init__(self, message: str, *, raw_excerpt: str = "") -> None:
        self.raw_excerpt = raw_excerpt
        super().__init__(message)


class EmbeddingDimensionError(LLMBadResponse):
    """Embedding vectors disagree in dimension with each other or with the expected one."""

    def __init__(self, expected: int, got: int, *, model: str) -> None:
        self.expected = expected
        self.got = got
        super().__init__(
            f"embedding model {model!r} returned {got}-dimensional vectors, expected {expected}; "
            "re-embed the memory store or fix the embedding model setting"
        )
