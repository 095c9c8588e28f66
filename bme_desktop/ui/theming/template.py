"""Render ``{{ token }}`` templates (the QSS) from a theme's tokens.

Supported expressions: ``{{ name }}``, ``{{ darken(name, 10) }}``, ``{{ lighten(name, 10) }}``,
``{{ rgba(name, 0.4) }}``, ``{{ mix(a, b, 0.3) }}`` and, where the caller supplies icons,
``{{ icon(arrow-up, name) }}`` (an image in that colour, see ``icons.py``). An unknown token,
function or icon is an error, so a template never ships with a leftover ``{{``.
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


_FUNCTIONS: Mapping[str, Callable[..., str]] = {
    "darken": darken,
    "lighten": lighten,
    "rgba": rgba,
    "mix": mix,
}
# ``icon(name, colour)``: the text that draws icon ``name`` in that colour (a QSS ``url(...)``).
IconFunction = Callable[[str, str], str]


def _icon(raw_args: str, tokens: Mapping[str, str], icon: IconFunction | None) -> str:
    if icon is None:
        raise TemplateError("icon() is not available in this template")
    args = [a.strip() for a in raw_args.split(",")]
    if len(args) != 2:
        raise TemplateError(f"icon() takes an icon name and a colour token, got {raw_args!r}")
    color = _arg(args[1], tokens)
    try:
        return icon(args[0], str(color))
    except ValueError as exc:
        raise TemplateError(str(exc)) from exc


def evaluate(expr: str, tokens: Mapping[str, str], icon: IconFunction | None = None) -> str:
    call = _CALL.match(expr)
    if call is None:
        if expr not in tokens:
            raise TemplateError(f"unknown token {expr!r}")
        return tokens[expr]
    if call.group(1) == "icon":
        return _icon(call.group(2), tokens, icon)
    name, args = call.group(1), [_arg(a, tokens) for a in call.group(2).split(",")]
    fn = _FUNCTIONS.get(name)
    if fn is None:
        raise TemplateError(f"unknown function {name!r}")
    return fn(*args)


def render(template: str, tokens: Mapping[str, str], icon: IconFunction | None = None) -> str:
    out = _EXPR.sub(lambda m: evaluate(m.group(1), tokens, icon), template)
    if "{{" in out or "}}" in out:
        raise TemplateError("an unclosed '{{' or stray '}}' is left in the template")
    return out
