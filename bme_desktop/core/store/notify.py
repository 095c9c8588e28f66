"""Telling the other instances on one PostgreSQL database what a write changed.

Each write transaction ends with ``pg_notify`` on one channel: the change records (ids of
the memories and links added, changed, removed), the syncs and the chat deletions it made,
tagged with the writing instance's id. PostgreSQL delivers them on commit only, in commit
order, to every connection that listens. Each instance listens on a connection of its own
(``ChangeListener``, a background thread) and publishes what the others wrote as the same
core events its own writes publish — ``graph.changed`` with a change record, ``chat.synced``,
``chat.deleted`` — marked ``remote``, so the recall cache, the vector index and open windows
refresh as they do for local writes. Vectors an instance stored for memories are announced too
(``vectors.saved``, the memory ids): the others load them from the ``vectors`` table instead of
embedding the same texts again. A payload is kept under PostgreSQL's 8,000-byte limit by
splitting a large change into several notifications.

What is committed while an instance's listening connection is down is not delivered to it.
So when the listener connects again it publishes ``store.resync`` (no chat): whatever was
loaded from the database may be stale, and each subscriber drops or re-reads what it holds.

SQLite has no other instances to tell: nothing here runs there.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from ..events import ChangeRecord, ChatDeleted, Event, GraphChanged, StoreResync, VectorsSaved, from_wire

log = logging.getLogger(__name__)

CHANNEL = "bme_changes"
MAX_PAYLOAD = 7000  # bytes (PostgreSQL refuses more than 8,000)
_ID_SETS = {
    "na": "nodes_added",
    "nc": "nodes_changed",
    "nr": "nodes_removed",
    "ea": "edges_added",
    "ec": "edges_changed",
    "er": "edges_removed",
}
RECONNECT_S = (0.5, 1.0, 2.0, 5.0)


def _dumps(message: object) -> str:
    return json.dumps(message, ensure_ascii=True, separators=(",", ":"))


def _split(
    head: dict[str, Any], lists: Iterable[tuple[str, Iterable[str]]], out: list[str], always: bool = False
) -> None:
    """``head`` with the id lists added, split into messages of at most ``MAX_PAYLOAD`` bytes
    (one at least when ``always``)."""
    message: dict[str, Any] = dict(head)
    size = len(_dumps(message))
    for key, items in lists:
        for item in sorted(items):
            cost = len(_dumps(item)) + 1 + (0 if key in message else len(key) + 5)
            if size + cost > MAX_PAYLOAD and len(message) > len(head):
                out.append(_dumps(message))
                message, size = dict(head), len(_dumps(head))
                cost = len(_dumps(item)) + len(key) + 6
            message.setdefault(key, []).append(item)
            size += cost
    if len(message) > len(head) or always:
        out.append(_dumps(message))


def payloads(
    instance: str,
    changes: Iterable[ChangeRecord],
    synced: Iterable[tuple[str, dict[str, Any]]] = (),
    deleted: Iterable[str] = (),
    vectors: Iterable[tuple[str, list[str]]] = (),
) -> list[str]:
    """The notifications for one transaction, each at most ``MAX_PAYLOAD`` bytes."""
    out: list[str] = []
    for change in changes:
        _split(
            {"i": instance, "k": "graph", "c": change.chat_id, "b": change.batch_id},
            [(key, getattr(change, attr)) for key, attr in _ID_SETS.items()],
            out,
            change.messages_changed,
        )
    out += [_dumps({"i": instance, "k": "synced", "c": chat_id, "d": data}) for chat_id, data in synced]
    out += [_dumps({"i": instance, "k": "deleted", "c": chat_id}) for chat_id in deleted]
    for chat_id, ids in vectors:
        _split({"i": instance, "k": "vectors", "c": chat_id}, [("n", ids)], out)
    return out


def send(conn: Connection, messages: list[str]) -> None:
    """Queue ``messages`` on the transaction of ``conn``: delivered when it commits."""
    for message in messages:
        conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": message})


def to_event(payload: str, own: str) -> Event | None:
    """The core event a notification stands for; None for this instance's own or a foreign one."""
    try:
        message = json.loads(payload)
        if not isinstance(message, dict) or message.get("i") == own:
            return None
        kind, chat_id = message["k"], str(message["c"])
        if kind == "graph":
            change = ChangeRecord(chat_id)
            for key, attr in _ID_SETS.items():
                getattr(change, attr).update(map(str, message.get(key, ())))
            batch = message.get("b")
            change.batch_id = batch if isinstance(batch, int) else None
            return GraphChanged(chat_id, change, remote=True)
        if kind == "synced":
            return from_wire("chat.synced", chat_id, dict(message.get("d") or {}), remote=True)
        if kind == "deleted":
            return ChatDeleted(chat_id, remote=True)
        if kind == "vectors":
            return VectorsSaved(chat_id, tuple(str(i) for i in message.get("n", ())), remote=True)
    except (ValueError, KeyError, TypeError):
        pass
    log.warning("ignoring a malformed change notification: %.200s", payload)
    return None


RESYNC = StoreResync(None, remote=True)


class ChangeListener:
    """Listens on ``CHANNEL`` with a connection of its own and hands what other instances
    wrote to ``publish`` (on this listener's thread). Reconnects after a lost connection and,
    once LISTEN is in force again, publishes ``store.resync``: what was committed meanwhile
    was not delivered, so whatever this instance holds from the database may be stale."""

    def __init__(self, database_url: str, instance: str, publish: Callable[[Event], None]) -> None:
        url = make_url(database_url)
        self._conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._instance = instance
        self._publish = publish
        self._stop = threading.Event()
        self.listening = threading.Event()
        self.backend_pid: int | None = None  # the listening connection's server process
        self._thread = threading.Thread(target=self._run, name="bme-pg-listen", daemon=True)

    def start(self, timeout: float = 10.0) -> ChangeListener:
        """Start listening; returns once LISTEN is in force (or ``timeout`` passed), so every
        write committed after this is seen."""
        self._thread.start()
        if not self.listening.wait(timeout):
            log.warning("not listening for other instances' changes yet (%s)", CHANNEL)
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=10)

    def _pause(self, seconds: float) -> None:
        """Wait before connecting again (returns early when stopping)."""
        self._stop.wait(seconds)

    def _run(self) -> None:
        import psycopg

        failures = 0
        listened = False  # once listening has been lost, notifications may have been missed
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.backend_pid = conn.info.backend_pid
                    if failures:
                        log.info("listening for other instances' changes again")
                    failures = 0
                    self.listening.set()
                    if listened:  # after LISTEN: a write committed from now on is also notified
                        self._publish(RESYNC)
                    listened = True
                    while not self._stop.is_set():
                        for notice in conn.notifies(timeout=0.25):
                            event = to_event(notice.payload, self._instance)
                            if event is not None:
                                self._publish(event)
            except psycopg.Error as exc:
                self.listening.clear()
                if self._stop.is_set():
                    return
                log.warning("listening for other instances' changes failed (%s); retrying", exc)
                self._pause(RECONNECT_S[min(failures, len(RECONNECT_S) - 1)])
                failures += 1
            except Exception:  # a bug here must not stop the listening
                self.listening.clear()
                log.exception("handling another instance's change failed")
                self._pause(RECONNECT_S[-1])
