"""Actions → Import memories…: the memory-level import (``core/backup/memory_import.py``) with
its preview. The file is read and validated on a worker; the dialog shows what each mode
would do — new / updated / skipped / merged / deleted memories with examples — computed on a
worker whenever the mode changes, before anything is written. Replace needs the typed word
REPLACE."""

from __future__ import annotations

from collections.abc import Callable, Collection

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.backup.memory_import import (
    MODES,
    OUTCOMES,
    ImportPlan,
    MemoryMode,
    preview_import,
)
from ...core.backup.validate import ChatDoc
from ..context import AppContext
from ..format import format_count

REPLACE_WORD = "REPLACE"  # typed to confirm a replace, in every language


def mode_label(mode: str) -> str:
    labels = {
        "skip": QCoreApplication.translate("ImportPreview", "Skip memories already here (safe to repeat)"),
        "merge": QCoreApplication.translate("ImportPreview", "Merge into the memories here"),
        "new": QCoreApplication.translate("ImportPreview", "Add every memory as new"),
        "replace": QCoreApplication.translate("ImportPreview", "Replace the chats of the file"),
    }
    return labels[mode]


def outcome_label(outcome: str) -> str:
    labels = {
        "new": QCoreApplication.translate("ImportPreview", "New"),
        "updated": QCoreApplication.translate("ImportPreview", "Updated"),
        "skipped": QCoreApplication.translate("ImportPreview", "Skipped"),
        "merged": QCoreApplication.translate("ImportPreview", "Merged"),
        "deleted": QCoreApplication.translate("ImportPreview", "Deleted"),
    }
    return labels[outcome]


def plan_text(plan: ImportPlan) -> str:
    c = {k: format_count(v) for k, v in plan.counts.items()}
    lines = [
        QCoreApplication.translate(
            "ImportPreview",
            "{0} new, {1} updated, {2} skipped, {3} merged, {4} deleted memories; {5} links and {6} "
            "messages added.",
        ).format(
            c["new"],
            c["updated"],
            c["skipped"],
            c["merged"],
            c["deleted"],
            format_count(plan.links_added),
            format_count(plan.messages_added),
        )
    ]
    if plan.new_chats:
        lines.append(
            QCoreApplication.translate("ImportPreview", "New chats: {0}").format(", ".join(plan.new_chats))
        )
    for outcome in OUTCOMES:
        if plan.examples[outcome]:
            lines.append(f"{outcome_label(outcome)}: {'; '.join(plan.examples[outcome])}")
    if not plan.changes:
        lines.append(
            QCoreApplication.translate("ImportPreview", "Nothing would change: everything is here already.")
        )
    return "\n".join(lines)


class ImportPreviewDialog(QDialog):
    """Choose a mode, read its preview, then import (or cancel: nothing was written)."""

    def __init__(
        self,
        context: AppContext,
        chats: Collection[ChatDoc],
        done: Callable[[ImportPlan], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Import memories"))
        self._context = context
        self._chats = chats
        self._done = done
        self._plan: ImportPlan | None = None
        self.mode = QComboBox()
        for mode in MODES:
            self.mode.addItem(mode_label(mode), mode)
        self.preview = QLabel(self.tr("Computing the preview…"))
        self.preview.setWordWrap(True)
        self.confirm = QLineEdit()
        self.confirm.setPlaceholderText(REPLACE_WORD)
        self.confirm_label = QLabel(self.tr("Type {0} to replace:").format(REPLACE_WORD))
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.import_button = QPushButton(self.tr("Import"))
        self.buttons.addButton(self.import_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.rejected.connect(self.reject)
        self.import_button.clicked.connect(self.run_import)
        form = QFormLayout()
        form.addRow(self.tr("Mode"), self.mode)
        form.addRow(self.confirm_label, self.confirm)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.preview, 1)
        layout.addWidget(self.buttons)
        self.mode.currentIndexChanged.connect(lambda _i: self.refresh())
        self.confirm.textChanged.connect(lambda _t: self._update_button())
        self.refresh()

    def current_mode(self) -> MemoryMode:
        data = self.mode.currentData()
        return next(m for m in MODES if m == data)

    def refresh(self) -> None:
        self._plan = None
        replace = self.current_mode() == "replace"
        self.confirm.setVisible(replace)
        self.confirm_label.setVisible(replace)
        self.preview.setText(self.tr("Computing the preview…"))
        self._update_button()
        mode, chats = self.current_mode(), self._chats

        def shown(plan: ImportPlan) -> None:
            if plan.mode == self.current_mode():
                self._plan = plan
                self.preview.setText(plan_text(plan))
                self._update_button()

        self._context.call(
            lambda s: preview_import(s, chats, mode),
            shown,
            on_error=lambda exc: self.preview.setText(self.tr("Failed: {0}").format(exc)),
            owner=self,
        )

    def _update_button(self) -> None:
        confirmed = self.current_mode() != "replace" or self.confirm.text().strip() == REPLACE_WORD
        self.import_button.setEnabled(self._plan is not None and confirmed)

    def run_import(self) -> None:
        if not self.import_button.isEnabled():
            return
        mode, chats = self.current_mode(), self._chats
        self.import_button.setEnabled(False)
        self.preview.setText(self.tr("Importing…"))

        def finished(plan: ImportPlan) -> None:
            self._done(plan)
            self.accept()

        self._context.operate(
            lambda s, origin: s.import_memories(chats, mode, origin=origin),
            lambda result: finished(result.value),
            on_error=lambda exc: self.preview.setText(self.tr("Failed: {0}").format(exc)),
            owner=self,
        )
