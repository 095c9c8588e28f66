"""Validation of a whole export document into records, before anything is written.

Every problem raises :class:`BackupError` naming its path (``chats[0].nodes[12].fields.name``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..editing import check_scope
from ..errors import ValidationError
from ..ingest.fingerprint import fingerprint
from ..model import Edge, Message, MessageIn, Node, RecallRecord, Scope, Summary
from ..schema import RELATIONS, REVIEW_STATUSES, ROLES, TIERS, validate_node_fields
from ..scopes import ChatIdentity
from .checks import Obj, check_json_size, check_text, parse_json
from .format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_CHATS,
    MAX_FILE_BYTES,
    MAX_SHORT_TEXT,
    MAX_TEXT,
    BackupError,
)

ID_LEN = 36
_CHAT_KEYS = (
    "chat_id",
    "character",
    "user",
    "character_id",
    "persona_id",
    "world",
    "isolated",
    "created_at",
    "last_activity",
    "revision",
    "state",
    "messages",
    "batches",
    "nodes",
    "edges",
    "summaries",
    "recall_records",
)
_NODE_KEYS = (
    "id",
    "type",
    "title",
    "fields",
    "importance",
    "tier",
    "review_status",
    "pinned",
    "scope",
    "story_time",
    "level",
    "parent_id",
    "srs",
    "retrievability",
    "recall_count",
    "last_recalled_at",
    "created_at",
    "updated_at",
    "source_indices",
    "batch_id",
    "manually_edited",
    "deleted",
    "deleted_at",
    "flags",
)
_EDGE_KEYS = (
    "id",
    "from",
    "to",
    "relation",
    "strength",
    "valid_from",
    "valid_until",
    "source_indices",
    "batch_id",
    "manually_edited",
    "created_at",
    "updated_at",
    "deleted",
    "deleted_at",
)


@dataclass
class ChatDoc:
    """One chat of a validated document, with the document's own ids."""

    chat_id: str
    character: str | None
    user: str | None
    created_at: float
    last_activity: float
    revision: int
    state: dict[str, Any]
    identity: ChatIdentity = field(default_factory=ChatIdentity)  # who is who (older files: names only)
    messages: list[Message] = field(default_factory=list)
    batches: list[dict[str, Any]] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    summaries: list[Summary] = field(default_factory=list)
    recall_records: list[RecallRecord] = field(default_factory=list)


def load_document(raw: bytes) -> list[ChatDoc]:
    """A whole document in memory (see ``stream.open_backup`` for files of any size)."""
    return validate_document(parse_json(raw, MAX_FILE_BYTES))


def validate_document(doc: object) -> list[ChatDoc]:
    top = Obj(doc, "", _TOP_KEYS)
    check = DocumentCheck()
    for key in _TOP_KEYS:
        if key != "chats" and key in top.value:
            check.top_key(key, top.value[key])
    check.finish()
    return [chat for raw in top.items("chats", MAX_CHATS) if (chat := check.chat(raw)) is not None]


_TOP_KEYS = ("format", "format_version", "app_version", "exported_at", "chats")


