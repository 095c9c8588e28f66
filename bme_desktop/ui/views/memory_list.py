"""The default central view until the graph views arrive: memories as cards, newest first."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter
from PySide6.QtWidgets import (
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from ...core.model import NodeQuery
from ...core.schema import NODE_TYPES
from ..context import AppContext
from ..labels import node_type_label, tier_label
from ..lifetime import subscribe
from ..memory_model import NODE_ID_ROLE, MemoryTableModel
from ..theming import Theme
from ..theming.qt import qcolor

CARD_HEIGHT = 58


class CardDelegate(QStyledItemDelegate):
    """Paints one memory as a card: a type stripe, the title, its summary and tier."""

    def __init__(self, model: MemoryTableModel, context: AppContext) -> None:
        super().__init__(model)
        self._model = model
        self._context = context

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return QSize(option.rect.width(), CARD_HEIGHT)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        node = self._model.node_at(index.row())
        if node is None:
            return
        theme: Theme = self._context.themes.current
        rect = option.rect.adjusted(6, 3, -6, -3)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(qcolor(theme.color("primary" if selected else "border")))
        painter.setBrush(qcolor(theme.color("selection" if selected else "surface")))
        painter.drawRoundedRect(rect, 5, 5)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(qcolor(theme.node_color(node.type)))
        painter.drawRoundedRect(QRect(rect.left(), rect.top(), 4, rect.height()), 2, 2)
        text_rect = rect.adjusted(14, 6, -10, -6)
        font = painter.font()
        metrics = QFontMetrics(font)
        tag = f"{node_type_label(node.type)} · {tier_label(node.tier)}"
        tag_width = metrics.horizontalAdvance(tag) + 8
        painter.setPen(qcolor(theme.node_color(node.type)))
        painter.drawText(
            QRect(text_rect.right() - tag_width, text_rect.top(), tag_width, metrics.height()),
            int(Qt.AlignmentFlag.AlignRight),
            tag,
        )
        bold = painter.font()
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(qcolor(theme.color("text")))
        title_rect = QRect(text_rect.left(), text_rect.top(), text_rect.width() - tag_width, metrics.height())
        painter.drawText(
            title_rect,
            int(Qt.AlignmentFlag.AlignLeft),
            QFontMetrics(bold).elidedText(node.title, Qt.TextElideMode.ElideRight, title_rect.width()),
        )
        painter.setFont(font)
        painter.setPen(qcolor(theme.color("text_muted")))
        summary = node.fields.get(NODE_TYPES[node.type].summary_field, "") if node.type in NODE_TYPES else ""
        line = QRect(
            text_rect.left(), text_rect.bottom() - metrics.height(), text_rect.width(), metrics.height()
        )
        painter.drawText(
            line,
            int(Qt.AlignmentFlag.AlignLeft),
            metrics.elidedText(summary.replace("\n", " "), Qt.TextElideMode.ElideRight, line.width()),
        )
        painter.restore()


class MemoryListView(QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.model = MemoryTableModel(
            context, fixed=NodeQuery(order_by="created_at", descending=True), parent=self
        )
        self.list = QListView()
        self.list.setModel(self.model)
        self.list.setItemDelegate(CardDelegate(self.model, context))
        self.list.setUniformItemSizes(True)
        self.list.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.list.setSelectionMode(QListView.SelectionMode.SingleSelection)
        self.list.clicked.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.list)
        subscribe(self, context.sigChatChanged, self.model.set_chat)
        subscribe(self, context.themes.sigThemeChanged, self._restyle)
        if context.chat_id:
            self.model.set_chat(context.chat_id)

    def _clicked(self, index: QModelIndex) -> None:
        self._context.sigNodeSelected.emit(self.model.data(index, NODE_ID_ROLE))

    def _restyle(self, _theme: Theme) -> None:
        self.list.viewport().update()
