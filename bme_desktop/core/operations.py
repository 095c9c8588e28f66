"""Operations: what a mutating call changed and who started it.

Every write publishes one :class:`~.events.GraphChanged` per chat it changed, tagged with the
:class:`~.events.Initiator` of the operation it belongs to: each mutating service method
names its initiator (:func:`operation`), a pipeline its own with :func:`acting`; the outermost
one wins (a review decision is a review even though it writes as a manual edit).

The mutating service methods are operations themselves (:func:`operation`): each returns an
:class:`OpResult` — its value, the change records its writes made, its initiator and origin —
and takes ``origin=…``, who asked (a panel): the ``GraphChanged`` events of the operation carry
it, so a listener tells its own edits from the others' and from background work.
``MemoryService.operate(call, origin=…)`` runs several calls as one operation (a composite
edit): the calls inside it are part of it (their changes, the outer origin). Only the writes
made on the calling thread count: work the call hands to another thread (the extraction a
sync queues) is an operation of its own there.

The scope lives in a context variable of the calling thread (writes run on the writer thread
but publish on the caller's); subscribers are called outside it (:func:`outside`) and only
queue work on their own workers, so what that work writes (the life cycle's intake) is
neither tagged with nor collected into the operation that published.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Generic, ParamSpec, TypeVar

from .events import ChangeRecord, Initiator

T = TypeVar("T")
P = ParamSpec("P")


@dataclass
class _Scope:
    initiator: Initiator | None = None
    origin: object | None = None
    first: Initiator | None = None  # the first initiator named in it: the operation's
    changes: list[ChangeRecord] = field(default_factory=list)


_scope: ContextVar[_Scope | None] = ContextVar("bme_operation", default=None)


@dataclass(frozen=True)
class OpResult(Generic[T]):
    """A mutating call's value, what its writes changed (one record per chat and write, in
    order) and who started it."""

    value: T
    changes: Sequence[ChangeRecord]
    initiator: Initiator
    origin: object | None = None

    def change(self, chat_id: str) -> ChangeRecord:
        """Everything the operation changed in ``chat_id``, as one record (empty when nothing)."""
        merged = ChangeRecord(chat_id)
        for change in self.changes:
            if change.chat_id == chat_id:
                merged.merge(change)
                merged.batch_id = change.batch_id if change.batch_id is not None else merged.batch_id
        return merged

    @property
    def chat_ids(self) -> list[str]:
        return list(dict.fromkeys(c.chat_id for c in self.changes))

    @property
    def empty(self) -> bool:
        return all(c.empty for c in self.changes)


@contextlib.contextmanager
def acting(initiator: Initiator) -> Iterator[None]:
    """Name the initiator of the writes made in this block on this thread (unless an outer
    block named one already)."""
    scope = _scope.get()
    if scope is None:
        token = _scope.set(_Scope(initiator, first=initiator))
        try:
            yield
        finally:
            _scope.reset(token)
        return
    if scope.initiator is not None:
        yield
        return
    scope.initiator = initiator
    scope.first = scope.first or initiator
    try:
        yield
    finally:
        scope.initiator = None


@contextlib.contextmanager
def outside() -> Iterator[None]:
    """Run the block outside any operation (event subscribers on the publishing thread)."""
    token = _scope.set(None)
    try:
        yield
    finally:
        _scope.reset(token)


def current() -> tuple[Initiator, object | None]:
    """The initiator and origin that writes made now on this thread carry."""
    scope = _scope.get()
    if scope is None:
        return Initiator.OTHER, None
    return scope.initiator or Initiator.OTHER, scope.origin


def collect(changes: Sequence[ChangeRecord]) -> None:
    """Add what a write changed to the operation running on this thread, if any."""
    scope = _scope.get()
    if scope is not None:
        scope.changes.extend(changes)


def operate(call: Callable[[], T], origin: object | None = None) -> OpResult[T]:
    """Run ``call`` as one operation: its value, the change records of its writes, its initiator.

    Inside another operation (a composite call, a pipeline's step) it is part of that one: it
    keeps the outer initiator and origin unless it names its own origin, and what it changed
    and who started it count for the outer operation too."""
    outer = _scope.get()
    scope = _Scope(
        initiator=outer.initiator if outer is not None else None,
        origin=origin if origin is not None or outer is None else outer.origin,
    )
    scope.first = scope.initiator
    token = _scope.set(scope)
    try:
        value = call()
    finally:
        _scope.reset(token)
        if outer is not None:
            outer.changes.extend(scope.changes)
            outer.first = outer.first or scope.first
    return OpResult(value, tuple(scope.changes), scope.first or Initiator.OTHER, scope.origin)


def operation(initiator: Initiator) -> Callable[[Callable[P, T]], Callable[P, OpResult[T]]]:
    """Make a mutating service method an operation: it runs as one (:func:`operate`), its writes
    name ``initiator`` (unless an outer operation named one: the outermost wins) and it returns
    its :class:`OpResult`. The method declares ``origin: object | None = None`` (keyword only,
    who asked); the decorator takes it for the operation, the body never sees it."""

    def decorate(method: Callable[P, T]) -> Callable[P, OpResult[T]]:
        @functools.wraps(method)
        def run(*args: P.args, **kwargs: P.kwargs) -> OpResult[T]:
            origin = kwargs.pop("origin", None)

            def body() -> T:
                with acting(initiator):
                    return method(*args, **kwargs)

            return operate(body, origin)

        return run

    return decorate
