"""The bridge token (Show / Copy / Rotate), "Install into SillyTavern…" and the connected clients in
the Settings panel."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...bridge.tokens import Token, TokenStore
from ...sillytavern.cli import bridge_connection
from ...sillytavern.install import check_sillytavern, find_users, install_extension
from ..context import AppContext
from ..i18n import Retranslated
from .settings_clients import ClientsBox


class BridgeBox(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.store = TokenStore(context.data_dir)
        self.token_edit = QLineEdit()
        self.token_edit.setReadOnly(True)
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.show_button = QPushButton()
        self.show_button.setCheckable(True)
        self.show_button.toggled.connect(self._toggle_shown)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(lambda: QApplication.clipboard().setText(self.token_edit.text()))
        self.rotate_button = QPushButton()
        self.rotate_button.setProperty("role", "danger")
        self.rotate_button.clicked.connect(self.rotate)
        self.note = QLabel()
        self.note.setProperty("role", "muted")
        self.note.setWordWrap(True)
        self.install_button = QPushButton()
        self.install_button.clicked.connect(self.choose_sillytavern)
        self.install_note = QLabel()
        self.install_note.setProperty("role", "muted")
        self.install_note.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.token_edit, 1)
        for button in (self.show_button, self.copy_button, self.rotate_button):
            row.addWidget(button)
        install = QHBoxLayout()
        install.addWidget(self.install_button)
        install.addWidget(self.install_note, 1)
        self.clients_title = QLabel()
        self.clients = ClientsBox(lambda: context.bridge)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.note)
        layout.addLayout(install)
        layout.addSpacing(8)
        layout.addWidget(self.clients_title)
        layout.addWidget(self.clients)
        self._token: Token | None = None
        self.retranslate()
        store = self.store
        context.call(
            lambda _s: store.get_or_create(),
            self._show_token,
            key=f"token-{id(self)}",
            on_error=lambda exc: self.note.setText(str(exc)),
            owner=self,
        )

    def retranslate(self) -> None:
        self.show_button.setText(self.tr("Hide") if self.show_button.isChecked() else self.tr("Show"))
        self.copy_button.setText(self.tr("Copy"))
        self.rotate_button.setText(self.tr("Rotate"))
        self.rotate_button.setToolTip(self.tr("Make a new token; SillyTavern needs the new one."))
        self.install_button.setText(self.tr("Install into SillyTavern…"))
        self.clients_title.setText(self.tr("Connected frontends"))
        if self._token is not None:
            self._show_token(self._token)

    def _toggle_shown(self, shown: bool) -> None:
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password)
        self.show_button.setText(self.tr("Hide") if shown else self.tr("Show"))

    def _show_token(self, token: Token) -> None:
        self._token = token
        self.token_edit.setText(token.value)
        where = {
            "env": self.tr("from the environment variable {0}"),
            "keyring": self.tr("in the system keyring"),
            "file": self.tr(
                "in a file in the data folder, readable only by you (no system keyring works here)"
            ),
        }[token.source]
        self.note.setText(
            self.tr("SillyTavern's extension needs this token. It is kept {0}.").format(
                where.format(token.where)
            )
        )
        self.note.setToolTip(token.where)

    def rotate(self) -> None:
        store = self.store
        self.rotate_button.setEnabled(False)

        def done(token: Token) -> None:
            self.rotate_button.setEnabled(True)
            self._show_token(token)
            self._context.sigStatus.emit(
                self.tr("New bridge token: a running bridge accepts only it within a few seconds.")
            )

        def failed(exc: Exception) -> None:
            self.rotate_button.setEnabled(True)
            self.note.setText(self.tr("Cannot rotate: {0}").format(exc))

        self._context.call(lambda _s: store.rotate(), done, on_error=failed, owner=self)

    def choose_sillytavern(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Choose the SillyTavern folder"), str(Path.home())
        )
        if folder:
            self.install(Path(folder))

    def install(self, st_root: Path, user: str | None = None) -> None:
        users = find_users(st_root)
        if not users:
            self.install_note.setText(
                self.tr("{0} has no data/<user> folder: is it the SillyTavern folder?").format(st_root)
            )
            return
        if user is None:
            user = users[0]
            if len(users) > 1:
                user, ok = QInputDialog.getItem(
                    self, self.tr("SillyTavern user"), self.tr("Install for which user?"), users, 0, False
                )
                if not ok:
                    return
        chosen = user

        data_dir = self._context.data_dir

        def done(target: Path) -> None:
            self.install_note.setText(
                self.tr(
                    "Installed in {0} and paired with this bridge. Reload SillyTavern: "
                    "the extension connects by itself."
                ).format(target)
            )

        def failed(exc: Exception) -> None:
            self.install_note.setText(self.tr("Not installed: {0}").format(exc))

        def work(_s: object) -> Path:  # on a worker: reads package.json, the token store, writes files
            check_sillytavern(st_root)
            return install_extension(st_root, chosen, connection=bridge_connection(data_dir))

        self._context.call(work, done, on_error=failed, owner=self)
