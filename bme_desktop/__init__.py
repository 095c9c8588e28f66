"""BME Desktop: a memory manager for long-running LLM chats."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
