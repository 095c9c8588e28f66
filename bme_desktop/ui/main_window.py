"""The main window: menus, status bar, chat switcher, central views and dock panels."""

from __future__ import annotations

import traceback
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ..core.events import ChangeRecord, Event, ExtractionProgressed
from ..core.paths import default_data_dir
from .chat_switcher import ChatSwitcher
from .context import AppContext
from .i18n import Retranslated
from .lifetime import release, subscribe
from .menus import build_menus
from .panels import PanelSpec, panel_specs
from .views import ViewSpec, view_specs
from .views.graph_toolbar import GraphToolbar

FUTURE_PANELS: tuple[str, ...] = ()
APP_NAME = "BME Desktop"
DEFAULT_VIEW = "graph2d"  # where the welcome page hands over once there is a chat


def window_title(data_dir: Path) -> str:
    """ "BME Desktop" for the default data folder, else "FOLDER — BME Desktop". It ends with the
    application display name, so the window manager shows it once, not "… — BME Desktop" twice."""
    if data_dir.resolve() == default_data_dir().resolve():
        return APP_NAME
    return f"{data_dir.name or data_dir} — {APP_NAME}"


class MainWindow(Retranslated, QMainWindow):
    sigClosed = Signal()
    sigLanguageRequested = Signal(str)
    sigDataDirRequested = Signal(str)
    sigCompanionToggled = Signal(bool)  # View → Companion window

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context = context
        self.setObjectName("MainWindow")
        self.setWindowTitle(window_title(context.data_dir))
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks)
        self.stack = QStackedWidget()
        self.views: dict[str, QWidget] = {}
        self.view_specs: tuple[ViewSpec, ...] = view_specs()
        for spec in self.view_specs:
            self.add_view(spec)
        from .welcome import WelcomePage

        self.welcome = WelcomePage(context)
        self.welcome.sigOpenFolder.connect(self.choose_data_folder)
        self.stack.addWidget(self.welcome)
        self.graph_toolbar = GraphToolbar(context, self.views.values())
        self.stack.currentChanged.connect(lambda _i: self.graph_toolbar.follow(self.stack.currentWidget()))
        self.graph_toolbar.follow(self.stack.currentWidget())
        central = QWidget()
        central_layout = QVBoxLayout(central)
        central_layout.setContentsMargins(0, 0, 0, 0)
        central_layout.setSpacing(0)
        central_layout.addWidget(self.graph_toolbar)
        central_layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.docks: dict[str, QDockWidget] = {}
        self.chats = ChatSwitcher(context)
        self.chats.sigAcrossChats.connect(self._show_across_chats)
        self._dock("chats", "", self.chats, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.panel_specs: tuple[PanelSpec, ...] = panel_specs()
        self._unbuilt: dict[str, PanelSpec] = {}  # panels not on screen yet: built when first shown
        for panel in self.panel_specs:
            dock = self._dock(panel.key, "", QWidget(), panel.area)
            self._unbuilt[panel.key] = panel
            dock.visibilityChanged.connect(
                lambda visible, key=panel.key: self._build_panel(key) if visible else None
            )
            dock.setVisible(panel.visible)
        self.splitDockWidget(self.docks["chats"], self.docks["overview"], Qt.Orientation.Vertical)
        for key in ("review", "patrol", "injection", "actions", "persona", "settings"):
            self.tabifyDockWidget(self.docks["memories"], self.docks[key])
        self.docks["memories"].raise_()
        for key in ("overview", "memories"):  # in front from the start: built now, loading with the window
            self._build_panel(key)
        self.resizeDocks(
            [self.docks["chats"], self.docks["memories"]], [270, 580], Qt.Orientation.Horizontal
        )  # the graph gets the rest
        self.resizeDocks([self.docks["chats"], self.docks["overview"]], [260, 520], Qt.Orientation.Vertical)
        self._status_labels()
        self._retitle_docks()  # before the menus and the navigation bar, which show the docks' titles
        self.menus = build_menus(self)
        from .navigation import build_navigation

        self.navigation = build_navigation(self)
        subscribe(self, context.counts.sigChanged, self._show_welcome_if_empty)
        self._show_welcome_if_empty()
        subscribe(self, context.sigStatus, self.show_status)
        subscribe(self, context.sigError, self.show_error)
        subscribe(self, context.runner.sigError, self._error_details)
        subscribe(self, context.runner.sigBusyChanged, self._busy_changed)
        subscribe(self, context.events.sigGraphChanged, self._graph_changed)
        subscribe(self, context.events.sigEvent, self._extraction_progress)
        subscribe(self, context.counts.sigChanged, self.refresh_review_status)
        subscribe(self, context.sigChatChanged, lambda _chat: self.refresh_review_status())
        subscribe(self, context.sigChatChanged, lambda _chat: self._show_import(None))
        self.refresh_review_status()

    def retranslate(self) -> None:
        """A language switch: the window's own strings (docks, menus, navigation, status bar)
        in the new language; its panels and views retranslate themselves (issue 19)."""
        self._retitle_docks()
        self.menus.texts.apply()
        for language in self.menus.languages.actions():  # also when switched from elsewhere (Settings)
            language.setChecked(language.data() == self.context.language)
        self.navigation.retranslate()
        self.details_button.setText(self.tr("Details…"))
        self.data_label.setText(self.tr("Data: {0}").format(self.context.data_dir))
        self.database_label.setText(self._database_text())
        self.bridge_label.setText(self._bridge_status() if self._bridge_status else self.tr("Bridge: off"))
        self._busy_changed(self.context.runner.busy)
        self._show_import(self._import_event)
        self.refresh_review_status()

    def _retitle_docks(self) -> None:
        self.docks["chats"].setWindowTitle(self.tr("Chats"))
        for panel in self.panel_specs:
            self.docks[panel.key].setWindowTitle(panel.title())

    # building ------------------------------------------------------------------------------
    def add_view(self, spec: ViewSpec) -> QWidget:
        widget = spec.factory(self.context)
        widget.setObjectName(f"view-{spec.key}")
        self.views[spec.key] = widget
        self.stack.addWidget(widget)
        return widget

    def _dock(self, key: str, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{key}")
        dock.setWidget(widget)
        dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable
        )
        self.addDockWidget(area, dock)
        self.docks[key] = dock
        return dock

    def _status_labels(self) -> None:
        bar = self.statusBar()
        self.error_details_text = ""
        self.details_button = QPushButton(self.tr("Details…"))
        self.details_button.setFlat(True)
        self.details_button.hide()
        self.details_button.clicked.connect(self.show_error_details)
        bar.addWidget(self.details_button)
        self._error_shown: bool = False
        bar.messageChanged.connect(
            lambda text: self.details_button.setVisible(bool(text) and self._error_shown)
        )
        self.busy_label = QLabel()
        self.data_label = QLabel(self.tr("Data: {0}").format(self.context.data_dir))
        self.database_label = QLabel(self._database_text())
        self.bridge_label = QLabel(self.tr("Bridge: off"))
        self._bridge_status: Callable[[], str] | None = None
        self.review_label = QLabel()
        self.review_label.setObjectName("review-status")
        self.import_label = QLabel()  # a long chat's extraction: "2,140 of 10,000 messages · about 3 min"
        self.import_label.setObjectName("import-status")
        self._import_event: ExtractionProgressed | None = None
        for label in (
            self.busy_label,
            self.import_label,
            self.review_label,
            self.data_label,
            self.database_label,
            self.bridge_label,
        ):
            bar.addPermanentWidget(label)

    def _database_text(self) -> str:
        store = self.context.service.store
        if store.backend == "sqlite":
            return self.tr("Database: SQLite")
        return self.tr("Database: {0}").format(store.display_url)

    # public --------------------------------------------------------------------------------
    def panel(self, key: str) -> QWidget | None:
        dock = self.docks.get(key)
        if dock is None:
            return None
        self._build_panel(key)
        return dock.widget()

    def _build_panel(self, key: str) -> None:
        """Make a dock's panel the first time it is shown (or asked for): a panel tabbed behind
        another costs nothing at start-up or when a language switch builds the window again
        (issue 19: building every panel stalled the event loop for seconds at 10k memories)."""
        spec = self._unbuilt.pop(key, None)
        if spec is None:
            return
        dock = self.docks[key]
        placeholder = dock.widget()
        dock.setWidget(spec.factory(self.context))
        if placeholder is not None:
            placeholder.deleteLater()

    def _show_across_chats(self, _chat_id: str) -> None:
        """The chat list's "Show this character across chats in the graph": the 2D graph, across chats."""
        self.graph_toolbar.across.setChecked(True)
        self.show_panel("graph2d")

    def show_panel(self, key: str) -> bool:
        """Raise a dock panel or a central view by key (``settings:bridge``: also bring that tab of
        the panel to the front); False (and a status note) if unknown."""
        key, _, tab = key.partition(":")
        if key in self.docks:
            self.docks[key].show()
            self.docks[key].raise_()
            if not tab:
                return True
            show_tab = getattr(self.panel(key), "show_tab", None)
            if callable(show_tab) and show_tab(tab):
                return True
            self.show_status(self.tr("The “{0}” panel has no tab called “{1}”.").format(key, tab), 0)
            return False
        if key in self.views and not tab:
            self.stack.setCurrentWidget(self.views[key])
            return True
        if key in FUTURE_PANELS:
            self.show_status(self.tr("The “{0}” panel is not in this version yet.").format(key), 0)
        else:
            self.show_status(self.tr("There is no panel called “{0}”.").format(key), 0)
        return False

    def choose_data_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Open a data folder"), str(self.context.data_dir)
        )
        if folder:
            self.sigDataDirRequested.emit(folder)

    def _show_welcome_if_empty(self) -> None:
        """The welcome page while the data folder has no chat; the graph once one appears."""
        counts = self.context.counts
        if not counts.loaded:
            return
        if not counts.chats() and not self.context.chat_id:
            self.stack.setCurrentWidget(self.welcome)
        elif self.stack.currentWidget() is self.welcome:
            self.stack.setCurrentWidget(self.views.get(DEFAULT_VIEW) or next(iter(self.views.values())))

    def set_bridge_status(self, text: Callable[[], str]) -> None:
        """For whoever starts the bridge: e.g. "Bridge: 127.0.0.1:7317 · 1 client", in the
        language of the moment."""
        self._bridge_status = text
        self.bridge_label.setText(text())

    def show_status(self, text: str, timeout_ms: int = 5000) -> None:
        self._error_shown = False
        self.statusBar().showMessage(text, timeout_ms)

    def show_error(self, text: str) -> None:
        """A non-modal notice: the message in the status bar and a Details… button beside it."""
        self.show_status(self.tr("Error: {0}").format(text), 15000)
        self._error_shown = True
        self.error_details_text = text
        self.details_button.show()

    def _error_details(self, exc: object) -> None:
        if isinstance(exc, BaseException) and str(exc) == self.error_details_text:
            self.error_details_text = "".join(traceback.format_exception(exc)).strip() or str(exc)

    def show_error_details(self) -> QMessageBox:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.tr("Error details"),
            self.tr("Something went wrong."),
            QMessageBox.StandardButton.Close,
            self,
        )
        box.setDetailedText(self.error_details_text)
        box.setInformativeText(self.error_details_text.splitlines()[-1] if self.error_details_text else "")
        box.open()
        return box

    def refresh_review_status(self) -> None:
        """How many memories of the open chat wait for review (from ``context.counts``, the
        source of every count on screen)."""
        chat_id = self.context.chat_id
        if not chat_id:
            self.review_label.setText("")
            return
        stats = self.context.counts.get(chat_id)
        if stats is not None:
            self._show_review_status(chat_id, stats.pending_reviews)
        elif not self.context.counts.loaded:
            self.context.counts.refresh()

    def _show_review_status(self, chat_id: str, pending: int) -> None:
        if chat_id != self.context.chat_id:
            return
        if not pending:
            self.review_label.setText("")
        elif self.context.settings.lifecycle.review_gate:  # strict: these are not recalled
            self.review_label.setText(self.tr("Review: %n held back until approved", "", pending))
        else:
            self.review_label.setText(self.tr("Review: %n to look over", "", pending))

    # events --------------------------------------------------------------------------------
    def _busy_changed(self, busy: bool) -> None:
        self.busy_label.setText(self.tr("Working…") if busy else "")

    def _extraction_progress(self, event: Event) -> None:
        """The open chat's extraction progress while messages are due (a first connect's import)."""
        if isinstance(event, ExtractionProgressed) and event.chat_id == self.context.chat_id:
            self._show_import(event)

    def _show_import(self, event: ExtractionProgressed | None) -> None:
        self._import_event = event
        if event is None or not event.due:
            self.import_label.setText("")
            return
        text = self.tr("Remembering: {0} of {1} messages").format(f"{event.extracted:,}", f"{event.total:,}")
        eta = event.eta_s
        if eta is not None and eta > 0:
            text += (
                self.tr(" · about %n min", "", round(eta / 60))
                if eta >= 90
                else self.tr(" · about %n s", "", round(eta))
            )
        self.import_label.setText(text)

    def _graph_changed(self, change: ChangeRecord) -> None:
        if change.chat_id == self.context.chat_id and change.nodes_removed and not change.nodes_added:
            count = len(change.nodes_removed)
            self.show_status(QCoreApplication.translate("MainWindow", "{0} memories removed.").format(count))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.sigClosed.emit()
        super().closeEvent(event)
        if event.isAccepted():  # closed for good (a language switch builds a new window)
            release(self)
