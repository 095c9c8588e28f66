"""The demo story the welcome screen offers: built in the core (``core/demo_story.py``)
and written by ``MemoryService.build_demo``."""

from __future__ import annotations

from ..core.demo_story import USER_ARC, DemoReport

__all__ = ["USER_ARC", "DemoReport"]
