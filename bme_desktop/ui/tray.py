"""The system tray icon: bridge status and pending reviews in its tooltip, a menu to show the
window, open Review or quit. Nothing is made where the platform has no tray; the status
behind the tooltip (:class:`TrayStatus`) works either way."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QTimer, Signal
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from ..core.model import NodeQuery
from ..core.service import MemoryService
from .context import AppContext
from .lifetime import subscribe
from .main_window import MainWindow


def tooltip_text(bridge: str, pending: int) -> str:
    reviews = (
        QCoreApplication.translate("Tray", "1 memory waiting for review")
        if pending == 1
        else QCoreApplication.translate("Tray", "{0} memories waiting for review").format(pending)
    )
    return f"BME Desktop\n{bridge}\n{reviews}"


class TrayStatus(QObject):
    """Bridge status text and the current chat's pending review count, kept up to date."""

    sigChanged = Signal()

    def __init__(self, context: AppContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self.bridge = QCoreApplication.translate("Tray", "Bridge: off")
        self.pending = 0
        self._debounce = QTimer(self, singleShot=True, interval=300)
        self._debounce.timeout.connect(self.refresh)
        subscribe(self, context.sigChatChanged, lambda _c: self.refresh())
        subscribe(self, context.events.sigGraphChanged, lambda _c: self._debounce.start())
        self.refresh()

    @property
    def tooltip(self) -> str:
        return tooltip_text(self.bridge, self.pending)

    def set_bridge(self, text: str | None) -> None:
        """The bridge's status; None: not started (in the language of the moment)."""
        self.bridge = text if text is not None else QCoreApplication.translate("Tray", "Bridge: off")
        self.sigChanged.emit()

    def refresh(self) -> None:
        chat_id = self._context.chat_id
        if not chat_id:
            self._set_pending(0)
            return

        def count(service: MemoryService) -> int:
            return service.search_nodes(chat_id, NodeQuery(review_status="pending", limit=1))[1]

        self._context.call(count, self._set_pending, key=f"tray-{id(self)}")

    def _set_pending(self, count: int) -> None:
        self.pending = count
        self.sigChanged.emit()


class Tray(QObject):
    def __init__(
        self, status: TrayStatus, window: Callable[[], MainWindow], icon: QIcon, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.status = status
        self._window = window
        self.menu = QMenu()
        self.show_action = QAction(self)
        self.show_action.triggered.connect(self.show_window)
        self.review_action = QAction(self)
        self.review_action.triggered.connect(self.open_review)
        self.companion_action = QAction(self)
        self.companion_action.setCheckable(True)
        self.quit_action = QAction(self)
        self.quit_action.triggered.connect(lambda: self._window().close())
        for action in (self.show_action, self.review_action, self.companion_action, self.quit_action):
            self.menu.addAction(action)
        self.icon = QSystemTrayIcon(icon, self)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(
            lambda reason: self.show_window() if reason == QSystemTrayIcon.ActivationReason.Trigger else None
        )
        status.sigChanged.connect(self.update)
        self.retranslate()
        self.icon.show()

    def retranslate(self) -> None:
        self.show_action.setText(QCoreApplication.translate("Tray", "Show window"))
        self.companion_action.setText(QCoreApplication.translate("Tray", "Companion window"))
        self.quit_action.setText(QCoreApplication.translate("Tray", "Quit"))
        self.update()

    def update(self) -> None:
        self.icon.setToolTip(self.status.tooltip)
        self.review_action.setText(
            QCoreApplication.translate("Tray", "Pending reviews ({0})").format(self.status.pending)
        )

    def show_window(self) -> None:
        window = self._window()
        window.showNormal()
        window.raise_()
        window.activateWindow()

    def open_review(self) -> None:
        self.show_window()
        self._window().show_panel("review")

    def close(self) -> None:
        self.icon.hide()
        self.menu.deleteLater()


def make_tray(
    context: AppContext, window: Callable[[], MainWindow], icon: QIcon, parent: QObject | None = None
) -> tuple[TrayStatus, Tray | None]:
    """The status always; the icon only where ``QSystemTrayIcon.isSystemTrayAvailable()``."""
    status = TrayStatus(context, parent)
    tray = Tray(status, window, icon, parent) if QSystemTrayIcon.isSystemTrayAvailable() else None
    return status, tray
