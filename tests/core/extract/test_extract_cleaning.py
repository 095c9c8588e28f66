"""Message preparation: reasoning and pollution tags go, user patterns rule, context is marked."""

from __future__ import annotations

from bme_desktop.core.extract.cleaning import PRESET_PATTERNS, check_patterns, clean_text, prepare_window
from bme_desktop.core.model import Message


def msg(i: int, role: str, text: str) -> Message:
    return Message("c", i, role, None, text, None, None, f"fp{i}")


def test_presets_remove_reasoning_blocks_in_any_case() -> None:
    text = (
        "<think>secret plan</think>Hello <THINKING a='1'>x\ny</THINKING>there<analysis>z</analysis>"
        "<reasoning>r</reasoning>!"
    )
    assert clean_text(text) == "Hello there!"


def test_unclosed_reasoning_block_runs_to_the_end() -> None:
    assert clean_text("Visible.<think>the model never closed this") == "Visible."


def test_presets_remove_pollution_tags() -> None:
    text = (
        "Story.<choice>1. go\n2. stay</choice><UpdateVariable>hp=3</UpdateVariable>"
        "<status_current_variable>{}</status_current_variable><StatusPlaceHolderImpl/> End."
    )
    assert clean_text(text) == "Story. End."


def test_saved_empty_list_stays_empty_and_cleans_nothing() -> None:
    assert clean_text("<think>kept</think>text", []) == "<think>kept</think>text"


def test_saved_list_replaces_the_presets() -> None:
    assert clean_text("<think>a</think>[OOC: note] b", [r"\[OOC:[^\]]*\]"]) == "<think>a</think> b"


def test_invalid_user_pattern_is_skipped_and_reported() -> None:
    assert clean_text("a (b", ["(", "b"]) == "a ("
    assert "pattern 1 is not a valid regular expression" in check_patterns(["(", "ok"])[0]
    assert check_patterns(list(PRESET_PATTERNS)) == []


def test_window_marks_context_and_drops_messages_left_empty() -> None:
    window = prepare_window(
        [
            msg(3, "user", "earlier"),
            msg(4, "assistant", "<think>only</think>"),
            msg(5, "user", "now"),
            msg(6, "assistant", "reply"),
        ],
        start=5,
        end=6,
    )
    assert [(m.index, m.context_only) for m in window] == [(3, True), (5, False), (6, False)]
