"""The frontends connected to the bridge, in the Settings panel's bridge section: a compact
table refreshed every 2 s from the bridge's snapshot (no I/O), an empty-state line, and the
latest attempt refused for a wrong token."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...bridge.clients import SILLYTAVERN, ClientInfo, ClientSource
from ..format import format_count, format_time
from ..i18n import Retranslated

REFRESH_MS = 2_000
VISIBLE_ROWS = 5


def ago(seconds: float) -> str:
    """``12 s ago``, ``3 min ago``, ``2 h ago``."""
    s = int(seconds)
    if s < 60:
        return QCoreApplication.translate("BridgeClients", "{0} s ago").format(s)
    if s < 3600:
        return QCoreApplication.translate("BridgeClients", "{0} min ago").format(s // 60)
    return QCoreApplication.translate("BridgeClients", "{0} h ago").format(s // 3600)


def kind_label(kind: str) -> str:
    """What a request was for, in words (``path_kind``'s names)."""
    labels = {
        "sync": QCoreApplication.translate("BridgeClients", "sync"),
        "recall": QCoreApplication.translate("BridgeClients", "recall"),
        "prepare": QCoreApplication.translate("BridgeClients", "recall warm-up"),
        "kept recall": QCoreApplication.translate("BridgeClients", "kept recall"),
        "memories": QCoreApplication.translate("BridgeClients", "memories"),
        "edges": QCoreApplication.translate("BridgeClients", "links"),
        "maintenance": QCoreApplication.translate("BridgeClients", "maintenance"),
        "patrol": QCoreApplication.translate("BridgeClients", "patrol"),
        "about": QCoreApplication.translate("BridgeClients", "what is known"),
        "chats": QCoreApplication.translate("BridgeClients", "chats"),
        "events": QCoreApplication.translate("BridgeClients", "events"),
        "proxy": QCoreApplication.translate("BridgeClients", "memory proxy"),
        "clients": QCoreApplication.translate("BridgeClients", "client list"),
    }
    return labels.get(kind) or QCoreApplication.translate("BridgeClients", "other")


def client_label(info: ClientInfo) -> str:
    """The client's name for people: the SillyTavern extension in the interface's language,
    others by origin or address (and agent), as the bridge names them."""
    if info.label == SILLYTAVERN:
        return QCoreApplication.translate("BridgeClients", "SillyTavern extension")
    return info.label


class ClientsBox(Retranslated, QWidget):
    """Reads ``source()`` (the hosted bridge, or None while it is not running) while shown."""

    def __init__(self, source: Callable[[], ClientSource | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._source = source
        self.table = QTableWidget(0, 5)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # keeps an origin's port and the agent
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 5):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.empty = QLabel()
        self.empty.setProperty("role", "muted")
        self.empty.setWordWrap(True)
        self.refused = QLabel()
        self.refused.setProperty("role", "warning")
        self.refused.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addWidget(self.empty)
        layout.addWidget(self.refused)
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.retranslate()

    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Who"),
                self.tr("Last seen"),
                self.tr("Requests"),
                self.tr("Last request"),
                self.tr("Events"),
            ]
        )
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()
        self.timer.start()

    def hideEvent(self, event: QHideEvent) -> None:
        self.timer.stop()
        super().hideEvent(event)

    def refresh(self) -> None:
        bridge = self._source()
        clients = bridge.clients() if bridge is not None else []
        refused = bridge.refused_clients() if bridge is not None else []
        self._fill(clients)
        if bridge is None:
            self.empty.setText(
                self.tr("The bridge is not running in this window, so no frontend can connect.")
            )
        else:
            self.empty.setText(self.tr("No frontend has connected yet."))
        self.empty.setVisible(not clients)
        self.table.setVisible(bool(clients))
        if refused:
            latest = refused[0]
            self.refused.setText(
                self.tr(
                    "Refused for a missing or wrong token: {0}, {1}. Check the token in that frontend."
                ).format(client_label(latest), ago(latest.idle_s))
            )
        self.refused.setVisible(bool(refused))

    def _fill(self, clients: list[ClientInfo]) -> None:
        self.table.setRowCount(len(clients))
        for row, info in enumerate(clients):
            who = info.identity
            cells = (
                client_label(info),
                ago(info.idle_s),
                format_count(info.requests),
                kind_label(info.last_kind),
                self.tr("on") if info.events_open else self.tr("off"),
            )
            tip = self.tr("Address: {0}\nOrigin: {1}\nUser agent: {2}\nFirst seen: {3}").format(
                who.address, who.origin or "—", who.agent or "—", format_time(info.first_seen)
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                self.table.setItem(row, column, item)
        rows = min(max(len(clients), 1), VISIBLE_ROWS)
        height = (
            self.table.horizontalHeader().height() + rows * self.table.verticalHeader().defaultSectionSize()
        )
        self.table.setFixedHeight(height + 2 * self.table.frameWidth())
