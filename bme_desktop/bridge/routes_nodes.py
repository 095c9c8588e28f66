"""Memories and their edges: search, create, read, edit, delete (to the recycle bin), restore."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from ..core.editing import PATCHABLE, NodeDraft
from ..core.model import Edge, NodeQuery, Scope
from ..core.schema import NODE_TYPES, RELATIONS, REVIEW_STATUSES, SCOPE_LAYERS, TIERS
from ..core.scopes import SCOPE_KINDS
from .context import ctx
from .errors import bad_request
from .path_params import MAX_INDEX, chat_id_of, id_of
from .render import edge_json, node_json
from .validation import (
    Fields,
    bool_param,
    choice_param,
    json_type,
    read_json_object,
    text_param,
    whole_param,
)

ORDERS = ("updated_at", "created_at", "importance", "title", "type", "tier", "retrievability", "recall_count")
MAX_FIELD = 2000


def parse_fields(value: dict[str, Any], *, allow_null: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, item in value.items():
        if item is None and allow_null:
            out[key] = None
        elif not isinstance(item, str):
            raise bad_request(f"fields.{key}", f"must be a string, not {json_type(item)}")
        elif len(item) > MAX_FIELD:
            raise bad_request(f"fields.{key}", f"is longer than {MAX_FIELD} characters")
        else:
            out[key] = item
    return out


def parse_scope(value: dict[str, Any], *, base: Scope | None = None) -> dict[str, Any]:
    f = Fields(value, "scope")
    f.only("layer", "owner", "region", "kind")
    layer = f.text("layer", max_len=16)
    if layer is not None and layer not in SCOPE_LAYERS:
        raise bad_request("scope.layer", f"must be one of {', '.join(SCOPE_LAYERS)}")
    kind = f.text("kind", max_len=16)
    if kind is not None and kind not in SCOPE_KINDS:
        raise bad_request("scope.kind", f"must be one of {', '.join(SCOPE_KINDS)}")
    out: dict[str, Any] = {}
    if layer is not None:
        out["layer"] = layer
    if kind is not None:
        out["kind"] = kind
    for key in ("owner", "region"):
        if key in value:
            out[key] = f.text(key, max_len=256)
    return out


def parse_indices(value: list[Any], where: str = "source_indices") -> list[int]:
    for pos, item in enumerate(value):
        if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item <= MAX_INDEX:
            raise bad_request(f"{where}[{pos}]", f"must be a message index (a whole number 0–{MAX_INDEX})")
    return list(value)


def _choice(f: Fields, key: str, choices: tuple[str, ...], default: str | None) -> str | None:
    value = f.text(key, max_len=64, default=default)
    if value is not None and value not in choices:
        raise bad_request(key, f"must be one of {', '.join(choices)}")
    return value


def parse_draft(body: dict[str, Any]) -> NodeDraft:
    f = Fields(body)
    f.only("type", *PATCHABLE)
    type_id = _choice(f, "type", tuple(NODE_TYPES), None)
    if type_id is None:
        raise bad_request("type", "is required")
    scope = parse_scope(f.obj("scope") or {})
    return NodeDraft(
        type=type_id,
        fields=parse_fields(f.obj("fields", required=True) or {}, allow_null=False),
        importance=f.number("importance", low=0, high=10, default=5.0) or 0.0,
        tier=_choice(f, "tier", TIERS, "long_term") or "long_term",
        review_status=_choice(f, "review_status", REVIEW_STATUSES, "approved") or "approved",
        pinned=f.flag("pinned", default=False),
        scope=Scope(**scope),
        story_time=f.obj("story_time"),
        source_indices=parse_indices(f.array("source_indices", max_len=100_000) or []),
    )


def parse_patch(body: dict[str, Any]) -> dict[str, Any]:
    f = Fields(body)
    f.only(*PATCHABLE)
    if not body:
        raise bad_request("body", f"names nothing to change; changeable: {', '.join(PATCHABLE)}")
    patch: dict[str, Any] = {}
    if "fields" in body:
        patch["fields"] = parse_fields(f.obj("fields", required=True) or {}, allow_null=True)
    if "importance" in body:
        patch["importance"] = f.number("importance", low=0, high=10)
    if "tier" in body:
        patch["tier"] = _choice(f, "tier", TIERS, None)
    if "review_status" in body:
        patch["review_status"] = _choice(f, "review_status", REVIEW_STATUSES, None)
    if "pinned" in body:
        if not isinstance(body["pinned"], bool):
            raise bad_request("pinned", f"must be true or false, not {json_type(body['pinned'])}")
        patch["pinned"] = body["pinned"]
    if "scope" in body:
        patch["scope"] = parse_scope(f.obj("scope", required=True) or {})
    if "story_time" in body:
        patch["story_time"] = f.obj("story_time")
    if "source_indices" in body:
        patch["source_indices"] = parse_indices(f.array("source_indices", required=True) or [])
    for key in ("importance", "tier", "review_status"):
        if key in patch and patch[key] is None:
            raise bad_request(key, "cannot be null")
    return patch


async def list_nodes(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    deleted = choice_param(request, "deleted", ("exclude", "include", "only")) or "exclude"
    query = NodeQuery(
        type=choice_param(request, "type", tuple(NODE_TYPES)),
        q=text_param(request, "q"),
        tier=choice_param(request, "tier", TIERS),
        review_status=choice_param(request, "review_status", REVIEW_STATUSES),
        pinned=bool_param(request, "pinned"),
        owner=text_param(request, "owner", max_len=256),
        region=text_param(request, "region", max_len=256),
        kind=choice_param(request, "scope", SCOPE_KINDS),
        include_deleted=deleted == "include",
        only_deleted=deleted == "only",
        limit=whole_param(request, "limit", default=50, low=1, high=500),
        offset=whole_param(request, "offset", default=0, low=0, high=10**9),
        order_by=choice_param(request, "order_by", ORDERS) or "updated_at",
        descending=(choice_param(request, "order", ("asc", "desc")) or "desc") == "desc",
    )
    nodes, total = await c.call(c.service.search_nodes, chat_id, query)
    return web.json_response(
        {"items": [node_json(n) for n in nodes], "total": total, "limit": query.limit, "offset": query.offset}
    )


async def create_node(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    draft = parse_draft(await read_json_object(request, c.config.body_limit))
    node = (await c.call(c.service.create_node, chat_id, draft, actor="bridge")).value
    return web.json_response(node_json(node), status=201)


async def get_node(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    node = await c.call(c.service.get_node, chat_id, id_of(request, "node_id", "memory"))
    return web.json_response(node_json(node))


async def patch_node(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    node_id = id_of(request, "node_id", "memory")
    patch = parse_patch(await read_json_object(request, c.config.body_limit))
    if set(patch) == {"review_status"}:  # a review decision, as the review centre makes it: not an edit
        decided = await c.call(
            c.service.decide_review, chat_id, [node_id], patch["review_status"], actor="bridge"
        )
        node = decided.value[0]
    else:
        node = (await c.call(c.service.update_node, chat_id, node_id, patch, actor="bridge")).value
    return web.json_response(node_json(node))


async def move_scope(request: web.Request) -> web.Response:
    """Share a memory with the chat's character, persona or world, or keep it to the chat."""
    c = ctx(request)
    chat_id = chat_id_of(request)
    node_id = id_of(request, "node_id", "memory")
    f = Fields(await read_json_object(request, c.config.body_limit))
    f.only("kind")
    kind = _choice(f, "kind", SCOPE_KINDS, None)
    if kind is None:
        raise bad_request("kind", f"is required: one of {', '.join(SCOPE_KINDS)}")
    node = (await c.call(c.service.move_scope, chat_id, node_id, kind, actor="bridge")).value
    return web.json_response(node_json(node))


