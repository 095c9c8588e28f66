"""NodeEditor: the detail editor of one memory (fields, importance, tier, pinned, review,
source indices). Save calls ``update_node`` (or ``create_node`` for a new memory), Delete
calls ``delete_node``; all through workers."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.editing import NodeDraft
from ...core.events import GraphChanged
from ...core.lorebook import is_read_only, lore_of
from ...core.model import Node, Scope
from ...core.schema import NODE_TYPES, REVIEW_STATUSES, TIERS
from ...core.scopes import SCOPE_KINDS
from ..context import AppContext
from ..format import format_time
from ..i18n import Retranslated
from ..labels import field_label, node_type_label, review_label, scope_label, tier_label
from ..lifetime import subscribe
from ..vertical_scroll import VerticalScroll

FieldEdit = QLineEdit | QPlainTextEdit


def _combo(values: Iterable[str]) -> QComboBox:
    """A choice among ``values``; the editor's ``retranslate`` names them."""
    box = QComboBox()
    for value in values:
        box.addItem("", value)
    return box


def _label(box: QComboBox, label: Callable[[str], str]) -> None:
    for i in range(box.count()):
        box.setItemText(i, label(str(box.itemData(i))))


class NodeEditor(Retranslated, QWidget):
    sigSaved = Signal(object)  # the saved Node, once the store has it

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._node: Node | None = None
        self._creating = False
        self._edits: dict[str, FieldEdit] = {}
        self.heading = QLabel()
        self.heading.setProperty("role", "heading")
        self.heading.setWordWrap(True)
        self.meta = QLabel()
        self.meta.setProperty("role", "muted")
        self.meta.setWordWrap(True)
        self.type_box = _combo(NODE_TYPES)
        self.type_box.currentIndexChanged.connect(
            lambda _i: self._build_fields(self.type_box.currentData(), {})
        )
        self.importance = QDoubleSpinBox()
        self.importance.setRange(0.0, 10.0)
        self.importance.setSingleStep(0.5)
        self.importance.setDecimals(1)
        self.tier = _combo(TIERS)
        self.review = _combo(REVIEW_STATUSES)
        self.pinned = QCheckBox()
        self.scope = _combo(SCOPE_KINDS)
        self.lore = QLabel()  # where a lorebook memory came from; SillyTavern's own are read-only here
        self.lore.setProperty("role", "muted")
        self.lore.setWordWrap(True)
        self.lore.hide()
        self.sources = QLineEdit()
        self.error = QLabel()
        self.error.setProperty("role", "warning")
        self.error.setWordWrap(True)
        self.save_button = QPushButton()
        self.save_button.setProperty("role", "primary")
        self.save_button.clicked.connect(self.save)
        self.delete_button = QPushButton()
        self.delete_button.setProperty("role", "danger")
        self.delete_button.clicked.connect(self.delete)
        self._fields_form = QFormLayout()
        # with no memory the form and its buttons hide: no stale or made-up values greyed out
        self.common_box = QWidget()
        self._common = common = QFormLayout(self.common_box)
        common.setContentsMargins(0, 0, 0, 0)
        for widget in (self.type_box, self.importance, self.tier, self.review, self.scope):
            common.addRow(QLabel(), widget)
        common.addRow("", self.pinned)
        common.addRow(QLabel(), self.sources)
        self.button_box = QWidget()
        buttons = QHBoxLayout(self.button_box)
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.delete_button)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        body = QWidget()  # the fields scroll (a long memory on a short screen); the buttons stay
        layout = QVBoxLayout(body)
        layout.addWidget(self.heading)
        layout.addWidget(self.meta)
        layout.addWidget(self.lore)
        layout.addLayout(self._fields_form)
        layout.addWidget(self.common_box)
        layout.addWidget(self.error)
        layout.addStretch(1)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(VerticalScroll(body), 1)
        outer.addWidget(self.button_box)
        subscribe(self, context.sigNodeSelected, self.load)
        subscribe(self, context.events.sigGraphEvent, self._on_change)
        self._set_enabled(False)
        self._set_form_shown(False)
        self.retranslate()

    def retranslate(self) -> None:
        """The editor's labels in the new language; what is being edited stays as it is."""
        _label(self.type_box, node_type_label)
        _label(self.tier, tier_label)
        _label(self.review, review_label)
        _label(self.scope, scope_label)
        self.pinned.setText(self.tr("Pinned (always kept)"))
        self.scope.setToolTip(
            self.tr(
                "Who else remembers it: this chat only, every chat with the character, every "
                "chat of your persona, every chat in the world (saving a change is one undo "
                "step)"
            )
        )
        self.sources.setPlaceholderText(self.tr("message numbers, e.g. 3, 4, 9"))
        self.save_button.setText(self.tr("Save"))
        self.delete_button.setText(self.tr("Delete"))
        for widget, text in (
            (self.type_box, self.tr("Type")),
            (self.importance, self.tr("Importance")),
            (self.tier, self.tr("Tier")),
            (self.review, self.tr("Review")),
            (self.scope, self.tr("Scope")),
            (self.sources, self.tr("Source messages")),
        ):
            label = self._common.labelForField(widget)
            if isinstance(label, QLabel):
                label.setText(text)
        node_type = NODE_TYPES.get(self._node.type if self._node is not None else self.type_box.currentData())
        required = {spec.name: spec.required for spec in node_type.fields} if node_type is not None else {}
        for name, edit in self._edits.items():
            label = self._fields_form.labelForField(edit)
            if isinstance(label, QLabel):
                label.setText(field_label(name) + (" *" if required.get(name) else ""))
        self._describe()

    # public --------------------------------------------------------------------------------
    @property
    def node(self) -> Node | None:
        return self._node

    def field_edit(self, name: str) -> FieldEdit:
        return self._edits[name]

    def first_field(self) -> FieldEdit | None:
        """The first of the node type's fields (None for a type without fields)."""
        return next(iter(self._edits.values()), None)

    def load(self, node_id: str) -> None:
        self._creating = False
        if not node_id or not self._context.chat_id:
            self._show(None)
            return
        chat_id = self._context.chat_id
        self._context.call(
            lambda s: s.get_node(chat_id, node_id), self._show, key=f"editor-{id(self)}", owner=self
        )

    def new_memory(self, type_id: str = "fact") -> None:
        self._node, self._creating = None, True
        self._describe()
        self.type_box.setEnabled(True)
        self.type_box.setCurrentIndex(max(0, self.type_box.findData(type_id)))
        self._build_fields(type_id, {})
        self.importance.setValue(5.0)
        self.tier.setCurrentIndex(self.tier.findData("long_term"))
        self.review.setCurrentIndex(self.review.findData("approved"))
        self.pinned.setChecked(False)
        self.scope.setCurrentIndex(self.scope.findData("chat"))
        self.lore.hide()
        self.sources.clear()
        self._set_enabled(True)
        self._set_form_shown(True)
        self.delete_button.setEnabled(False)

    def save(self) -> None:
        chat_id = self._context.chat_id
        try:
            sources = [int(s) for s in self.sources.text().replace(",", " ").split()]
        except ValueError:
            self.error.setText(self.tr("Source messages must be whole numbers."))
            return
        values = {name: self._text(edit) for name, edit in self._edits.items()}
        common = {
            "importance": self.importance.value(),
            "tier": self.tier.currentData(),
            "review_status": self.review.currentData(),
            "pinned": self.pinned.isChecked(),
            "source_indices": sources,
        }
        if self._creating:
            draft = NodeDraft(
                type=self.type_box.currentData(),
                fields={k: v for k, v in values.items() if v},
                scope=Scope(kind=self.scope.currentData()),
                **common,
            )
            self._context.operate(
                lambda s, origin: s.create_node(chat_id, draft, origin=origin),
                lambda r: self._created(r.value),
                on_error=self._failed,
                owner=self,
            )
        elif self._node is not None:
            node_id, old = self._node.id, self._node.fields
            patch = dict(common, fields={k: (v or None) for k, v in values.items() if v != old.get(k, "")})
            if self.scope.currentData() != self._node.scope.kind:  # shared or kept back in the same undo step
                patch["scope"] = {"kind": self.scope.currentData()}
            self._context.operate(
                lambda s, origin: s.update_node(chat_id, node_id, patch, origin=origin),
                lambda r: self._saved(r.value),
                on_error=self._failed,
                owner=self,
            )

    def delete(self) -> None:
        if self._node is None:
            return
        chat_id, node_id = self._context.chat_id, self._node.id
        self._context.operate(
            lambda s, origin: s.delete_node(chat_id, node_id, origin=origin),
            lambda _r: self._deleted(),
            on_error=self._failed,
            owner=self,
        )

    # internals -----------------------------------------------------------------------------
    @staticmethod
    def _text(edit: FieldEdit) -> str:
        return (edit.toPlainText() if isinstance(edit, QPlainTextEdit) else edit.text()).strip()

    def _set_enabled(self, enabled: bool) -> None:
        for widget in (
            self.importance,
            self.tier,
            self.review,
            self.pinned,
            self.scope,
            self.sources,
            self.save_button,
            self.delete_button,
        ):
            widget.setEnabled(enabled)
        for edit in self._edits.values():
            edit.setReadOnly(not enabled)
        self.type_box.setEnabled(enabled and self._creating)

    def _set_form_shown(self, shown: bool) -> None:
        self.common_box.setVisible(shown)
        self.button_box.setVisible(shown)

    def _build_fields(self, type_id: str, values: dict[str, str]) -> None:
        while self._fields_form.rowCount():
            self._fields_form.removeRow(0)
        self._edits = {}
        node_type = NODE_TYPES.get(type_id)
        if node_type is None:
            return
        for spec in node_type.fields:
            edit: FieldEdit
            if spec.name == node_type.summary_field:
                edit = QPlainTextEdit(values.get(spec.name, ""))
                edit.setFixedHeight(72)
            else:
                edit = QLineEdit(values.get(spec.name, ""))
            label = field_label(spec.name) + (" *" if spec.required else "")
            self._fields_form.addRow(label, edit)
            self._edits[spec.name] = edit

    def _show(self, node: Node | None) -> None:
        self._node = node
        self.error.clear()
        self._describe()
        if node is None:
            self._build_fields("", {})
            self._set_enabled(False)
            self._set_form_shown(False)
            return
        self._set_form_shown(True)
        self.type_box.setCurrentIndex(self.type_box.findData(node.type))
        self._build_fields(node.type, node.fields)
        self.importance.setValue(node.importance)
        self.tier.setCurrentIndex(self.tier.findData(node.tier))
        self.review.setCurrentIndex(self.review.findData(node.review_status))
        self.pinned.setChecked(node.pinned)
        self.scope.setCurrentIndex(self.scope.findData(node.scope.kind))
        self.sources.setText(", ".join(str(i) for i in node.source_indices))
        self._set_enabled(not is_read_only(node))

    def _describe(self) -> None:
        """Heading, dates and where a lorebook memory came from: of the memory shown, a new one or none."""
        node = self._node
        if node is None:
            self.heading.setText(self.tr("New memory") if self._creating else self.tr("No memory selected"))
            self.meta.setText(
                self.tr("Fill in the fields and save.")
                if self._creating
                else self.tr("Pick a memory in the list to see and edit it.")
            )
            self.lore.hide()
            return
        self.heading.setText(node.title or node_type_label(node.type))
        self.meta.setText(
            self.tr("Created {0} · updated {1} · recalled {2}×").format(
                format_time(node.created_at), format_time(node.updated_at), node.recall_count
            )
        )
        lore = lore_of(node)
        if lore is None:
            self.lore.hide()
        else:
            self.lore.setText(
                self.tr(
                    "From the SillyTavern lorebook “{0}” (entry {1}): change it in SillyTavern's "
                    "World Info editor and it follows here."
                ).format(lore.get("book"), lore.get("uid"))
                if is_read_only(node)
                else self.tr("Imported from the World Info file “{0}” (entry {1}).").format(
                    lore.get("book"), lore.get("uid")
                )
            )
            self.lore.show()

    def _saved(self, node: Node) -> None:
        self._show(node)
        self.sigSaved.emit(node)
        self._context.sigStatus.emit(self.tr("Saved “{0}”.").format(node.title))

    def _created(self, node: Node) -> None:
        self._creating = False
        self._context.sigNodeSelected.emit(node.id)
        self._context.sigStatus.emit(self.tr("Created “{0}”.").format(node.title))

    def _deleted(self) -> None:
        self._show(None)
        self._context.sigStatus.emit(self.tr("Moved to the recycle bin (Ctrl+Z undoes it)."))

    def _failed(self, exc: Exception) -> None:
        self.error.setText(str(exc))

    def _on_change(self, event: GraphChanged) -> None:
        """Another's edit, or background work, changed the memory shown: read it again (this
        editor's own edits come back as their results: ``_saved``, ``_created``, ``_deleted``)."""
        if event.origin is self:
            return
        change, node = event.change, self._node
        if (
            node is not None
            and not self._creating
            and (node.id in change.nodes_changed or node.id in change.nodes_added)
        ):
            self.load(node.id)
        elif node is not None and node.id in change.nodes_removed:
            self._show(None)
