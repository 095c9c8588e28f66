"""The first-run page: what the central area shows while the data folder holds no chat.

Three ways in: "Open the demo" (a generated story, built on a worker), "Connect SillyTavern" (the
bridge token with Show / Copy, and the extension installer with the bridge URL and token filled
in: the Settings panel's :class:`BridgeBox`) and "Open a data folder" (the window's
``sigDataDirRequested``). The main window shows it while ``context.counts`` lists no chat and
leaves it as soon as one appears (a demo built, SillyTavern's first sync).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ..core.operations import OpResult
from ..core.service import MemoryService
from ..sillytavern.install import SillyTavern, find_sillytavern
from .context import AppContext
from .demo_story import DemoReport
from .i18n import Retranslated

DEMO_SCALE = 8  # how much story the demo writes (``MemoryService.build_demo``)


class WelcomePage(Retranslated, QWidget):
    sigDemoBuilt = Signal()
    sigOpenFolder = Signal()  # the window asks for the folder and opens it

    def __init__(self, context: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._context = context
        self._home: Path | None = None  # where to look for SillyTavern (None: the user's home)
        self.setObjectName("welcome")
        self.title = title = QLabel()
        title.setProperty("role", "heading")
        self.intro = intro = QLabel()
        intro.setWordWrap(True)
        intro.setProperty("role", "muted")
        self.demo_button = self._choice(self.open_demo)
        self.connect_button = self._choice(self.show_connect)
        self.folder_button = self._choice(self.sigOpenFolder.emit)
        self.how: QLabel | None = None
        self.found: SillyTavern | None = None
        self.status = QLabel()
        self.status.setProperty("role", "muted")
        self.status.setWordWrap(True)
        self.connect_box = QFrame()
        self.connect_box.setObjectName("welcome-connect")
        self.connect_box.hide()
        card = QWidget()
        card.setMaximumWidth(640)
        column = QVBoxLayout(card)
        column.setSpacing(12)
        column.addWidget(title)
        column.addWidget(intro)
        for button in (self.demo_button, self.connect_button, self.folder_button):
            column.addWidget(button)
        column.addWidget(self.connect_box)
        column.addWidget(self.status)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(card, 4)
        row.addStretch(1)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)
        self.retranslate()

    def retranslate(self) -> None:
        self.title.setText(self.tr("Welcome to BME Desktop"))
        self.intro.setText(
            self.tr(
                "BME Desktop remembers your long chats: what happened, who is who, the rules of "
                "the world. This data folder has no chat yet."
            )
        )
        self._describe(
            self.demo_button,
            self.tr("Open the demo"),
            self.tr("A generated story of a few hundred memories to look around in."),
        )
        self._describe(
            self.connect_button,
            self.tr("Connect SillyTavern"),
            self.tr("Install the extension and pair it with this app; chats appear here as you play."),
        )
        self._describe(
            self.folder_button,
            self.tr("Open a data folder"),
            self.tr("Memories kept somewhere else (another profile, a backup you restored)."),
        )
        if self.how is not None:
            self.how.setText(
                self.tr(
                    "1. Install the extension into your SillyTavern folder (the bridge address and "
                    "this token are filled in). 2. Reload SillyTavern and open a chat: it appears "
                    "here."
                )
            )
        if self.found is not None:
            self.found_button.setText(
                self.tr("Install into {0} (SillyTavern {1})").format(self.found.root, self.found.version)
            )

    @staticmethod
    def _choice(action: Callable[[], object]) -> QPushButton:
        button = QPushButton()
        button.setObjectName("welcome-choice")
        button.setMinimumHeight(56)
        # its text does not set the window's minimum width (the central views share this width)
        button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        button.clicked.connect(lambda _checked=False: action())
        return button

    @staticmethod
    def _describe(button: QPushButton, title: str, hint: str) -> None:
        button.setText(f"{title}\n{hint}")
        button.setToolTip(hint)

    # actions -------------------------------------------------------------------------------
    def open_demo(self) -> None:
        self.demo_button.setEnabled(False)
        self.status.setText(self.tr("Writing the demo story…"))

        def done(_result: OpResult[DemoReport]) -> None:
            self.status.setText("")
            self.demo_button.setEnabled(True)
            self._context.counts.refresh()  # the chat list picks the new chat
            self.sigDemoBuilt.emit()

        def failed(exc: Exception) -> None:
            self.demo_button.setEnabled(True)
            self.status.setText(self.tr("The demo could not be written: {0}").format(exc))

        def build(service: MemoryService, origin: object | None) -> OpResult[DemoReport]:
            return service.build_demo(scale=DEMO_SCALE, origin=origin)

        self._context.operate(build, done, on_error=failed, owner=self)

    def show_connect(self) -> None:
        """Show the bridge token (Show / Copy) and the SillyTavern installer under the buttons."""
        if self.connect_box.layout() is None:
            from .panels.settings_bridge import BridgeBox

            self.bridge_box = BridgeBox(self._context)
            box = QVBoxLayout(self.connect_box)
            box.setContentsMargins(0, 0, 0, 0)
            self.how = how = QLabel()
            how.setWordWrap(True)
            how.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            box.addWidget(how)
            self.found_button = QPushButton()
            self.found_button.hide()
            self.retranslate()
            box.addWidget(self.found_button)
            box.addWidget(self.bridge_box)
            self._context.call(lambda _s: find_sillytavern(self._home), self._found, owner=self)
        self.connect_box.show()

    def _found(self, found: list[SillyTavern]) -> None:
        """A SillyTavern in one of the usual places: one click installs into it."""
        if not found:
            return
        self.found = found[0]
        root = found[0].root
        self.retranslate()
        self.found_button.clicked.connect(lambda _checked=False: self.bridge_box.install(root))
        self.found_button.show()
