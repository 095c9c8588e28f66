"""The main window's menus: File, Edit (undo/redo), View (theme, language, panels), Help."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QTimer, QUrl
from PySide6.QtGui import QAction, QActionGroup, QDesktopServices, QKeySequence
from PySide6.QtWidgets import QMenu, QMenuBar, QMessageBox

from .. import __version__
from ..core.model import HistorySteps
from ..core.operations import OpResult
from ..core.rewrites import RewriteRefused, RewriteRunning
from ..core.service import MemoryService
from .i18n import Texts
from .labels import step_label
from .lifetime import on_release, subscribe
from .panels.actions import ACTIONS
from .panels.actions_ops import OPERATION_ACTIONS

if TYPE_CHECKING:
    from .main_window import MainWindow


TASK_TITLES = {spec.key: spec.title for spec in (*ACTIONS, *OPERATION_ACTIONS)}


@dataclass
class Menus:
    undo: QAction
    redo: QAction
    themes: QActionGroup
    languages: QActionGroup
    panels: QMenu
    companion: QAction
    texts: Texts  # the menus' titles and actions, set again on a language change


def build_menus(window: MainWindow) -> Menus:
    context = window.context
    bar = window.menuBar()
    texts = Texts()

    def menu(parent: QMenu | QMenuBar, text: Callable[[], str]) -> QMenu:
        made = parent.addMenu("")
        texts.bind(made.setTitle, text)
        return made

    def action(parent: QMenu, text: Callable[[], str]) -> QAction:
        made = parent.addAction("")
        texts.bind(made.setText, text)
        return made

    file_menu = menu(bar, lambda: QCoreApplication.translate("Menus", "&File"))
    reveal = action(file_menu, lambda: QCoreApplication.translate("Menus", "Show data folder"))
    reveal.triggered.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(context.data_dir))))
    other = action(file_menu, lambda: QCoreApplication.translate("Menus", "Open another data folder…"))
    other.setShortcut(QKeySequence.StandardKey.Open)
    other.triggered.connect(window.choose_data_folder)
    file_menu.addSeparator()
    quit_action = action(file_menu, lambda: QCoreApplication.translate("Menus", "Quit"))
    quit_action.setShortcut(QKeySequence.StandardKey.Quit)
    quit_action.triggered.connect(window.close)

    edit_menu = menu(bar, lambda: QCoreApplication.translate("Menus", "&Edit"))
    steps = HistorySteps(None, None)  # what Undo and Redo would step over in the open chat

    def named(action: str | None) -> str | None:
        if action is None:
            return None
        task = TASK_TITLES.get(action)  # a maintenance task or story operation: its Actions row's name
        return task() if task is not None else step_label(action)

    def undo_text() -> str:
        label = named(steps.undo)
        return (
            QCoreApplication.translate("Menus", "Undo")
            if label is None
            else QCoreApplication.translate("Menus", "Undo {0}").format(label)
        )

    def redo_text() -> str:
        label = named(steps.redo)
        return (
            QCoreApplication.translate("Menus", "Redo")
            if label is None
            else QCoreApplication.translate("Menus", "Redo {0}").format(label)
        )

    undo = action(edit_menu, undo_text)
    undo.setShortcut(QKeySequence("Ctrl+Z"))
    redo = action(edit_menu, redo_text)
    redo.setShortcut(QKeySequence("Ctrl+Shift+Z"))
    undo.setEnabled(False)
    redo.setEnabled(False)

    def show_steps(now: HistorySteps) -> None:
        nonlocal steps
        steps = now
        undo.setText(undo_text())
        redo.setText(redo_text())
        undo.setEnabled(now.undo is not None)
        redo.setEnabled(now.redo is not None)

    def refresh_steps() -> None:
        """Read what Undo and Redo would do now, off the GUI thread (the newest read wins)."""
        chat_id = context.chat_id
        if not chat_id:
            show_steps(HistorySteps(None, None))
            return
        context.runner.run(
            lambda _control: context.service.history_steps(chat_id),
            on_done=lambda now: show_steps(now) if context.chat_id == chat_id else None,
            key="menus.history",
            owner=window,
        )

    # A burst of changes (an extraction, a rebuild) reads once. The timer is the context's, so
    # waiting for the context's work waits for it too; every connection ends with the window.
    steps_timer = QTimer(context)
    steps_timer.setSingleShot(True)
    steps_timer.setInterval(100)
    on_release(window, steps_timer.deleteLater)
    subscribe(window, steps_timer.timeout, refresh_steps)
    subscribe(window, context.sigChatChanged, lambda _chat: refresh_steps())
    subscribe(window, context.sigOperationDone, lambda _result: steps_timer.start())
    subscribe(
        window,
        context.events.sigGraphChanged,
        lambda change: steps_timer.start() if getattr(change, "chat_id", None) == context.chat_id else None,
    )
    refresh_steps()

    def step(forward: bool) -> None:
        chat_id = context.chat_id
        if not chat_id:
            return

        def run(service: MemoryService, origin: object | None) -> OpResult[bool]:
            return service.redo(chat_id, origin=origin) if forward else service.undo(chat_id, origin=origin)

        def done(changed: bool) -> None:
            said = (
                (
                    QCoreApplication.translate("Menus", "Nothing to undo."),
                    QCoreApplication.translate("Menus", "Undone."),
                ),
                (
                    QCoreApplication.translate("Menus", "Nothing to redo."),
                    QCoreApplication.translate("Menus", "Redone."),
                ),
            )
            window.show_status(said[forward][changed])

        def failed(exc: Exception) -> None:
            if isinstance(exc, RewriteRunning):
                window.show_error(
                    QCoreApplication.translate(
                        "Menus", "A maintenance task is changing this chat: undo once it has finished."
                    )
                )
            elif isinstance(exc.__cause__, RewriteRefused):  # say why in the interface language
                window.show_error(
                    QCoreApplication.translate(
                        "Menus",
                        "This step cannot be undone or redone: memories were extracted from new messages "
                        "since, and putting the old ones back would mix the two.",
                    )
                )
            else:
                window.show_error(str(exc))

        context.operate(run, lambda r: done(r.value), on_error=failed, owner=window)

    undo.triggered.connect(lambda: step(False))
    redo.triggered.connect(lambda: step(True))
    edit_menu.addSeparator()
    new_memory = action(edit_menu, lambda: QCoreApplication.translate("Menus", "New memory"))
    new_memory.setShortcut(QKeySequence.StandardKey.New)

    def create() -> None:
        window.show_panel("memories")
        panel = window.panel("memories")
        if panel is not None and hasattr(panel, "new_memory"):
            panel.new_memory()

    new_memory.triggered.connect(create)

    view_menu = menu(bar, lambda: QCoreApplication.translate("Menus", "&View"))
    theme_menu = menu(view_menu, lambda: QCoreApplication.translate("Menus", "Theme"))
    themes = QActionGroup(window)
    for theme in context.themes.themes.values():
        picked = theme_menu.addAction(theme.label)
        picked.setCheckable(True)
        picked.setChecked(theme.name == context.themes.current.name)
        picked.setData(theme.name)
        themes.addAction(picked)

    def pick_theme(action: QAction) -> None:
        context.themes.apply(action.data(), views_later=True)
        context.settings.appearance.theme = action.data()
        context.save_settings()

    themes.triggered.connect(pick_theme)

    language_menu = menu(view_menu, lambda: QCoreApplication.translate("Menus", "Language"))
    languages = QActionGroup(window)
    for code, label in (("en", "English"), ("zh", "中文")):
        language = language_menu.addAction(label)
        language.setCheckable(True)
        language.setChecked(code == context.language)
        language.setData(code)
        languages.addAction(language)
    languages.triggered.connect(lambda chosen: window.sigLanguageRequested.emit(chosen.data()))

    companion = action(view_menu, lambda: QCoreApplication.translate("Menus", "Companion window"))
    companion.setCheckable(True)
    companion.setShortcut(QKeySequence("Ctrl+Shift+K"))
    texts.bind(
        companion.setToolTip,
        lambda: QCoreApplication.translate(
            "Menus", "A small always-on-top window with the last recall, to keep beside SillyTavern"
        ),
    )
    companion.toggled.connect(window.sigCompanionToggled.emit)

    panels = menu(view_menu, lambda: QCoreApplication.translate("Menus", "Panels"))
    for dock in window.docks.values():
        panels.addAction(dock.toggleViewAction())
    central = menu(view_menu, lambda: QCoreApplication.translate("Menus", "Central view"))
    for spec in window.view_specs:
        shown = central.addAction("")
        texts.bind(shown.setText, spec.title)
        shown.triggered.connect(lambda _checked=False, key=spec.key: window.show_panel(key))

    help_menu = menu(bar, lambda: QCoreApplication.translate("Menus", "&Help"))
    about = action(help_menu, lambda: QCoreApplication.translate("Menus", "About BME Desktop"))
    about.triggered.connect(
        lambda: QMessageBox.about(
            window,
            QCoreApplication.translate("Menus", "About BME Desktop"),
            QCoreApplication.translate(
                "Menus",
                "<b>BME Desktop {0}</b><p>Watch, audit and edit what the AI remembers of your chats.</p>"
                "<p>Data folder: {1}</p>",
            ).format(__version__, context.data_dir),
        )
    )
    return Menus(
        undo=undo,
        redo=redo,
        themes=themes,
        languages=languages,
        panels=panels,
        companion=companion,
        texts=texts,
    )
