"""Subscriptions: what a window, panel or view connects to things that outlive it, cut in one place.

The :class:`AppContext` (its signals, its events, its task runner), the theme manager and the
per-context :class:`GraphSource` live as long as the app; a window lives until it is closed (a
live language switch builds a new one and closes the old). Every connection from such a
long-lived sender to a widget goes through :func:`subscribe`, with the widget as its *owner*;
:func:`release` disconnects everything the owner and its descendants subscribed to and runs
their release hooks (:func:`on_release`, e.g. stopping a layout thread). ``MainWindow`` releases
itself when its close is accepted, and an owner destroyed on its own is released as it goes, so
no queued signal, task result or thread callback can reach a deleted C++ object.

Disconnecting is not enough on its own: Qt still delivers a queued call (a worker's result, a
signal emitted on another thread) that was posted *before* the disconnect, and a Python slot has
no receiver object for Qt to check. So every subscribed slot is also guarded: it runs only while
its owner is alive and its subscription has not been released.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QMetaObject, QObject, SignalInstance
from shiboken6 import getCppPointer, isValid


class _Owned:
    def __init__(self, owner: QObject) -> None:
        self.owner = weakref.ref(owner)  # the Python wrapper, to tell a reused C++ address apart
        self.connections: list[QMetaObject.Connection] = []
        self.hooks: list[Callable[[], object]] = []
        self.released = False

    def alive(self) -> bool:
        owner = self.owner()
        return not self.released and owner is not None and isValid(owner)


_OWNED: dict[int, _Owned] = {}  # by the owner's C++ address (unique while it is alive)


def _key(owner: QObject) -> int:
    return int(getCppPointer(owner)[0])


def _owned(owner: QObject) -> _Owned:
    key = _key(owner)
    owned = _OWNED.get(key)
    if owned is not None and owned.owner() is not owner:
        # A dead owner whose destroyed() never reached us left its entry at this address.
        _release_key(key)
        owned = None
    if owned is None:
        owned = _OWNED[key] = _Owned(owner)
        # The closure holds the key, not the owner, so a subscription never keeps its owner alive.
        owner.destroyed.connect(lambda *_args, key=key: _release_key(key))
    return owned


def subscribe(owner: QObject, signal: SignalInstance, slot: Callable[..., Any]) -> None:
    """Connect ``slot`` to ``signal`` until ``owner`` is released (closed) or destroyed."""
    owned = _owned(owner)
    accepts = _positional_arity(slot)

    def guarded(*args: Any) -> None:
        if owned.alive():  # a queued call posted before the owner went is dropped here
            slot(*args[:accepts])

    owned.connections.append(signal.connect(guarded))


def _positional_arity(slot: Callable[..., Any]) -> int | None:
    """How many of a signal's arguments ``slot`` takes, as Qt would pass them (None: all)."""
    try:
        parameters = inspect.signature(slot).parameters.values()
    except (TypeError, ValueError):  # a builtin or C++ slot without a readable signature
        return None
    if any(p.kind is p.VAR_POSITIONAL for p in parameters):
        return None
    return sum(1 for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def on_release(owner: QObject, hook: Callable[[], object]) -> None:
    """Run ``hook`` when ``owner`` is released or destroyed (stop a thread, close a link)."""
    _owned(owner).hooks.append(hook)


def _release_key(key: int) -> int:
    owned = _OWNED.pop(key, None)
    if owned is None:
        return 0
    owned.released = True
    for connection in owned.connections:
        QObject.disconnect(connection)  # False if the sender went first: nothing left to cut
    for hook in owned.hooks:
        hook()
    return len(owned.connections)


def release(owner: QObject) -> int:
    """Cut every subscription of ``owner`` and of its descendants; how many were cut."""
    if not isValid(owner):
        return 0
    cut = 0
    for obj in (owner, *owner.findChildren(QObject)):
        cut += _release_key(_key(obj))
    return cut


def subscriptions(owner: QObject) -> int:
    """How many subscriptions ``owner`` and its descendants hold (for tests)."""
    if not isValid(owner):
        return 0
    return sum(
        len(o.connections)
        for obj in (owner, *owner.findChildren(QObject))
        if (o := _OWNED.get(_key(obj))) is not None
    )
