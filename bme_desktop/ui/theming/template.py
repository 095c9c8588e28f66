"""Render ``{{ token }}`` templates (the QSS) from a theme's tokens.

Supported expressions: ``{{ name }}``, ``{{ darken(name, 10) }}``, ``{{ lighten(name, 10) }}``,
``{{ rgba(name, 0.4) }}`` and ``{{ mix(a, b, 0.3) }}``. An unknown token or function is an
error, so a template never ships with a leftover ``{{``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from .colors import darken, lighten, mix, rgba

_EXPR = re.compile(r"\{\{\s*(.*?)\s*\}\}")
_CALL = re.compile(r"^(\w+)\((.*)\)$")


class TemplateError(ValueError):
    pass


def _arg(raw: str, tokens: Mapping[str, str]) -> str | float:
    raw = raw.strip()
    if raw in tokens:
        return tokens[raw]
    try:
        return float(raw)
    except ValueError:
        raise TemplateError(f"unknown token {raw!r}") from None


_FUNCTIONS: Mapping[str, Callable[..., str]] = {"darken": darken, "lighten": lighten, "rgba": rgba, "mix": mix}


def evaluate(expr: str, tokens: Mapping[str, str]) -> str:
    call = _CALL.match(expr)
    if call is None:
        if expr not in tokens:
            raise TemplateError(f"unknown token {expr!r}")
        return tokens[expr]
    name, args = call.group(1), [_arg(a, tokens) for a in call.group(2).split(",")]
    fn = _FUNCTIONS.get(name)
    if fn is None:
        raise TemplateError(f"unknown function {name!r}")
    return fn(*args)


def render(template: str, tokens: Mapping[str, str]) -> str:
    out = _EXPR.sub(lambda m: evaluate(m.group(1), tokens), template)
    if "{{" in out or "}}" in out:
        raise TemplateError("an unclosed '{{' or stray '}}' is left in the template")
    return out
