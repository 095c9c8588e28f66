"""Actions panel: run extraction and the maintenance tasks on the current chat, one row each.

Every task runs on a worker (``context.call``) with a progress bar: the tasks that count their
work (extraction and Rebuild graph in messages, Rebuild vectors in memories) publish
``MaintenanceProgressed`` after each batch, and the row shows "312 of 2,000 messages read" with
a determinate bar (the others stay indeterminate); then it shows
what changed ("12 memories changed in 0.4 s") or the error. A task this version has not
registered in ``service.maintenance_tasks`` is shown disabled, with the reason as tooltip.
Cancel hands the running task's ``CancelToken`` the stop: a one-write task stops at its next
checkpoint with its write rolled back; extraction and rebuild stop before their next batch.
The row then says "Cancelled" and the progress bar resets.

Tasks that delete or rewrite memories (``core.rewrites.DESTRUCTIVE_TASKS``: Rebuild graph,
Consolidate, Compress, Fold summaries) first ask, saying what they will do with this chat's
numbers ("286 memories: 41 written or edited by hand are kept …") and whether one Ctrl+Z
undoes them. Every memory task runs through ``MemoryService.run_recorded``: one undo step each.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, QTimer
from PySide6.QtWidgets import (
    QGridLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core.cancel import CancellableTask, Cancelled, CancelToken
from ...core.events import ChangeRecord, Event, MaintenanceProgressed
from ...core.operations import OpResult
from ...core.rewrites import DESTRUCTIVE_TASKS, RewritePlan, plan_rewrite
from ...core.service import MemoryService
from ..context import AppContext
from ..format import format_count
from ..i18n import Retranslated
from ..labels import node_type_label
from ..lifetime import subscribe


@dataclass(frozen=True)
class ActionSpec:
    key: str  # "extract" or a maintenance task name
    title: Callable[[], str]
    hint: Callable[[], str]


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "extract",
        lambda: QCoreApplication.translate("Actions", "Extract now"),
        lambda: QCoreApplication.translate("Actions", "Extract memories from messages not read yet."),
    ),
    ActionSpec(
        "rebuild",
        lambda: QCoreApplication.translate("Actions", "Rebuild graph"),
        lambda: QCoreApplication.translate(
            "Actions", "Undo every extraction and extract the whole chat again."
        ),
    ),
    ActionSpec(
        "rebuild_vectors",
        lambda: QCoreApplication.translate("Actions", "Rebuild vectors"),
        lambda: QCoreApplication.translate("Actions", "Embed every memory again for recall."),
    ),
    ActionSpec(
        "compress",
        lambda: QCoreApplication.translate("Actions", "Compress"),
        lambda: QCoreApplication.translate("Actions", "Merge long runs of small events."),
    ),
    ActionSpec(
        "summarize",
        lambda: QCoreApplication.translate("Actions", "Summarize"),
        lambda: QCoreApplication.translate("Actions", "Write summaries of recent events."),
    ),
    ActionSpec(
        "fold",
        lambda: QCoreApplication.translate("Actions", "Fold summaries"),
        lambda: QCoreApplication.translate("Actions", "Fold old summaries into a higher-level one."),
    ),
    ActionSpec(
        "reflect",
        lambda: QCoreApplication.translate("Actions", "Reflect"),
        lambda: QCoreApplication.translate("Actions", "Draw insights from what happened."),
    ),
    ActionSpec(
        "persona",
        lambda: QCoreApplication.translate("Actions", "Update persona"),
        lambda: QCoreApplication.translate(
            "Actions", "Update the user's profile from what the story says about them."
        ),
    ),
    ActionSpec(
        "upkeep",
        lambda: QCoreApplication.translate("Actions", "Upkeep"),
        lambda: QCoreApplication.translate("Actions", "Promote, decay and wake memories as of now."),
    ),
    ActionSpec(
        "consolidate",
        lambda: QCoreApplication.translate("Actions", "Consolidate"),
        lambda: QCoreApplication.translate("Actions", "Merge memories that say the same thing."),
    ),
)


@dataclass
class ActionResult:
    change: ChangeRecord | None  # None for extraction
    batches: int
    seconds: float


def result_text(result: ActionResult) -> str:
    seconds = f"{result.seconds:.1f}"
    change = result.change
    if change is None:
        return QCoreApplication.translate("Actions", "{0} batches extracted in {1} s").format(
            format_count(result.batches), seconds
        )
    nodes = len(change.nodes_added | change.nodes_changed | change.nodes_removed)
    edges = len(change.edges_added | change.edges_changed | change.edges_removed)
    if edges:
        text = QCoreApplication.translate("Actions", "{0} memories and {1} links changed in {2} s").format(
            format_count(nodes), format_count(edges), seconds
        )
    else:
        text = QCoreApplication.translate("Actions", "{0} memories changed in {1} s").format(
            format_count(nodes), seconds
        )
    if change.batch_id is not None and (nodes or edges):
        text += QCoreApplication.translate("Actions", " · Ctrl+Z undoes it")
    return text


class _Counts(QObject):
    """The translation context of the counts: lupdate marks a message as having plural forms
    only in ``self.tr(text, "", n)``."""

    def text(self, key: str, done: int, total: int) -> str:
        d, t = format_count(done), format_count(total)
        if key in ("extract", "rebuild", "extract_pending", "reextract"):
            return self.tr("{0} of {1} message(s) read", "", total).format(d, t)
        if key == "rebuild_vectors":
            return self.tr("{0} of {1} memory(s) embedded", "", total).format(d, t)
        if key == "evolve":
            return self.tr("{0} of {1} linked pair(s) revised", "", total).format(d, t)
        if key == "rebuild_summaries":
            return self.tr("Step {0} of {1}").format(d, t)
        return self.tr("{0} of {1}").format(d, t)


def progress_text(key: str, done: int, total: int) -> str:
    """A running task's counts, in what the task counts: "312 of 2,000 messages read"."""
    return _Counts().text(key, done, total)


