"""Field editors generated from a settings dataclass field: its type and ``metadata`` bounds
(``min``/``max`` → a spin box with that range) and ``choices`` (→ a combo box)."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..i18n import Retranslated
from .settings_labels import choice_label, unit_suffix

INT_LIMIT = 2_000_000_000


def _unwrap(kind: Any) -> tuple[Any, bool]:
    """The type without ``| None``, and whether None was allowed."""
    if typing.get_origin(kind) in (types.UnionType, typing.Union):
        args = [a for a in typing.get_args(kind) if a is not type(None)]
        return args[0], True
    return kind, False


def _decimals(meta: typing.Mapping[str, Any]) -> int:
    low = float(meta.get("min", 1.0))
    return 4 if 0 < low < 0.01 else 2


def error_label() -> QLabel:
    """The hidden warning line under a setting, shown after a refused Save."""
    label = QLabel()
    label.setProperty("role", "warning")
    label.setWordWrap(True)
    label.hide()
    return label


class FieldEditor(Retranslated, QWidget):
    """One setting: the input widget and, under it, the error shown after a refused Save."""

    def __init__(
        self, key: str, field: dataclasses.Field[Any], kind: Any, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.key = key
        self.meta = field.metadata
        self.kind, self.optional = _unwrap(kind)
        self.default: Any = (
            field.default_factory() if field.default_factory is not dataclasses.MISSING else field.default
        )
        self.input = self._make_input(key.rsplit(".", 1)[-1])
        self.error = error_label()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.input)
        layout.addWidget(self.error)
        self.retranslate()

    def retranslate(self) -> None:
        """Choice names and units in the current language (the value stays)."""
        w, name = self.input, self.key.rsplit(".", 1)[-1]
        if isinstance(w, QComboBox):
            for i in range(w.count()):
                w.setItemText(i, choice_label(w.itemData(i)))
        elif isinstance(w, QSpinBox | QDoubleSpinBox):
            w.setSuffix(unit_suffix(name))

    def _make_input(self, name: str) -> QWidget:
        meta = self.meta
        if self.kind is bool:
            return QCheckBox()
        if "choices" in meta:
            combo = QComboBox()
            for value in meta["choices"]:
                combo.addItem("", value)
            return combo
        if self.kind is int:
            spin = QSpinBox()
            spin.setRange(int(meta.get("min", -INT_LIMIT)), int(meta.get("max", INT_LIMIT)))
            return spin
        if self.kind is float:
            dspin = QDoubleSpinBox()
            dspin.setDecimals(_decimals(meta))
            dspin.setRange(float(meta.get("min", -1e12)), float(meta.get("max", 1e12)))
            dspin.setSingleStep(0.05 if float(meta.get("max", 100.0)) <= 2.0 else 1.0)
            return dspin
        if typing.get_origin(self.kind) is list:
            text = QPlainTextEdit()
            text.setFixedHeight(
                72
            )  # and a fixed policy: an expanding one made its form row take the spare height
            text.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
            return text
        return QLineEdit()

    def value(self) -> Any:
        w = self.input
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            return w.currentData()
        if isinstance(w, QSpinBox | QDoubleSpinBox):
            return w.value()
        if isinstance(w, QPlainTextEdit):
            lines = [line.strip() for line in w.toPlainText().splitlines() if line.strip()]
            return None if self.optional and not lines else lines
        assert isinstance(w, QLineEdit)
        text = w.text().strip()
        return None if self.optional and not text else text

    def set_value(self, value: Any) -> None:
        w = self.input
        if isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QComboBox):
            w.setCurrentIndex(max(0, w.findData(value)))
        elif isinstance(w, QSpinBox):
            w.setValue(int(value))
        elif isinstance(w, QDoubleSpinBox):
            w.setValue(float(value))
        elif isinstance(w, QPlainTextEdit):
            w.setPlainText("\n".join(value or []))
        elif isinstance(w, QLineEdit):
            w.setText("" if value is None else str(value))

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))


def section_editors(prefix: str, cls: type[Any]) -> list[FieldEditor]:
    """One editor per field of the settings section ``cls`` (keys ``prefix.field``); mappings
    (the retention rules) have a box of their own."""
    hints = typing.get_type_hints(cls)
    return [
        FieldEditor(f"{prefix}.{f.name}", f, hints[f.name])
        for f in dataclasses.fields(cls)
        if typing.get_origin(hints[f.name]) is not dict
    ]