class DocumentCheck:
    """The checks of a whole document, fed member by member: ``top_key`` for the top-level
    members other than ``chats``, ``chat`` for each chat in order, then ``finish``. Only ids
    are kept between chats (they must be unique in the whole document).

    ``streamed``: the members come in file order, where ``format`` follows ``chats`` (keys
    are sorted); the first error is then held back until the end (nothing more is validated,
    only read), so that a file that is no export, an increment or a file of a newer version
    says so rather than naming its first chat or an unknown key.
    """

    def __init__(self, *, streamed: bool = False, name: str = "") -> None:
        self.streamed, self.name = streamed, name
        self.top: dict[str, Any] = {}
        self.count = 0
        self.seen_chats: set[str] = set()
        self.seen_ids: dict[str, set[str]] = {"nodes": set(), "edges": set(), "summaries": set()}
        self.held: BackupError | None = None
        self.saw_chats = False  # streamed: the chats list began

    def top_key(self, key: str, value: object) -> None:
        if key not in _TOP_KEYS or key == "chats":
            self._hold(BackupError(key, "is not a known key" if key != "chats" else "must be a list"))
        else:
            self.top[key] = value

    def _hold(self, error: BackupError) -> None:
        if not self.streamed:
            raise error
        self.held = self.held or error

    def chat(self, raw: object) -> ChatDoc | None:
        """The validated chat (None once a streamed document's error is held back)."""
        i = self.count
        self.count += 1
        if self.count > MAX_CHATS:
            raise BackupError("chats", f"has more than {MAX_CHATS} entries")
        if self.held is not None:
            return None
        try:
            chat = _chat(raw, f"chats[{i}]", self.seen_ids)
            if chat.chat_id in self.seen_chats:
                raise BackupError(f"chats[{i}].chat_id", f"chat {chat.chat_id!r} appears twice")
        except BackupError as exc:
            self._hold(exc)
            return None
        self.seen_chats.add(chat.chat_id)
        return chat

    def header(self) -> None:
        top = Obj(self.top, "", _TOP_KEYS)
        if top.value.get("format") != FORMAT_NAME:
            if self.name and top.value.get("format") == "bme-desktop-incremental":
                raise BackupError("", f"{self.name}: a chain starts with a full backup (this is not one)")
            raise BackupError("format", f"must be {FORMAT_NAME!r} (this is not a BME Desktop export)")
        version = top.whole("format_version", 1)
        if version > FORMAT_VERSION:
            raise BackupError(
                "format_version",
                f"{version} was written by a newer BME Desktop; this one reads up to {FORMAT_VERSION}",
            )
        top.opt_text("app_version", 64)
        top.opt_number("exported_at")

    def finish(self) -> None:
        self.header()
        if self.held is not None:
            raise self.held
        if self.streamed and not self.saw_chats:
            raise BackupError("chats", "is required")


def _unique(value: str, path: str, seen: set[str]) -> str:
    if value in seen:
        raise BackupError(path, f"id {value!r} appears twice")
    seen.add(value)
    return value


def _batch_ref(o: Obj, batches: set[int]) -> int | None:
    batch_id = o.opt_whole("batch_id", 1)
    if batch_id is not None and batch_id not in batches:
        raise BackupError(o.at("batch_id"), f"batch {batch_id} is not among this chat's batches")
    return batch_id


def _deleted_at(o: Obj) -> float | None:
    deleted, deleted_at = o.flag("deleted"), o.opt_number("deleted_at")
    if deleted != (deleted_at is not None):
        raise BackupError(o.at("deleted"), "must be true exactly when deleted_at is set")
    return deleted_at


def _chat(raw: object, path: str, seen_ids: dict[str, set[str]]) -> ChatDoc:
    o = Obj(raw, path, _CHAT_KEYS)
    chat = ChatDoc(
        chat_id=o.text("chat_id", MAX_SHORT_TEXT, nonempty=True),
        character=o.opt_text("character", MAX_SHORT_TEXT),
        user=o.opt_text("user", MAX_SHORT_TEXT),
        created_at=o.number("created_at"),
        last_activity=o.number("last_activity"),
        revision=o.whole("revision"),
        state=o.json_object("state", nullable=False) or {},
        identity=ChatIdentity(
            character_id=o.opt_text("character_id", MAX_SHORT_TEXT),
            persona_id=o.opt_text("persona_id", MAX_SHORT_TEXT),
            world=o.opt_text("world", MAX_SHORT_TEXT),
            isolated=o.flag("isolated") if o.value.get("isolated") is not None else False,
        ),
    )
    indices: set[int] = set()
    for i, m in enumerate(o.items("messages")):
        chat.messages.append(
            _message(
                Obj(m, f"{o.at('messages')}[{i}]", ("index", "role", "name", "text", "swipe_id", "time")),
                chat.chat_id,
                indices,
            )
        )
    batch_ids: set[int] = set()
    for i, b in enumerate(o.items("batches")):
        chat.batches.append(
            _batch(
                Obj(
                    b,
                    f"{o.at('batches')}[{i}]",
                    ("id", "kind", "status", "read_from", "read_to", "created_at", "actor", "description"),
                ),
                batch_ids,
            )
        )
    for i, n in enumerate(o.items("nodes")):
        chat.nodes.append(
            _node(Obj(n, f"{o.at('nodes')}[{i}]", _NODE_KEYS), chat.chat_id, seen_ids["nodes"], batch_ids)
        )
    node_ids = {n.id for n in chat.nodes}
    for i, e in enumerate(o.items("edges")):
        chat.edges.append(
            _edge(
                Obj(e, f"{o.at('edges')}[{i}]", _EDGE_KEYS),
                chat.chat_id,
                seen_ids["edges"],
                batch_ids,
                node_ids,
            )
        )
    for i, s in enumerate(o.items("summaries")):
        chat.summaries.append(
            _summary(
                Obj(
                    s,
                    f"{o.at('summaries')}[{i}]",
                    (
                        "id",
                        "level",
                        "kind",
                        "status",
                        "text",
                        "start_index",
                        "end_index",
                        "source_ids",
                        "batch_id",
                        "created_at",
                    ),
                ),
                chat.chat_id,
                seen_ids["summaries"],
                batch_ids,
            )
        )
    recall_indices: set[int] = set()
    for i, r in enumerate(o.items("recall_records")):
        chat.recall_records.append(
            _recall(
                Obj(
                    r,
                    f"{o.at('recall_records')}[{i}]",
                    (
                        "index",
                        "user_input",
                        "injection",
                        "token_estimate",
                        "elapsed_ms",
                        "nodes",
                        "manually_edited",
                        "created_at",
                        "updated_at",
                    ),
                ),
                chat.chat_id,
                recall_indices,
            )
        )
    return chat


