"""Review centre, keyboard first (issue 19, "review like Anki"): the queue of memories waiting
for review on the left; on the right the selected memory's card — what it says, why it is
here and the messages it came from (``core.lifecycle.review_queue``) — or its editor.

Keys, while the list or the card has the focus: A approve, R reject, E edit (Esc or Save
returns to the card), N / J / ↓ next, P / K / ↑ previous, U undo the last decision. Approve and
Reject act on every selected row as one undoable step; the next memory is selected after a
decision. Shown with nothing selected, the queue selects its first memory and takes the focus,
so the card is on screen and the keys work at once. The Patrol report has its own panel
(``patrol.py``)."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from ...core.model import NodeQuery, ReviewCard, ReviewReason
from ..context import AppContext
from ..format import format_count, format_time
from ..i18n import Retranslated
from ..labels import field_label, node_type_label, scope_label, tier_label
from ..lifetime import subscribe
from ..memory_detail import speaker_label
from ..memory_model import NODE_ID_ROLE, MemoryTableModel
from ..memory_table import make_memory_table
from .node_editor import NodeEditor

EXCERPT = 320  # characters of a source message shown on the card


class Review(QObject):
    """The "Review" context of the texts with plural forms: lupdate marks a message as having
    them only in ``self.tr(text, "", n)`` (English reads "1 time", "2 times": ``bme_en``)."""

    def promoted(self, recalls: int) -> str:
        return self.tr("Promoted to long-term memory after being recalled %n time(s).", "", recalls)


def reason_text(reason: ReviewReason) -> str:
    """The reason a memory waits for review, in the interface language."""
    detail = reason.detail
    if reason.code == "kept_after_rollback":
        return QCoreApplication.translate(
            "Review",
            "Its source messages were edited, but you had changed it by hand, so it was kept "
            "for you to check.",
        )
    if reason.code == "promoted":
        recalls = int(detail.get("recalls", 0))
        return Review().promoted(recalls)
    if reason.code == "compressed":
        return QCoreApplication.translate(
            "Review", "Written by Compress from {0} memories, not all of them approved."
        ).format(format_count(int(detail.get("children", 0))))
    if reason.code == "reopened":
        return QCoreApplication.translate("Review", "Sent back to review by hand.")
    if reason.code == "new_long_term":
        return QCoreApplication.translate(
            "Review", "A new long-term memory made by extraction (the review mode lists those)."
        )
    if reason.code == "new":
        return QCoreApplication.translate(
            "Review", "A new memory made by extraction (the review mode lists every one)."
        )
    if reason.code == "edited_pending":
        return QCoreApplication.translate("Review", "Written or edited by hand and saved as pending.")
    return QCoreApplication.translate("Review", "Marked for review (imported, or made by an older version).")


def card_html(card: ReviewCard) -> str:
    """The card: title, kind, what the memory says, why it is here and its source messages."""
    node, esc = card.node, html.escape
    parts = [
        f"<h3>{esc(node.title or node_type_label(node.type))}</h3>",
        "<p>"
        + esc(
            QCoreApplication.translate("Review", "{0} · {1} · {2} · importance {3} · made {4}").format(
                node_type_label(node.type),
                tier_label(node.tier),
                scope_label(node.scope.kind),
                f"{node.importance:.1f}",
                format_time(node.created_at),
            )
        )
        + "</p>",
    ]
    rows = "".join(
        f"<tr><td><i>{esc(field_label(k))}</i>&nbsp;&nbsp;</td><td>{esc(v)}</td></tr>"
        for k, v in node.fields.items()
    )
    parts.append(f"<table cellspacing='2'>{rows}</table>")  # what it says first, as on a card
    parts.append(
        "<p><b>"
        + esc(QCoreApplication.translate("Review", "Why it is here"))
        + "</b><br>"
        + esc(reason_text(card.reason))
        + "</p>"
    )
    parts.append("<p><b>" + esc(QCoreApplication.translate("Review", "Sources")) + "</b></p>")
    if not card.sources:
        parts.append(
            "<p>" + esc(QCoreApplication.translate("Review", "No source messages recorded.")) + "</p>"
        )
    for message in card.sources:
        text = message.text if len(message.text) <= EXCERPT else message.text[:EXCERPT].rstrip() + "…"
        parts.append(
            "<p>"
            + esc(
                QCoreApplication.translate("Review", "#{0} {1}:").format(
                    message.index, speaker_label(message.role, message.name)
                )
            )
            + f"<br>{esc(text)}</p>"
        )
    if card.more_sources:
        parts.append(
            "<p>"
            + esc(
                QCoreApplication.translate("Review", "and {0} more messages").format(
                    format_count(card.more_sources)
                )
            )
            + "</p>"
        )
    return "".join(parts)


def key_hint() -> str:
    return QCoreApplication.translate(
        "Review", "A approve · R reject · E edit · N/J next · P/K previous · U undo"
    )


class ReviewPanel(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._card: ReviewCard | None = None
        self._resume_row = -1  # where the selection goes once decided rows leave the list
        self.model = MemoryTableModel(
            context,
            fixed=NodeQuery(review_status="pending", order_by="created_at", descending=False),
            parent=self,
        )
        # type and title only: the title stays readable beside the card, which says the rest (scope included)
        self.table = make_memory_table(
            self.model, multi=True, hidden=("review", "recalls", "tier", "importance", "updated", "scope")
        )
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.summary = QLabel()
        self.summary.setProperty("role", "muted")
        self.approve_button = QPushButton()
        self.approve_button.setProperty("role", "primary")
        self.approve_button.clicked.connect(lambda: self.set_status("approved"))
        self.reject_button = QPushButton()
        self.reject_button.setProperty("role", "danger")
        self.reject_button.clicked.connect(lambda: self.set_status("rejected"))
        self.select_all_button = select_all = QPushButton()
        select_all.clicked.connect(self.table.selectAll)
        self.edit_button = QPushButton()
        self.edit_button.clicked.connect(self.edit)
        self.undo_button = QPushButton()
        self.undo_button.clicked.connect(self.undo)
        buttons = QHBoxLayout()  # the count above the buttons: the dock can be narrow
        buttons.addStretch(1)
        buttons.addWidget(select_all)
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.reject_button)
        buttons.addWidget(self.approve_button)
        self.card = QTextBrowser()
        self.card.setOpenLinks(False)
        self.card.setObjectName("review-card")
        self.editor = NodeEditor(context)
        self.editor.sigSaved.connect(lambda _node: self.show_card())
        self.side = QStackedWidget()
        self.side.addWidget(self.card)
        self.side.addWidget(self.editor)
        self.keys = QLabel()
        self.keys.setProperty("role", "muted")
        self.keys.setWordWrap(True)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(self.side)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(self.summary)
        layout.addLayout(buttons)
        layout.addWidget(splitter, 1)
        layout.addWidget(self.keys)
        self._shortcuts()
        self.model.sigLoaded.connect(lambda _n: self._loaded())
        self.model.rowsRemoved.connect(self._rows_removed)
        subscribe(self, context.sigChatChanged, self._chat_changed)
        subscribe(self, context.events.sigGraphChanged, self._graph_changed)
        if context.chat_id:
            self.model.set_chat(context.chat_id)
        self.retranslate()
        self.show_card()

    def retranslate(self) -> None:
        self.approve_button.setText(self.tr("Approve selected"))
        self.approve_button.setToolTip(self.tr("A: approve the selected memories (one undoable step)"))
        self.reject_button.setText(self.tr("Reject selected"))
        self.reject_button.setToolTip(self.tr("R: reject the selected memories (one undoable step)"))
        self.select_all_button.setText(self.tr("Select all"))
        self.edit_button.setText(self.tr("Edit"))
        self.edit_button.setToolTip(self.tr("E: edit the selected memory; Esc returns to the card"))
        self.undo_button.setText(self.tr("Undo"))
        self.undo_button.setToolTip(self.tr("U: undo the last decision"))
        self.keys.setText(key_hint())
        self._update_summary()
        self._render()

    # keys ----------------------------------------------------------------------------------
    def _shortcuts(self) -> None:
        """Single keys on the list and the card only: typing in the editor never triggers them."""
        keys: tuple[tuple[str, Callable[[], None]], ...] = (
            ("A", lambda: self.set_status("approved")),
            ("R", lambda: self.set_status("rejected")),
            ("E", self.edit),
            ("N", lambda: self.step(1)),
            ("J", lambda: self.step(1)),
            ("P", lambda: self.step(-1)),
            ("K", lambda: self.step(-1)),
            ("U", self.undo),
        )
        for widget in (self.table, self.card):
            for key, slot in keys:
                shortcut = QShortcut(QKeySequence(key), widget)
                shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
                shortcut.activated.connect(slot)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self.editor)
        escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        escape.activated.connect(self.show_card)

    # public --------------------------------------------------------------------------------
    def selected_ids(self) -> list[str]:
        rows = sorted(self.table.selectionModel().selectedRows(), key=lambda i: i.row())
        return [self.model.data(index, NODE_ID_ROLE) for index in rows]

    def select_row(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.table.selectRow(row)
            self.table.scrollTo(self.model.index(row, 1))

    def step(self, delta: int) -> None:
        """Select the next (``delta`` 1) or previous (-1) memory of the queue."""
        current = self.table.currentIndex().row()
        self.select_row(max(0, min(self.model.rowCount() - 1, current + delta if current >= 0 else 0)))
        self.table.setFocus()

    def set_status(self, status: str) -> None:
        """Approve or reject every selected memory, as one undoable step."""
        ids, chat_id = self.selected_ids(), self._context.chat_id
        if not ids or not chat_id:
            return
        rows = [i.row() for i in self.table.selectionModel().selectedRows()]
        self._resume_row = min(rows)

        self.approve_button.setEnabled(False)
        self.reject_button.setEnabled(False)
        done = self._approved if status == "approved" else self._rejected
        self._context.operate(
            lambda s, origin: s.decide_review(chat_id, ids, status, origin=origin),
            lambda r: done(len(r.value)),
            on_error=self._failed,
            owner=self,
        )

    def edit(self) -> None:
        if len(self.selected_ids()) != 1 or self.editor.node is None:
            return
        self.side.setCurrentWidget(self.editor)
        first = self.editor.first_field()
        (first or self.editor.importance).setFocus()

    def show_card(self) -> None:
        focus_was_in_editor = self.side.currentWidget() is self.editor
        self.side.setCurrentWidget(self.card)
        if focus_was_in_editor:
            self.table.setFocus()

    def undo(self) -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            return

        def done(changed: bool) -> None:
            self._context.sigStatus.emit(self.tr("Undone.") if changed else self.tr("Nothing to undo."))

        self._context.operate(
            lambda s, origin: s.undo(chat_id, origin=origin), lambda r: done(r.value), owner=self
        )

    # internals -----------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self._start)

    def _loaded(self) -> None:
        self._update_summary()
        self._start()

    def _start(self) -> None:
        """On screen with nothing selected: select the first memory (its card shows) and take the
        focus unless the user is typing somewhere, so A/R/N/P work without a click first."""
        if not self.isVisible() or not self.model.rowCount() or self.table.selectionModel().hasSelection():
            return
        self.select_row(0)
        typing = QApplication.focusWidget()
        if not isinstance(typing, QLineEdit | QTextEdit | QPlainTextEdit | QAbstractSpinBox):
            self.table.setFocus()

    def _approved(self, count: int) -> None:
        self._context.sigStatus.emit(self.tr("Approved %n memories (U undoes).", "", count))
        self._update_summary()

    def _rejected(self, count: int) -> None:
        self._context.sigStatus.emit(self.tr("Rejected %n memories (U undoes).", "", count))
        self._update_summary()

    def _failed(self, exc: Exception) -> None:
        self._resume_row = -1
        self._update_summary()
        self._context.sigError.emit(str(exc))

    def _chat_changed(self, chat_id: str) -> None:
        self._card = None
        self.show_card()
        self.model.set_chat(chat_id)

    def _graph_changed(self, change: object) -> None:
        card = self._card
        if card is not None and card.node.id in getattr(change, "nodes_changed", ()):
            self._load_card(card.node.id)  # an edit here or anywhere else: the card shows it

    def _rows_removed(self, *_args: object) -> None:
        if self._resume_row >= 0 and not self.table.selectionModel().hasSelection() and self.model.rowCount():
            self.select_row(min(self._resume_row, self.model.rowCount() - 1))
            self._resume_row = -1
        self._update_summary()

    def _selection_changed(self, *_args: object) -> None:
        ids = self.selected_ids()
        if len(ids) == 1:
            self._context.sigNodeSelected.emit(ids[0])
            self._load_card(ids[0])
        else:
            self._card = None
            self._render()
        self._update_summary()

    def _load_card(self, node_id: str) -> None:
        chat_id = self._context.chat_id
        self._context.call(
            lambda s: s.review_card(chat_id, node_id),
            self._show_card,
            key=f"review-card-{id(self)}",
            on_error=lambda _e: None,
            owner=self,
        )

    def _show_card(self, card: ReviewCard) -> None:
        if self.selected_ids() == [card.node.id]:
            self._card = card
            self._render()

    def _render(self) -> None:
        selected = len(self.selected_ids())
        if self._card is not None and selected == 1:
            self.card.setHtml(card_html(self._card))
        elif selected > 1:
            self.card.setHtml(
                "<p>"
                + html.escape(
                    self.tr(
                        "{0} memories selected: A approves them all, R rejects them all, as one step U "
                        "undoes."
                    ).format(format_count(selected))
                )
                + "</p>"
            )
        elif self.model.rowCount() or self.model.total:
            self.card.setHtml("<p>" + html.escape(self.tr("Select a memory to see what it says.")) + "</p>")
        else:
            self.card.setHtml("<p>" + html.escape(self.tr("Nothing waits for review.")) + "</p>")

    def _update_summary(self) -> None:
        selected = len(self.table.selectionModel().selectedRows())
        self.summary.setText(
            self.tr("{0} waiting · {1} selected").format(
                format_count(self.model.total), format_count(selected)
            )
        )
        self.approve_button.setEnabled(selected > 0)
        self.reject_button.setEnabled(selected > 0)
        self.edit_button.setEnabled(selected == 1)
        if selected != 1 or self._card is None:
            self._render()

    def current_card(self) -> ReviewCard | None:
        """The card shown (for tests): None while several or no memories are selected."""
        return self._card
