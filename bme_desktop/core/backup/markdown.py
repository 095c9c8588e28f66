"""Memory as a folder of Markdown notes that Obsidian (or any Markdown editor) opens as a vault.

One folder per chat; in it one note per memory under a folder per type, with YAML front matter
(id, type, tier, review status, scope, importance, dates, source messages) and wikilinks for its
edges; an index note per type and one for the chat; the chat's injection history (the recall kept
for each user message) as one note. Deleted memories and invalidated edges are left out.
Wikilinks carry the note's path inside the vault, so notes with the same title in two chats or of
two types never link to each other by mistake.

``vault_notes`` is the pure part (relative path → text); ``write_vault`` writes them all or nothing.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..model import Edge, Message, Node, RecallRecord
from ..schema import NODE_TYPES, RELATIONS
from ..store.reader import ChatNotFound, Reader

MARKER = ".bme-vault"
MAX_NAME = 80
EXCERPT_CHARS = 240
MAX_EXCERPTS = 3
_UNSAFE = re.compile(r'[\x00-\x1f\x7f\[\]#^|\\/:*?"<>]+')
_RESERVED = {
    "con",
    "prn",
    "aux",
    "nul",
    *(f"com{i}" for i in range(1, 10)),
    *(f"lpt{i}" for i in range(1, 10)),
}


class VaultError(Exception):
    """The vault cannot be written there; the message says why (nothing was written)."""


def safe_name(text: str, fallback: str) -> str:
    """A file or folder name every platform and Obsidian accept: no path or link syntax, no
    leading dots, at most ``MAX_NAME`` characters."""
    name = " ".join(_UNSAFE.sub(" ", text).split()).strip(" .")[:MAX_NAME].rstrip(" .")
    if not name or name.lower() in _RESERVED:
        return fallback
    return name


def _iso(ts: float | None) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, tz=UTC).isoformat(timespec="seconds")


def _yaml(value: object) -> str:
    """A YAML scalar or flow sequence: JSON is a subset of YAML, and quotes every string."""
    return json.dumps(value, ensure_ascii=False)


def _type_label(type_id: str) -> str:
    return NODE_TYPES[type_id].label if type_id in NODE_TYPES else type_id


def _one_line(text: str) -> str:
    return " ".join(text.split())


class _ChatVault:
    def __init__(
        self,
        chat_id: str,
        folder: str,
        nodes: list[Node],
        edges: list[Edge],
        messages: dict[int, Message],
        records: list[RecallRecord],
    ) -> None:
        self.chat_id = chat_id
        self.folder = folder
        self.nodes = nodes
        self.edges = edges
        self.messages = messages
        self.records = records
        self.paths = self._note_paths()

    def _note_paths(self) -> dict[str, str]:
        """Each memory's note path (without ``.md``), unique inside its type folder."""
        out: dict[str, str] = {}
        taken: set[str] = set()
        for node in sorted(self.nodes, key=lambda n: (n.type, n.title.casefold(), n.created_at, n.id)):
            folder = f"{self.folder}/{safe_name(_type_label(node.type), node.type)}"
            base = f"{folder}/{safe_name(node.title, node.id)}"
            path, n = base, 2
            while path.casefold() in taken:
                path, n = f"{base} {n}", n + 1
            taken.add(path.casefold())
            out[node.id] = path
        return out

    def link(self, node: Node) -> str:
        return f"[[{self.paths[node.id]}|{safe_name(node.title, node.id)}]]"

    def note(self, node: Node, by_id: dict[str, Node]) -> str:
        node_type = NODE_TYPES.get(node.type)
        front = {
            "id": node.id,
            "chat": self.chat_id,
            "type": node.type,
            "tier": node.tier,
            "review_status": node.review_status,
            "importance": round(node.importance, 2),
            "pinned": node.pinned,
            "scope": node.scope.layer,
            "owner": node.scope.owner,
            "region": node.scope.region,
            "created": _iso(node.created_at),
            "updated": _iso(node.updated_at),
            "sources": sorted(node.source_indices),
            "recall_count": node.recall_count,
            "manually_edited": node.manually_edited,
            "tags": [f"bme/{node.type}"],
        }
        lines = [
            "---",
            *(f"{k}: {_yaml(v)}" for k, v in front.items() if v is not None),
            "---",
            "",
            f"# {_one_line(node.title)}",
            "",
        ]
        order = node_type.field_names if node_type else tuple(sorted(node.fields))
        for name in [*order, *sorted(set(node.fields) - set(order))]:
            value = node.fields.get(name, "").strip()
            if value and value != node.title.strip():  # the title is the note's heading
                lines.append(f"**{name.replace('_', ' ').capitalize()}**: {_one_line(value)}")
        links = []
        for edge in self.edges:
            if edge.from_id == node.id and edge.to_id in by_id:
                other, arrow = by_id[edge.to_id], "→"
            elif edge.to_id == node.id and edge.from_id in by_id:
                other, arrow = by_id[edge.from_id], "←"
            else:
                continue
            label = RELATIONS[edge.relation].label if edge.relation in RELATIONS else edge.relation
            links.append(f"- {label} {arrow} {self.link(other)}")
        if links:
            lines += ["", "## Links", "", *sorted(set(links))]
        excerpts = [self.messages[i] for i in sorted(node.source_indices) if i in self.messages][
            :MAX_EXCERPTS
        ]
        if excerpts:
            lines += ["", "## Sources", ""]
            for m in excerpts:
                who = m.name or m.role
                text = _one_line(m.text)
                text = text if len(text) <= EXCERPT_CHARS else text[: EXCERPT_CHARS - 1] + "…"
                lines.append(f"> **#{m.index} {who}**: {text}")
                lines.append(">")
            lines.pop()
        return "\n".join(lines) + "\n"

    def notes(self) -> dict[str, str]:
        by_id = {n.id: n for n in self.nodes}
        out = {f"{self.paths[n.id]}.md": self.note(n, by_id) for n in self.nodes}
        by_type: dict[str, list[Node]] = {}
        for n in self.nodes:
            by_type.setdefault(n.type, []).append(n)
        index = [
            f"# {_one_line(self.chat_id)}",
            "",
            f"{len(self.nodes)} memories, {len(self.edges)} links.",
            "",
        ]
        for type_id in sorted(by_type, key=lambda t: _type_label(t).casefold()):
            label = safe_name(_type_label(type_id), type_id)
            members = sorted(by_type[type_id], key=lambda n: (-n.importance, n.title.casefold(), n.id))
            out[f"{self.folder}/{label}.md"] = (
                "\n".join(
                    [f"# {label}", "", *(f"- {self.link(n)} — {n.tier}, {n.review_status}" for n in members)]
                )
                + "\n"
            )
            index.append(f"- [[{self.folder}/{label}|{label}]] ({len(members)})")
        if self.records:
            index.append(f"- [[{self.folder}/Injection history|Injection history]] ({len(self.records)})")
            out[f"{self.folder}/Injection history.md"] = self.injections()
        out[f"{self.folder}/{self.folder}.md"] = "\n".join(index) + "\n"
        return out

    def injections(self) -> str:
        lines = [
            f"# Injection history — {_one_line(self.chat_id)}",
            "",
            "What BME Desktop put in the prompt before each user message.",
            "",
        ]
        for r in sorted(self.records, key=lambda r: r.index):
            edited = " (edited by hand)" if r.manually_edited else ""
            lines += [
                f"## Message {r.index}{edited}",
                "",
                f"> {_one_line(r.user_input)}",
                "",
                "````text",
                r.injection.replace("````", "‵‵‵‵"),
                "````",
                "",
            ]
        return "\n".join(lines)