def _message(o: Obj, chat_id: str, seen: set[int]) -> Message:
    index = o.whole("index")
    if index in seen:
        raise BackupError(o.at("index"), f"index {index} appears twice")
    seen.add(index)
    role = o.text("role", 16)
    if role not in ROLES:
        raise BackupError(o.at("role"), f"must be one of {', '.join(ROLES)}")
    m = MessageIn(
        index=index,
        role=role,
        text=o.text("text", MAX_TEXT),
        name=o.opt_text("name", MAX_SHORT_TEXT),
        swipe_id=o.opt_whole("swipe_id", None),
        time=o.opt_text("time", 64),
    )

    return Message(
        chat_id=chat_id,
        index=m.index,
        role=m.role,
        name=m.name,
        text=m.text,
        swipe_id=m.swipe_id,
        time=m.time,
        fingerprint=fingerprint(m),
    )


def _batch(o: Obj, seen: set[int]) -> dict[str, Any]:
    batch_id = o.whole("id", 1)
    if batch_id in seen:
        raise BackupError(o.at("id"), f"batch {batch_id} appears twice")
    seen.add(batch_id)
    return {
        "id": batch_id,
        "kind": o.text("kind", 32, nonempty=True),
        "status": o.text("status", 16, nonempty=True),
        "read_from": o.opt_whole("read_from", None),
        "read_to": o.opt_whole("read_to", None),
        "created_at": o.number("created_at"),
        "actor": o.text("actor", 64),
        "description": o.text("description", MAX_TEXT),
    }


