"""The 2D force-directed memory graph (pyqtgraph, on an OpenGL viewport where available)."""

from .view import Graph2DView

__all__ = ["Graph2DView"]
