"""docs/export-schema.json describes what the exporter writes, and stays in step with the
core's node types and relations. (jsonschema is not a dependency: a small checker of the
keywords the schema uses.)"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from bme_desktop.core.backup.export import export_document
from bme_desktop.core.schema import NODE_TYPES, RELATIONS
from bme_desktop.core.service import MemoryService

SCHEMA = json.loads((Path(__file__).parents[3] / "docs" / "export-schema.json").read_text("utf-8"))
TYPES: dict[str, Any] = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _is(value: Any, kind: str) -> bool:
    if kind in ("number", "integer"):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        return ok and (kind == "number" or isinstance(value, int))
    return isinstance(value, TYPES[kind])


def problems(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    if "$ref" in schema:
        return problems(value, SCHEMA["$defs"][schema["$ref"].rsplit("/", 1)[1]], path)
    out: list[str] = []
    kinds = schema.get("type")
    if kinds is not None and not any(_is(value, k) for k in ([kinds] if isinstance(kinds, str) else kinds)):
        return [f"{path}: {value!r} is not {kinds}"]
    if "const" in schema and value != schema["const"]:
        out.append(f"{path}: not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r} not in enum")
    low, high = schema.get("minimum"), schema.get("maximum")
    if _is(value, "number") and ((low is not None and value < low) or (high is not None and value > high)):
        out.append(f"{path}: {value} out of range")
    if isinstance(value, str) and not schema.get("minLength", 0) <= len(value) <= schema.get(
        "maxLength", 1e18
    ):
        out.append(f"{path}: bad length")
    if isinstance(value, list):
        if len(value) > schema.get("maxItems", 1e18):
            out.append(f"{path}: too many items")
        for i, item in enumerate(value):
            out += problems(item, schema.get("items", {}), f"{path}[{i}]")
    if isinstance(value, dict):
        out += [f"{path}.{key}: required" for key in schema.get("required", []) if key not in value]
        props, extra = schema.get("properties", {}), schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                out += problems(item, props[key], f"{path}.{key}")
            elif extra is False:
                out.append(f"{path}.{key}: not allowed")
            elif isinstance(extra, dict):
                out += problems(item, extra, f"{path}.{key}")
    return out


def test_an_export_validates_against_the_schema(filled: MemoryService) -> None:
    doc = filled.read(lambda r: export_document(r, now=1.0))
    assert problems(json.loads(json.dumps(doc)), SCHEMA) == []


def test_the_checker_catches_a_broken_export(filled: MemoryService) -> None:
    doc = copy.deepcopy(filled.read(lambda r: export_document(r, now=1.0)))
    doc["chats"][0]["nodes"][0]["tier"] = "forever"
    doc["chats"][0]["edges"][0]["strength"] = "strong"
    assert problems(doc, SCHEMA) == [
        "$.chats[0].nodes[0].tier: 'forever' not in enum",
        "$.chats[0].edges[0].strength: 'strong' is not number",
    ]


def test_schema_enums_match_the_core_schema() -> None:
    defs = SCHEMA["$defs"]
    assert defs["node"]["properties"]["type"]["enum"] == list(NODE_TYPES)
    assert defs["edge"]["properties"]["relation"]["enum"] == list(RELATIONS)
