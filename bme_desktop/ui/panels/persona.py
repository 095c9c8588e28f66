"""Persona panel: the user's current profile (with a Reject button per trait) and the timeline
of snapshots; clicking a piece of evidence selects that memory everywhere."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...core.events import ChangeRecord
from ...core.model import PERSONA_KINDS, Persona, Trait
from ...core.service import MemoryService
from ..context import AppContext
from ..format import format_time
from ..i18n import Retranslated
from ..lifetime import subscribe

NODE_ROLE = Qt.ItemDataRole.UserRole + 1


def kind_label(kind: str) -> str:
    labels = {
        "trait": QCoreApplication.translate("Persona", "Traits"),
        "preference": QCoreApplication.translate("Persona", "Preferences"),
        "goal": QCoreApplication.translate("Persona", "Goals"),
        "decision": QCoreApplication.translate("Persona", "Decision style"),
    }
    return labels.get(kind, kind)


@dataclass
class PersonaView:
    current: Persona | None
    history: list[Persona]  # oldest first
    titles: dict[str, str]  # evidence node id -> title


def load_persona(service: MemoryService, chat_id: str) -> PersonaView:
    """Blocking: the profile, its history and the titles of every piece of evidence."""
    current = service.current_persona(chat_id)
    history = service.persona_history(chat_id)
    ids = {i for p in [*history, *([current] if current else [])] for tr in p.traits for i in tr.evidence}
    nodes = service.nodes_by_ids(chat_id, ids) if ids else []
    return PersonaView(current, history, {n.id: n.title for n in nodes})


class PersonaPanel(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.view: PersonaView | None = None
        self._message: str | None = None  # None: nothing shown yet
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.subheading = QLabel()
        self.subheading.setProperty("role", "muted")
        self.subheading.setWordWrap(True)
        self.profile = self._tree()
        self.timeline = self._tree()
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.profile)
        split.addWidget(self.timeline)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.addWidget(self.heading)
        layout.addWidget(self.subheading)
        layout.addWidget(split, 1)
        self.reject_buttons: dict[str, QPushButton] = {}
        self._timer = QTimer(self, singleShot=True, interval=300)
        self._timer.timeout.connect(self.refresh)
        subscribe(self, context.sigChatChanged, lambda _c: self.refresh())
        subscribe(self, context.events.sigGraphChanged, self._on_change)
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        self.heading.setText(self.tr("Persona"))
        self.profile.setHeaderLabels([self.tr("Current profile"), ""])
        self.timeline.setHeaderLabels([self.tr("Snapshots"), ""])
        if self._message is not None:
            self._show(self.view, self.tr("No chat open") if self._message else "")

    def _tree(self) -> QTreeWidget:
        tree = QTreeWidget()
        tree.setColumnCount(2)
        tree.setUniformRowHeights(False)
        header = tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        tree.itemClicked.connect(self._clicked)
        return tree

    def _on_change(self, change: ChangeRecord) -> None:
        if change.chat_id == self._context.chat_id:
            self._timer.start()

    def refresh(self) -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            self._show(None, self.tr("No chat open"))
        else:
            self._context.call(
                lambda s: load_persona(s, chat_id),
                lambda v: self._show(v, ""),
                key=f"persona-{id(self)}",
                owner=self,
            )

    def _show(self, view: PersonaView | None, message: str) -> None:
        self.view, self._message = view, message
        self.profile.clear()
        self.timeline.clear()
        self.reject_buttons.clear()
        if view is None or (view.current is None and not view.history):
            self.subheading.setText(
                message
                or self.tr(
                    "No persona yet: run “Update persona” in Actions once the story has facts about the user."
                )
            )
            return
        current = view.current
        if current is not None:
            self.subheading.setText(
                self.tr("Version {0} · {1}").format(current.version, format_time(current.at))
            )
            self._fill_profile(current, view.titles)
        for snap in reversed(view.history):
            item = QTreeWidgetItem(
                self.timeline,
                [
                    self.tr("Version {0} · {1}").format(snap.version, format_time(snap.at)),
                    self.tr("{0} traits").format(len(snap.traits)),
                ],
            )
            for trait in snap.traits:
                self._trait_item(item, trait, view.titles)

    def _fill_profile(self, current: Persona, titles: dict[str, str]) -> None:
        for kind in PERSONA_KINDS:
            traits = [tr for tr in current.traits if tr.kind == kind]
            if not traits:
                continue
            group = QTreeWidgetItem(self.profile, [kind_label(kind)])
            group.setExpanded(True)
            for trait in traits:
                item = self._trait_item(group, trait, titles)
                button = QPushButton(self.tr("Reject"))
                button.setProperty("role", "danger")
                button.setToolTip(self.tr("Not true of the user: leave it out of every later profile"))
                button.clicked.connect(lambda _c=False, text=trait.text: self.reject(text))
                self.profile.setItemWidget(item, 1, button)
                self.reject_buttons[trait.text] = button
        self.profile.resizeColumnToContents(1)

    def _trait_item(self, parent: QTreeWidgetItem, trait: Trait, titles: dict[str, str]) -> QTreeWidgetItem:
        item = QTreeWidgetItem(parent, [trait.text])
        item.setToolTip(0, trait.text)
        for node_id in trait.evidence:
            child = QTreeWidgetItem(item, ["↳ " + titles.get(node_id, node_id)])
            child.setData(0, NODE_ROLE, node_id)
            child.setToolTip(0, self.tr("Evidence: click to select this memory"))
        return item

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        node_id = item.data(0, NODE_ROLE)
        if node_id:
            self._context.sigNodeSelected.emit(str(node_id))

    def reject(self, trait: str) -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            return
        button = self.reject_buttons.get(trait)
        if button is not None:
            button.setEnabled(False)

        def done(_r: object) -> None:
            self._context.sigStatus.emit(self.tr("Rejected “{0}”.").format(trait))
            self.refresh()

        self._context.operate(
            lambda s, origin: s.reject_trait(chat_id, trait, origin=origin),
            done,
            owner=self,
        )
