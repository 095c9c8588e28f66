"""A window closed for good (the end of a screenshot, quitting) is cut from the data:
nothing it or its panels and views subscribed to on the context still reaches it, so the next
graph change, task result or rebuild raises no ``Signal source has been deleted``."""

from __future__ import annotations

import sys
import threading
import weakref
from types import TracebackType

import pytest
from PySide6.QtCore import SIGNAL, QEvent, QObject, Signal
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

from bme_desktop.core.editing import NodeDraft
from bme_desktop.core.model import MessageIn
from bme_desktop.ui.app import DesktopApp
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.lifetime import release, subscribe, subscriptions
from bme_desktop.ui.wait_idle import settle

CHAT = "chat-1"


def receivers(context: AppContext) -> dict[str, int]:
    """How many connections each long-lived signal has (the context's, its events', runner's, themes')."""
    senders: list[tuple[QObject, str]] = [
        (context, "sigChatChanged(QString)"),
        (context, "sigNodeSelected(QString)"),
        (context, "sigStatus(QString)"),
        (context, "sigError(QString)"),
        (context.events, "sigEvent(PyObject)"),
        (context.events, "sigGraphChanged(PyObject)"),
        (context.events, "sigChatsChanged(QString)"),
        (context.runner, "sigBusyChanged(bool)"),
        (context.runner, "sigError(PyObject)"),
        (context.themes, "sigThemeChanged(PyObject)"),
    ]
    return {f"{type(obj).__name__}.{sig}": obj.receivers(SIGNAL(sig)) for obj, sig in senders}


class Errors:
    """Every exception that reaches ``sys.excepthook`` (Qt slots report theirs there)."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        self.seen.append(f"{kind.__name__}: {value}")


def delete_later_now() -> None:
    """Run the pending ``deleteLater`` deletions now, not whenever the loop gets to them."""
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_a_language_switch_keeps_the_window_and_its_wiring(
    desktop: DesktopApp, qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    context = desktop.context
    service = context.service
    service.sync(
        CHAT,
        [MessageIn(index=0, role="user", text="hello"), MessageIn(index=1, role="assistant", text="hi")],
        complete=True,
        character="Lyra",
    )
    for name in ("Lyra", "Kael", "Wren"):
        service.create_node(CHAT, NodeDraft(type="character", fields={"name": name}))
    window = desktop.window
    window.resize(1200, 800)
    window.show()
    context.set_chat(CHAT)
    assert window.show_panel("graph2d")
    assert settle(context.runner)
    before, wired = receivers(context), subscriptions(window)
    assert wired > 20  # every panel and view subscribed through lifetime.subscribe

    desktop.set_language("zh")  # translated in place: no second window, no second set of views
    assert desktop.window is window
    assert subscriptions(window) == wired
    assert receivers(context) == before
    assert settle(context.runner)

    errors = Errors()
    monkeypatch.setattr(sys, "excepthook", errors)
    assert desktop.window.show_panel("graph2d")
    nodes = [
        service.create_node(CHAT, NodeDraft(type="event", fields={"summary": f"event {i}"})).value
        for i in range(6)
    ]
    service.link(CHAT, nodes[0].id, nodes[1].id, "advances")
    service.delete_node(CHAT, nodes[2].id)
    context.set_chat("")
    context.set_chat(CHAT)
    assert settle(context.runner)
    assert errors.seen == []


def test_a_closed_window_is_cut_from_the_data(desktop: DesktopApp, qapp: QApplication) -> None:
    window = desktop.window
    window.show()
    assert settle(desktop.context.runner)
    before = receivers(desktop.context)
    assert subscriptions(window) > 20
    old = weakref.ref(window)
    del window
    desktop.window.close()
    closed = old()
    assert closed is not None and subscriptions(closed) == 0
    after = receivers(desktop.context)
    assert all(after[key] <= count for key, count in before.items())
    assert sum(before.values()) - sum(after.values()) > 10, "the closed window's panels are still connected"


def test_a_released_owner_gets_no_signal_and_no_task_result(qtbot, context: AppContext) -> None:
    owner = QWidget()
    seen: list[object] = []
    subscribe(owner, context.sigStatus, seen.append)
    context.sigStatus.emit("before")
    task = context.call(lambda _s: "result", seen.append, owner=owner)
    assert release(owner) == 2
    context.sigStatus.emit("after")
    qtbot.waitUntil(lambda: not context.runner.busy)
    assert task.control is not None and seen == ["before"]


def test_a_destroyed_owner_is_cut_on_its_way_out(qapp: QApplication, context: AppContext) -> None:
    parent = QWidget()
    child = QObject(parent)
    seen: list[str] = []
    subscribe(child, context.sigStatus, seen.append)
    before = context.receivers(SIGNAL("sigStatus(QString)"))
    parent.deleteLater()
    delete_later_now()
    assert not isValid(child)
    assert context.receivers(SIGNAL("sigStatus(QString)")) == before - 1
    context.sigStatus.emit("after")
    assert seen == []


class Sender(QObject):
    sigValue = Signal(object)


def emit_from_another_thread(sender: Sender, value: object) -> None:
    """Emit as a worker does: Qt queues the call for the GUI thread instead of running it now."""
    thread = threading.Thread(target=sender.sigValue.emit, args=(value,))
    thread.start()
    thread.join()


def test_a_call_queued_before_the_owner_was_destroyed_never_reaches_it(qapp: QApplication) -> None:
    sender, parent = Sender(), QWidget()
    owner = QWidget(parent)
    seen: list[object] = []
    subscribe(owner, sender.sigValue, seen.append)
    emit_from_another_thread(sender, "queued while alive")
    parent.deleteLater()
    delete_later_now()  # the owner goes before the event loop delivers the queued call
    assert not isValid(owner)
    QApplication.sendPostedEvents()
    assert seen == []


def test_a_slot_that_takes_fewer_arguments_than_the_signal_still_runs(qapp: QApplication) -> None:
    sender, owner = Sender(), QWidget()
    seen: list[str] = []
    subscribe(owner, sender.sigValue, lambda: seen.append("called"))
    sender.sigValue.emit("ignored")
    assert seen == ["called"]
