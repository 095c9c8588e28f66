"""Actions → Export / Import / Backup / Restore: a dialog for the path (and passphrase), then
the file work on a worker (``actions_io``) with a progress bar, a Cancel button (the work
stops before it writes anything) and a result line. After an import or restore the chat
switcher is told the chats changed."""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QFileDialog, QGridLayout, QInputDialog, QLabel, QLineEdit, QWidget

from ...core.backup.files import backup_dir
from ...core.backup.importer import ImportResult
from ...core.backup.memory_import import ImportPlan
from ...core.backup.purge import PurgeResult
from ...core.backup.retention import backup_name
from ...core.backup.schedule import BackupStatus, backup_status
from ...core.backup.stream import open_backup
from ...core.backup.validate import ChatDoc
from ...core.cancel import Cancelled, CancelToken
from ...core.scopes import SCOPE_KINDS
from ...core.service import MemoryService
from ..context import AppContext
from ..format import format_count
from ..i18n import Retranslated
from ..labels import scope_label
from ..lifetime import subscribe
from . import actions_io as io
from .actions import ActionRow, ActionSpec
from .import_preview import ImportPreviewDialog, plan_text

FILE_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "export",
        lambda: QCoreApplication.translate("Actions", "Export chat…"),
        lambda: QCoreApplication.translate("Actions", "Save the open chat as JSON, GraphML or GEXF."),
    ),
    ActionSpec(
        "import",
        lambda: QCoreApplication.translate("Actions", "Import…"),
        lambda: QCoreApplication.translate(
            "Actions", "Add the chats of a JSON export; nothing is overwritten."
        ),
    ),
    ActionSpec(
        "import_memories",
        lambda: QCoreApplication.translate("Actions", "Import memories…"),
        lambda: QCoreApplication.translate(
            "Actions",
            "See what a file would bring (new, updated, skipped, merged), then import it memory by memory.",
        ),
    ),
    ActionSpec(
        "import_worldinfo",
        lambda: QCoreApplication.translate("Actions", "Import SillyTavern World Info…"),
        lambda: QCoreApplication.translate(
            "Actions",
            "Add a lorebook's entries (or a character card's book) to the open chat's memories, in the scope "
            "you choose.",
        ),
    ),
    ActionSpec(
        "backup",
        lambda: QCoreApplication.translate("Actions", "Back up all…"),
        lambda: QCoreApplication.translate(
            "Actions", "Save every chat in one file, encrypted if you give a passphrase."
        ),
    ),
    ActionSpec(
        "restore",
        lambda: QCoreApplication.translate("Actions", "Restore…"),
        lambda: QCoreApplication.translate(
            "Actions", "Bring back the chats of a backup; chats you have are kept."
        ),
    ),
    ActionSpec(
        "purge",
        lambda: QCoreApplication.translate("Actions", "Purge everything…"),
        lambda: QCoreApplication.translate(
            "Actions", "Delete every chat and memory for good, then compact the database."
        ),
    ),
)
PURGE_WORD = "PURGE"  # typed to confirm a purge, in every language


def when_text(ts: float | None) -> str:
    if ts is None:
        return QCoreApplication.translate("Actions", "none yet")
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


def schedule_text(status: BackupStatus) -> str:
    """The Actions panel's line about scheduled backups: the last one and the next one."""
    last = when_text(status.last)
    if not status.scheduled:
        text = QCoreApplication.translate(
            "Actions", "Last backup: {0} · scheduled backups are off (Settings → Backup)."
        ).format(last)
    else:
        text = QCoreApplication.translate("Actions", "Last backup: {0} · next: {1}.").format(
            last, when_text(status.next)
        )
    if status.outcome == "skipped":
        text += " " + QCoreApplication.translate(
            "Actions", "The last scheduled backup was skipped: {0}"
        ).format(status.message)
    elif status.outcome == "failed":
        text += " " + QCoreApplication.translate("Actions", "The last scheduled backup failed: {0}").format(
            status.message
        )
    return text


