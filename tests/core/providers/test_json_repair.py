"""parse_model_json: what models send back, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from bme_desktop.core.providers import JSONParseError, parse_model_json


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("[1, 2, 3]", [1, 2, 3]),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('Here you go:\n```\n{"a": [1, 2]}\n```\nAnything else?', {"a": [1, 2]}),
        ('Sure, the result is {"a": 1} as requested.', {"a": 1}),
        ('[Note] result: {"x": 1}', {"x": 1}),
        ('{"a": [1, 2,], "b": {"c": 3,},}', {"a": [1, 2], "b": {"c": 3}}),
        ("{'name': 'Alice', 'ok': True, 'gone': None}", {"name": "Alice", "ok": True, "gone": None}),
        ('{"text": "it\'s Bob\'s"}', {"text": "it's Bob's"}),
        ('{"text": "line one\nline two"}', {"text": "line one\nline two"}),
        ('<think>maybe {"no": 1}</think>\n{"yes": 2}', {"yes": 2}),
        ('{"ops": [{"name": "Alice"}, {"name": "Bo', {"ops": [{"name": "Alice"}, {"name": "Bo"}]}),
        ('{"ops": [{"name": "Alice"}, {"name"', {"ops": [{"name": "Alice"}]}),
        ('{"a": 1, "b":', {"a": 1, "b": None}),
        ('{"名字": "爱丽丝", "地点": "图书馆"', {"名字": "爱丽丝", "地点": "图书馆"}),
        ('{"a": {"b": [1, {"c": "d"}]}, "e": 2} and then {"z": 1}', {"a": {"b": [1, {"c": "d"}]}, "e": 2}),
    ],
)
def test_parses_what_models_send(reply: str, expected: Any) -> None:
    assert parse_model_json(reply) == expected


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "   ",
        "no json here",
        "garbage }{",
        '"just a string"',
        "42",
        '{"k": tru',
        "<think>still thinking {",
    ],
)
def test_refuses_replies_without_an_object_or_array(reply: str) -> None:
    with pytest.raises(JSONParseError):
        parse_model_json(reply)
