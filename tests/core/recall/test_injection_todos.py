"""Working memory (open to-dos and promises) rides at the top of the injection."""

from __future__ import annotations

from bme_desktop.core.recall.injection import FOOTER, HEADER, render_buckets


def test_todos_alone_make_an_injection_section() -> None:
    text, shown, more = render_buckets([], [], [], 500, todos=["- buy the lantern oil"])
    assert text.splitlines() == [HEADER, "## Open to-dos and promises", "- buy the lantern oil", FOOTER]
    assert (shown, more) == ([], 0)


def test_todos_that_do_not_fit_the_core_share_are_left_out() -> None:
    text, _, _ = render_buckets([], [], [], 60, todos=["- " + "very long promise " * 40])
    assert text == ""