def vault_notes(reader: Reader, chat_ids: Sequence[str] | None = None) -> dict[str, str]:
    """Every note of the vault for these chats (all when None): relative path → Markdown."""
    ids = sorted(reader.chat_ids() if chat_ids is None else chat_ids)
    out: dict[str, str] = {}
    folders: set[str] = set()
    for chat_id in ids:
        if reader.chat_pk(chat_id) is None:
            raise ChatNotFound(chat_id)
        folder, n = safe_name(chat_id, "chat"), 2
        base = folder
        while folder.casefold() in folders:
            folder, n = f"{base} {n}", n + 1
        folders.add(folder.casefold())
        nodes = reader.all_nodes(chat_id)
        live = {n.id for n in nodes}
        edges = [
            e
            for e in reader.edges(chat_id, include_invalid=False)
            if e.deleted_at is None and e.from_id in live and e.to_id in live
        ]
        wanted = {i for n in nodes for i in n.source_indices}
        messages = {m.index: m for m in reader.messages(chat_id) if m.index in wanted}
        out.update(
            _ChatVault(chat_id, folder, nodes, edges, messages, reader.recall_records(chat_id)).notes()
        )
    return out


def write_vault(notes: dict[str, str], out_dir: Path) -> Path:
    """Write ``notes`` under ``out_dir`` whole or not at all. ``out_dir`` must not exist, be empty,
    or be a vault this function wrote before (then it is replaced)."""
    out_dir = out_dir.resolve()
    if out_dir.exists():
        if not out_dir.is_dir():
            raise VaultError(f"{out_dir} is a file, not a folder")
        if any(out_dir.iterdir()) and not (out_dir / MARKER).is_file():
            raise VaultError(f"{out_dir} is not empty and is not a BME Desktop vault: choose a new folder")
    staging = out_dir.with_name(f".{out_dir.name}.writing-{os.getpid()}")
    old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
    try:
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        (staging / MARKER).write_text(
            "Written by bme-desktop export --format markdown; rewritten whole by it.\n", encoding="utf-8"
        )
        for rel, text in notes.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        if out_dir.exists():
            out_dir.rename(old)
        staging.rename(out_dir)
        shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if old.exists() and not out_dir.exists():
            old.rename(out_dir)
        raise VaultError(f"cannot write the vault in {out_dir}: {exc.strerror or exc}") from exc
    return out_dir
