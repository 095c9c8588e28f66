"""The overview says which model made the chat's last extraction batch."""

from __future__ import annotations

from bme_desktop.ui.panels.overview import LastExtraction, extraction_text


def test_the_line_names_the_model_of_the_last_batch() -> None:
    assert (
        extraction_text(LastExtraction("llm", "SillyTavern's model (gpt-4o)", ""))
        == "Last extraction: SillyTavern's model (gpt-4o)"
    )
    assert (
        extraction_text(LastExtraction("llm", "proxy upstream (deepseek-chat)", ""))
        == "Last extraction: the proxy's upstream (deepseek-chat)"
    )
    assert extraction_text(LastExtraction("llm", "qwen2.5:7b", "")) == "Last extraction: qwen2.5:7b"


def test_the_rules_say_whether_a_model_failed() -> None:
    failed = LastExtraction("heuristic", "", "fallback: SillyTavern's model failed: LLMTimeout: …")
    assert "the model failed" in extraction_text(failed)
    assert extraction_text(LastExtraction("heuristic", "", "")) == "Last extraction: rules (offline)"
    assert extraction_text(None) == "Last extraction: none yet"
