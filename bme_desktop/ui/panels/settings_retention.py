"""Settings → Life cycle → Retention: per memory type, the maximum age (never-recalled memories
only) and the maximum count kept per chat; core types show "no limit" and cannot take one
(``core/lifecycle/retention.py``, docs/lifecycle.md "Retention")."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QGridLayout, QLabel, QSpinBox, QVBoxLayout, QWidget

from ...core.schema import NODE_TYPES, is_core_type
from ..i18n import Retranslated
from ..labels import node_type_label
from .settings_fields import error_label

AGE_KEY = "lifecycle.retention_max_age_days"
COUNT_KEY = "lifecycle.retention_max_count"
MAX_DAYS = 36500
MAX_COUNT = 10_000_000


class RetentionBox(Retranslated, QWidget):
    """One row per memory type: maximum age (days) and maximum count; 0 shows as "no limit"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.age: dict[str, QSpinBox] = {}
        self.count: dict[str, QSpinBox] = {}
        grid = QGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        self.headers = [QLabel() for _ in range(3)]
        for column, header in enumerate(self.headers):
            grid.addWidget(header, 0, column)
        self.type_labels: dict[str, QLabel] = {}
        for row, type_id in enumerate(NODE_TYPES, start=1):
            core = is_core_type(type_id)
            self.type_labels[type_id] = QLabel()
            grid.addWidget(self.type_labels[type_id], row, 0)
            self.age[type_id] = self._spin(MAX_DAYS, core)
            self.count[type_id] = self._spin(MAX_COUNT, core)
            grid.addWidget(self.age[type_id], row, 1)
            grid.addWidget(self.count[type_id], row, 2)
        self.note = note = QLabel()
        note.setProperty("role", "muted")
        note.setWordWrap(True)
        self.error = error_label()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(grid)
        layout.addWidget(note)
        layout.addWidget(self.error)
        self.retranslate()

    def retranslate(self) -> None:
        for header, text in zip(
            self.headers,
            (
                self.tr("Memory type"),
                self.tr("Maximum age (never recalled)"),
                self.tr("Maximum count per chat"),
            ),
            strict=True,
        ):
            header.setText(text)
        for type_id, label in self.type_labels.items():
            label.setText(node_type_label(type_id))
        for spins, suffix in ((self.age, self.tr(" days")), (self.count, "")):
            for type_id, spin in spins.items():
                spin.setSpecialValueText(self.tr("no limit"))
                spin.setSuffix(suffix)
                spin.setToolTip(self.tr("Core memories are never retired.") if is_core_type(type_id) else "")
        self.note.setText(
            self.tr(
                "What a rule retires goes to the recycle bin at the next upkeep; the Patrol "
                "report says beforehand how many. Core memories (characters, rules, summaries, "
                "lasting traits), pinned memories and those written or edited by hand are never "
                "retired."
            )
        )

    @staticmethod
    def _spin(maximum: int, core: bool) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(0, maximum)
        spin.setEnabled(not core)
        return spin

    def set_values(self, ages: dict[str, float], counts: dict[str, int]) -> None:
        for type_id, spin in self.age.items():
            spin.setValue(round(ages.get(type_id, 0)))
        for type_id, spin in self.count.items():
            spin.setValue(int(counts.get(type_id, 0)))

    def values(self) -> tuple[dict[str, float], dict[str, int]]:
        """The rules as settings.json keeps them: only the types with a limit."""
        ages = {t: float(s.value()) for t, s in self.age.items() if s.isEnabled() and s.value() > 0}
        counts = {t: s.value() for t, s in self.count.items() if s.isEnabled() and s.value() > 0}
        return ages, counts

    def fill(self, lifecycle: dict[str, Any]) -> None:
        """Write the form's rules into the ``lifecycle`` section of a settings document."""
        lifecycle["retention_max_age_days"], lifecycle["retention_max_count"] = self.values()

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))
