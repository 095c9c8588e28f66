"""Model providers: OpenAI-compatible chat and embedding clients, the ``Embedder`` contract,
token estimation, tolerant JSON parsing and log redaction. Pure Python, no Qt."""

from .embedder import Embedder, EmbeddingMatrix
from .embedding_client import EmbeddingClient, EmbeddingConfig
from .errors import (
    EmbeddingDimensionError,
    LLMBadResponse,
    LLMCancelled,
    LLMConnectionError,
    LLMError,
    LLMHTTPError,
    LLMTimeout,
)
from .http_policy import HttpPolicy
from .json_repair import JSONParseError, JSONValue, parse_model_json
from .llm_client import LLMClient, LLMConfig
from .records import ChatMessage, ChatResult, ConnectionReport, Usage
from .tokens import estimate_message_tokens, estimate_tokens

__all__ = [
    "ChatMessage",
    "ChatResult",
    "ConnectionReport",
    "Embedder",
    "EmbeddingClient",
    "EmbeddingConfig",
    "EmbeddingDimensionError",
    "EmbeddingMatrix",
    "HttpPolicy",
    "JSONParseError",
    "JSONValue",
    "LLMBadResponse",
    "LLMCancelled",
    "LLMClient",
    "LLMConfig",
    "LLMConnectionError",
    "LLMError",
    "LLMHTTPError",
    "LLMTimeout",
    "Usage",
    "estimate_message_tokens",
    "estimate_tokens",
    "parse_model_json",
]
