"""``BridgeClient``: the bridge from Python, as a user's script would call it (httpx)."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterable, Mapping
from dataclasses import asdict, is_dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from .serve import BRIDGE_FILE
from .tokens import ENV_VAR, TokenStore


class BridgeError(Exception):
    """An error answer (``status``, the protocol's ``code``, its ``message``), or status 0
    when the bridge could not be reached."""

    def __init__(self, status: int, code: str, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


def chat_path(chat_id: str, *rest: str | int) -> str:
    """``/v1/chats/{chat_id}/...`` with every part percent-encoded (slashes too)."""
    return "/".join(["/v1/chats", quote(chat_id, safe=""), *(quote(str(p), safe="") for p in rest)])


def _message_json(message: Any) -> dict[str, Any]:
    data = asdict(message) if is_dataclass(message) and not isinstance(message, type) else dict(message)
    return {k: v for k, v in data.items() if v is not None}


class BridgeClient:
    def __init__(
        self, url: str, token: str, *, timeout: float = 30.0, transport: httpx.BaseTransport | None = None
    ) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self._http = httpx.Client(
            base_url=self.url,
            timeout=timeout,
            transport=transport,
            headers={"Authorization": f"Bearer {token}", "Accept": "application/json"},
        )

    @classmethod
    def from_data_dir(cls, data_dir: str | os.PathLike[str], **kwargs: Any) -> BridgeClient:
        """The bridge serving ``data_dir``: its URL from ``bridge.json``, its token from
        ``BME_BRIDGE_TOKEN`` or the keyring or token file (never created here)."""
        path = Path(data_dir)
        try:
            info = json.loads((path / BRIDGE_FILE).read_text(encoding="utf-8"))
            url = info["url"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise BridgeError(
                0, "unavailable", f"no running bridge found in {path} ({BRIDGE_FILE}: {exc})"
            ) from exc
        token = TokenStore(path).load()
        if token is None:
            raise BridgeError(
                0, "unauthorized", f"no bridge token for {path}; set {ENV_VAR} or run `bme-desktop token`"
            )
        return cls(str(url), token.value, **kwargs)

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> BridgeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # plumbing --------------------------------------------------------------------------------
    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Mapping[str, Any] | None = None,
        auth: bool = True,
    ) -> Any:
        headers = {} if auth else {"Authorization": ""}
        clean = {
            k: (str(v).lower() if isinstance(v, bool) else v)
            for k, v in (params or {}).items()
            if v is not None
        }
        try:
            response = self._http.request(method, path, json=body, params=clean, headers=headers)
        except httpx.HTTPError as exc:
            raise BridgeError(0, "unavailable", f"cannot reach the bridge at {self.url}: {exc}") from exc
        try:
            data = response.json() if response.content else {}
        except ValueError:
            data = None
        if response.is_error:
            error = data.get("error", {}) if isinstance(data, dict) else {}
            retry = response.headers.get("Retry-After")
            raise BridgeError(
                response.status_code,
                str(error.get("code", "internal")),
                str(error.get("message", response.text[:200])),
                retry_after=float(retry) if retry and retry.isdigit() else None,
            )
        if data is None:
            raise BridgeError(response.status_code, "internal", "the bridge answered with something not JSON")
        return data

    # endpoints -------------------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        return dict(self.request("GET", "/v1/health", auth=False))

    def list_chats(self) -> list[dict[str, Any]]:
        return list(self.request("GET", "/v1/chats")["chats"])

    def chat(self, chat_id: str) -> dict[str, Any]:
        return dict(self.request("GET", chat_path(chat_id)))

    def delete_chat(self, chat_id: str) -> dict[str, Any]:
        return dict(self.request("DELETE", chat_path(chat_id)))

    def sync(
        self,
        chat_id: str,
        messages: Iterable[Any],
        *,
        complete: bool = False,
        wait: bool = False,
        character: str | None = None,
        user: str | None = None,
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "messages": [_message_json(m) for m in messages],
            "complete": complete,
            "wait": wait,
        }
        if character is not None:
            body["character"] = character
        if user is not None:
            body["user"] = user
        return dict(self.request("POST", chat_path(chat_id, "sync"), body=body))

    def recall(
        self,
        chat_id: str,
        user_input: str,
        *,
        index: int | None = None,
        top_k: int | None = None,
        budget_tokens: int | None = None,
    ) -> dict[str, Any]:
        body = {
            k: v
            for k, v in {
                "user_input": user_input,
                "index": index,
                "top_k": top_k,
                "budget_tokens": budget_tokens,
            }.items()
            if v is not None
        }
        return dict(self.request("POST", chat_path(chat_id, "recall"), body=body))

    def prepare_recall(self, chat_id: str, user_input: str, *, index: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = (
            {"user_input": user_input} if index is None else {"user_input": user_input, "index": index}
        )
        return dict(self.request("POST", chat_path(chat_id, "recall", "prepare"), body=body))

    def get_recall(self, chat_id: str, index: int) -> dict[str, Any]:
        return dict(self.request("GET", chat_path(chat_id, "recall", index)))

    def put_recall(self, chat_id: str, index: int, injection: str) -> dict[str, Any]:
        return dict(self.request("PUT", chat_path(chat_id, "recall", index), body={"injection": injection}))

    def delete_recall(self, chat_id: str, index: int) -> dict[str, Any]:
        return dict(self.request("DELETE", chat_path(chat_id, "recall", index)))

    def nodes(self, chat_id: str, **params: Any) -> dict[str, Any]:
        """Search: ``type``, ``q``, ``limit``, ``offset``, ``tier``, ``review_status``, ``pinned``,
        ``owner``, ``region``, ``order_by``, ``order``, ``deleted``. Returns ``{items, total, ...}``."""
        return dict(self.request("GET", chat_path(chat_id, "nodes"), params=params))

    def create_node(self, chat_id: str, type: str, fields: Mapping[str, str], **extra: Any) -> dict[str, Any]:
        body = {"type": type, "fields": dict(fields), **extra}
        return dict(self.request("POST", chat_path(chat_id, "nodes"), body=body))

    def about(self, chat_id: str, q: str) -> dict[str, Any]:
        """What the memory knows about ``q`` and how sure it is (never a review)."""
        return dict(self.request("GET", chat_path(chat_id, "about"), params={"q": q}))

    def get_node(self, chat_id: str, node_id: str) -> dict[str, Any]:
        return dict(self.request("GET", chat_path(chat_id, "nodes", node_id)))

    def patch_node(self, chat_id: str, node_id: str, patch: Mapping[str, Any]) -> dict[str, Any]:
        return dict(self.request("PATCH", chat_path(chat_id, "nodes", node_id), body=dict(patch)))

    def move_scope(self, chat_id: str, node_id: str, kind: str) -> dict[str, Any]:
        return dict(self.request("POST", chat_path(chat_id, "nodes", node_id, "scope"), body={"kind": kind}))

    def put_lorebook(self, chat_id: str, entries: list[dict[str, Any]]) -> dict[str, Any]:
        return dict(self.request("PUT", chat_path(chat_id, "lorebook"), body={"entries": entries}))

    def export_worldinfo(self, chat_id: str, ids: list[str]) -> dict[str, Any]:
        return dict(self.request("POST", chat_path(chat_id, "worldinfo", "export"), body={"ids": ids}))

    def import_worldinfo(
        self, chat_id: str, document: dict[str, Any], book: str, scope: str = "world"
    ) -> dict[str, Any]:
        return dict(
            self.request(
                "POST",
                chat_path(chat_id, "worldinfo", "import"),
                body={"file": document, "book": book, "scope": scope},
            )
        )

    def delete_node(self, chat_id: str, node_id: str) -> dict[str, Any]:
        return dict(self.request("DELETE", chat_path(chat_id, "nodes", node_id)))

    def restore_node(self, chat_id: str, node_id: str) -> dict[str, Any]:
        return dict(self.request("POST", chat_path(chat_id, "nodes", node_id, "restore")))

    def edges(
        self, chat_id: str, *, node: str | None = None, limit: int | None = None, offset: int | None = None
    ) -> dict[str, Any]:
        return dict(
            self.request(
                "GET", chat_path(chat_id, "edges"), params={"node": node, "limit": limit, "offset": offset}
            )
        )

    def create_edge(
        self, chat_id: str, from_id: str, to_id: str, relation: str, *, strength: float | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"from": from_id, "to": to_id, "relation": relation}
        if strength is not None:
            body["strength"] = strength
        return dict(self.request("POST", chat_path(chat_id, "edges"), body=body))

    def delete_edge(self, chat_id: str, edge_id: str) -> dict[str, Any]:
        return dict(self.request("DELETE", chat_path(chat_id, "edges", edge_id)))

    def maintenance(
        self, chat_id: str, task: str, *, wait: bool = True, start: int | None = None, end: int | None = None
    ) -> dict[str, Any]:
        """Run a task; ``start``/``end`` are the message range (``from``/``to``) of the ranged
        operations (``reextract``, ``rebuild_vectors``, ``evolve``)."""
        body: dict[str, Any] = {"task": task, "wait": wait}
        if start is not None:
            body["from"] = start
        if end is not None:
            body["to"] = end
        return dict(self.request("POST", chat_path(chat_id, "maintenance"), body=body))

    async def events(self, *, chat_id: str | None = None) -> AsyncIterator[dict[str, Any]]:
        """Yield events from ``/v1/events`` (aiohttp WebSocket) until the bridge closes it."""
        import aiohttp

        url = self.url.replace("http", "ws", 1) + "/v1/events"
        params = {"chat_id": chat_id} if chat_id else None
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(url, params=params, headers={"Authorization": f"Bearer {self.token}"}) as ws,
        ):
            async for msg in ws:
                if msg.type == aiohttp.WSMsgType.TEXT:
                    yield json.loads(msg.data)
