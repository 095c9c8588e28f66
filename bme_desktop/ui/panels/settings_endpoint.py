"""The API key and "Test connection" rows of the language model and embedding sections.

Keys go to the OS keyring (or, where none works and the user agrees, a user-only file);
connection tests run on a worker with the values in the form, saved or not."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from ...core.providers import ConnectionReport, EmbeddingClient, EmbeddingConfig, LLMClient, LLMConfig
from ...core.secrets import ApiKeyStore, StoredKey
from ..context import AppContext
from ..i18n import Retranslated


def test_endpoint(
    kind: str, base_url: str, model: str, api_key: str | None, batch_size: int = 1
) -> ConnectionReport:
    """Blocking HTTP: run on a worker. The proxy's upstream is an OpenAI-compatible chat endpoint."""
    if kind in ("llm", "proxy"):
        return LLMClient(LLMConfig(base_url=base_url, model=model, api_key=api_key)).test_connection()
    return EmbeddingClient(
        EmbeddingConfig(base_url=base_url, model=model, api_key=api_key, batch_size=max(1, batch_size))
    ).test_connection()


class EndpointBox(Retranslated, QWidget):
    """``kind`` is "llm", "embedding" or "proxy" (the proxy's upstream); ``values()`` gives
    (base_url, model, batch size) from the form; ``key_name`` the secret's name."""

    def __init__(
        self,
        context: AppContext,
        kind: str,
        values: Callable[[], tuple[str, str, int]],
        parent: QWidget | None = None,
        *,
        key_name: str | None = None,
    ) -> None:
        super().__init__(parent)
        self._context, self.kind, self._values = context, kind, values
        self.key_name = key_name or f"{kind}-api-key"
        self.store = ApiKeyStore(context.data_dir)
        self.stored = StoredKey(None, "none")
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_note = QLabel()
        self.key_note.setProperty("role", "muted")
        self.key_note.setWordWrap(True)
        self.file_ok = QCheckBox()
        self.file_ok.hide()
        self.test_button = QPushButton()
        self.test_button.clicked.connect(self.test)
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setProperty("role", "muted")
        row = QHBoxLayout()
        row.addWidget(self.test_button)
        row.addWidget(self.result, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.key_edit)
        layout.addWidget(self.key_note)
        layout.addWidget(self.file_ok)
        layout.addLayout(row)
        self._model = ""
        self._key_state: tuple[bool, StoredKey] | None = None
        self.retranslate()
        self.refresh()

    def retranslate(self) -> None:
        self.key_edit.setPlaceholderText(
            QCoreApplication.translate("SettingsPanel", "Upstream API key (kept in the system keyring)")
            if self.kind == "proxy"
            else self.tr("API key (kept in the system keyring)")
        )
        self.file_ok.setText(self.tr("Keep API keys in a file only you can read"))
        self.test_button.setText(self.tr("Test connection"))
        if self._key_state is not None:
            self._loaded(self._key_state)

    def refresh(self) -> None:
        store, name = self.store, self.key_name
        self._context.call(
            lambda _s: (store.keyring() is not None, store.load(name)),
            self._loaded,
            key=f"apikey-{id(self)}",
            on_error=lambda exc: self.key_note.setText(str(exc)),
            owner=self,
        )

    def _loaded(self, result: tuple[bool, StoredKey]) -> None:
        self._key_state = result
        has_keyring, self.stored = result
        self.file_ok.setVisible(not has_keyring)
        if self.stored.source == "file":
            self.file_ok.setChecked(True)
        if has_keyring:
            note = (
                self.tr("A key is stored in the system keyring.")
                if self.stored.value
                else self.tr("No key stored.")
            )
        else:
            note = self.tr(
                "No system keyring works here. Tick the box to keep the key in a file in the data "
                "folder instead."
            )
            if self.stored.value:
                note = self.tr("A key is stored in a file in the data folder that only you can read.")
        self.key_note.setText(note)
        self.key_note.setToolTip(str(self.store.file(self.key_name)))

    def pending_key(self) -> str | None:
        """The key typed since the last save, or None when the field was left empty."""
        return self.key_edit.text().strip() or None

    def key_saver(self) -> Callable[[], str] | None:
        """A blocking function (keyring) storing the typed key, for the save worker; None if none was
        typed."""
        key, store, name, allow_file = self.pending_key(), self.store, self.key_name, self.file_ok.isChecked()
        if key is None:
            return None
        return lambda: store.store(name, key, allow_file=allow_file)

    def test(self) -> None:
        base_url, model, batch = self._values()
        if not base_url:
            self.result.setText(self.tr("Enter the endpoint URL first."))
            return
        key = self.pending_key() or self.stored.value
        kind = self.kind
        self.test_button.setEnabled(False)
        self.result.setText(self.tr("Testing…"))
        self._model = model
        self._context.call(
            lambda _s: test_endpoint(kind, base_url, model, key, batch),
            self._tested,
            key=f"test-{id(self)}",
            on_error=lambda exc: self._show(self.tr("Failed: {0}").format(exc)),
            owner=self,
        )

    def _tested(self, report: ConnectionReport) -> None:
        if not report.ok:
            self._show(self.tr("Failed: {0}").format(report.error))
            return
        text = self.tr("Connected in {0} s.").format(f"{report.latency:.2f}")
        if report.dim:
            text += " " + self.tr("Vectors have {0} dimensions.").format(report.dim)
        if report.model_listed is False and self._model:
            text += " " + self.tr("The model is not in the endpoint's list.")
        self._show(text)

    def _show(self, text: str) -> None:
        self.test_button.setEnabled(True)
        self.result.setText(text)
