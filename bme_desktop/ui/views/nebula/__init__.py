"""The 3D memory nebula: memories as glowing point sprites clustered by type (pyqtgraph.opengl)."""

from .view import NebulaView

__all__ = ["NebulaView"]
