"""GlowScatterItem: GLScatterPlotItem drawn as soft round glows with additive blending (and DustScatterItem:
plain points).

Only the fragment shader differs from pyqtgraph's: a bright core fading out with a Gaussian,
so overlapping memories add up into a nebula instead of hard discs. The program is compiled
once per GL context (pyqtgraph caches one per class, which breaks with two GL widgets).
"""

from __future__ import annotations

from typing import Any

from OpenGL import GL
from OpenGL.GL import shaders
from pyqtgraph.opengl.items import GLLinePlotItem as _line_module
from pyqtgraph.opengl.items import GLScatterPlotItem as _scatter_module
from PySide6.QtGui import QOpenGLContext

_GlScatter: Any = _scatter_module.GLScatterPlotItem
_GlLine: Any = _line_module.GLLinePlotItem

_GLOW = """
    float r2 = dot(xy, xy);
    if (r2 > 1.0) discard;
    float glow = exp(-r2 * 4.0);
    float core = smoothstep(0.22, 0.0, r2);
    float a = clamp(glow * 0.75 + core * 0.6, 0.0, 1.0) * COLOR.a;
"""

_FRAGMENT_CORE = (
    """
#ifdef GL_ES
precision mediump float;
#endif
in vec4 v_color;
out vec4 fragColor;
void main() {
    vec2 xy = (gl_PointCoord - 0.5) * 2.0;
"""
    + _GLOW.replace("COLOR", "v_color")
    + """
    fragColor = vec4(min(v_color.rgb * (1.0 + core * 0.25), vec3(1.0)), a);
}
"""
)

_FRAGMENT_LEGACY = (
    """
#ifdef GL_ES
precision mediump float;
#endif
varying vec4 v_color;
void main() {
    vec2 xy = (gl_PointCoord - 0.5) * 2.0;
"""
    + _GLOW.replace("COLOR", "v_color")
    + """
    gl_FragColor = vec4(min(v_color.rgb * (1.0 + core * 0.25), vec3(1.0)), a);
}
"""
)

_programs: dict[tuple[int, bool | None], tuple[Any, Any]] = {}


def _program(glow: bool | None) -> Any:
    """The program of the current GL share group: glow, pyqtgraph's plain discs, or (None) lines."""
    ctx = QOpenGLContext.currentContext()
    group = ctx.shareGroup()
    known = _programs.get((id(group), glow))
    if known is not None and known[0] is group:  # the wrapper is kept, so ids are not reused
        return known[1]
    fmt = ctx.format()
    if ctx.isOpenGLES():
        core = fmt.version() >= (3, 0)
        version = "#version 300 es\n" if core else "#version 100\n"
    else:
        core = fmt.version() >= (3, 1)
        version = "#version 140\n" if core else "#version 120\n"
    sources = dict(_scatter_module.SHADER_CORE if core else _scatter_module.SHADER_LEGACY)
    if glow is None:  # lines
        sources = dict(_line_module.SHADER_CORE if core else _line_module.SHADER_LEGACY)
    elif glow:
        sources[GL.GL_FRAGMENT_SHADER] = _FRAGMENT_CORE if core else _FRAGMENT_LEGACY
    compiled = [shaders.compileShader([version, src], kind) for kind, src in sources.items()]
    program = shaders.compileProgram(
        *compiled, validate=False
    )  # validation reflects the current GL state, not the program
    for loc, name in enumerate(
        ("a_position", "a_color", "a_size") if glow is not None else ("a_position", "a_color")
    ):
        GL.glBindAttribLocation(program, loc, name)
    GL.glLinkProgram(program)
    _programs[(id(group), glow)] = (group, program)
    return program


# Glows and dust blend "over" (source alpha, one minus source alpha), not additively: a pixel is
# a weighted average of the colours drawn on it, so however many memories pile up, a dense
# cluster saturates to its own hue and never blows out to white (additive blending summed 9k
# glows into a white disc). No depth test: sprites are soft and order does not matter much.
BLEND_OVER = {
    GL.GL_DEPTH_TEST: False,
    GL.GL_BLEND: True,
    GL.GL_CULL_FACE: False,
    "glBlendFuncSeparate": (GL.GL_SRC_ALPHA, GL.GL_ONE_MINUS_SRC_ALPHA, GL.GL_ONE, GL.GL_ONE_MINUS_SRC_ALPHA),
}


class GlowScatterItem(_GlScatter):  # type: ignore[misc]
    def __init__(self, **kwds: Any) -> None:
        super().__init__(glOptions=dict(BLEND_OVER), **kwds)

    @staticmethod
    def getShaderProgram() -> Any:
        return _program(glow=True)


class DustScatterItem(_GlScatter):  # type: ignore[misc]
    """Small plain points (pyqtgraph's shader), additive, with the program per share group."""

    def __init__(self, **kwds: Any) -> None:
        super().__init__(glOptions=dict(BLEND_OVER), **kwds)

    @staticmethod
    def getShaderProgram() -> Any:
        return _program(glow=False)


class LinkLines(_GlLine):  # type: ignore[misc]
    """pyqtgraph's line item with its program per GL share group (its class-wide cache held a
    program of the first context: a second nebula, e.g. after a language switch, drew with an
    invalid one and raised GLError)."""

    @staticmethod
    def getShaderProgram() -> Any:
        return _program(glow=None)