def plan_text(plan: RewritePlan) -> tuple[str, str]:
    """The confirmation's question and what the task will do, with this chat's numbers."""
    memories = format_count(plan.memories)
    if plan.task == "rebuild":
        question = QCoreApplication.translate(
            "Actions", "Rebuild the memories of this chat from its {0} messages?"
        ).format(format_count(plan.messages))
        kinds = ", ".join(
            f"{format_count(n)} {node_type_label(k)}"
            for k, n in sorted(plan.dropped_by_type.items(), key=lambda kv: -kv[1])
        )
        detail = QCoreApplication.translate(
            "Actions",
            "{0} memories: {1} written or edited by hand are kept; the other {2} ({3}) are removed and "
            "the chat is extracted again. What extraction does not write (summaries, reflections, and "
            "anything the demo or an older version made) does not come back until its own task "
            "runs.",
        ).format(memories, format_count(plan.by_hand), format_count(plan.dropped), kinds or "—")
    elif plan.task == "consolidate":
        question = QCoreApplication.translate("Actions", "Merge memories that say the same thing?")
        detail = QCoreApplication.translate(
            "Actions",
            "Among the {0} memories of this chat, each pair that says the same thing becomes one; the "
            "other goes to the recycle bin.",
        ).format(memories)
    elif plan.task == "compress":
        question = QCoreApplication.translate("Actions", "Compress long runs of small events?")
        detail = QCoreApplication.translate(
            "Actions",
            "Runs of small events among the {0} memories of this chat are folded into one memory "
            "each; the events are archived, not deleted.",
        ).format(memories)
    else:
        question = QCoreApplication.translate("Actions", "Fold old summaries?")
        detail = QCoreApplication.translate(
            "Actions", "Old summaries of this chat are folded into a higher-level one."
        )
    if plan.undoable:
        detail += "\n\n" + QCoreApplication.translate("Actions", "One Ctrl+Z undoes the whole run.")
    else:
        detail += "\n\n" + QCoreApplication.translate(
            "Actions",
            "This cannot be undone: the chat is too large ({0} rows) to keep an undo copy. Export a "
            "backup first if you may want it back.",
        ).format(format_count(plan.rows))
    return question, detail


