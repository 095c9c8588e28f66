"""Read queries over one connection. Safe to run on any thread with its own connection."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, case, func, literal, or_, select

from ..background import yield_to_foreground
from ..model import Batch, ChatStats, Edge, Message, Node, NodeQuery, RecallRecord, Summary
from ..scopes import ChatScope
from . import tables as t
from .rows import row_to_edge, row_to_message, row_to_node, row_to_recall, row_to_summary

YIELD_EVERY = 512  # rows between two yield points of a long read on a background thread

_NODE_ORDER = {
    "updated_at",
    "created_at",
    "importance",
    "title",
    "type",
    "tier",
    "retrievability",
    "recall_count",
}


@dataclass(frozen=True)
class RetentionRow:
    """A live memory as retention weighs it (``Reader.retention_rows``)."""

    id: str
    type: str
    category: str | None
    title: str
    pinned: bool
    manually_edited: bool
    recall_count: int
    retrievability: float
    created_at: float
    updated_at: float


class ChatNotFound(LookupError):
    def __init__(self, chat_id: str) -> None:
        super().__init__(f"no chat named {chat_id!r}")
        self.chat_id = chat_id


class Reader:
    def __init__(self, conn: Connection, *, on_chat: Callable[[str], None] | None = None) -> None:
        """``on_chat`` runs before a chat is first looked up by name (a write transaction
        takes the chat's lock there, see ``store/locks.py``)."""
        self.conn = conn
        self._on_chat = on_chat
        self._pinned: tuple[str, int] | None = None

    # chats -------------------------------------------------------------------------------
    def pin_chat(self, chat_id: str | None = None, pk: int | None = None) -> None:
        """Answer ``chat_pk(chat_id)`` with ``pk`` until unpinned (``pin_chat()``): a unit of
        work pins the chat of its open batch, which cannot go away meanwhile, instead of
        looking it up again for every row the batch writes."""
        self._pinned = (chat_id, pk) if chat_id is not None and pk is not None else None

    def chat_pk(self, chat_id: str) -> int | None:
        if self._on_chat is not None:
            self._on_chat(chat_id)
        if self._pinned is not None and self._pinned[0] == chat_id:
            return self._pinned[1]
        return self.conn.execute(select(t.chats.c.pk).where(t.chats.c.chat_id == chat_id)).scalar()

    def require_chat_pk(self, chat_id: str) -> int:
        pk = self.chat_pk(chat_id)
        if pk is None:
            raise ChatNotFound(chat_id)
        return pk

    def chat_row(self, chat_id: str, *, state: bool = True) -> dict[str, Any] | None:
        """The chat's row; ``state=False`` leaves out the runtime-state JSON (it can be large,
        and most callers want only the names)."""
        if self._on_chat is not None:
            self._on_chat(chat_id)
        c = t.chats.c
        columns = (
            [t.chats]
            if state
            else [
                c.pk,
                c.chat_id,
                c.character,
                c.user_name,
                c.created_at,
                c.last_activity,
                c.revision,
                c.character_id,
                c.persona_id,
                c.character_key,
                c.persona_key,
                c.world,
                c.isolated,
            ]
        )
        row = self.conn.execute(select(*columns).where(c.chat_id == chat_id)).mappings().first()
        return dict(row) if row else None

    def overview_rows(self, chat_id: str) -> tuple[list[tuple[float, float]], list[float]]:
        """The chat's live memories as (created_at, retrievability), and its kept recalls'
        ``elapsed_ms`` oldest first: only the columns the Overview's series need."""
        pk = self.require_chat_pk(chat_id)
        nodes = self.conn.execute(
            select(t.nodes.c.created_at, t.nodes.c.retrievability).where(
                t.nodes.c.chat_pk == pk, t.nodes.c.deleted_at.is_(None)
            )
        ).all()
        recalls = (
            self.conn.execute(
                select(t.recall_records.c.elapsed_ms)
                .where(t.recall_records.c.chat_pk == pk)
                .order_by(t.recall_records.c.created_at, t.recall_records.c.idx)
            )
            .scalars()
            .all()
        )
        return [(row[0], row[1]) for row in nodes], list(recalls)

    def chat_scope(self, chat_id: str) -> ChatScope:
        """Who is who in the chat: what its memories are shared with and drawn from."""
        row = self.chat_row(chat_id, state=False)
        if row is None:
            raise ChatNotFound(chat_id)
        return ChatScope(
            chat_id=chat_id,
            character=row["character"],
            user=row["user_name"],
            character_key=row["character_key"],
            persona_key=row["persona_key"],
            world=row["world"],
            isolated=bool(row["isolated"]),
        )

    def shared_nodes(self, scope: ChatScope, ids: Iterable[str] | None = None) -> list[Node]:
        """Live memories of other chats that this chat draws in: their character's memories
        when the character is the same, persona memories when the persona is, world ones when
        the world is. Isolated chats give and take nothing. ``ids``: only these."""
        if scope.isolated:
            return []
        n, c = t.nodes.c, t.chats.c
        kinds = []
        if scope.character_key:
            kinds.append(and_(n.scope_kind == "character", c.character_key == scope.character_key))
        if scope.persona_key:
            kinds.append(and_(n.scope_kind == "persona", c.persona_key == scope.persona_key))
        if scope.world:
            kinds.append(and_(n.scope_kind == "world", c.world == scope.world))
        if not kinds:
            return []
        query = (
            select(t.nodes, c.chat_id.label("origin_chat"))
            .join(t.chats, c.pk == n.chat_pk)
            .where(
                n.scope_kind != "chat",
                n.deleted_at.is_(None),
                c.chat_id != scope.chat_id,
                c.isolated.is_(False),
                or_(*kinds),
            )
        )
        if ids is None:
            rows = list(self.conn.execute(query.order_by(n.created_at, n.id)).mappings())
        else:
            wanted, rows = list(ids), []
            for start in range(0, len(wanted), 500):
                rows += self.conn.execute(query.where(n.id.in_(wanted[start : start + 500]))).mappings()
        # Lore SillyTavern gives each chat stays that chat's (core/lorebook.py): never drawn in twice.
        return [
            node
            for node in (row_to_node(r, r["origin_chat"]) for r in rows)
            if (node.flags.get("lorebook") or {}).get("source") != "sillytavern"
        ]

    def character_chat_ids(self, scope: ChatScope) -> list[str]:
        """The chats of ``scope``'s character (the same character key), this one first, then
        the others oldest first; an isolated chat (this one or another) stands alone."""
        others: list[str] = []
        if scope.character_key and not scope.isolated:
            c = t.chats.c
            others = list(
                self.conn.execute(
                    select(c.chat_id)
                    .where(
                        c.character_key == scope.character_key,
                        c.isolated.is_(False),
                        c.chat_id != scope.chat_id,
                    )
                    .order_by(c.created_at, c.pk)
                ).scalars()
            )
        return [scope.chat_id, *others]

    def chat_state(self, chat_pk: int) -> dict[str, Any]:
        return dict(self.conn.execute(select(t.chats.c.state).where(t.chats.c.pk == chat_pk)).scalar_one())

    def rewrite_counts(self, chat_pk: int, row_tables: Sequence[str]) -> tuple[dict[str, int], int, int, int]:
        """What a rewrite of the chat would touch: live memories not written by hand, by type;
        live memories written by hand; messages; rows in ``row_tables`` (deleted ones too)."""
        n = t.nodes.c
        live = (n.chat_pk == chat_pk) & n.deleted_at.is_(None)
        by_type = {
            str(k): int(v)
            for k, v in self.conn.execute(
                select(n.type, func.count()).where(live, n.manually_edited.is_(False)).group_by(n.type)
            ).all()
        }
        by_hand = int(
            self.conn.execute(select(func.count()).where(live, n.manually_edited.is_(True))).scalar_one()
        )
        messages = int(
            self.conn.execute(select(func.count()).where(t.messages.c.chat_pk == chat_pk)).scalar_one()
        )
        rows = sum(
            int(
                self.conn.execute(
                    select(func.count()).where(t.JOURNALED[name].c.chat_pk == chat_pk)
                ).scalar_one()
            )
            for name in row_tables
        )
        return by_type, by_hand, messages, rows

    def chat_ids(self) -> list[str]:
        return list(self.conn.execute(select(t.chats.c.chat_id).order_by(t.chats.c.pk)).scalars())

    def chat_stats(self, chat_id: str) -> ChatStats:
        row = self.chat_row(chat_id, state=False)
        if row is None:
            raise ChatNotFound(chat_id)
        pk = row["pk"]
        live = and_(t.nodes.c.chat_pk == pk, t.nodes.c.deleted_at.is_(None))
        by_type: dict[str, int] = dict(
            self.conn.execute(select(t.nodes.c.type, func.count()).where(live).group_by(t.nodes.c.type)).all()
        )
        by_tier: dict[str, int] = dict(
            self.conn.execute(select(t.nodes.c.tier, func.count()).where(live).group_by(t.nodes.c.tier)).all()
        )
        pending = self.conn.execute(
            select(func.count()).where(live, t.nodes.c.review_status == "pending")
        ).scalar_one()
        deleted = self.conn.execute(
            select(func.count()).where(t.nodes.c.chat_pk == pk, t.nodes.c.deleted_at.is_not(None))
        ).scalar_one()
        edges = self.conn.execute(
            select(func.count()).where(t.edges.c.chat_pk == pk, t.edges.c.deleted_at.is_(None))
        ).scalar_one()
        messages = self.conn.execute(select(func.count()).where(t.messages.c.chat_pk == pk)).scalar_one()
        shared: dict[str, int] = dict(
            self.conn.execute(
                select(t.nodes.c.scope_kind, func.count())
                .where(live, t.nodes.c.scope_kind != "chat")
                .group_by(t.nodes.c.scope_kind)
            ).all()
        )
        return ChatStats(
            character_id=row["character_id"],
            persona_id=row["persona_id"],
            world=row["world"],
            isolated=bool(row["isolated"]),
            shared_by_kind=shared,
            chat_id=chat_id,
            character=row["character"],
            user=row["user_name"],
            message_count=messages,
            node_count=sum(by_type.values()),
            edge_count=edges,
            nodes_by_type=by_type,
            nodes_by_tier=by_tier,
            pending_reviews=pending,
            deleted_nodes=deleted,
            last_activity=row["last_activity"],
            revision=row["revision"],
        )

    # retention and the recycle bin (core/lifecycle/retention.py) ---------------------------
    def node_counts(self, chat_id: str, deleted_before: float | None) -> tuple[int, int]:
        """(live memories, memories in the recycle bin since before ``deleted_before``) of the
        chat, in one pass over its rows (0 for the second when ``deleted_before`` is None)."""
        pk = self.require_chat_pk(chat_id)
        n = t.nodes.c
        binned = (
            func.sum(case((n.deleted_at <= deleted_before, 1), else_=0))
            if deleted_before is not None
            else literal(0)
        )
        live, expiring = self.conn.execute(
            select(func.sum(case((n.deleted_at.is_(None), 1), else_=0)), binned).where(n.chat_pk == pk)
        ).one()
        return int(live or 0), int(expiring or 0)

    def retention_rows(self, chat_id: str) -> list[RetentionRow]:
        """The chat's live memories with what retention decides on, ordered by id."""
        c = t.nodes.c
        pk = self.require_chat_pk(chat_id)
        rows = self.conn.execute(
            select(
                c.id,
                c.type,
                c.fields["category"].as_string(),
                c.title,
                c.pinned,
                c.manually_edited,
                c.recall_count,
                c.retrievability,
                c.created_at,
                c.updated_at,
            )
            .where(c.chat_pk == pk, c.deleted_at.is_(None))
            .order_by(c.id)
        ).all()
        return [
            RetentionRow(
                str(r[0]),
                str(r[1]),
                r[2],
                str(r[3]),
                bool(r[4]),
                bool(r[5]),
                int(r[6]),
                float(r[7]),
                float(r[8]),
                float(r[9]),
            )
            for r in rows
        ]

    def upkeep_rows(self, chat_pk: int) -> list[Any]:
        """One row per live memory with what upkeep decides on, ordered by id: id, type, category,
        tier, review status, pinned, importance, and the card's numbers taken out of the JSON in
        SQL (so the scan never parses ``srs`` in Python), retrievability, created, recall count,
        written by hand."""
        c = t.nodes.c
        return list(
            self.conn.execute(
                select(
                    c.id,
                    c.type,
                    c.fields["category"].as_string(),
                    c.tier,
                    c.review_status,
                    c.pinned,
                    c.importance,
                    c.srs["v"].as_integer(),
                    c.srs["stability"].as_float(),
                    c.srs["last_review"].as_float(),
                    c.retrievability,
                    c.created_at,
                    c.recall_count,
                    c.manually_edited,
                )
                .where(c.chat_pk == chat_pk, c.deleted_at.is_(None))
                .order_by(c.id)
            ).all()
        )

    def audit_actions(self, chat_pk: int, actions: Sequence[str]) -> list[tuple[str, dict[str, Any] | None]]:
        """(action, detail) of the chat's audit entries of these ``actions``, oldest first."""
        a = t.audit_log.c
        rows = self.conn.execute(
            select(a.action, a.detail).where(a.chat_pk == chat_pk, a.action.in_(list(actions))).order_by(a.id)
        )
        return [(str(action), detail) for action, detail in rows]

    # messages ----------------------------------------------------------------------------
    def last_message_index(self, chat_pk: int) -> int | None:
        """The highest stored message index (None: no message)."""
        last = self.conn.execute(
            select(func.max(t.messages.c.idx)).where(t.messages.c.chat_pk == chat_pk)
        ).scalar()
        return None if last is None else int(last)

    def applied_batches(self, chat_pk: int) -> list[tuple[int, str, int | None]]:
        """(id, kind, read_to) of the chat's applied batches, oldest first."""
        b = t.batches.c
        rows = self.conn.execute(
            select(b.id, b.kind, b.read_to).where(b.chat_pk == chat_pk, b.status == "applied").order_by(b.id)
        ).all()
        return [(int(bid), str(kind), read_to) for bid, kind, read_to in rows]

    def message_counts(self, chat_pk: int, done_to: int) -> tuple[int, int, int]:
        """(messages, those at or before ``done_to``, those after it up to the last reply): what
        extraction has read of the chat and what it would read now."""
        m = t.messages.c
        total, extracted = self.conn.execute(
            select(func.count(), func.count().filter(m.idx <= done_to)).where(m.chat_pk == chat_pk)
        ).one()
        last_reply = self.conn.execute(
            select(func.max(m.idx)).where(m.chat_pk == chat_pk, m.role == "assistant")
        ).scalar()
        due = 0
        if last_reply is not None and last_reply > done_to:
            due = int(
                self.conn.execute(
                    select(func.count()).where(m.chat_pk == chat_pk, m.idx > done_to, m.idx <= last_reply)
                ).scalar()
                or 0
            )
        return int(total or 0), int(extracted or 0), due

    def reply_indices_after(self, chat_pk: int, after: int, limit: int) -> list[int]:
        """The indices of the first ``limit`` assistant replies after message ``after``."""
        m = t.messages.c
        return [
            int(i)
            for i in self.conn.execute(
                select(m.idx)
                .where(m.chat_pk == chat_pk, m.idx > after, m.role == "assistant")
                .order_by(m.idx)
                .limit(limit)
            ).scalars()
        ]

    def messages_in(self, chat_id: str, chat_pk: int, after: int, end: int) -> list[Message]:
        """The messages after ``after`` up to ``end`` (inclusive), in order."""
        m = t.messages.c
        rows = (
            self.conn.execute(
                select(t.messages).where(m.chat_pk == chat_pk, m.idx > after, m.idx <= end).order_by(m.idx)
            )
            .mappings()
            .all()
        )
        return [row_to_message(r, chat_id) for r in rows]

    def messages_up_to(self, chat_id: str, chat_pk: int, last: int, count: int) -> list[Message]:
        """The ``count`` messages at or before ``last``, in order."""
        m = t.messages.c
        rows = (
            self.conn.execute(
                select(t.messages)
                .where(m.chat_pk == chat_pk, m.idx <= last)
                .order_by(m.idx.desc())
                .limit(count)
            )
            .mappings()
            .all()
        )
        return [row_to_message(r, chat_id) for r in reversed(rows)]

    def fingerprints_between(self, chat_pk: int, start: int, end: int) -> dict[int, str]:
        m = t.messages.c
        rows = self.conn.execute(
            select(m.idx, m.fingerprint).where(m.chat_pk == chat_pk, m.idx >= start, m.idx <= end)
        )
        return {int(idx): fp for idx, fp in rows}

    def fingerprints(self, chat_pk: int) -> dict[int, str]:
        rows = self.conn.execute(
            select(t.messages.c.idx, t.messages.c.fingerprint).where(t.messages.c.chat_pk == chat_pk)
        )
        return {idx: fp for idx, fp in rows}

    def messages(self, chat_id: str, start: int = 0, end: int | None = None) -> list[Message]:
        pk = self.require_chat_pk(chat_id)
        cond = [t.messages.c.chat_pk == pk, t.messages.c.idx >= start]
        if end is not None:
            cond.append(t.messages.c.idx <= end)
        rows = self.conn.execute(select(t.messages).where(*cond).order_by(t.messages.c.idx)).mappings()
        return [row_to_message(r, chat_id) for r in rows]

    # nodes -------------------------------------------------------------------------------
    def node(self, chat_id: str, node_id: str, *, include_deleted: bool = False) -> Node | None:
        pk = self.require_chat_pk(chat_id)
        cond = [t.nodes.c.id == node_id, t.nodes.c.chat_pk == pk]
        if not include_deleted:
            cond.append(t.nodes.c.deleted_at.is_(None))
        row = self.conn.execute(select(t.nodes).where(*cond)).mappings().first()
        return row_to_node(row, chat_id) if row else None

    def nodes_by_ids(self, chat_id: str, ids: Iterable[str]) -> list[Node]:
        pk = self.require_chat_pk(chat_id)
        wanted = list(ids)
        out: list[Node] = []
        for start in range(0, len(wanted), 500):
            rows = self.conn.execute(
                select(t.nodes).where(t.nodes.c.chat_pk == pk, t.nodes.c.id.in_(wanted[start : start + 500]))
            ).mappings()
            out.extend(row_to_node(r, chat_id) for r in rows)
        return out

    def live_node_ids(self, chat_id: str) -> list[str]:
        """Ids of the chat's memories that are not deleted (no rows decoded)."""
        pk = self.require_chat_pk(chat_id)
        rows = self.conn.execute(
            select(t.nodes.c.id).where(t.nodes.c.chat_pk == pk, t.nodes.c.deleted_at.is_(None))
        )
        return [r[0] for r in rows]

    def all_nodes(
        self, chat_id: str, *, include_deleted: bool = False, batch_ids: Iterable[int] | None = None
    ) -> list[Node]:
        """The chat's memories (only those written by ``batch_ids``, when given)."""
        pk = self.require_chat_pk(chat_id)
        cond = [t.nodes.c.chat_pk == pk]
        if not include_deleted:
            cond.append(t.nodes.c.deleted_at.is_(None))
        if batch_ids is not None:
            cond.append(t.nodes.c.batch_id.in_(sorted(set(batch_ids))))
        rows = self.conn.execute(select(t.nodes).where(*cond).order_by(t.nodes.c.created_at, t.nodes.c.id))
        nodes = []
        for k, row in enumerate(rows.mappings()):
            if k % YIELD_EVERY == YIELD_EVERY - 1:
                yield_to_foreground()  # 10k rows are ~170 ms of Python: a background thread lets a
                # recall, or a window that is behind, go first (no-op on other threads)
            nodes.append(row_to_node(row, chat_id))
        return nodes

    def search_nodes(self, chat_id: str, query: NodeQuery) -> tuple[list[Node], int]:
        pk = self.require_chat_pk(chat_id)
        cond: list[Any] = [t.nodes.c.chat_pk == pk]
        if query.only_deleted:
            cond.append(t.nodes.c.deleted_at.is_not(None))
        elif not query.include_deleted:
            cond.append(t.nodes.c.deleted_at.is_(None))
        if query.type:
            cond.append(t.nodes.c.type == query.type)
        if query.tier:
            cond.append(t.nodes.c.tier == query.tier)
        if query.review_status:
            cond.append(t.nodes.c.review_status == query.review_status)
        if query.pinned is not None:
            cond.append(t.nodes.c.pinned == query.pinned)
        if query.owner is not None:
            cond.append(t.nodes.c.scope_owner == query.owner)
        if query.region is not None:
            cond.append(t.nodes.c.region == query.region)
        if query.kind is not None:
            cond.append(t.nodes.c.scope_kind == query.kind)
        if query.q:
            for word in query.q.lower().split():
                escaped = word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
                cond.append(t.nodes.c.search_text.like(f"%{escaped}%", escape="\\"))
        total = self.conn.execute(select(func.count()).select_from(t.nodes).where(*cond)).scalar_one()
        order_col = t.nodes.c[query.order_by if query.order_by in _NODE_ORDER else "updated_at"]
        order = order_col.desc() if query.descending else order_col.asc()
        rows = self.conn.execute(
            select(t.nodes).where(*cond).order_by(order, t.nodes.c.id).limit(query.limit).offset(query.offset)
        ).mappings()
        return [row_to_node(r, chat_id) for r in rows], total

    # edges -------------------------------------------------------------------------------
    def edges_deleted_at(self, chat_id: str, node_id: str, when: float) -> list[Edge]:
        """The edges at ``node_id`` deleted at the same moment as it (restored with it)."""
        e = t.edges.c
        rows = self.conn.execute(
            select(t.edges).where(or_(e.from_id == node_id, e.to_id == node_id), e.deleted_at == when)
        ).mappings()
        return [row_to_edge(r, chat_id) for r in rows]

    def edge(self, chat_id: str, edge_id: str) -> Edge | None:
        pk = self.require_chat_pk(chat_id)
        row = (
            self.conn.execute(
                select(t.edges).where(
                    t.edges.c.id == edge_id, t.edges.c.chat_pk == pk, t.edges.c.deleted_at.is_(None)
                )
            )
            .mappings()
            .first()
        )
        return row_to_edge(row, chat_id) if row else None

    def valid_edge_between(self, chat_id: str, from_id: str, to_id: str, relation: str) -> Edge | None:
        """The live, still-valid edge with these ends and relation (an indexed lookup)."""
        pk = self.require_chat_pk(chat_id)
        params = {"from_id": from_id, "pk": pk, "to_id": to_id, "relation": relation}
        row = self.conn.execute(_VALID_EDGE_BETWEEN, params).mappings().first()
        return row_to_edge(row, chat_id) if row else None

    def edges(
        self,
        chat_id: str,
        *,
        node_id: str | None = None,
        include_invalid: bool = True,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[Edge]:
        pk = self.require_chat_pk(chat_id)
        cond: list[Any] = [t.edges.c.chat_pk == pk, t.edges.c.deleted_at.is_(None)]
        if node_id is not None:
            cond.append(or_(t.edges.c.from_id == node_id, t.edges.c.to_id == node_id))
        if not include_invalid:
            cond.append(t.edges.c.valid_until.is_(None))
        stmt = select(t.edges).where(*cond).order_by(t.edges.c.created_at, t.edges.c.id).offset(offset)
        if limit is not None:
            stmt = stmt.limit(limit)
        return [row_to_edge(r, chat_id) for r in self.conn.execute(stmt).mappings()]

    def edges_by_ids(self, chat_id: str, ids: Iterable[str]) -> list[Edge]:
        """The chat's edges with these ids that are not deleted (valid or not)."""
        pk = self.require_chat_pk(chat_id)
        wanted = list(ids)
        out: list[Edge] = []
        for start in range(0, len(wanted), 500):
            rows = self.conn.execute(
                select(t.edges).where(
                    t.edges.c.chat_pk == pk,
                    t.edges.c.id.in_(wanted[start : start + 500]),
                    t.edges.c.deleted_at.is_(None),
                )
            ).mappings()
            out.extend(row_to_edge(r, chat_id) for r in rows)
        return out

    # batches, recall records, summaries ----------------------------------------------------
    def batches(
        self,
        chat_id: str,
        *,
        status: str | None = None,
        kind: str | None = None,
        read_to_above: int | None = None,
    ) -> list[Batch]:
        """The chat's batches in order (``read_to_above``: only those that read past that message;
        a check after every extraction needs the few newest, not the whole chat's history)."""
        pk = self.require_chat_pk(chat_id)
        cond: list[Any] = [t.batches.c.chat_pk == pk]
        if status:
            cond.append(t.batches.c.status == status)
        if kind:
            cond.append(t.batches.c.kind == kind)
        if read_to_above is not None:
            cond.append(t.batches.c.read_to > read_to_above)
        b = t.batches.c
        # The journal itself is not read (it can be large): SQLite and PostgreSQL both count it.
        columns = [
            b.id,
            b.kind,
            b.status,
            b.read_from,
            b.read_to,
            b.created_at,
            b.actor,
            b.description,
            func.json_array_length(b.journal).label("entry_count"),
        ]
        rows = self.conn.execute(select(*columns).where(*cond).order_by(b.id)).mappings()
        return [
            Batch(
                id=r["id"],
                chat_id=chat_id,
                kind=r["kind"],
                status=r["status"],
                read_from=r["read_from"],
                read_to=r["read_to"],
                created_at=r["created_at"],
                actor=r["actor"],
                description=r["description"],
                entry_count=int(r["entry_count"] or 0),
            )
            for r in rows
        ]

    def recall_record(self, chat_id: str, index: int) -> RecallRecord | None:
        pk = self.require_chat_pk(chat_id)
        row = (
            self.conn.execute(
                select(t.recall_records).where(
                    t.recall_records.c.chat_pk == pk, t.recall_records.c.idx == index
                )
            )
            .mappings()
            .first()
        )
        return row_to_recall(row, chat_id) if row else None

    def recall_records(self, chat_id: str) -> list[RecallRecord]:
        pk = self.require_chat_pk(chat_id)
        rows = self.conn.execute(
            select(t.recall_records).where(t.recall_records.c.chat_pk == pk).order_by(t.recall_records.c.idx)
        ).mappings()
        return [row_to_recall(r, chat_id) for r in rows]

    def summaries_end(self, chat_id: str, level: int) -> int | None:
        """The last message a summary of ``level`` covers (None: no such summary)."""
        pk = self.require_chat_pk(chat_id)
        s = t.summaries.c
        found = self.conn.execute(
            select(func.max(s.end_index)).where(s.chat_pk == pk, s.level == level)
        ).scalar()
        return None if found is None else int(found)

    def summaries(self, chat_id: str, *, status: str | None = None) -> list[Summary]:
        pk = self.require_chat_pk(chat_id)
        cond: list[Any] = [t.summaries.c.chat_pk == pk]
        if status:
            cond.append(t.summaries.c.status == status)
        rows = self.conn.execute(
            select(t.summaries).where(*cond).order_by(t.summaries.c.level, t.summaries.c.created_at)
        ).mappings()
        return [row_to_summary(r, chat_id) for r in rows]

    def audit(self, chat_id: str | None, limit: int = 200) -> list[dict[str, Any]]:
        stmt = select(t.audit_log).order_by(t.audit_log.c.id.desc()).limit(limit)
        if chat_id is not None:
            stmt = stmt.where(t.audit_log.c.chat_pk == self.require_chat_pk(chat_id))
        return [dict(r) for r in self.conn.execute(stmt).mappings()]


# Built once (asked for every link an extraction batch makes): the ends go in as parameters.
_VALID_EDGE_BETWEEN = (
    select(t.edges)
    .where(
        t.edges.c.from_id == bindparam("from_id"),
        t.edges.c.chat_pk == bindparam("pk"),
        t.edges.c.to_id == bindparam("to_id"),
        t.edges.c.relation == bindparam("relation"),
        t.edges.c.deleted_at.is_(None),
        t.edges.c.valid_until.is_(None),
    )
    .order_by(t.edges.c.created_at)
    .limit(1)
)
