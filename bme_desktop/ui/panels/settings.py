"""Settings panel: a form generated from the typed settings (``core/settings.py``), one tab per
section, each with Reset; Save validates everything first and writes settings.json only when
every value is allowed, otherwise it names the field under the field itself."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ...core.secrets import PROXY_UPSTREAM_KEY
from ...core.settings import Settings, SettingsError, save_settings, settings_from_json
from ..context import AppContext
from ..format import format_count
from ..i18n import Retranslated
from ..lifetime import subscribe
from ..panel_tabs import SETTINGS_TABS
from .settings_bridge import BridgeBox
from .settings_endpoint import EndpointBox
from .settings_fields import FieldEditor, section_editors
from .settings_labels import field_label, section_label
from .settings_retention import AGE_KEY, COUNT_KEY, RetentionBox

SECTION_COLUMNS = 5  # the section buttons: two rows of five (nine sections)

SECTIONS = SETTINGS_TABS  # one tab per section; ``--panel settings:bridge`` opens one by its key


def _retention(settings: Settings) -> tuple[Any, ...]:
    life = settings.lifecycle
    return life.retention_max_age_days, life.retention_max_count, life.max_memories_per_chat


class SettingsPanel(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.editors: dict[str, FieldEditor] = {}
        self.tabs = QTabWidget()
        # nine sections do not fit one row of tabs in a dock (the last ones hid behind scroll
        # arrows): the sections are a grid of checkable buttons over the pages instead
        self.tabs.tabBar().hide()
        self.sections = QButtonGroup(self)
        self.sections.setExclusive(True)
        self.sections.idClicked.connect(self.tabs.setCurrentIndex)
        self.tabs.currentChanged.connect(self._section_shown)
        self._tab_of: dict[str, int] = {}
        self._forms: dict[str, QFormLayout] = {}
        self._extras: dict[str, QWidget] = {}
        self._resets: list[QPushButton] = []
        classes = {f.name: f.type for f in dataclasses.fields(Settings)}
        defaults = Settings()
        for section in SECTIONS:
            cls = type(getattr(defaults, section))
            self._add_section(section, cls, classes)
        self.save_button = QPushButton()
        self.save_button.setProperty("role", "primary")
        self.save_button.clicked.connect(self.save)
        self.revert_button = revert = QPushButton()
        revert.clicked.connect(lambda: self.load(self._context.settings))
        self.status = QLabel()
        self.status.setProperty("role", "muted")
        self.status.setWordWrap(True)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(revert)
        bottom.addWidget(self.save_button)
        grid = QGridLayout()
        grid.setSpacing(4)
        for index, button in enumerate(self.sections.buttons()):
            grid.addWidget(button, index // SECTION_COLUMNS, index % SECTION_COLUMNS)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(grid)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(bottom)
        self.load(context.settings)
        theme = self.editors["appearance.theme"].input
        assert isinstance(theme, QComboBox)
        theme.currentIndexChanged.connect(lambda _i: self._preview_theme(theme.currentData()))
        subscribe(self, context.themes.sigThemeChanged, lambda t: self._follow_theme(theme, t.name))
        self.retranslate()

    def retranslate(self) -> None:
        """Tabs, labels and buttons in the current language; what is typed in the form stays."""
        self.save_button.setText(self.tr("Save"))
        self.revert_button.setText(self.tr("Revert"))
        self.revert_button.setToolTip(self.tr("Show the saved settings again"))
        extra_labels = {"bridge": self.tr("Token"), "lifecycle": self.tr("Retention")}
        for section, form in self._forms.items():
            self.tabs.setTabText(self._tab_of[section], section_label(section))
            self.sections.button(self._tab_of[section]).setText(section_label(section))
            for key, editor in self.editors.items():
                if key.startswith(section + "."):
                    self._relabel(form, editor, field_label(key))
            if section in self._extras:
                self._relabel(form, self._extras[section], extra_labels.get(section, self.tr("API key")))
        for reset in self._resets:
            reset.setText(self.tr("Reset this section"))
            reset.setToolTip(self.tr("Put the defaults back in the form (saved only with Save)"))
        self.bridge_note.setText(self.tr("Host and port changes apply at the next start."))

    @staticmethod
    def _relabel(form: QFormLayout, field: QWidget, text: str) -> None:
        label = form.labelForField(field)
        if isinstance(label, QLabel):
            label.setText(text)

    def _add_section(self, section: str, cls: type[Any], _classes: dict[str, Any]) -> None:
        page = QWidget()
        form = QFormLayout(page)
        form.setRowWrapPolicy(
            QFormLayout.RowWrapPolicy.WrapLongRows
        )  # a narrow dock: fields under their labels
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self._forms[section] = form
        editors = section_editors(section, cls)
        for editor in editors:
            self.editors[editor.key] = editor
            form.addRow(QLabel(), editor)
        extra = self._extra(section)
        if extra is not None:
            self._extras[section] = extra
            form.addRow(QLabel(), extra)
        reset = QPushButton()
        self._resets.append(reset)
        reset.clicked.connect(lambda: self.reset_section(section))
        row = QHBoxLayout()
        row.addWidget(reset)
        row.addStretch(1)
        form.addRow("", row)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(page)
        self._tab_of[section] = self.tabs.addTab(scroll, "")
        button = QToolButton()
        button.setCheckable(True)
        button.setChecked(self._tab_of[section] == 0)
        button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.sections.addButton(button, self._tab_of[section])

    def _section_shown(self, index: int) -> None:
        button = self.sections.button(index)
        if button is not None:
            button.setChecked(True)

    def _extra(self, section: str) -> QWidget | None:
        if section in ("llm", "embedding"):
            box = EndpointBox(self._context, section, self._endpoint_values(section))
            setattr(self, f"{section}_endpoint", box)
            return box
        if section == "proxy":
            self.proxy_endpoint = EndpointBox(
                self._context, "proxy", self._proxy_values, key_name=PROXY_UPSTREAM_KEY
            )
            return self.proxy_endpoint
        if section == "lifecycle":
            self.retention_box = RetentionBox()
            return self.retention_box
        if section == "bridge":
            self.bridge_box = BridgeBox(self._context)
            holder = QWidget()
            layout = QVBoxLayout(holder)
            layout.setContentsMargins(0, 8, 0, 0)
            self.bridge_note = note = QLabel()
            note.setProperty("role", "muted")
            layout.addWidget(note)
            layout.addWidget(self.bridge_box)
            return holder
        return None

    def _endpoint_values(self, section: str) -> Callable[[], tuple[str, str, int]]:
        def values() -> tuple[str, str, int]:
            batch = self.editors.get(f"{section}.batch_size")
            return (
                str(self.editors[f"{section}.base_url"].value()),
                str(self.editors[f"{section}.model"].value()),
                int(batch.value()) if batch is not None else 1,
            )

        return values

    def _proxy_values(self) -> tuple[str, str, int]:
        """The upstream URL, and the first mapped upstream model (checked against its list)."""
        entries = self.editors["proxy.model_map"].value() or []
        model = next((e.partition("=")[2].strip() for e in entries if "=" in e), "")
        return str(self.editors["proxy.upstream_base_url"].value()), model, 1

    def show_tab(self, section: str) -> bool:
        """Bring the tab of ``section`` (a key of ``SECTIONS``) to the front; False if there is none."""
        if section not in self._tab_of:
            return False
        self.tabs.setCurrentIndex(self._tab_of[section])
        return True

    # form <-> settings -----------------------------------------------------------------------
    def load(self, settings: Settings) -> None:
        data = settings.to_json()
        for key, editor in self.editors.items():
            section, name = key.split(".", 1)
            editor.set_value(data[section][name])
            editor.show_error("")
        self.retention_box.set_values(
            settings.lifecycle.retention_max_age_days, settings.lifecycle.retention_max_count
        )
        self.retention_box.show_error("")

    def reset_section(self, section: str) -> None:
        for key, editor in self.editors.items():
            if key.startswith(section + "."):
                editor.set_value(editor.default)
                editor.show_error("")
        if section == "lifecycle":
            self.retention_box.set_values({}, {})
            self.retention_box.show_error("")

    def form_data(self) -> dict[str, Any]:
        data = self._context.settings.to_json()
        for key, editor in self.editors.items():
            section, name = key.split(".", 1)
            data[section][name] = editor.value()
        self.retention_box.fill(data["lifecycle"])
        return data

    def save(self) -> bool:
        """Validate the whole form; write settings.json and the typed API keys only if all is valid."""
        for editor in self.editors.values():
            editor.show_error("")
        self.retention_box.show_error("")
        try:
            new = settings_from_json(self.form_data())
        except SettingsError as exc:
            self._refuse(str(exc))
            return False
        context = self._context
        old_language = context.settings.appearance.language
        old_retention = _retention(context.settings)
        save_settings(context.data_dir, new)
        for section in SECTIONS:  # in place: the service holds the same Settings object
            setattr(context.settings, section, getattr(new, section))
        self.status.setText(self.tr("Saved."))
        if _retention(new) != old_retention and context.chat_id:
            self._preview_retention(context.chat_id)
        self._save_keys()
        language = new.appearance.language
        window = self.window()
        if language != old_language and language != "auto" and hasattr(window, "sigLanguageRequested"):
            QTimer.singleShot(0, lambda: window.sigLanguageRequested.emit(language))
        return True

    def _preview_retention(self, chat_id: str) -> None:
        """Changed retention rules say at once what the next upkeep will retire in the open chat."""

        def show(preview: dict[str, Any]) -> None:
            if preview.get("refused"):
                self.status.setText(
                    self.tr(
                        "Saved. In this chat the retention rules are refused: they would "
                        "retire every memory of a type (see Patrol); nothing will be retired."
                    )
                )
            else:
                self.status.setText(
                    self.tr(
                        "Saved. The next upkeep retires {0} memories of this chat to the "
                        "recycle bin (listed in Patrol)."
                    ).format(format_count(int(preview.get("total", 0))))
                )

        self._context.call(
            lambda s: s.retention_preview(chat_id), show, key=f"retention-{id(self)}", owner=self
        )

    def _refuse(self, message: str) -> None:
        key = message.split(" ", 1)[0]
        editor = self.editors.get(key)
        if key.startswith((AGE_KEY + ".", COUNT_KEY + ".")):
            self.retention_box.show_error(message)
            self.tabs.setCurrentIndex(self._tab_of["lifecycle"])
            self.status.setText(self.tr("Not saved: a retention rule needs a different value."))
            return
        if editor is None:
            self.status.setText(self.tr("Not saved: {0}").format(message))
            return
        meta = editor.meta
        text = (
            self.tr("Must be between {0} and {1}.").format(meta["min"], meta["max"])
            if "min" in meta and "max" in meta
            else message
        )
        editor.show_error(text)
        self.tabs.setCurrentIndex(self._tab_of[key.split(".", 1)[0]])
        self.status.setText(self.tr("Not saved: “{0}” needs a different value.").format(field_label(key)))

    def _save_keys(self) -> None:
        boxes = (self.llm_endpoint, self.embedding_endpoint, self.proxy_endpoint)
        savers = [s for s in (box.key_saver() for box in boxes) if s is not None]
        if not savers:
            return

        def done(_result: object) -> None:
            for box in boxes:
                box.key_edit.clear()
                box.refresh()

        def failed(exc: Exception) -> None:
            self.status.setText(self.tr("Settings saved, but the API key was not: {0}").format(exc))

        self._context.call(lambda _s: [saver() for saver in savers], done, on_error=failed, owner=self)

    def _preview_theme(self, name: str) -> None:
        if name and name != self._context.themes.current.name:
            self._context.themes.apply(name)

    def _follow_theme(self, combo: QComboBox, name: str) -> None:
        """The View menu switched theme: show it here without treating it as an edit."""
        combo.blockSignals(True)
        combo.setCurrentIndex(max(0, combo.findData(name)))
        combo.blockSignals(False)

    llm_endpoint: EndpointBox
    embedding_endpoint: EndpointBox
    proxy_endpoint: EndpointBox
    bridge_box: BridgeBox
    bridge_note: QLabel
    retention_box: RetentionBox
