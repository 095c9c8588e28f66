"""AppContext.save_settings: written off the GUI thread, in order, on disk once flushed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bme_desktop.core.settings import load_settings
from bme_desktop.ui import context as context_module
from bme_desktop.ui.context import AppContext


def test_settings_are_written_off_the_gui_thread_and_the_last_save_wins(
    context: AppContext, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    real = context_module.save_settings

    def recording(folder: Path, settings: object) -> None:
        threads.append(threading.current_thread())
        real(folder, settings)  # type: ignore[arg-type]

    monkeypatch.setattr(context_module, "save_settings", recording)
    names = list(context.themes.themes)
    for name in names:
        context.settings.appearance.theme = name
        context.save_settings()
    context.flush_settings()
    assert threads and threading.main_thread() not in threads
    assert load_settings(data_dir).appearance.theme == names[-1]