def purge_text(result: PurgeResult) -> str:
    return QCoreApplication.translate(
        "Actions", "Purged {0} chats ({1} rows); the database went from {2} KB to {3} KB."
    ).format(
        format_count(len(result.chats)),
        format_count(result.rows),
        format_count(result.database_before // 1024),
        format_count(result.database_after // 1024),
    )


def import_text(result: ImportResult) -> str:
    if not result.imported:
        text = QCoreApplication.translate("Actions", "Nothing imported.")
    else:
        text = QCoreApplication.translate(
            "Actions", "Imported {0}: {1} memories, {2} links, {3} messages."
        ).format(
            ", ".join(result.imported),
            format_count(result.nodes),
            format_count(result.edges),
            format_count(result.messages),
        )
    if result.skipped:
        text += " " + QCoreApplication.translate("Actions", "Kept the chats you already had: {0}.").format(
            ", ".join(result.skipped)
        )
    return text


class FileActions(Retranslated, QWidget):
    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setColumnStretch(1, 1)
        grid.setVerticalSpacing(10)
        runs: dict[str, Callable[[], None]] = {
            "export": self.export,
            "import": self.import_file,
            "backup": self.backup,
            "restore": self.restore,
            "purge": self.purge,
            "import_memories": self.import_memories,
            "import_worldinfo": self.import_worldinfo,
        }
        self.rows = {
            spec.key: ActionRow(spec, grid, i, lambda key: runs[key]()) for i, spec in enumerate(FILE_ACTIONS)
        }
        self._tokens: dict[str, CancelToken] = {}
        self.import_dialog: ImportPreviewDialog | None = None
        for key, row in self.rows.items():
            row.cancel.clicked.connect(lambda _checked=False, key=key: self.cancel(key))
        self.schedule_line = QLabel()
        self.schedule_line.setProperty("role", "muted")
        self.schedule_line.setWordWrap(True)
        grid.addWidget(self.schedule_line, len(FILE_ACTIONS), 0, 1, 3)
        self._schedule_timer = QTimer(self)
        self._schedule_timer.setInterval(60_000)
        self._schedule_timer.timeout.connect(self.refresh_schedule)
        self._schedule_timer.start()
        subscribe(self, context.sigChatChanged, lambda _c: self.update_availability())
        self._schedule: BackupStatus | None = None
        self.retranslate()
        self.refresh_schedule()

    def retranslate(self) -> None:
        for key, row in self.rows.items():
            row.retranslate()
            row.set_cancel_hint(
                self.tr("Stop before anything is written; nothing changes.") if key != "purge" else ""
            )
        self.update_availability()
        if self._schedule is not None:
            self._show_schedule(self._schedule)

    def refresh_schedule(self) -> None:
        """The last and next scheduled backup, read on a worker."""
        data_dir, settings = self._context.data_dir, self._context.settings.backup
        self._context.call(
            lambda s: backup_status(data_dir, settings, s.now()), self._show_schedule, owner=self
        )

    def _show_schedule(self, status: BackupStatus) -> None:
        self._schedule = status
        self.schedule_line.setText(schedule_text(status))

    def update_availability(self) -> None:
        for key in ("export", "import_worldinfo"):
            row = self.rows[key]
            if not row.progress.isVisible():
                row.set_available(bool(self._context.chat_id), self.tr("Open a chat first."))

    # dialogs -------------------------------------------------------------------------------
    def _passphrase(self, title: str, label: str) -> str | None:
        """The typed passphrase, "" for none, None when cancelled."""
        text, ok = QInputDialog.getText(self, title, label, QLineEdit.EchoMode.Password)
        return text if ok else None

    def export(self) -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            return
        filters = ";;".join(
            (self.tr("JSON export (*.json)"), self.tr("GraphML (*.graphml)"), self.tr("GEXF (*.gexf)"))
        )
        path, chosen = QFileDialog.getSaveFileName(self, self.tr("Export chat"), f"{chat_id}.json", filters)
        if not path:
            return
        fallback: io.ExportFormat = (
            "graphml" if "graphml" in chosen else "gexf" if "gexf" in chosen else "json"
        )
        fmt = io.format_of(path, fallback)
        if not path.lower().endswith(io.EXTENSIONS[fmt]):
            path += io.EXTENSIONS[fmt]
        self._run(
            "export",
            lambda s, c: io.export_chat(s, chat_id, Path(path), fmt, c),
            lambda w: self._written("export", w),
        )

    def import_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import a JSON export"), "", self.tr("JSON export (*.json);;All files (*)")
        )
        if path:
            self._run(
                "import",
                lambda s, c: io.import_as_new(s, Path(path), c),
                lambda r: self._imported("import", r),
                writes=True,
            )

    def backup(self) -> None:
        suggested = backup_dir(self._context.data_dir) / backup_name(datetime.now(UTC), encrypted=True)
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Back up all chats"),
            str(suggested),
            self.tr("Backups (*.bmebak *.json.gz);;All files (*)"),
        )
        if not path:
            return
        passphrase = self._passphrase(
            self.tr("Back up all chats"), self.tr("Passphrase (leave empty for an unencrypted backup):")
        )
        if passphrase is None:
            return
        if (
            passphrase
            and self._passphrase(self.tr("Back up all chats"), self.tr("The passphrase again:")) != passphrase
        ):
            self.rows["backup"].show_result(self.tr("The passphrases differ; nothing was written."), False)
            return
        if not passphrase and path.endswith(".bmebak"):
            path = path[: -len(".bmebak")] + ".json.gz"
        secret = passphrase or None
        self._run(
            "backup",
            lambda s, c: io.backup_all(s, Path(path), secret, c),
            lambda w: self._written("backup", w),
        )

    def restore(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Restore a backup"),
            str(backup_dir(self._context.data_dir)),
            self.tr("Backups and exports (*.bmebak *.gz *.json);;All files (*)"),
        )
        if not path:
            return

        def checked(encrypted: bool) -> None:
            if self._tokens["restore"].cancelled:  # only the file's first bytes were read
                self._finish("restore", self.tr("Cancelled; nothing was changed."), True)
                return
            passphrase: str | None = None
            if encrypted:
                passphrase = self._passphrase(
                    self.tr("Restore a backup"), self.tr("This backup is encrypted. Passphrase:")
                )
                if not passphrase:
                    self._finish("restore", self.tr("Cancelled; nothing was changed."), True)
                    return
            self._run(
                "restore",
                lambda s, c: io.restore_from(s, Path(path), passphrase, c),
                lambda r: self._imported("restore", r),
                writes=True,
            )

        self._run("restore", lambda _s, _c: io.needs_passphrase(Path(path)), checked)

    def import_memories(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import memories"), "", self.tr("JSON export (*.json);;All files (*)")
        )
        if path:
            self._run("import_memories", lambda _s, _c: open_backup(Path(path), None), self._preview)

    def import_worldinfo(self, path: str | None = None, kind: str | None = None) -> None:
        """A World Info file (or a character card) into the open chat, in a scope asked for."""
        chat_id = self._context.chat_id
        if not chat_id:
            return
        if path is None:
            path, _ = QFileDialog.getOpenFileName(
                self,
                self.tr("Import SillyTavern World Info"),
                "",
                self.tr("World Info and character cards (*.json *.png);;All files (*)"),
            )
        if not path:
            return
        if kind is None:
            labels = [scope_label(k) for k in SCOPE_KINDS]
            label, ok = QInputDialog.getItem(
                self,
                self.tr("Import SillyTavern World Info"),
                self.tr("Who remembers the entries:"),
                labels,
                labels.index(scope_label("world")),
                False,
            )
            if not ok:
                return
            kind = SCOPE_KINDS[labels.index(label)]
        chosen = kind
        self._run(
            "import_worldinfo",
            lambda s, c: io.import_worldinfo(s, chat_id, Path(path), chosen, c),
            lambda r: self._worldinfo_imported(chat_id, r),
            writes=True,
        )

    def _worldinfo_imported(self, chat_id: str, result: io.WorldInfoImported) -> None:
        text = self.tr("Added {0} memories from “{1}”.").format(format_count(result.added), result.book)
        if result.skipped:
            text += " " + self.tr("{0} were here already.").format(format_count(result.skipped))
        if result.disabled:
            text += " " + self.tr("{0} switched off in the file were left out.").format(
                format_count(result.disabled)
            )
        self._finish("import_worldinfo", text, True)
        self._context.events.sigChatsChanged.emit(chat_id)

    def _preview(self, chats: Collection[ChatDoc]) -> None:
        row = self.rows["import_memories"]
        row.set_running(False)
        row.set_available(True, "")
        self.import_dialog = ImportPreviewDialog(self._context, chats, self._memories_imported, self)
        self.import_dialog.open()

    def _memories_imported(self, plan: ImportPlan) -> None:
        self._finish(
            "import_memories", self.tr("Imported: {0}").format(plan_text(plan).splitlines()[0]), True
        )
        for chat_id in {e.split(": ", 1)[0] for o in plan.examples.values() for e in o} | set(plan.new_chats):
            self._context.events.sigChatsChanged.emit(chat_id)

    def purge(self) -> None:
        text, ok = QInputDialog.getText(
            self,
            self.tr("Purge everything"),
            self.tr(
                "Every chat and memory is deleted for good: no recycle bin, no undo. Make a backup first if "
                "you may want them back.\n\nType {0} to confirm:"
            ).format(PURGE_WORD),
        )
        if not ok:
            return
        if text.strip() != PURGE_WORD:
            self.rows["purge"].show_result(self.tr("Not confirmed; nothing was deleted."), False)
            return
        self._run("purge", lambda s, _c: s.purge_all().value, self._purged, writes=True)

    def _purged(self, result: PurgeResult) -> None:
        self._finish("purge", purge_text(result), True)
        for chat_id in result.chats:
            self._context.events.sigChatsChanged.emit(chat_id)

    # running -------------------------------------------------------------------------------
    def _run(
        self,
        key: str,
        work: Callable[[MemoryService, CancelToken], Any],
        done: Callable[[Any], None],
        *,
        writes: bool = False,
    ) -> None:
        """Run ``work`` on a worker; one that ``writes`` memories runs as one operation through
        the app's runner (``AppContext.operate``: its changes carry this panel, the Edit menu's
        steps are refreshed after it)."""
        token = self._tokens[key] = CancelToken()
        self.rows[key].set_running(True)

        def ok(result: Any) -> None:
            self.rows[key].set_running(False)
            done(result)  # finished before a checkpoint saw a late cancel: what it did is shown

        def failed(exc: Exception) -> None:
            if isinstance(exc, Cancelled):
                self._finish(key, self.tr("Cancelled; nothing was changed."), True)
            else:
                self._finish(key, self.tr("Failed: {0}").format(exc), False)

        if writes:
            self._context.operate(
                lambda s, origin: s.operate(lambda: work(s, token), origin=origin),
                lambda result: ok(result.value),
                on_error=failed,
                owner=self,
            )
        else:
            self._context.call(lambda s: work(s, token), ok, on_error=failed, owner=self)

    def cancel(self, key: str) -> None:
        token = self._tokens.get(key)
        if token is not None and not token.cancelled and not self.rows[key].progress.isHidden():
            token.cancel()
            self.rows[key].set_cancelling()

    def _written(self, key: str, written: io.Written) -> None:
        size = f"{written.size / 1024:.1f}"
        self._finish(key, self.tr("Wrote {0} ({1} KB).").format(written.path, size), True)
        self.refresh_schedule()

    def _imported(self, key: str, result: ImportResult) -> None:
        self._finish(key, import_text(result), True)
        for chat_id in result.imported:  # the switcher refreshes on this (coalesced)
            self._context.events.sigChatsChanged.emit(chat_id)
        if key == "import" and len(result.imported) == 1:
            self._context.set_chat(result.imported[0])

    def _finish(self, key: str, text: str, ok: bool) -> None:
        row = self.rows[key]
        row.set_running(False)
        row.show_result(text, ok)
        self.update_availability()
        if key != "export":
            row.set_available(True, "")
        self._context.sigStatus.emit(f"{row.spec.title()}: {text}")