def run_action(
    service: MemoryService,
    chat_id: str,
    key: str,
    cancel: CancelToken | None = None,
    plan: RewritePlan | None = None,
) -> ActionResult:
    """Blocking: run one action (on a worker thread); raises ``Cancelled`` when ``cancel`` stops it.
    A memory task is recorded as one undo step (``MemoryService.run_recorded``)."""
    start = time.monotonic()
    if key == "extract":
        batches = service.extract_now(chat_id, cancel).value
        return ActionResult(None, batches, time.monotonic() - start)
    change = service.run_recorded(chat_id, key, cancel, plan=plan).value
    return ActionResult(change, 0, time.monotonic() - start)


def cancel_hint(service: MemoryService, key: str) -> str:
    """What Cancel does for ``key``, or "" when the task cannot be stopped once started."""
    if key == "extract":
        cancellable = service.can_extract_now()
    else:
        cancellable = isinstance(service.maintenance_tasks.get(key), CancellableTask)
    if not cancellable:
        return ""
    if key in ("extract", "rebuild"):
        return QCoreApplication.translate(
            "Actions", "Stop before the next batch; the batches extracted so far are kept."
        )
    return QCoreApplication.translate("Actions", "Stop this task; nothing it changed is kept.")


class ActionRow:
    """One task: its button, a progress bar, a Cancel button and the result line."""

    def __init__(self, spec: ActionSpec, grid: QGridLayout, row: int, run: Callable[[str], None]) -> None:
        self.spec = spec
        self.button = QPushButton(spec.title())
        self.button.setToolTip(spec.hint())
        self.button.clicked.connect(lambda: run(spec.key))
        self._state = "idle"  # idle (the hint shows), running, cancelling or done (a result shows)
        self._counts: tuple[int, int] | None = None  # the running task's last (done, total)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # no task reports progress: indeterminate
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(8)
        self.progress.hide()
        self.result = QLabel(spec.hint())
        self.result.setProperty("role", "muted")
        self.result.setWordWrap(True)
        self.cancel = QToolButton()
        self.cancel.setEnabled(False)
        self.cancel_hint = ""
        self.set_cancel_hint("")
        cell = QVBoxLayout()
        cell.setSpacing(2)
        cell.addWidget(self.result)
        cell.addWidget(self.progress)
        grid.addWidget(self.button, row, 0)
        grid.addLayout(cell, row, 1)
        grid.addWidget(self.cancel, row, 2)
        self.retranslate()

    def retranslate(self) -> None:
        """The row's words in the current language (its owner sets availability and Cancel's hint
        again); a result already shown stays as it was said."""
        self.button.setText(self.spec.title())
        self.cancel.setText(QCoreApplication.translate("Actions", "Cancel"))
        if self._state == "idle":
            self.result.setText(self.spec.hint())
        elif self._state == "running":
            self.result.setText(self._running_text())
        elif self._state == "cancelling":
            self.result.setText(QCoreApplication.translate("Actions", "Cancelling…"))

    def set_available(self, available: bool, reason: str) -> None:
        self.button.setEnabled(available)
        self.button.setToolTip(self.spec.hint() if available else reason)

    def set_cancel_hint(self, hint: str) -> None:
        """``hint`` says what Cancel does; "" means this task cannot be stopped once started."""
        self.cancel_hint = hint
        self.cancel.setToolTip(
            hint or QCoreApplication.translate("Actions", "This task cannot be stopped once started.")
        )

    def _running_text(self) -> str:
        if self._counts is None:
            return QCoreApplication.translate("Actions", "Running…")
        return progress_text(self.spec.key, *self._counts)

    def show_progress(self, done: int, total: int) -> None:
        """The running task's counts: a determinate bar and "312 of 2,000 messages read"."""
        if total <= 0:
            return
        done = max(0, min(done, total))
        self._counts = (done, total)
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        if self._state == "running":
            self.result.setText(self._running_text())

    def set_running(self, running: bool) -> None:
        self.progress.setVisible(running)
        self._counts = None
        if not running:
            self.progress.reset()
            self.progress.setRange(0, 0)  # indeterminate again until a task reports counts
        self.button.setEnabled(not running)
        self.cancel.setEnabled(running and bool(self.cancel_hint))
        if running:
            self._state = "running"
            self._show(QCoreApplication.translate("Actions", "Running…"), "muted")

    def set_cancelling(self) -> None:
        self.cancel.setEnabled(False)
        self._state = "cancelling"
        self._show(QCoreApplication.translate("Actions", "Cancelling…"), "muted")

    def _show(self, text: str, role: str) -> None:
        self.result.setText(text)
        self.result.setProperty("role", role)
        self.result.style().unpolish(self.result)
        self.result.style().polish(self.result)

    def show_result(self, text: str, ok: bool) -> None:
        self._state = "done"
        self._show(text, "muted" if ok else "warning")


