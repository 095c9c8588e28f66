"""Server-sent events, as OpenAI-compatible servers stream chat completions.

:func:`iter_sse_data` turns text lines into the ``data`` payload of each event: ``data:``
lines are joined with newlines, a blank line ends an event, comment lines (``: ping``) and
other fields (``event:``, ``id:``, ``retry:``) are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def iter_sse_data(lines: Iterable[str]) -> Iterator[str]:
    """The data payload of each complete event in ``lines`` (a final unterminated event too)."""
    data: list[str] = []
    for raw in lines:
        line = raw.rstrip("\r")
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        if name == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield "\n".join(data)