def _node(o: Obj, chat_id: str, seen: set[str], batches: set[int]) -> Node:
    node_id = _unique(o.text("id", ID_LEN, nonempty=True), o.at("id"), seen)
    type_id = o.text("type", 32)
    fields = o.json_object("fields", nullable=False) or {}
    validation = validate_node_fields(type_id, fields)
    if not validation.ok:
        raise BackupError(o.at(validation.issues[0].field), validation.issues[0].message)
    tier, review = o.text("tier", 16), o.text("review_status", 16)
    if tier not in TIERS:
        raise BackupError(o.at("tier"), f"must be one of {', '.join(TIERS)}")
    if review not in REVIEW_STATUSES:
        raise BackupError(o.at("review_status"), f"must be one of {', '.join(REVIEW_STATUSES)}")
    s = Obj(o.value.get("scope"), o.at("scope"), ("layer", "owner", "region", "kind"))
    scope = Scope(
        layer=s.text("layer", 16),
        owner=s.opt_text("owner", MAX_SHORT_TEXT),
        region=s.opt_text("region", MAX_SHORT_TEXT),
        kind=s.opt_text("kind", 16) or "chat",
    )
    try:
        check_scope(scope, o.at("scope"))
    except ValidationError as exc:
        raise BackupError(exc.field, str(exc).split(": ", 1)[-1]) from None
    parent = o.opt_text("parent_id", ID_LEN)
    return Node(
        id=node_id,
        chat_id=chat_id,
        type=type_id,
        title=o.text("title", MAX_SHORT_TEXT),
        fields={k: str(v) for k, v in fields.items()},
        importance=o.number("importance", 0, 10),
        tier=tier,
        review_status=review,
        pinned=o.flag("pinned"),
        scope=scope,
        story_time=o.json_object("story_time", nullable=True),
        level=o.whole("level"),
        parent_id=parent,
        srs=o.json_object("srs", nullable=True),
        retrievability=o.number("retrievability", 0, 1),
        recall_count=o.whole("recall_count"),
        last_recalled_at=o.opt_number("last_recalled_at"),
        created_at=o.number("created_at"),
        updated_at=o.number("updated_at"),
        source_indices=o.indices("source_indices"),
        batch_id=_batch_ref(o, batches),
        manually_edited=o.flag("manually_edited"),
        deleted_at=_deleted_at(o),
        flags=o.json_object("flags", nullable=False) or {},
    )


def _edge(o: Obj, chat_id: str, seen: set[str], batches: set[int], node_ids: set[str]) -> Edge:
    edge_id = _unique(o.text("id", ID_LEN, nonempty=True), o.at("id"), seen)
    ends = []
    for key in ("from", "to"):
        ref = o.text(key, ID_LEN)
        if ref not in node_ids:
            raise BackupError(o.at(key), f"node {ref!r} is not among this chat's nodes")
        ends.append(ref)
    relation = o.text("relation", 32)
    if relation not in RELATIONS:
        raise BackupError(o.at("relation"), f"unknown relation {relation!r}; known: {', '.join(RELATIONS)}")
    return Edge(
        id=edge_id,
        chat_id=chat_id,
        from_id=ends[0],
        to_id=ends[1],
        relation=relation,
        strength=o.number("strength", 0, 1),
        valid_from=o.opt_number("valid_from"),
        valid_until=o.opt_number("valid_until"),
        source_indices=o.indices("source_indices"),
        batch_id=_batch_ref(o, batches),
        manually_edited=o.flag("manually_edited"),
        created_at=o.number("created_at"),
        updated_at=o.number("updated_at"),
        deleted_at=_deleted_at(o),
    )


def _summary(o: Obj, chat_id: str, seen: set[str], batches: set[int]) -> Summary:
    summary_id = _unique(o.text("id", ID_LEN, nonempty=True), o.at("id"), seen)
    sources = [
        check_text(v, f"{o.at('source_ids')}[{i}]", ID_LEN) for i, v in enumerate(o.items("source_ids"))
    ]
    return Summary(
        id=summary_id,
        chat_id=chat_id,
        level=o.whole("level"),
        kind=o.text("kind", 16),
        status=o.text("status", 16),
        text=o.text("text", MAX_TEXT),
        start_index=o.opt_whole("start_index", None),
        end_index=o.opt_whole("end_index", None),
        source_ids=sources,
        batch_id=_batch_ref(o, batches),
        created_at=o.number("created_at"),
    )


def _recall(o: Obj, chat_id: str, seen: set[int]) -> RecallRecord:
    index = o.whole("index")
    if index in seen:
        raise BackupError(o.at("index"), f"index {index} appears twice")
    seen.add(index)
    nodes = o.items("nodes", 10_000)
    for i, item in enumerate(nodes):
        if not isinstance(item, dict):
            raise BackupError(f"{o.at('nodes')}[{i}]", "must be an object")
    check_json_size(nodes, o.at("nodes"))
    return RecallRecord(
        chat_id=chat_id,
        index=index,
        user_input=o.text("user_input", MAX_TEXT),
        injection=o.text("injection", MAX_TEXT),
        token_estimate=o.whole("token_estimate"),
        elapsed_ms=o.number("elapsed_ms", 0),
        nodes=nodes,
        manually_edited=o.flag("manually_edited"),
        created_at=o.number("created_at"),
        updated_at=o.number("updated_at"),
    )