async def delete_node(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    deleted = await c.call(
        c.service.delete_node, chat_id, id_of(request, "node_id", "memory"), actor="bridge"
    )
    node = deleted.value
    return web.json_response({"deleted": True, "id": node.id, "recoverable": True})


async def restore_node(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    restored = await c.call(
        c.service.restore_node, chat_id, id_of(request, "node_id", "memory"), actor="bridge"
    )
    node = restored.value
    return web.json_response(node_json(node))


async def list_edges(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    node = text_param(request, "node", max_len=128)
    limit = whole_param(request, "limit", default=100, low=1, high=1000)
    offset = whole_param(request, "offset", default=0, low=0, high=10**9)
    edges: list[Edge] = await c.call(c.service.edges, chat_id, node_id=node)
    return web.json_response(
        {
            "items": [edge_json(e) for e in edges[offset : offset + limit]],
            "total": len(edges),
            "limit": limit,
            "offset": offset,
        }
    )


async def create_edge(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    f = Fields(await read_json_object(request, c.config.body_limit))
    f.only("from", "to", "relation", "strength")
    from_id = f.text("from", required=True, min_len=1, max_len=128)
    to_id = f.text("to", required=True, min_len=1, max_len=128)
    relation = _choice(f, "relation", tuple(RELATIONS), None)
    if relation is None:
        raise bad_request("relation", "is required")
    assert from_id is not None and to_id is not None
    linked = await c.call(
        c.service.link,
        chat_id,
        from_id,
        to_id,
        relation,
        strength=f.number("strength", low=0, high=1),
        actor="bridge",
    )
    return web.json_response(edge_json(linked.value), status=201)


async def delete_edge(request: web.Request) -> web.Response:
    c = ctx(request)
    chat_id = chat_id_of(request)
    unlinked = await c.call(c.service.unlink, chat_id, id_of(request, "edge_id", "edge"), actor="bridge")
    return web.json_response({"deleted": True, "id": unlinked.value.id})


def register(router: web.UrlDispatcher) -> None:
    router.add_get("/v1/chats/{chat_id}/nodes", list_nodes)
    router.add_post("/v1/chats/{chat_id}/nodes", create_node)
    router.add_get("/v1/chats/{chat_id}/nodes/{node_id}", get_node)
    router.add_patch("/v1/chats/{chat_id}/nodes/{node_id}", patch_node)
    router.add_delete("/v1/chats/{chat_id}/nodes/{node_id}", delete_node)
    router.add_post("/v1/chats/{chat_id}/nodes/{node_id}/restore", restore_node)
    router.add_post("/v1/chats/{chat_id}/nodes/{node_id}/scope", move_scope)
    router.add_get("/v1/chats/{chat_id}/edges", list_edges)
    router.add_post("/v1/chats/{chat_id}/edges", create_edge)
    router.add_delete("/v1/chats/{chat_id}/edges/{edge_id}", delete_edge)
