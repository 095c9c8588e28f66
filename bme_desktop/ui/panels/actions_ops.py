"""The Actions panel's "Story operations": ST-BME's operations (``core.chat_ops``) on the chat
that is open — extract pending, re-extract a range, rebuild summaries, rebuild a range's
vectors, force evolve — with an optional message range. Each runs on a worker with a progress
bar fed by ``maintenance.progress`` events, can be cancelled where the operation allows it
(extraction stops before its next batch), and is one Ctrl+Z. Bad input and "nothing to do" are
shown as the row's result, with the reason."""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QGridLayout, QHBoxLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from ...core.cancel import Cancelled, CancelToken
from ...core.chat_ops import RANGED, NothingToDo, OperationResult
from ...core.operations import OpResult
from ..context import AppContext
from ..format import format_count
from ..i18n import Retranslated
from ..lifetime import subscribe
from .actions import ActionRow, ActionSpec, RowRunner

OPERATION_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "extract_pending",
        lambda: QCoreApplication.translate("Actions", "Extract pending"),
        lambda: QCoreApplication.translate(
            "Actions", "Extract only the messages not extracted yet, as one undo step."
        ),
    ),
    ActionSpec(
        "reextract",
        lambda: QCoreApplication.translate("Actions", "Re-extract range"),
        lambda: QCoreApplication.translate(
            "Actions",
            "Roll the extraction back from the range's first message and extract again from scratch.",
        ),
    ),
    ActionSpec(
        "rebuild_summaries",
        lambda: QCoreApplication.translate("Actions", "Rebuild summaries"),
        lambda: QCoreApplication.translate(
            "Actions", "Write the summaries again from the extraction batches."
        ),
    ),
    ActionSpec(
        "rebuild_vectors",
        lambda: QCoreApplication.translate("Actions", "Rebuild range vectors"),
        lambda: QCoreApplication.translate(
            "Actions", "Embed again the memories drawn from the range's messages."
        ),
    ),
    ActionSpec(
        "evolve",
        lambda: QCoreApplication.translate("Actions", "Force evolve"),
        lambda: QCoreApplication.translate(
            "Actions",
            "New memories revise the older memories they are linked to (by the model, or by the rules "
            "offline).",
        ),
    ),
)
MAX_INDEX = 10_000_000


def operation_text(result: OperationResult, seconds: float) -> str:
    """What an operation did, in words."""
    n, s = format_count(result.done), f"{seconds:.1f}"
    if result.task in ("extract_pending", "reextract"):
        text = QCoreApplication.translate("Actions", "{0} batches extracted in {1} s").format(n, s)
    elif result.task == "rebuild_summaries":
        text = QCoreApplication.translate("Actions", "{0} summaries written in {1} s").format(n, s)
    elif result.task == "rebuild_vectors":
        text = QCoreApplication.translate("Actions", "{0} memories embedded again in {1} s").format(n, s)
    elif str(result.detail.get("path", "rules")).startswith("llm"):
        text = QCoreApplication.translate("Actions", "{0} memories revised by the model in {1} s").format(
            n, s
        )
    else:
        text = QCoreApplication.translate("Actions", "{0} memories revised by the rules in {1} s").format(
            n, s
        )
    if result.change.batch_id is not None:
        text += QCoreApplication.translate("Actions", " · Ctrl+Z undoes it")
    return text


class StoryOperations(RowRunner, Retranslated, QWidget):
    """The range picker and one row per operation."""

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._running: dict[str, CancelToken] = {}
        self.use_range = QCheckBox()
        self.start = QSpinBox()
        self.end = QSpinBox()
        for box in (self.start, self.end):
            box.setRange(0, MAX_INDEX)
            box.setEnabled(False)
        self.use_range.toggled.connect(self.start.setEnabled)
        self.use_range.toggled.connect(self.end.setEnabled)
        picker = QHBoxLayout()
        picker.addWidget(self.use_range)
        picker.addWidget(self.start)
        self.to_label = QLabel()
        picker.addWidget(self.to_label)
        picker.addWidget(self.end)
        picker.addStretch(1)
        grid = QGridLayout()
        grid.setColumnStretch(1, 1)
        grid.setVerticalSpacing(10)
        self.rows = {spec.key: ActionRow(spec, grid, i, self.run) for i, spec in enumerate(OPERATION_ACTIONS)}
        for key, row in self.rows.items():
            row.cancel.clicked.connect(lambda _checked=False, key=key: self.cancel(key))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(picker)
        layout.addLayout(grid)
        subscribe(self, context.sigChatChanged, lambda _c: self.update_availability())
        subscribe(self, context.events.sigEvent, self._on_event)
        self.retranslate()

    def retranslate(self) -> None:
        self.use_range.setText(QCoreApplication.translate("Actions", "Only messages"))
        self.use_range.setToolTip(
            QCoreApplication.translate(
                "Actions",
                "Re-extract, Rebuild range vectors and Force evolve work on these messages; without a range, "
                "on the whole chat (evolve: on what is new since its last run).",
            )
        )
        self.to_label.setText(QCoreApplication.translate("Actions", "to"))
        for row in self.rows.values():
            row.retranslate()
        self.update_availability()

    def message_range(self) -> tuple[int | None, int | None]:
        if not self.use_range.isChecked():
            return None, None
        return self.start.value(), self.end.value()

    def available(self, key: str) -> tuple[bool, str]:
        service = self._context.service
        if not self._context.chat_id:
            return False, QCoreApplication.translate("Actions", "Open a chat first.")
        if key in ("extract_pending", "reextract") and not service.can_extract_now():
            return False, QCoreApplication.translate(
                "Actions", "No extractor is attached to this data folder."
            )
        if key == "rebuild_vectors" and service.vector_index() is None:
            return False, QCoreApplication.translate(
                "Actions", "Recall has no vector index in this data folder."
            )
        return True, ""

    def update_availability(self) -> None:
        for key, row in self.rows.items():
            if key not in self._running:
                row.set_available(*self.available(key))
                row.set_cancel_hint(
                    QCoreApplication.translate(
                        "Actions", "Stop before the next batch; the batches extracted so far are kept."
                    )
                    if key in ("extract_pending", "reextract")
                    else ""
                )

    def run(self, key: str) -> None:
        ok, _reason = self.available(key)
        if not ok or key in self._running:
            return
        chat_id, row = self._context.chat_id, self.rows[key]
        start, end = self.message_range() if key in RANGED else (None, None)
        token = self._running[key] = CancelToken()
        row.set_running(True)
        began = time.monotonic()

        def done(result: OpResult[OperationResult]) -> None:
            self._finish(key, operation_text(result.value, time.monotonic() - began), True)

        def failed(exc: Exception) -> None:
            if isinstance(exc, Cancelled):
                self._finish(key, QCoreApplication.translate("Actions", "Cancelled"), True)
            elif isinstance(exc, NothingToDo):
                self._finish(
                    key, QCoreApplication.translate("Actions", "Nothing to do: {0}").format(exc), True
                )
            else:
                self._finish(key, QCoreApplication.translate("Actions", "Failed: {0}").format(exc), False)

        self._context.operate(
            lambda s, origin: s.run_chat_operation(
                chat_id, key, start=start, end=end, cancel=token, origin=origin
            ),
            done,
            on_error=failed,
            owner=self,
        )
