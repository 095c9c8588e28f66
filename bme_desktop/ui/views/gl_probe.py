"""Can this process draw with OpenGL? Try to create a context once and remember the answer.

Under ``QT_QPA_PLATFORM=offscreen``, on a server without GL, or with a broken driver, context
creation fails; the views then fall back (2D: raster painting) or show a placeholder (3D).
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication, QOffscreenSurface, QOpenGLContext
from PySide6.QtWidgets import QLabel, QWidget


@cache
def _probe() -> tuple[str, str]:
    """("", "") when an OpenGL context can be created and made current, else (why, detail).

    Cached untranslated, so the reason follows a live language switch."""
    try:
        if QGuiApplication.platformName() in ("offscreen", "minimal"):
            return "platform", QGuiApplication.platformName()
        context = QOpenGLContext()
        if not context.create():
            return "create", ""
        surface = QOffscreenSurface()
        surface.setFormat(context.format())
        surface.create()
        if not context.makeCurrent(surface):
            return "current", ""
        context.doneCurrent()
        return "", ""
    except Exception as exc:  # a driver can fail in any way; never let it crash the window
        return "failed", str(exc)


def opengl_problem() -> str:
    """ "" when an OpenGL context can be created and made current, else why not (translated now)."""
    why, detail = _probe()
    if why == "platform":
        return QCoreApplication.translate("GraphViews", "the “{0}” display platform has no OpenGL").format(
            detail
        )
    if why == "create":
        return QCoreApplication.translate("GraphViews", "no OpenGL context could be created")
    if why == "current":
        return QCoreApplication.translate("GraphViews", "the OpenGL context could not be made current")
    if why == "failed":
        return QCoreApplication.translate("GraphViews", "OpenGL failed: {0}").format(detail)
    return ""


def opengl_available() -> bool:
    return not opengl_problem()


def placeholder_text(what: str) -> str:
    """The message in place of ``what``, a view that needs OpenGL, in the language of the moment."""
    text = QCoreApplication.translate("GraphViews", "{0} needs OpenGL, which is not available here ({1}).")
    return text.format(what, opengl_problem())


def placeholder(what: str, parent: QWidget | None = None) -> QLabel:
    """A centred message in place of a view that needs OpenGL."""
    label = QLabel(placeholder_text(what), parent)
    label.setObjectName("glPlaceholder")
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setWordWrap(True)
    return label