class RowRunner:
    """What a set of action rows shares (the panel's maintenance rows, the story operations):
    cancelling the running one, and showing how it ended."""

    _context: AppContext
    _running: dict[str, CancelToken]
    rows: dict[str, ActionRow]

    def available(self, key: str) -> tuple[bool, str]:
        raise NotImplementedError

    def cancel(self, key: str) -> None:
        """Ask the running ``key`` to stop at its next checkpoint (the worker reports back)."""
        token = self._running.get(key)
        if token is not None and not token.cancelled:
            token.cancel()
            self.rows[key].set_cancelling()

    def _on_event(self, event: Event) -> None:
        """A running task's counts (``MaintenanceProgressed``, queued to the GUI thread)."""
        if not isinstance(event, MaintenanceProgressed) or event.chat_id != self._context.chat_id:
            return
        row = self.rows.get(event.task)
        if row is not None and event.task in self._running:
            row.show_progress(event.done, event.total)

    def _finish(self, key: str, text: str, ok: bool) -> None:
        self._running.pop(key, None)
        row = self.rows[key]
        row.set_running(False)
        row.show_result(text, ok)
        row.set_available(*self.available(key))
        self._context.sigStatus.emit(f"{row.spec.title()}: {text}")


class ActionsPanel(RowRunner, Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._running: dict[str, CancelToken] = {}
        self.confirm_box: QMessageBox | None = None  # the open "are you sure?" of a destructive task
        self.heading = heading = QLabel()
        heading.setProperty("role", "heading")
        self.chat_label = QLabel()
        self.chat_label.setProperty("role", "muted")
        body = QWidget()
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.setVerticalSpacing(10)
        self.rows = {spec.key: ActionRow(spec, grid, i, self.run) for i, spec in enumerate(ACTIONS)}
        for key, row in self.rows.items():
            row.cancel.clicked.connect(lambda _checked=False, key=key: self.cancel(key))
        from .actions_files import FileActions  # it builds on ActionRow above
        from .actions_ops import StoryOperations

        self.operations = StoryOperations(context)  # ST-BME's operations, with a message range
        self.operations_heading = operations_heading = QLabel()
        operations_heading.setProperty("role", "heading")
        self.files = FileActions(context)
        self.files_heading = files_heading = QLabel()
        files_heading.setProperty("role", "heading")
        column = QVBoxLayout(body)
        column.addLayout(grid)
        column.addSpacing(12)
        column.addWidget(operations_heading)
        column.addWidget(self.operations)
        column.addSpacing(12)
        column.addWidget(files_heading)
        column.addWidget(self.files)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.addWidget(heading)
        layout.addWidget(self.chat_label)
        layout.addWidget(scroll, 1)
        subscribe(self, context.sigChatChanged, lambda _c: self.update_availability())
        subscribe(self, context.events.sigEvent, self._on_event)
        self.retranslate()
        self._align_buttons()

    def retranslate(self) -> None:
        self.heading.setText(self.tr("Maintenance"))
        self.operations_heading.setText(self.tr("Story operations"))
        self.files_heading.setText(self.tr("Export and backup"))
        for row in self.rows.values():
            row.retranslate()
        self.update_availability()
        QTimer.singleShot(0, self, self._align_buttons)  # once the sections below have their new words too

    def _align_buttons(self) -> None:
        buttons = [
            row.button
            for row in (*self.rows.values(), *self.operations.rows.values(), *self.files.rows.values())
        ]
        for button in buttons:
            button.setMinimumWidth(0)
        width = max(b.sizeHint().width() for b in buttons)
        for button in buttons:  # one column of buttons across both sections
            button.setMinimumWidth(width)

    def available(self, key: str) -> tuple[bool, str]:
        """Whether ``key`` can run now, and why not."""
        service = self._context.service
        if not self._context.chat_id:
            return False, self.tr("Open a chat first.")
        if key == "extract":
            if not service.can_extract():
                return False, self.tr("No extractor is attached to this data folder.")
            return True, ""
        if key not in service.maintenance_tasks:
            return False, self.tr("This version of BME Desktop cannot run this task yet.")
        return True, ""

    def update_availability(self) -> None:
        chat_id = self._context.chat_id
        self.chat_label.setText(
            self.tr("Runs on the chat that is open.") if chat_id else self.tr("No chat open")
        )
        self.chat_label.setToolTip(chat_id)
        for key, row in self.rows.items():
            if key not in self._running:
                row.set_available(*self.available(key))
                row.set_cancel_hint(cancel_hint(self._context.service, key))

    def run(self, key: str) -> None:
        """Run ``key``; one that deletes or rewrites memories asks first (``confirm_box``)."""
        ok, _reason = self.available(key)
        if not ok or key in self._running:
            return
        if key not in DESTRUCTIVE_TASKS:
            self._start(key, None)
            return
        chat_id = self._context.chat_id
        self.rows[key].button.setEnabled(False)
        self._context.call(
            lambda s: plan_rewrite(s, chat_id, key),
            lambda plan: self._confirm(chat_id, plan),
            on_error=lambda exc: self._finish(key, self.tr("Failed: {0}").format(exc), False),
            owner=self,
        )

    def _confirm(self, chat_id: str, plan: RewritePlan) -> None:
        row = self.rows[plan.task]
        row.set_available(*self.available(plan.task))
        if chat_id != self._context.chat_id:
            return
        question, detail = plan_text(plan)
        box = QMessageBox(
            QMessageBox.Icon.Warning if not plan.undoable else QMessageBox.Icon.Question,
            row.spec.title(),
            question,
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setInformativeText(detail)
        go = box.addButton(row.spec.title(), QMessageBox.ButtonRole.DestructiveRole)
        stop = box.addButton(
            QCoreApplication.translate("Actions", "Cancel"), QMessageBox.ButtonRole.RejectRole
        )
        box.setDefaultButton(stop)  # Enter does not destroy anything
        box.setEscapeButton(stop)
        box.finished.connect(lambda _r: self._start(plan.task, plan) if box.clickedButton() is go else None)
        self.confirm_box = box
        box.open()

    def _start(self, key: str, plan: RewritePlan | None) -> None:
        ok, _reason = self.available(key)
        if not ok or key in self._running:
            return
        chat_id, row = self._context.chat_id, self.rows[key]
        token = self._running[key] = CancelToken()
        row.set_cancel_hint(cancel_hint(self._context.service, key))
        row.set_running(True)

        def done(result: OpResult[ActionResult]) -> None:
            self._finish(key, result_text(result.value), True)

        def failed(exc: Exception) -> None:
            if isinstance(exc, Cancelled):
                self._finish(key, self.tr("Cancelled"), True)
            else:
                self._finish(key, self.tr("Failed: {0}").format(exc), False)

        self._context.operate(
            lambda s, origin: s.operate(lambda: run_action(s, chat_id, key, token, plan), origin=origin),
            done,
            on_error=failed,
            owner=self,
        )
