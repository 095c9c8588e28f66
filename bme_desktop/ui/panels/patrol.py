"""The Patrol panel (a tab of its own beside Review): the latest daily patrol report (lists only, changes
nothing) and "What do I know about…?" (meta-memory). All queries run on the context's worker."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.model import Knowledge
from ..context import AppContext
from ..format import format_count, format_time
from ..i18n import Retranslated
from ..labels import node_type_label
from ..lifetime import subscribe

IDS_ROLE = Qt.ItemDataRole.UserRole + 1
LIST_KEYS = (
    "long_unused",
    "duplicates",
    "contradictions",
    "fading",
    "unclassified",
    "stale_todos",
    "retiring",
)
MAX_ABOUT = 200


class PatrolPanel(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._record: dict[str, Any] | None = None
        self._shown = False  # a record (or none) is on screen
        self._knowledge: Knowledge | None = None
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.status = QLabel()
        self.status.setProperty("role", "muted")
        self.status.setWordWrap(True)
        self.run_button = QPushButton()
        self.run_button.clicked.connect(self.run_now)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(True)
        self.tree.itemClicked.connect(self._item_clicked)
        self.about_edit = QLineEdit()
        self.about_edit.setMaxLength(MAX_ABOUT)
        self.about_edit.returnPressed.connect(self.ask)
        self.ask_button = QPushButton()
        self.ask_button.clicked.connect(self.ask)
        self.answer = QPlainTextEdit()
        self.answer.setReadOnly(True)
        self.answer.setMaximumHeight(180)
        top = QHBoxLayout()
        top.addWidget(self.heading)
        top.addWidget(self.status, 1)
        top.addWidget(self.run_button)
        ask_row = QHBoxLayout()
        ask_row.addWidget(self.about_edit, 1)
        ask_row.addWidget(self.ask_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.tree, 1)
        layout.addLayout(ask_row)
        layout.addWidget(self.answer)
        subscribe(self, context.sigChatChanged, self.refresh)
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        self.heading.setText(self.tr("Patrol"))
        self.run_button.setText(self.tr("Run patrol now"))
        self.about_edit.setPlaceholderText(self.tr("What do I know about…?"))
        self.ask_button.setText(self.tr("Ask"))
        self.answer.setPlaceholderText(self.tr("The memories about it, and how sure they are, appear here."))
        if self._shown:
            self.show_record(self._record)
        if self._knowledge is not None:
            self.show_answer(self._knowledge)

    def _titles(self) -> dict[str, str]:
        return {
            "long_unused": self.tr("Long unused"),
            "duplicates": self.tr("Suspected duplicates"),
            "contradictions": self.tr("Contradiction candidates"),
            "fading": self.tr("About to be forgotten"),
            "unclassified": self.tr("Unclassified"),
            "stale_todos": self.tr("Stale to-dos"),
            "retiring": self.tr("Will be retired at the next upkeep"),
        }

    # loading -------------------------------------------------------------------------------
    def refresh(self, _chat_id: str = "") -> None:
        chat_id = self._context.chat_id
        self.run_button.setEnabled(bool(chat_id))
        self.ask_button.setEnabled(bool(chat_id))
        self.answer.clear()
        self._knowledge = None
        if not chat_id:
            self.show_record(None)
            return
        self._context.call(
            lambda s: s.latest_patrol(chat_id), self.show_record, key=f"patrol-{id(self)}", owner=self
        )

    def run_now(self) -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            return
        self.run_button.setEnabled(False)
        self.status.setText(self.tr("Patrolling…"))
        self._context.operate(
            lambda s, origin: s.run_patrol(chat_id, origin=origin),
            lambda result: self._ran(result.value),
            key=f"patrol-{id(self)}",
            on_error=self._failed,
            owner=self,
        )

    def _ran(self, record: dict[str, Any]) -> None:
        self.run_button.setEnabled(True)
        self.show_record(record)

    def _failed(self, exc: Exception) -> None:
        self.run_button.setEnabled(bool(self._context.chat_id))
        self.status.setText("")
        self._context.sigError.emit(self.tr("The patrol failed: {0}").format(str(exc)))

    def show_record(self, record: dict[str, Any] | None) -> None:
        self._record, self._shown = record, True
        self.tree.clear()
        if record is None:
            self.status.setText(self.tr("No patrol yet; it runs once a day."))
            return
        report: dict[str, Any] = record.get("report", {})
        self.status.setText(
            self.tr("Last patrol {0} · lists only, changes nothing").format(
                format_time(float(record.get("at", 0.0)))
            )
        )
        omitted: dict[str, Any] = dict(report.get("omitted") or {})
        for key, title in self._titles().items():
            entries: list[Any] = list(report.get(key, []))
            more = int(omitted.get(key, 0) or 0)
            top = QTreeWidgetItem([self.tr("{0} ({1})").format(title, format_count(len(entries) + more))])
            top.setData(0, IDS_ROLE, [])
            for entry in entries:
                top.addChild(self._entry_item(entry))
            if more:
                rest = QTreeWidgetItem([self.tr("{0} more not listed").format(format_count(more))])
                rest.setData(0, IDS_ROLE, [])
                top.addChild(rest)
            if key == "retiring":
                self._add_retention_notes(top, dict(report.get("retention") or {}))
            self.tree.addTopLevelItem(top)
            top.setExpanded(bool(entries) or top.childCount() > 0)

    def _add_retention_notes(self, top: QTreeWidgetItem, retention: dict[str, Any]) -> None:
        """Under "Will be retired": a refused rule, and what the recycle bin deletes for good."""
        notes = []
        refused = retention.get("refused")
        if isinstance(refused, dict):
            count = format_count(int(refused.get("count", 0)))
            if refused.get("rule") == "max_age":
                notes.append(
                    self.tr(
                        "Refused: the maximum age of {0} ({1} days) would retire all {2} of them; "
                        "nothing is retired. Raise the limit or remove the rule in Settings → "
                        "Life cycle."
                    ).format(
                        node_type_label(str(refused.get("type", ""))),
                        f"{float(refused.get('limit', 0)):g}",
                        count,
                    )
                )
            else:
                notes.append(
                    self.tr(
                        "Refused: the rules would retire all {0} memories of this chat; nothing is retired."
                    ).format(count)
                )
        expiring = int(retention.get("bin_expiring", 0) or 0)
        if expiring:
            notes.append(
                self.tr("{0} memories in the recycle bin will be deleted for good").format(
                    format_count(expiring)
                )
            )
        for text in notes:
            item = QTreeWidgetItem([text])
            item.setData(0, IDS_ROLE, [])
            top.addChild(item)

    def _entry_item(self, entry: Any) -> QTreeWidgetItem:
        if isinstance(entry, str):  # a stale to-do: text only, no memory behind it
            item = QTreeWidgetItem([entry])
            item.setData(0, IDS_ROLE, [])
            return item
        titles = [str(t) or "—" for t in entry.get("titles", [])]
        item = QTreeWidgetItem([" ↔ ".join(titles)])
        item.setData(0, IDS_ROLE, [str(i) for i in entry.get("ids", [])])
        item.setToolTip(0, str(entry.get("note", "")))
        return item

    def counts(self) -> dict[str, int]:
        """The number of entries in each list of the shown report (for tests and the status)."""
        report = (self._record or {}).get("report", {})
        return {key: len(report.get(key, [])) for key in LIST_KEYS}

    def _item_clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        ids = item.data(0, IDS_ROLE) or []
        if ids:
            self._context.sigNodeSelected.emit(ids[0])

    # meta-memory ---------------------------------------------------------------------------
    def ask(self) -> None:
        chat_id, about = self._context.chat_id, self.about_edit.text().strip()
        if not chat_id or not about:
            return
        self._context.call(
            lambda s: s.what_do_i_know(chat_id, about), self.show_answer, key=f"about-{id(self)}"
        )

    def show_answer(self, knowledge: Knowledge) -> None:
        self._knowledge = knowledge
        if not knowledge.hits:
            self.answer.setPlainText(self.tr("Nothing is known about “{0}”.").format(knowledge.about))
            return
        lines = [
            self.tr("{0} memories about “{1}” · strongest {2}% · confirmed {3} times").format(
                format_count(len(knowledge.hits)),
                knowledge.about,
                round(knowledge.strength * 100),
                format_count(knowledge.confirmations),
            )
        ]
        for hit in knowledge.hits:
            lines.append(
                self.tr("• {0} — strength {1}%, confirmed {2} times, {3} days old, {4} links").format(
                    hit.title or hit.text[:60],
                    round(hit.strength * 100),
                    format_count(hit.confirmations),
                    round(hit.age_days),
                    format_count(hit.neighbours),
                )
            )
        self.answer.setPlainText("\n".join(lines))
