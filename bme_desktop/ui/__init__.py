"""Qt desktop UI over MemoryService: main window, panels, views, theming, workers."""
