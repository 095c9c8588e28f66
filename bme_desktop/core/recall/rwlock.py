"""A readers–writer lock: many recalls read a chat's state at once; a refresh that applies
changes to it waits for them and has it alone. Writers go first once they wait, so a steady
stream of recalls cannot keep a refresh out."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator


class ReadWriteLock:
    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writer: int | None = None  # thread ident of the writer holding it
        self._writers_waiting = 0

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        me = threading.get_ident()
        with self._cond:
            if self._writer == me:  # the writer may read what it holds
                nested = True
            else:
                nested = False
                while self._writer is not None or self._writers_waiting:
                    self._cond.wait()
                self._readers += 1
        try:
            yield
        finally:
            if not nested:
                with self._cond:
                    self._readers -= 1
                    if not self._readers:
                        self._cond.notify_all()

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        me = threading.get_ident()
        with self._cond:
            if self._writer == me:
                raise RuntimeError("ReadWriteLock.writing() is not re-entrant")
            self._writers_waiting += 1
            try:
                while self._writer is not None or self._readers:
                    self._cond.wait()
            finally:
                self._writers_waiting -= 1
            self._writer = me
        try:
            yield
        finally:
            with self._cond:
                self._writer = None
                self._cond.notify_all()
