"""The current database schema (SQLAlchemy Core). Migrations in ``migrations.py`` bring
older databases to exactly this shape; a test compares the two."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

meta = Table(
    "meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

settings = Table(
    "settings",
    metadata,
    Column("key", String(128), primary_key=True),
    Column("value", JSON, nullable=False),
    Column("updated_at", Float, nullable=False),
)

chats = Table(
    "chats",
    metadata,
    Column("pk", Integer, primary_key=True, autoincrement=True),
    Column("chat_id", String(256), nullable=False, unique=True),
    Column("character", String(256)),
    Column("user_name", String(256)),
    # Who is who (schema v3): stable ids from the frontend (SillyTavern's avatar file, persona
    # key), the keys shared memories are drawn by (the id, else the folded name), the world
    # the chat plays in, and whether it is isolated (shares nothing, draws nothing).
    Column("character_id", String(256)),
    Column("persona_id", String(256)),
    Column("character_key", String(300)),
    Column("persona_key", String(300)),
    Column("world", String(256)),
    Column("isolated", Boolean, nullable=False, server_default=false()),
    Column("created_at", Float, nullable=False),
    Column("last_activity", Float, nullable=False),
    Column("revision", Integer, nullable=False, default=0),
    Column("state", JSON, nullable=False),  # extraction progress and other per-chat runtime state
)

messages = Table(
    "messages",
    metadata,
    Column("chat_pk", Integer, ForeignKey("chats.pk", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("role", String(16), nullable=False),
    Column("name", String(256)),
    Column("text", Text, nullable=False),
    Column("swipe_id", Integer),
    Column("time", String(64)),
    Column("fingerprint", String(32), nullable=False),
    Column("stored_at", Float, nullable=False),
)

nodes = Table(
    "nodes",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("chat_pk", Integer, ForeignKey("chats.pk", ondelete="CASCADE"), nullable=False),
    Column("type", String(32), nullable=False),
    Column("title", String(256), nullable=False),
    Column("fields", JSON, nullable=False),
    Column("importance", Float, nullable=False),
    Column("tier", String(16), nullable=False),
    Column("review_status", String(16), nullable=False),
    Column("pinned", Boolean, nullable=False),
    Column("scope_layer", String(16), nullable=False),
    Column("scope_owner", String(256)),
    Column("region", String(256)),
    # chat | character | persona | world (schema v3): who else remembers it (recall/scopes.py)
    Column("scope_kind", String(16), nullable=False, server_default="chat"),
    Column("story_time", JSON),
    Column("level", Integer, nullable=False),
    Column("parent_id", String(36)),
    Column("srs", JSON),
    Column("retrievability", Float, nullable=False),
    Column("recall_count", Integer, nullable=False),
    Column("last_recalled_at", Float),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("source_indices", JSON, nullable=False),
    Column("src_min", Integer),  # min(source_indices), for rollback queries
    Column("batch_id", Integer),
    Column("manually_edited", Boolean, nullable=False),
    Column("deleted_at", Float),
    Column("flags", JSON, nullable=False),
    Column("search_text", Text, nullable=False),  # lower-cased title + fields, for plain search
)
Index("ix_nodes_chat_type", nodes.c.chat_pk, nodes.c.type)
Index("ix_nodes_chat_tier", nodes.c.chat_pk, nodes.c.tier)
Index("ix_nodes_chat_updated", nodes.c.chat_pk, nodes.c.updated_at)
Index("ix_nodes_scope_kind", nodes.c.scope_kind, nodes.c.chat_pk)

edges = Table(
    "edges",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("chat_pk", Integer, ForeignKey("chats.pk", ondelete="CASCADE"), nullable=False),
    Column("from_id", String(36), nullable=False),
    Column("to_id", String(36), nullable=False),
    Column("relation", String(32), nullable=False),
    Column("strength", Float, nullable=False),
    Column("valid_from", Float),
    Column("valid_until", Float),
    Column("source_indices", JSON, nullable=False),
    Column("batch_id", Integer),
    Column("manually_edited", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("deleted_at", Float),
)
Index("ix_edges_chat", edges.c.chat_pk)
Index("ix_edges_from", edges.c.from_id)
Index("ix_edges_to", edges.c.to_id)

batches = Table(
    "batches",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("chat_pk", Integer, ForeignKey("chats.pk", ondelete="CASCADE"), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("status", String(16), nullable=False),
    Column("read_from", Integer),
    Column("read_to", Integer),
    Column("created_at", Float, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("description", Text, nullable=False),
    Column("journal", JSON, nullable=False),  # [{"table", "id", "before", "after"}, ...]
    Column("state_before", JSON),  # per-chat state to restore on rollback
)
Index("ix_chats_character_key", chats.c.character_key)
Index("ix_chats_persona_key", chats.c.persona_key)
Index("ix_batches_chat", batches.c.chat_pk, batches.c.status)

recall_records = Table(
    "recall_records",
    metadata,
    Column("chat_pk", Integer, ForeignKey("chats.pk", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("user_input", Text, nullable=False),
    Column("injection", Text, nullable=False),
    Column("token_estimate", Integer, nullable=False),
    Column("elapsed_ms", Float, nullable=False),
    Column("nodes", JSON, nullable=False),
    Column("manually_edited", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

summaries = Table(
    "summaries",
    metadata,
    Column("id", String(36), primary_key=True),
    Column("chat_pk", Integer, ForeignKey("chats.pk", ondelete="CASCADE"), nullable=False),
    Column("level", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("status", String(16), nullable=False),
    Column("text", Text, nullable=False),
    Column("start_index", Integer),
    Column("end_index", Integer),
    Column("source_ids", JSON, nullable=False),
    Column("batch_id", Integer),
    Column("created_at", Float, nullable=False),
)
Index("ix_summaries_chat", summaries.c.chat_pk)

vectors = Table(
    "vectors",
    metadata,
    Column("node_id", String(36), ForeignKey("nodes.id", ondelete="CASCADE"), primary_key=True),
    Column("chat_pk", Integer, ForeignKey("chats.pk", ondelete="CASCADE"), nullable=False),
    Column("model", String(128), nullable=False),
    Column("dim", Integer, nullable=False),
    Column("text_hash", String(32), nullable=False),
    Column("data", LargeBinary, nullable=False),
)
Index("ix_vectors_chat", vectors.c.chat_pk)

audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("chat_pk", Integer, ForeignKey("chats.pk", ondelete="CASCADE")),
    Column("at", Float, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action", String(64), nullable=False),
    Column("target", String(64)),
    Column("detail", JSON, nullable=False),
)
Index("ix_audit_chat", audit_log.c.chat_pk, audit_log.c.at)

# Tables whose rows a batch journal can snapshot and restore.
JOURNALED = {"nodes": nodes, "edges": edges, "summaries": summaries}
