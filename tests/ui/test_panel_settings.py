"""The Settings panel round-trips settings.json, refuses bad values by name, rotates the token."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QSpinBox

from bme_desktop.core.settings import SETTINGS_FILENAME, load_settings
from bme_desktop.ui.context import AppContext
from bme_desktop.ui.panels.settings import SettingsPanel


def make_panel(qtbot, context: AppContext, settled: Callable[[], None]) -> SettingsPanel:
    panel = SettingsPanel(context)
    qtbot.addWidget(panel)
    settled()
    return panel


def test_saved_form_values_come_back_from_settings_json(
    qtbot, context: AppContext, data_dir: Path, settled: Callable[[], None]
) -> None:
    panel = make_panel(qtbot, context, settled)
    panel.editors["recall.top_k"].set_value(12)
    panel.editors["lifecycle.audit_mode"].set_value("all")
    panel.editors["llm.base_url"].set_value("http://127.0.0.1:5000/v1")
    panel.editors["bridge.allowed_origins"].set_value(["http://localhost:8000", "http://127.0.0.1:8000"])
    panel.editors["llm.enabled"].set_value(True)
    assert panel.save()
    saved = load_settings(data_dir)
    assert saved.recall.top_k == 12 and saved.lifecycle.audit_mode == "all" and saved.llm.enabled
    assert saved.llm.base_url == "http://127.0.0.1:5000/v1"
    assert saved.bridge.allowed_origins == ["http://localhost:8000", "http://127.0.0.1:8000"]
    assert context.settings.recall.top_k == 12  # the running service sees it too
    again = make_panel(qtbot, context, settled)
    again.load(saved)
    assert again.editors["recall.top_k"].value() == 12
    assert "api" not in json.dumps(json.loads((data_dir / SETTINGS_FILENAME).read_text())).lower()


def test_an_out_of_range_value_is_refused_by_name_and_nothing_is_written(
    qtbot, context: AppContext, data_dir: Path, settled: Callable[[], None]
) -> None:
    panel = make_panel(qtbot, context, settled)
    spin = panel.editors["recall.top_k"].input
    assert isinstance(spin, QSpinBox) and spin.maximum() == 100  # the range comes from the field's bounds
    spin.setMaximum(1000)  # a value that got past the widget (as a pasted or future bound would)
    spin.setValue(500)
    assert not panel.save()
    assert not (data_dir / SETTINGS_FILENAME).exists()
    editor = panel.editors["recall.top_k"]
    assert not editor.error.isHidden() and "100" in editor.error.text()
    assert "Memories per recall" in panel.status.text()
    assert context.settings.recall.top_k == 8


def test_reset_puts_a_sections_defaults_back(qtbot, context: AppContext, settled: Callable[[], None]) -> None:
    panel = make_panel(qtbot, context, settled)
    panel.editors["recall.top_k"].set_value(30)
    panel.editors["llm.max_retries"].set_value(7)
    panel.reset_section("recall")
    assert panel.editors["recall.top_k"].value() == 8
    assert panel.editors["llm.max_retries"].value() == 7


def test_rotate_replaces_the_stored_bridge_token(
    qtbot, context: AppContext, settled: Callable[[], None]
) -> None:
    panel = make_panel(qtbot, context, settled)
    store = panel.bridge_box.store
    before = store.load()
    assert before is not None and panel.bridge_box.token_edit.text() == before.value
    panel.bridge_box.rotate_button.click()
    settled()
    after = store.load()
    assert after is not None and after.value != before.value
    assert panel.bridge_box.token_edit.text() == after.value


def test_rates_read_per_second_and_durations_in_seconds(
    qtbot, context: AppContext, settled: Callable[[], None]
) -> None:
    panel = make_panel(qtbot, context, settled)
    rate = panel.editors["bridge.rate_limit_per_s"].input
    timeout = panel.editors["recall.timeout_s"].input
    assert rate.suffix() == " /s" and timeout.suffix() == " s"  # type: ignore[attr-defined]


def test_retention_rules_round_trip_and_core_types_show_no_limit(
    qtbot, context: AppContext, data_dir: Path, settled: Callable[[], None]
) -> None:
    panel = make_panel(qtbot, context, settled)
    box = panel.retention_box
    assert not box.age["character"].isEnabled() and box.age["character"].text() == "no limit"
    assert box.count["event"].isEnabled() and box.count["event"].text() == "no limit"
    box.age["event"].setValue(90)
    box.count["fact"].setValue(500)
    panel.editors["lifecycle.max_memories_per_chat"].set_value(15000)
    panel.editors["lifecycle.recycle_bin_days"].set_value(7)
    assert panel.save()
    saved = load_settings(data_dir)
    assert saved.lifecycle.retention_max_age_days == {"event": 90.0}
    assert saved.lifecycle.retention_max_count == {"fact": 500}
    assert (saved.lifecycle.max_memories_per_chat, saved.lifecycle.recycle_bin_days) == (15000, 7.0)
    again = make_panel(qtbot, context, settled)
    assert again.retention_box.age["event"].value() == 90 and again.retention_box.count["fact"].value() == 500


def test_a_bad_retention_rule_is_refused_in_the_box_and_nothing_is_written(
    qtbot, context: AppContext, data_dir: Path, settled: Callable[[], None]
) -> None:
    panel = make_panel(qtbot, context, settled)
    spin = panel.retention_box.count["event"]
    spin.setMaximum(100_000_000)  # a value past the widget's range, as a future bound would be
    spin.setValue(50_000_000)
    assert not panel.save()
    assert not (data_dir / SETTINGS_FILENAME).exists()
    assert not panel.retention_box.error.isHidden()
    assert "lifecycle.retention_max_count.event must be at most" in panel.retention_box.error.text()
    assert context.settings.lifecycle.retention_max_count == {}


def test_saving_changed_retention_rules_says_what_the_next_upkeep_retires_in_the_open_chat(
    qtbot, context: AppContext, service, seed, settled: Callable[[], None]
) -> None:
    from bme_desktop.core import editing

    seed("fact", {"statement": "Snow in June"})  # the chat, and a memory written by hand (never retired)
    for i in range(3):  # events as extraction writes them
        service.write(
            lambda uow, i=i: editing.create_node(
                uow,
                "chat-1",
                editing.NodeDraft(type="event", fields={"summary": f"The tide rose {i} times"}),
                manual=False,
            )
        )
    service.settings = context.settings  # one object, as the app holds it
    context.set_chat("chat-1")
    panel = make_panel(qtbot, context, settled)
    panel.retention_box.count["event"].setValue(1)
    assert panel.save()
    settled()
    assert panel.status.text() == (
        "Saved. The next upkeep retires 2 memories of this chat to the recycle bin (listed in Patrol)."
    )
    assert len(service.all_nodes("chat-1")) == 4  # said, not done


def test_every_section_is_on_screen_in_a_narrow_dock_and_shows_which_is_open(
    qtbot, context: AppContext, settled: Callable[[], None]
) -> None:
    """Nine sections never hide behind tab-scroll arrows: a grid of checkable buttons."""
    from bme_desktop.ui.panel_tabs import SETTINGS_TABS

    panel = make_panel(qtbot, context, settled)
    panel.resize(520, 700)
    panel.show()
    qtbot.waitExposed(panel)
    buttons = panel.sections.buttons()
    assert len(buttons) == len(SETTINGS_TABS)
    for button in buttons:
        assert button.isVisible() and panel.rect().contains(
            button.geometry().translated(
                button.mapTo(panel, button.rect().topLeft()) - button.geometry().topLeft()
            )
        )
        assert button.text() and button.width() >= button.fontMetrics().horizontalAdvance(button.text())
    assert [b.isChecked() for b in buttons] == [i == 0 for i in range(len(buttons))]
    buttons[SETTINGS_TABS.index("backup")].click()
    assert panel.tabs.currentIndex() == SETTINGS_TABS.index("backup")
    panel.tabs.setCurrentIndex(SETTINGS_TABS.index("bridge"))  # --panel settings:bridge
    assert panel.sections.checkedId() == SETTINGS_TABS.index("bridge")
    assert not panel.tabs.tabBar().isVisible()
