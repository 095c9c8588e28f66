"""What the MCP tools run on: the memory service in this process, or the bridge of the app that
already serves the data folder. Both answer in the bridge's JSON shapes (docs/bridge.md), so a
tool reads the same dictionaries whichever one it talks to."""

from __future__ import annotations

from typing import Any, Protocol

from ..bridge.client import BridgeClient, BridgeError
from ..bridge.render import node_json, recall_json, stats_json
from ..core.editing import NodeDraft
from ..core.errors import ServiceError
from ..core.model import NodeQuery, RecallRequest
from ..core.schema import NODE_TYPES
from ..core.service import MemoryService

ACTOR = "mcp"


class BackendError(Exception):
    """A request the memory refused or could not answer; the message is for the agent."""


class MemoryBackend(Protocol):
    """The memory operations the MCP tools need, answering in the bridge's JSON shapes."""

    where: str

    def chats(self) -> list[dict[str, Any]]: ...
    def recall(self, chat_id: str, query: str, top_k: int) -> dict[str, Any]: ...
    def create(self, chat_id: str, type_id: str, fields: dict[str, str]) -> dict[str, Any]: ...
    def nodes(self, chat_id: str, *, q: str | None, type_id: str | None, limit: int) -> dict[str, Any]: ...
    def node(self, chat_id: str, node_id: str) -> dict[str, Any]: ...
    def forget(self, chat_id: str, node_id: str) -> dict[str, Any]: ...
    def about(self, chat_id: str, about: str) -> dict[str, Any]: ...
    def close(self) -> None: ...


def new_memory_draft(type_id: str, fields: dict[str, str]) -> NodeDraft:
    """What an agent writes goes in for review: with the default audit mode it is recalled at
    once and listed in the Review panel; with the strict review gate it waits for approval."""
    return NodeDraft(type=type_id, fields=fields, tier="long_term", review_status="pending")


class ServiceBackend:
    """The memory service in this process (``bme-desktop mcp`` with no app running)."""

    where = "in-process"

    def __init__(self, service: MemoryService, *, owned: bool = True) -> None:
        self.service = service
        self.owned = owned

    def _run(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ServiceError as exc:
            raise BackendError(str(exc)) from exc

    def chats(self) -> list[dict[str, Any]]:
        return [stats_json(s) for s in self._run(self.service.list_chats)]

    def recall(self, chat_id: str, query: str, top_k: int) -> dict[str, Any]:
        budget = self.service.settings.recall.budget_tokens
        result = self._run(
            self.service.recall,
            RecallRequest(chat_id=chat_id, user_input=query, top_k=top_k, budget_tokens=budget),
        )
        return recall_json(result, index=None)

    def create(self, chat_id: str, type_id: str, fields: dict[str, str]) -> dict[str, Any]:
        if not self.service.has_chat(chat_id):  # an agent's first memory starts its chat
            self._run(self.service.sync, chat_id, [])
        made = self._run(self.service.create_node, chat_id, new_memory_draft(type_id, fields), actor=ACTOR)
        return node_json(made.value)

    def nodes(self, chat_id: str, *, q: str | None, type_id: str | None, limit: int) -> dict[str, Any]:
        if not self.service.has_chat(chat_id):
            raise BackendError(f"no chat named {chat_id!r}")
        nodes, total = self._run(
            self.service.search_nodes, chat_id, NodeQuery(type=type_id, q=q, limit=limit)
        )
        return {"items": [node_json(n) for n in nodes], "total": total}

    def node(self, chat_id: str, node_id: str) -> dict[str, Any]:
        return node_json(self._run(self.service.get_node, chat_id, node_id))

    def forget(self, chat_id: str, node_id: str) -> dict[str, Any]:
        return node_json(self._run(self.service.delete_node, chat_id, node_id, actor=ACTOR).value)

    def about(self, chat_id: str, about: str) -> dict[str, Any]:
        if not self.service.has_chat(chat_id):
            raise BackendError(f"no chat named {chat_id!r}")
        return self.service.what_do_i_know(chat_id, about).to_json()

    def close(self) -> None:
        if self.owned:
            self.service.close()


class BridgeBackend:
    """The bridge of the app (or ``serve``) that already holds the data folder: one memory
    service for the chat frontend and the agent, and the app's windows see what the agent does."""

    where = "bridge"

    def __init__(self, client: BridgeClient) -> None:
        self.client = client

    def _run(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except BridgeError as exc:
            raise BackendError(exc.message) from exc

    def chats(self) -> list[dict[str, Any]]:
        return list(self._run(self.client.list_chats))

    def recall(self, chat_id: str, query: str, top_k: int) -> dict[str, Any]:
        return dict(self._run(self.client.recall, chat_id, query, top_k=top_k))

    def create(self, chat_id: str, type_id: str, fields: dict[str, str]) -> dict[str, Any]:
        draft = new_memory_draft(type_id, fields)
        try:
            return dict(
                self.client.create_node(
                    chat_id, type_id, fields, tier=draft.tier, review_status=draft.review_status
                )
            )
        except BridgeError as exc:
            if exc.status != 404:
                raise BackendError(exc.message) from exc
        self._run(self.client.sync, chat_id, [])  # an agent's first memory starts its chat
        return dict(
            self._run(
                self.client.create_node,
                chat_id,
                type_id,
                fields,
                tier=draft.tier,
                review_status=draft.review_status,
            )
        )

    def nodes(self, chat_id: str, *, q: str | None, type_id: str | None, limit: int) -> dict[str, Any]:
        params: dict[str, Any] = {"limit": limit}
        if q:
            params["q"] = q
        if type_id:
            params["type"] = type_id
        return dict(self._run(self.client.nodes, chat_id, **params))

    def node(self, chat_id: str, node_id: str) -> dict[str, Any]:
        return dict(self._run(self.client.get_node, chat_id, node_id))

    def forget(self, chat_id: str, node_id: str) -> dict[str, Any]:
        return dict(self._run(self.client.delete_node, chat_id, node_id))

    def about(self, chat_id: str, about: str) -> dict[str, Any]:
        return dict(self._run(self.client.about, chat_id, about))

    def close(self) -> None:
        self.client.close()


def memory_types() -> tuple[str, ...]:
    return tuple(NODE_TYPES)
