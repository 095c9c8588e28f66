"""The Memories panel's operation bar: Merge the two selected memories, Pin/Unpin, move to a
tier. Each is one service call (one manual batch), so Ctrl+Z undoes it. Merge asks first,
naming the memory it keeps (the one selected first) and the one that goes to the recycle bin,
and can keep the other instead."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QFileDialog, QHBoxLayout, QMessageBox, QPushButton, QWidget

from ...core.model import Node
from ...core.schema import TIERS
from ..context import AppContext
from ..i18n import Retranslated
from ..labels import tier_label
from .actions_io import export_worldinfo

BUTTON_TITLE = 32  # characters of a title on a button


def elided(title: str) -> str:
    return title if len(title) <= BUTTON_TITLE else title[: BUTTON_TITLE - 1] + "…"


class MemoryOps(Retranslated, QWidget):
    def __init__(
        self, context: AppContext, selected: Callable[[], list[Node]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._context = context
        self._selected = selected
        self.confirm_box: QMessageBox | None = None  # the open "merge which into which?"
        self.merge_button = QPushButton()
        self.merge_button.clicked.connect(self.merge)
        self.pin_button = QPushButton()
        self.pin_button.clicked.connect(self.toggle_pin)
        self.tier_box = QComboBox()
        self.tier_box.addItem("", None)
        for tier in TIERS:
            self.tier_box.addItem("", tier)
        self.tier_box.activated.connect(self._tier_chosen)
        self.worldinfo_button = QPushButton()
        self.worldinfo_button.clicked.connect(lambda: self.export_worldinfo())
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.merge_button)
        layout.addWidget(self.pin_button)
        layout.addWidget(self.tier_box)
        layout.addStretch(1)
        layout.addWidget(self.worldinfo_button)
        self.retranslate()

    def retranslate(self) -> None:
        self.merge_button.setText(self.tr("Merge"))
        self.merge_button.setToolTip(
            self.tr("Merge the second selected memory into the first (it asks first, naming the one kept)")
        )
        self.tier_box.setItemText(0, self.tr("Move to tier…"))
        for i in range(1, self.tier_box.count()):
            self.tier_box.setItemText(i, tier_label(str(self.tier_box.itemData(i))))
        self.worldinfo_button.setText(self.tr("Export as World Info…"))
        self.worldinfo_button.setToolTip(
            self.tr(
                "Save the selected memories as a SillyTavern World Info file "
                "(its World Info editor imports it)"
            )
        )
        self.refresh()

    def refresh(self) -> None:
        nodes = self._selected()
        self.merge_button.setEnabled(len(nodes) == 2)
        self.pin_button.setEnabled(len(nodes) == 1)
        self.tier_box.setEnabled(len(nodes) == 1)
        self.worldinfo_button.setEnabled(bool(nodes))
        pinned = len(nodes) == 1 and nodes[0].pinned
        self.pin_button.setText(self.tr("Unpin") if pinned else self.tr("Pin"))

    def merge(self) -> None:
        """Ask which memory is kept (the first selected, or the other), then merge (``confirm_box``)."""
        nodes = self._selected()
        if len(nodes) != 2:
            return
        keep, other = nodes
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Merge"),
            self.tr("Keep “{0}” and merge “{1}” into it?").format(keep.title, other.title),
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setInformativeText(
            self.tr(
                "“{0}” is kept: it takes the other's sources, links and the fields it lacks. “{1}” goes to "
                "the "
                "recycle bin. Ctrl+Z undoes the merge."
            ).format(keep.title, other.title)
        )
        go = box.addButton(
            self.tr("Keep “{0}”").format(elided(keep.title)), QMessageBox.ButtonRole.AcceptRole
        )
        swap = box.addButton(
            self.tr("Keep “{0}” instead").format(elided(other.title)), QMessageBox.ButtonRole.ActionRole
        )
        stop = box.addButton(self.tr("Cancel"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(go)
        box.setEscapeButton(stop)

        def answered(_result: int) -> None:
            if box.clickedButton() is go:
                self._merge(keep, other)
            elif box.clickedButton() is swap:
                self._merge(other, keep)

        box.finished.connect(answered)
        self.confirm_box = box
        box.open()

    def _merge(self, keep: Node, other: Node) -> None:
        chat_id = self._context.chat_id
        self._context.operate(
            lambda s, origin: s.merge_nodes(chat_id, keep.id, other.id, origin=origin),
            lambda r: self._merged(r.value),
            owner=self,
        )

    def toggle_pin(self) -> None:
        nodes = self._selected()
        if len(nodes) == 1:
            self._patch(nodes[0], {"pinned": not nodes[0].pinned})

    def set_tier(self, tier: str) -> None:
        nodes = self._selected()
        if len(nodes) == 1 and tier in TIERS:
            self._patch(nodes[0], {"tier": tier})

    def _tier_chosen(self, index: int) -> None:
        tier = self.tier_box.itemData(index)
        self.tier_box.setCurrentIndex(0)
        if tier:
            self.set_tier(str(tier))

    def _patch(self, node: Node, patch: dict[str, object]) -> None:
        chat_id = self._context.chat_id
        self._context.operate(
            lambda s, origin: s.update_node(chat_id, node.id, patch, origin=origin),
            lambda r: self._context.sigStatus.emit(self.tr("Changed “{0}”.").format(r.value.title)),
            owner=self,
        )

    def export_worldinfo(self, path: str | None = None) -> None:
        nodes = self._selected()
        if not nodes:
            return
        if path is None:
            path, _ = QFileDialog.getSaveFileName(
                self,
                self.tr("Export as SillyTavern World Info"),
                "memories.json",
                self.tr("World Info (*.json)"),
            )
        if not path:
            return
        target = Path(path if path.lower().endswith(".json") else path + ".json")
        chat_id, ids = self._context.chat_id, [n.id for n in nodes]
        self._context.call(
            lambda s: export_worldinfo(s, chat_id, ids, target),
            lambda w: self._context.sigStatus.emit(
                self.tr("Wrote {0} memories to {1}.").format(len(ids), w.path)
            ),
            on_error=lambda e: self._context.sigStatus.emit(self.tr("Export failed: {0}").format(e)),
            owner=self,
        )

    def _merged(self, node: Node) -> None:
        self._context.sigNodeSelected.emit(node.id)
        self._context.sigStatus.emit(self.tr("Merged into “{0}” (Ctrl+Z undoes it).").format(node.title))
